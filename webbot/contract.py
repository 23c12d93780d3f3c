"""A registered game played through its contract, as Gymnasium's `check_env` plays an
environment: on its replica (its soak's first game), in a browser of its own, the
registration's player (its one factory) makes the playable the commands play, and the one run
loop plays a few steps of it; what `reset`, each `step` and `result` return is checked."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from webbot.errors import WebbotError
from webbot.play import Game, Playable, play
from webbot.registry import Registration, load
from webbot.session import RunOptions, Session, game_session

STEPS = 3  # steps played: enough to see an observation come back from each kind of call
# What a registration's `player` names: a session on its replica -> the playable its command plays.
Player = Callable[[Session], Playable]


class ContractBroken(Exception):
    """What the game returned is not what the contract asks."""


class Checked:
    """The game as the run loop sees it, each return checked against the contract."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.kind: type | None = None

    def reset(self) -> Any:
        observation = self.game.reset()
        if observation is None:
            raise ContractBroken("reset() returned None, not an observation")
        self.kind = self.kind or type(observation)
        return observation

    def step(self, action: Any) -> Any:
        observation = self.game.step(action)
        assert self.kind is not None
        if not isinstance(observation, self.kind):
            raise ContractBroken(f"step({action!r}) returned {type(observation).__name__}, not "
                                 f"an observation as reset() returned ({self.kind.__name__})")
        return observation

    def result(self) -> Any:
        result = self.game.result()
        if result is None:
            raise ContractBroken("result() returned None")
        return result


def plays(registration: Registration, steps: int = STEPS) -> list[str]:
    """What goes wrong when the game is played through its contract on its replica: empty
    when `reset` and each `step` return an observation of one kind, the policy an action (or
    None: done) and `result` something."""
    try:
        player: Player = load(registration.player)
    except Exception as exc:  # any import or attribute error is the finding
        return [f"its player {registration.player or '(none named)'}: cannot load ({exc})"]
    try:
        replica = registration.replica_module()  # its soak's first game:
        _, page = replica.soak_case(random.Random(0), "", registration.soak_defaults())
    except Exception as exc:  # any import or attribute error is the finding
        return [f"its replica {registration.replica}: no game to play ({exc})"]
    try:
        with game_session(RunOptions(), page) as session:
            playable = player(session)
            if not isinstance(playable, Playable):
                return [f"its player made {type(playable).__name__}, not a webbot.play.Playable"]
            missing = [name for name in ("reset", "step", "result")
                       if not callable(getattr(playable.game, name, None))]
            if missing:
                return [f"its game has no {', '.join(missing)}"]
            try:
                play(replace(playable, game=Checked(playable.game),
                             policy=_First(playable.policy, steps)))
            except ContractBroken as broken:  # (inside: the session takes it for a bug)
                return [str(broken)]
    except WebbotError as exc:
        return [f"it did not play on its replica: {exc}"]
    return []


class _First:
    """The policy for its first `steps` actions, then done; a lost page and its recovery told
    to it as the run loop tells the policy itself."""

    def __init__(self, policy: Callable[[Any], Any], steps: int) -> None:
        self.policy, self.left = policy, steps

    def __call__(self, observation: Any) -> Any:
        self.left -= 1
        return self.policy(observation) if self.left >= 0 else None

    def resume(self) -> None:
        if hasattr(self.policy, "resume"):
            self.policy.resume()
