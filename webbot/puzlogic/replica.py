"""Puzlogic's replica, for the soak and the tests only (the bot never reads the hook): one soak
game, and how it is judged."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a soak's help is given without loading the browser)
    from webbot.session import Session

SOAK_OPTIONS: tuple = ()


def soak_case(chance: random.Random, extra: str, options: dict) -> tuple[str, str]:
    """A generated level: its name and its page."""
    level_seed, size = chance.randrange(1_000_000), chance.randint(3, 12)
    return (f"generate={level_seed} size={size}",
            f"puzlogic/index.html?generate={level_seed}&size={size}&level=1{extra}")


def play_and_judge(session: Session, options: dict) -> str | None:
    """Play the level; None when the bot saw it completed and the game agrees, else why not."""
    from webbot.answer import evaluate
    from webbot.play import play
    from webbot.puzlogic.bot import player

    results = play(player(session, [1]))
    finished = evaluate(session.page, "window.__puzlogicTest.state().finished")
    if not (results and results[-1].completed):
        return "the bot did not complete the level"
    if 1 not in finished:
        return f"the bot says the level is completed, the game has finished {finished}"
    return None


# The environments' judge (webbot.gym.judge): the hook's state, and what it counts as done.
JUDGE = "window.__puzlogicTest.state()"


def judged_score(state: dict | None) -> float:
    """The levels the replica counts as finished."""
    return float(len(state["finished"])) if state else 0.0
