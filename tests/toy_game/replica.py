"""The Lights replica's soak case and judge."""

from __future__ import annotations

import random

from webbot.session import Session

SOAK_OPTIONS: tuple = ()


def soak_case(chance: random.Random, extra: str, options: dict) -> tuple[str, str]:
    seed = chance.randrange(1, 1_000_000)
    return f"seed={seed}", f"lights/index.html?seed={seed}{extra}"


def play_and_judge(session: Session, options: dict) -> str | None:
    from tests.toy_game.bot import play

    clicks = play(session, report=lambda line: None)
    state = session.page.evaluate("window.__lightsTest.state()")
    if not state["done"] or clicks != state["hits"] or state["misses"]:
        return f"the bot clicked {clicks} times, the game counts {state}"
    return None
