"""The one play loop, in the spirit of Gymnasium's Env: a game's environment observes the
screen and carries out one action at a time (a drag, one set's three clicks, a purchase); a
pure policy turns what was observed into the next action, or None when the game is done.
No rewards, no spaces: this is a bot, not a learning environment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

Observation = TypeVar("Observation")
Action = TypeVar("Action")
Result = TypeVar("Result", covariant=True)


class Game(Protocol, Generic[Observation, Action, Result]):
    def reset(self) -> Observation:
        """Find the game on the page and observe it."""

    def step(self, action: Action) -> Observation:
        """Carry out one action and observe the game after it."""

    def result(self) -> Result:
        """What the run did, once the policy says it is done."""


def play(game: Game[Observation, Action, Result],
         policy: Callable[[Observation], Action | None],
         recover: Callable[[BaseException], bool] | None = None) -> Result:
    """Observe, decide, act, until the policy has nothing more to do.

    `recover` (webbot.recovery) is told of a failed step; when it has got the page back, the
    game is reset (it finds itself again and reads where it is) and a policy with a `resume`
    method hears of it; else the failure ends the run."""
    observation = _reset(game, recover)
    while (action := policy(observation)) is not None:
        try:
            observation = game.step(action)
        except Exception as error:
            if recover is None or not recover(error):
                raise
            observation = _reset(game, recover)
            if hasattr(policy, "resume"):
                policy.resume()
    return game.result()


def _reset(game: Game[Observation, Action, Result],
           recover: Callable[[BaseException], bool] | None) -> Observation:
    while True:
        try:
            return game.reset()
        except Exception as error:
            if recover is None or not recover(error):
                raise
