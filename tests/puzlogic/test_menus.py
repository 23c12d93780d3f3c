"""When the bot presses Level Completed's button: learned from the presses the game took and
the presses it ignored."""

from __future__ import annotations

import math

import pytest

from webbot.puzlogic.menus import FRAME_S, PressPace


def paced(*presses: tuple[float, bool]) -> PressPace:
    pace = PressPace()
    for waited, taken in presses:
        pace.pressed(waited, taken)
    return pace


def test_nothing_learned_presses_from_the_first_picture_that_shows_the_button():
    assert PressPace().wait_s() == math.inf
    assert paced((0.50, False)).wait_s() == math.inf  # (early in the fade: nothing known)


def test_a_press_taken_sooner_than_any_before_is_the_new_wait():
    assert paced((0.58, True)).wait_s() == 0.58
    assert paced((0.58, True), (0.56, True)).wait_s() == 0.56
    assert paced((0.56, True), (0.60, True)).wait_s() == 0.56  # a later one says nothing new


def test_between_an_ignored_and_a_taken_press_the_next_tries_halfway():
    pace = paced((0.532, False), (0.580, True))
    assert pace.wait_s() == pytest.approx(0.556)
    pace.pressed(0.560, taken=True)
    assert pace.wait_s() == pytest.approx((0.532 + 0.560) / 2)
    pace.pressed(0.546, taken=False)  # 14 ms apart now: less than a frame and a half
    assert pace.wait_s() == 0.560


def test_halfway_stops_once_the_two_are_less_than_a_frame_and_a_half_apart():
    assert paced((0.55, False), (0.56, True)).wait_s() == 0.56


def test_a_press_ignored_at_the_learned_wait_makes_it_a_frame_longer():
    pace = paced((0.56, True), (0.562, False))
    assert pace.wait_s() == pytest.approx(0.562 + FRAME_S)


def test_a_press_taken_sooner_than_one_ignored_forgets_that_one():
    pace = paced((0.50, False), (0.60, True), (0.57, False), (0.56, True))
    assert pace.wait_s() == 0.56  # (the game's timing varies: 0.57 ignored, 0.56 taken)
