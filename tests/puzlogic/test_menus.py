"""When the bot presses Level Completed's button: learned from the presses the game took and
the presses it ignored."""

from __future__ import annotations

import math

import pytest

from webbot.puzlogic.menus import FINE_S, FRAME_S, PressPace


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
    pace.pressed(0.546, taken=False)
    assert pace.wait_s() == pytest.approx(0.553)  # (14 ms apart: a frame's part still pays)
    pace.pressed(0.553, taken=True)
    pace.pressed(0.5495, taken=False)  # 3.5 ms apart: a press's own timing wanders as much
    assert pace.wait_s() == 0.553


def test_halfway_stops_once_the_two_are_as_close_as_a_press_can_be_timed():
    assert paced((0.557, False), (0.56, True)).wait_s() == 0.56
    assert paced((0.555, False), (0.56, True)).wait_s() == pytest.approx(0.5575)
    assert FINE_S < 0.005 < FRAME_S


def test_a_press_ignored_at_the_learned_wait_makes_it_a_frame_longer():
    pace = paced((0.56, True), (0.562, False))
    assert pace.wait_s() == pytest.approx(0.562 + FRAME_S)


def test_a_press_taken_sooner_than_one_ignored_forgets_that_one():
    pace = paced((0.50, False), (0.60, True), (0.57, False), (0.56, True))
    assert pace.wait_s() == 0.56  # (the game's timing varies: 0.57 ignored, 0.56 taken)


@pytest.mark.parametrize("varied", [((0.56, True), (0.562, False), (0.5787, True)),
                                    ((0.50, False), (0.60, True), (0.57, False), (0.56, True))])
def test_a_game_whose_timing_varies_is_halved_to_a_frame_and_a_half_only(varied):
    """Once the game ignored a press as late as one it took (it answers on its frames, say),
    pressing nearer its moment than a frame and a half is no surer: each such press that is
    ignored costs a look."""
    pace = paced(*varied)
    taken = pace.taken_s
    pace.pressed(taken - 0.02, taken=False)  # 20 ms apart: fine halving would try between
    assert pace.wait_s() == taken
    pace.pressed(taken - 0.03, taken=False)  # (an earlier ignored press says nothing new)
    assert pace.wait_s() == taken
    assert paced((taken - 0.02, False), (taken, True)).wait_s() < taken  # (a steady game)
