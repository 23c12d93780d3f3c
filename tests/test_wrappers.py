"""The wrappers around the play loop, without a browser: a limit ends a run only between two
things done, and a pace spaces the looks."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from webbot.play import play
from webbot.wrappers import Paced, limited


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
    assert play(game, limited(always, lambda done: done, count=count)) == count
    assert game.steps == [f"do {i + 1}" for i in range(count)]


def test_the_time_limit_ends_the_run_at_the_first_thing_done_after_it():
    game = Counter()
    assert play(game, limited(always, lambda done: done, minutes=0)) == 1


def test_the_policy_ends_the_run_when_it_has_nothing_to_do():
    game = Counter()
    policy = limited(lambda done: None if done == 2 else "go", lambda done: done, count=5)
    assert play(game, policy) == 2


def test_a_paced_game_waits_between_looks_and_not_before_the_first():
    waits: list[float] = []
    game = Paced(Counter(), 10.0, waits.append)
    assert play(game, limited(always, lambda done: done, count=3)) == 3
    assert len(waits) == 3 and all(0 < wait <= 10.0 for wait in waits)
