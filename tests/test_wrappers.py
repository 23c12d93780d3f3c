"""The wrappers around the play loop, without a browser: a limit ends a run only between two
things done, and the watchdog recovers a game stuck in one place, then stops it."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from webbot.play import Playable, play
from webbot.wrappers import Stuck, Watchdog, Watched, limited


@dataclass
class Counter:
    """A game whose observation is how many things are done; each step does one more."""

    done: int = 0
    steps: list[str] = field(default_factory=list)

    def reset(self) -> int:
        return self.done

    def step(self, action: str) -> int:
        self.steps.append(action)
        self.done += 1
        return self.done

    def result(self) -> int:
        return self.done


def always(done: int) -> str:
    return f"do {done + 1}"


@pytest.mark.parametrize("count", [1, 3])
def test_a_count_ends_the_run_once_that_many_are_done(count):
    game = Counter()
    assert play(Playable(game, limited(always, lambda done: done, count=count))) == count
    assert game.steps == [f"do {i + 1}" for i in range(count)]


def test_the_time_limit_ends_the_run_at_the_first_thing_done_after_it():
    game = Counter()
    assert play(Playable(game, limited(always, lambda done: done, minutes=0))) == 1


def test_the_policy_ends_the_run_when_it_has_nothing_to_do():
    game = Counter()
    policy = limited(lambda done: None if done == 2 else "go", lambda done: done, count=5)
    assert play(Playable(game, policy)) == 2


def test_the_watchdog_raises_an_alarm_per_patience_until_the_place_changes():
    dog = Watchdog()
    assert not dog.overdue("results", 0.0, 10.0)
    assert not dog.overdue("results", 9.9, 10.0)
    assert dog.overdue("results", 10.0, 10.0) and dog.alarms == 1
    assert not dog.overdue("results", 11.0, 10.0)  # the clock restarted at the alarm
    assert dog.overdue("results", 20.0, 10.0) and dog.alarms == 2
    assert dog.stuck_for(20.0) == pytest.approx(20.0)
    assert not dog.overdue("ring", 21.0, 10.0) and dog.alarms == 0


class Stalled:
    """A game that never moves on."""

    def reset(self) -> str:
        return "results"

    def step(self, action: str) -> str:
        return "results"

    def result(self) -> None:
        return None


def test_a_stuck_game_is_recovered_each_patience_then_stopped(monkeypatch):
    clock = iter(range(0, 1000, 4))  # each look 4 s after the one before
    monkeypatch.setattr("webbot.wrappers.time.monotonic", lambda: next(clock))
    recoveries: list[tuple[int, float]] = []
    game = Watched(Stalled(), lambda seen: (f"the {seen} screen", 0), lambda seen: 10.0,
                   lambda seen, alarm, seconds: recoveries.append((alarm, seconds)), limit=3)
    with pytest.raises(Stuck, match=r"stuck on the results screen for \d+ s; 3 recovery"):
        play(Playable(game, lambda seen: "wait"))
    assert [alarm for alarm, _ in recoveries] == [1, 2, 3, 4]  # the 4th keeps what it saw
    assert recoveries[-1][1] >= 40


def test_progress_in_one_place_restarts_the_watchdog(monkeypatch):
    clock = iter(range(0, 1000, 4))
    monkeypatch.setattr("webbot.wrappers.time.monotonic", lambda: next(clock))
    game = Counter()  # each step does one more: progress, never stuck
    watched = Watched(game, lambda done: ("the shop screen", done), lambda done: 5.0,
                      lambda *args: pytest.fail("recovered a game that moved on"))
    assert play(Playable(watched, limited(always, lambda done: done, count=20))) == 20
