"""The Daily SET replica, for the soak and the tests only (the bot never reads the hook): one
soak game, and how it is judged."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from webbot.daily_set.bundled import BUNDLED_PAGES as LAYOUTS

if TYPE_CHECKING:  # (a soak's help is given without loading the browser)
    from webbot.session import Session

SOAK_OPTIONS: tuple = ()


def soak_case(chance: random.Random, extra: str, options: dict) -> tuple[str, str]:
    """A seeded puzzle on one of the three layouts: its name and its page."""
    layout = chance.choice(sorted(LAYOUTS))
    puzzle = chance.randrange(1_000_000)
    return f"{layout} seed={puzzle}", f"{LAYOUTS[layout]}?seed={puzzle}{extra}"


def play_and_judge(session: Session, options: dict) -> str | None:
    """Play the puzzle; None when the bot found the puzzle's 6 sets and the page said it was
    completed, else why not."""
    from webbot.answer import evaluate
    from webbot.daily_set.bot import player
    from webbot.play import play

    puzzle = evaluate(session.page, "window.__dailySetTest.state()")
    outcome = play(player(session))
    found = sorted(sorted(found.positions) for found in outcome.found)
    if found != sorted(sorted(s) for s in puzzle["sets"]):
        return f"the bot found {found}, the puzzle's sets are {sorted(puzzle['sets'])}"
    if not (outcome.complete and outcome.completion):
        return "the page did not say the puzzle was completed"
    return None


# The environments' judge (webbot.gym.judge): the hook's state, and what it counts as done.
JUDGE = "window.__dailySetTest.state()"


def judged_score(state: dict | None) -> float:
    """The sets the replica counts as found."""
    return float(state["score"]) if state else 0.0
