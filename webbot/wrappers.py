"""What every game's run may want around the play loop, written once (in the spirit of
Gymnasium's wrappers): a limit on how much is played, and a pace for the looks."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Generic, TypeVar

from webbot.deadline import Deadline
from webbot.play import Game

Observation = TypeVar("Observation")
Action = TypeVar("Action")
Result = TypeVar("Result")


def limited(policy: Callable[[Observation], Action | None],
            done: Callable[[Observation], int], *, count: int | None = None,
            minutes: float | None = None) -> Callable[[Observation], Action | None]:
    """The policy, until `count` things are done (rounds, levels: `done` counts them in an
    observation), or until the first one done after `minutes`. A run is never cut in the
    middle of one."""
    deadline = Deadline(minutes * 60 if minutes is not None else None)
    counted = 0

    def limited_policy(seen: Observation) -> Action | None:
        nonlocal counted
        if done(seen) != counted:
            counted = done(seen)
            if (count is not None and counted >= count) or deadline.passed():
                return None
        return policy(seen)

    return limited_policy


class Paced(Generic[Observation, Action, Result]):
    """A game whose looks come at most one every `seconds` (the slow baseline a benchmark
    measures against); `wait` lets the page run meanwhile."""

    def __init__(self, game: Game[Observation, Action, Result], seconds: float,
                 wait: Callable[[float], None] = time.sleep) -> None:
        self.game, self.seconds, self.wait = game, seconds, wait
        self._last = 0.0

    def _paced(self, look: Callable[[], Observation]) -> Observation:
        left = self.seconds - (time.monotonic() - self._last)
        if self._last and left > 0:
            self.wait(left)
        self._last = time.monotonic()
        return look()

    def reset(self) -> Observation:
        return self._paced(self.game.reset)

    def step(self, action: Action) -> Observation:
        return self._paced(lambda: self.game.step(action))

    def result(self) -> Result:
        return self.game.result()
