"""When the bot presses Level Completed's button: learned from the presses the game took and
the presses it ignored."""

from __future__ import annotations

import math
import random
import statistics

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
    assert not pace.varies


def test_halfway_stops_once_the_two_are_as_close_as_a_press_can_be_timed():
    assert paced((0.557, False), (0.56, True)).wait_s() == 0.56
    assert paced((0.555, False), (0.56, True)).wait_s() == pytest.approx(0.5575)
    assert FINE_S < 0.005


@pytest.mark.parametrize("presses", [((0.56, True), (0.562, False)),  # ignored, as late
                                     ((0.50, False), (0.57, False), (0.56, True))])  # taken
def test_a_game_whose_timing_varies_is_pressed_just_past_the_latest_wait_it_ignored(presses):
    pace = paced(*presses)
    assert pace.varies
    latest = max(waited for waited, taken in presses if not taken)
    assert pace.wait_s() == pytest.approx(latest + FINE_S)
    pace.pressed(latest + FINE_S, taken=False)  # its moment came later this time
    assert pace.wait_s() == pytest.approx(latest + 2 * FINE_S)
    pace.pressed(latest - 0.02, taken=True)  # (taken early on a lucky frame: no surer)
    assert pace.wait_s() == pytest.approx(latest + 2 * FINE_S)


def test_a_press_ignored_long_after_one_taken_was_lost_and_says_nothing_of_the_pace():
    pace = paced((0.532, False), (0.560, True), (0.90, False))  # (a popup took it, say)
    assert not pace.varies
    assert pace.wait_s() == pytest.approx(0.546)


def played(moment: random.Random, seed: int, levels: int = 40) -> tuple[list[float], int]:
    """The presses of `levels` levels on a game that takes a press from `moment(rng)` after
    the level's last drop: the first from the first picture that shows the button (about 0.51
    s), each press reaching the game 0-2 ms after the bot sent it, and pressed again a look
    later (45-60 ms) while ignored. The waits at which each level's press was taken, and how
    many presses were ignored."""
    rng, pace = random.Random(seed), PressPace()
    taken_at, ignored = [], 0
    for _ in range(levels):
        due, late, shown = moment(rng), rng.uniform(0, 0.002), rng.uniform(0.49, 0.53)
        wait = pace.wait_s()
        waited = max(wait, shown) if math.isfinite(wait) else shown
        while waited + late < due:
            pace.pressed(waited, taken=False)
            ignored += 1
            waited += rng.uniform(0.045, 0.06)
        pace.pressed(waited, taken=True)
        taken_at.append(waited)
    return taken_at, ignored


@pytest.mark.parametrize("seed", range(8))
def test_on_a_steady_game_the_presses_settle_within_a_few_ms_of_its_moment(seed):
    taken_at, ignored = played(lambda rng: 0.550, seed)
    assert 0.548 <= statistics.median(taken_at[10:]) <= 0.550 + 1.5 * FINE_S
    assert ignored <= 8


@pytest.mark.parametrize("seed", range(8))
def test_on_a_game_that_answers_on_its_frames_the_presses_settle_past_its_latest_moment(seed):
    """Its moment anywhere in a frame: pressing nearer than the frame's end is a gamble each
    level (one lost costs a look), so the presses settle just past it and stay."""
    taken_at, ignored = played(lambda rng: rng.uniform(0.550, 0.550 + FRAME_S), seed)
    assert 0.550 + FRAME_S - FINE_S <= statistics.median(taken_at[10:]) \
        <= 0.550 + FRAME_S + FINE_S
    assert ignored <= 12
