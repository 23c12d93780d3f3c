"""The one play loop, in the spirit of Gymnasium's Env: a game's environment observes the
screen and carries out one action at a time (a drag, one set's three clicks, a purchase); a
pure policy turns what was observed into the next action, or None when the game is done.
No rewards, no spaces here: the games' Gymnasium environments are webbot/gym."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from webbot.phases import Phases

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
         recover: Callable[[BaseException], bool] | None = None,
         phases: Phases | None = None, settle: Callable[[], None] | None = None) -> Result:
    """Observe, decide, act, until the policy has nothing more to do.

    `recover` (webbot.recovery) is told of a failed step; when it has got the page back, the
    game is reset (it finds itself again and reads where it is) and a policy with a `resume`
    method hears of it; else the failure ends the run. `phases` is charged with the time spent
    finding the game, deciding, acting (and looking after) and recovering. `settle` is called
    once the policy is done (what the page finished meanwhile, said)."""
    phases = phases or Phases()
    observation = _reset(game, recover, phases)
    while True:
        with phases("deciding"):
            action = policy(observation)
        if action is None:
            break
        try:
            with phases("acting"):
                observation = game.step(action)
        except Exception as error:
            if recover is None or not _recovered(recover, error, phases):
                raise
            observation = _reset(game, recover, phases)
            if hasattr(policy, "resume"):
                policy.resume()
    if settle is not None:
        settle()
    return game.result()


def _reset(game: Game[Observation, Action, Result],
           recover: Callable[[BaseException], bool] | None, phases: Phases) -> Observation:
    while True:
        try:
            with phases("finding the game"):
                return game.reset()
        except Exception as error:
            if recover is None or not _recovered(recover, error, phases):
                raise


def _recovered(recover: Callable[[BaseException], bool], error: BaseException,
               phases: Phases) -> bool:
    with phases("recovering"):
        return recover(error)
