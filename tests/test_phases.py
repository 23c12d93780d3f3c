"""Where a bot's time goes: nested phases charge the innermost, and add up."""

from __future__ import annotations

import time

import pytest

from webbot.phases import Phases


def busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_nested_phases_charge_the_innermost_and_add_up():
    phases = Phases()
    started = time.perf_counter()
    with phases("outer"):
        busy(0.02)
        inner_started = time.perf_counter()
        with phases("inner"):
            busy(0.03)
        inner_wall = time.perf_counter() - inner_started
        busy(0.01)
    wall = time.perf_counter() - started
    assert 0.03 <= phases.seconds["inner"] <= inner_wall
    assert phases.seconds["outer"] >= 0.03  # before and after the inner phase, not during
    assert phases.seconds["outer"] <= wall - phases.seconds["inner"]
    assert phases.total() <= wall


def test_time_outside_every_phase_is_not_counted():
    phases = Phases()
    busy(0.02)
    started = time.perf_counter()
    with phases("only"):
        pass
    assert phases.total() <= time.perf_counter() - started  # not the 20 ms before it


def test_an_error_inside_a_phase_still_closes_it():
    phases = Phases()
    started = time.perf_counter()
    with pytest.raises(ValueError), phases("failing"):
        raise ValueError
    failing_wall = time.perf_counter() - started
    with phases("after"):
        busy(0.01)
    # closed at the error: the 10 ms after it went to the next phase, not to this one
    assert phases.seconds["failing"] <= failing_wall and phases.seconds["after"] >= 0.01
