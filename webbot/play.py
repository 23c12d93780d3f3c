"""The one run loop, in the spirit of Gymnasium's Env: a game observes the screen and carries
out one action at a time (a drag, one set's three clicks, a purchase); a policy turns what
was observed into the next action, or None when the game is done.

Each game makes its `Playable` (the game, wrapped as it ships, its policy and what the run needs
around them) in one factory, its registration's `player`; the commands, the soak, `webbot
games --check`, the benchmarks and the Gymnasium environments (webbot/gym) all build a game
there, and all but the environments (whose agent drives the steps) play it through `play`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from webbot.phases import Phases

if TYPE_CHECKING:
    from webbot.session import Session

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


@dataclass
class Playable(Generic[Observation, Action, Result]):
    """A game and its policy, ready to play. `recover` (webbot.recovery) is told of a failed
    step and says whether the page is back; `ending` is told how the run ended (None: the
    policy was done) and may name the error to raise instead (a level's own failure, say);
    `phases` is charged with finding the game, deciding, acting and recovering; `settle` is
    called once the policy is done (what the page finished meanwhile, said)."""

    game: Game[Observation, Action, Result]
    policy: Callable[[Observation], Action | None]
    recover: Callable[[BaseException], bool] | None = None
    ending: Callable[[BaseException | None], BaseException | None] | None = None
    phases: Phases = field(default_factory=Phases)
    settle: Callable[[], None] | None = None

    @classmethod
    def on(cls, session: Session, game: Game[Observation, Action, Result],
           policy: Callable[[Observation], Action | None], report: Callable[[str], None],
           ending: Callable[[BaseException | None], BaseException | None] | None = None
           ) -> Playable[Observation, Action, Result]:
        """The playable as a run on `session` plays it: a lost page recovered (and said through
        `report`), the time charged to the session's phases, the page settled at the end."""
        from webbot.recovery import Recovery

        return cls(game, policy, Recovery(session, report), ending, session.recorder.phases,
                   session.settle)

    @property
    def bot(self) -> Any:
        """The game inside its wrappers (a watchdog, say), as Gymnasium's `unwrapped`."""
        return getattr(self.game, "unwrapped", self.game)


def play(playable: Playable[Observation, Action, Result]) -> Result:
    """Observe, decide, act, until the policy has nothing more to do.

    A failed step goes to `playable.recover`; when it has got the page back, the game is reset
    (it finds itself again and reads where it is) and a policy with a `resume` method hears of
    it; else the failure ends the run."""
    try:
        result = _played(playable)
    except BaseException as error:
        instead = playable.ending(error) if playable.ending is not None else None
        if instead is not None:
            raise instead from None
        raise
    if playable.ending is not None:
        playable.ending(None)
    return result


def _played(playable: Playable[Observation, Action, Result]) -> Result:
    game, policy, phases = playable.game, playable.policy, playable.phases
    observation = _reset(playable)
    while True:
        with phases("deciding"):
            action = policy(observation)
        if action is None:
            break
        try:
            with phases("acting"):
                observation = game.step(action)
        except Exception as error:
            if not _recovered(playable, error):
                raise
            observation = _reset(playable)
            if hasattr(policy, "resume"):
                policy.resume()
    if playable.settle is not None:
        playable.settle()
    return game.result()


def _reset(playable: Playable[Observation, Action, Result]) -> Observation:
    while True:
        try:
            with playable.phases("finding the game"):
                return playable.game.reset()
        except Exception as error:
            if not _recovered(playable, error):
                raise


def _recovered(playable: Playable[Observation, Action, Result], error: BaseException) -> bool:
    if playable.recover is None:
        return False
    with playable.phases("recovering"):
        return playable.recover(error)
