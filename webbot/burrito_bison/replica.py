"""The Burrito Bison replica, for the soak and the tests only (the bot never reads the hook):
one soak game, its options, and how it is judged."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import click

from webbot.burrito_bison.model import Round
from webbot.params import Finite
from webbot.words import counted

if TYPE_CHECKING:  # (a soak's help is given without loading the browser)
    from webbot.session import Session

SIZES = ((1173, 660), (1146, 644), (1280, 768), (1120, 540))  # the real game's sizes
SOAK_OPTIONS = (
    click.Option(["--rounds"], type=click.IntRange(1, 1000), default=2, show_default=True,
                 metavar="N", help="Rounds a game."),
    click.Option(["--stuck-after"], type=Finite(0.5, 3600), default=10, show_default=True,
                 metavar="S", help="The stuck watchdog (see webbot burrito-bison)."),
)


def soak_case(chance: random.Random, extra: str, options: dict) -> tuple[str, str]:
    """A seeded game at one of the real sizes: its name and its page."""
    rounds = options.get("rounds", 2)
    game_seed = chance.randrange(1_000_000)
    width, height = chance.choice(SIZES)
    return (f"seed={game_seed} {width}x{height} {counted(rounds, 'round')}",
            f"burrito-bison/index.html?seed={game_seed}&size={width}x{height}{extra}")


def round_judged(mine: Round, game: dict) -> str | None:
    """None when the round the bot reports is the one the game records (its `rounds` entry):
    distance and coins, and rocket slams at least those the bot saw land, at most those and
    its rocket clicks it did not see land; else what differs."""
    said = (mine.distance, mine.coins, mine.rocket_slams)
    recorded = (game["distance"], game["coins"], game["rocketsUsed"])
    slams = recorded[2]
    if said[:2] == recorded[:2] and mine.rockets <= slams <= mine.rockets + mine.rockets_unseen:
        return None
    return f"round {mine.number}: the bot reports {said} (distance, coins, rocket slams), " \
           f"the game {recorded}"


def play_and_judge(session: Session, options: dict) -> str | None:
    """Play the rounds; None when every round's distance, coins and rocket slams the bot
    reports are the game's (the slams at least those the bot saw, at most those and its
    rocket clicks it did not see land), and so are the total and every purchase, else why
    not."""
    from webbot.answer import evaluate
    from webbot.burrito_bison.bot import player
    from webbot.play import play

    rounds = options.get("rounds", 2)
    playable = player(session, rounds, stuck_after=options.get("stuck_after", 10))
    bot = playable.bot
    play(playable)
    state = evaluate(session.page, "window.__burritoTest.state()")
    if len(bot.rounds) != rounds or len(state["rounds"]) < rounds:
        return f"{counted(len(bot.rounds), 'round')} reported, {len(state['rounds'])} played"
    for mine, game in zip(bot.rounds, state["rounds"], strict=False):
        if (wrong := round_judged(mine, game)) is not None:
            return wrong
    if bot.rounds[-1].total != state["coins"]:
        return f"the bot reports a total of {bot.rounds[-1].total}, the game holds {state['coins']}"
    bought = [e for r in bot.rounds for e in r.events if e.startswith("bought")]
    made = [f"bought {p['name'].lower()} ({p['price']:,})" for p in state["purchases"]]
    if bought != made:
        return f"the bot reports {bought}, the game made {made}"
    return None


# The environments' judge (webbot.gym.judge): the hook's state, and what it counts as done.
JUDGE = "window.__burritoTest.state()"


def judged_score(state: dict | None) -> float:
    """The coins of the rounds the replica has recorded."""
    return float(sum(r["coins"] for r in state["rounds"])) if state else 0.0
