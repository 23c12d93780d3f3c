"""What every game's run may want around the play loop, written once (in the spirit of
Gymnasium's wrappers): a limit on how much is played, and a watchdog for a game that does not
move on."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from webbot.deadline import Deadline
from webbot.errors import WebbotError
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

    def limited_policy(observation: Observation) -> Action | None:
        nonlocal counted
        if done(observation) != counted:
            counted = done(observation)
            if (count is not None and counted >= count) or deadline.passed():
                return None
        return policy(observation)

    return limited_policy


class Stuck(WebbotError):
    """The game stayed in one place through every recovery."""


@dataclass
class Watchdog:
    """Notices a game that does not move on: the same place (a screen, say) for longer than its
    patience. After each alarm the clock restarts, so recovery steps get their own time;
    `alarms` counts them until the place changes."""

    place: Hashable = None
    entered: float = 0.0  # when this place was first seen
    since: float = 0.0    # when its clock last (re)started
    alarms: int = 0

    def overdue(self, place: Hashable, now: float, patience_s: float) -> bool:
        """Record the place; True when it has now lasted too long."""
        if place != self.place:
            self.place, self.entered, self.since, self.alarms = place, now, now, 0
            return False
        if now - self.since < patience_s:
            return False
        self.alarms += 1
        self.since = now
        return True

    def stuck_for(self, now: float) -> float:
        return now - self.entered


class Watched(Generic[Observation, Action, Result]):
    """A game watched for getting stuck. `where` names the place an observation shows (its
    screen, and what it has done there, so progress within one screen counts as moving on);
    when the game stays there longer than `patience_s(observation)`, `recover(observation,
    alarm, seconds)` may try something (it is also told of the last alarm, to keep what it saw);
    after `limit` recoveries the run stops with Stuck."""

    def __init__(self, game: Game[Observation, Action, Result],
                 where: Callable[[Observation], tuple[str, Hashable]],
                 patience_s: Callable[[Observation], float],
                 recover: Callable[[Observation, int, float], None], limit: int = 3) -> None:
        self.game, self.where, self.patience_s = game, where, patience_s
        self.recover, self.limit = recover, limit
        self.watchdog = Watchdog()

    def _watched(self, observation: Observation) -> Observation:
        now = time.monotonic()
        place = self.where(observation)
        if self.watchdog.overdue(place, now, self.patience_s(observation)):
            alarm, seconds = self.watchdog.alarms, self.watchdog.stuck_for(now)
            self.recover(observation, alarm, seconds)
            if alarm > self.limit:
                raise Stuck(f"stuck on {place[0]} for {seconds:.0f} s; {self.limit} recovery "
                            "attempts did not move the game on")
        return observation

    @property
    def unwrapped(self) -> Game[Observation, Action, Result]:
        """The game inside the watchdog (and any wrapper of its own)."""
        return getattr(self.game, "unwrapped", self.game)

    def reset(self) -> Observation:
        return self._watched(self.game.reset())

    def step(self, action: Action) -> Observation:
        return self._watched(self.game.step(action))

    def result(self) -> Result:
        return self.game.result()
