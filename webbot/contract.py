"""A registered game played through its contract, as Gymnasium's `check_env` plays an
environment: on its replica (its soak's first game), in a browser of its own, the
registration's player builds the game of the play loop and its own policy; `reset`, a few
`step`s the policy asks for and `result` are called, and what each returns is checked."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from webbot.errors import WebbotError
from webbot.play import Game
from webbot.registry import Registration, load
from webbot.session import RunOptions, Session, game_session

STEPS = 3  # steps played: enough to see an observation come back from each kind of call
# What a registration's `player` names: the game of the play loop on a session, and its policy.
Player = Callable[[Session], tuple[Game, Callable[[Any], Any]]]


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
            return _played(*player(session), steps)
    except WebbotError as exc:
        return [f"it did not play on its replica: {exc}"]


def _played(game: Game, policy: Callable[[Any], Any], steps: int) -> list[str]:
    missing = [name for name in ("reset", "step", "result") if not callable(getattr(game, name,
                                                                                    None))]
    if missing:
        return [f"its game has no {', '.join(missing)}"]
    observation = game.reset()
    if observation is None:
        return ["reset() returned None, not an observation"]
    kind = type(observation)
    for _ in range(steps):
        action = policy(observation)
        if action is None:
            break
        observation = game.step(action)
        if not isinstance(observation, kind):
            return [f"step({action!r}) returned {type(observation).__name__}, not an "
                    f"observation as reset() returned ({kind.__name__})"]
    if game.result() is None:
        return ["result() returned None"]
    return []
