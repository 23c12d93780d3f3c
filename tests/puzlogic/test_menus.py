"""When the bot presses Level Completed's button: learned from the presses the game took."""

from __future__ import annotations

import math

import pytest

from webbot.puzlogic.menus import FRAME_S, learned_wait


def test_a_press_taken_sooner_than_any_before_is_the_new_wait():
    assert learned_wait(math.inf, 0.58, taken=True) == 0.58
    assert learned_wait(0.58, 0.56, taken=True) == 0.56
    assert learned_wait(0.56, 0.60, taken=True) == 0.56  # a later one says nothing new


def test_a_press_ignored_at_the_learned_wait_makes_it_a_frame_longer():
    assert learned_wait(0.56, 0.562, taken=False) == pytest.approx(0.562 + FRAME_S)


def test_a_press_ignored_before_the_learned_wait_changes_nothing():
    # (a first look at the button, early in the overlay's fade-in, before anything was learned)
    assert learned_wait(math.inf, 0.50, taken=False) == math.inf
    assert learned_wait(0.56, 0.50, taken=False) == 0.56
