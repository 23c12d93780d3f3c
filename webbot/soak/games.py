"""The games a soak plays, one checked game each: what a case is, and how it is played and
judged.

The soak runner is a tester: after the bot (which sees only pixels, as ever) has played, it
reads the replica's test hook to see whether the game agrees with what the bot says it did.
A game passes only when the bot finished without an error and the hook confirms it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from webbot.browser import BrowserOptions
from webbot.errors import WebbotError, first_line
from webbot.session import RunOptions, Session, game_session

GAMES = ("puzlogic", "daily-set", "burrito-bison")
DAILY_SET_LAYOUTS = {"old": "daily-set/puzzle/set.htm",
                     "2022": "daily-set/set/puzzle/2022.html",
                     "current": "daily-set/set/puzzle/index.html"}
BURRITO_SIZES = ((1173, 660), (1146, 644), (1280, 768), (1120, 540))
BURRITO_ROUNDS = 2


@dataclass(frozen=True)
class Case:
    """One game to play: the replica page (path and query on the bundled fixtures) and a
    name that says what it is (`generate=41 size=7`, `current seed=12`, ...)."""

    game: str
    number: int
    name: str
    path: str
    rounds: int = 0  # Burrito Bison: rounds to play


@dataclass(frozen=True)
class Played:
    """How one try of a case went."""

    passed: bool
    seconds: float
    reason: str = ""
    frames: str = ""  # the failure folder, when the bot saved one


def make_case(game: str, seed: int, number: int, extra_query: str = "",
              rounds: int = BURRITO_ROUNDS) -> Case:
    """The `number`th case of a soak seeded `seed`: the same seed gives the same cases."""
    chance = random.Random(seed * 1_000_003 + number)
    extra = f"&{extra_query}" if extra_query else ""
    if game == "puzlogic":
        level_seed, size = chance.randrange(1_000_000), chance.randint(3, 12)
        return Case(game, number, f"generate={level_seed} size={size}",
                    f"puzlogic/index.html?generate={level_seed}&size={size}&level=1{extra}")
    if game == "daily-set":
        layout = chance.choice(sorted(DAILY_SET_LAYOUTS))
        puzzle = chance.randrange(1_000_000)
        return Case(game, number, f"{layout} seed={puzzle}",
                    f"{DAILY_SET_LAYOUTS[layout]}?seed={puzzle}{extra}")
    if game == "burrito-bison":
        game_seed = chance.randrange(1_000_000)
        width, height = chance.choice(BURRITO_SIZES)
        return Case(game, number, f"seed={game_seed} {width}x{height} {rounds} rounds",
                    f"burrito-bison/index.html?seed={game_seed}&size={width}x{height}{extra}",
                    rounds=rounds)
    raise WebbotError(f"no soak for {game!r}: one of {', '.join(GAMES)}")


def play_case(case: Case, connect: str | None = None, stuck_after: float = 10) -> Played:
    """Play one case in a browser of its own (launched here, or the one at `connect`) on a
    fixture server of its own, and judge it by the replica's hook."""
    started = time.perf_counter()
    play = {"puzlogic": _puzlogic, "daily-set": _daily_set,
            "burrito-bison": _burrito_bison}[case.game]
    options = RunOptions(browser=BrowserOptions(connect=connect))
    try:
        with game_session(options, case.path) as session:
            problem = play(session, case, stuck_after)
    except WebbotError as exc:
        line = first_line(exc)
        frames = line.rsplit(" saved in ", 1)[1].rstrip(")") if " saved in " in line else ""
        return Played(False, time.perf_counter() - started, line, frames)
    return Played(problem is None, time.perf_counter() - started, problem or "")


def _puzlogic(session: Session, case: Case, stuck_after: float) -> str | None:
    from webbot.puzlogic.bot import PuzlogicBot

    results = PuzlogicBot(session, report=lambda line: None).play([1])
    finished = session.page.evaluate("window.__puzlogicTest.state().finished")
    if not (results and results[-1].completed):
        return "the bot did not complete the level"
    if 1 not in finished:
        return f"the bot says the level is completed, the game has finished {finished}"
    return None


def _daily_set(session: Session, case: Case, stuck_after: float) -> str | None:
    from webbot.daily_set.bot import DailySetBot

    puzzle = session.page.evaluate("window.__dailySetTest.state()")
    outcome = DailySetBot(session, report=lambda line: None).play()
    found = sorted(sorted(found.positions) for found in outcome.found)
    if found != sorted(sorted(s) for s in puzzle["sets"]):
        return f"the bot found {found}, the puzzle's sets are {sorted(puzzle['sets'])}"
    if not (outcome.complete and outcome.completion):
        return "the page did not say the puzzle was completed"
    return None


def _burrito_bison(session: Session, case: Case, stuck_after: float) -> str | None:
    from webbot.burrito_bison.bot import BurritoBot
    from webbot.burrito_bison.matching import TemplatePack

    bot = BurritoBot(session, TemplatePack(), stuck_after=stuck_after, report=lambda line: None)
    bot.play(rounds=case.rounds)
    state = session.page.evaluate("window.__burritoTest.state()")
    if len(bot.rounds) != case.rounds or len(state["rounds"]) < case.rounds:
        return f"{len(bot.rounds)} rounds reported, {len(state['rounds'])} played"
    for mine, game in zip(bot.rounds, state["rounds"], strict=False):
        said = (mine.distance, mine.coins, mine.rockets)
        done = (game["distance"], game["coins"], game["rocketsUsed"])
        if said != done:
            return f"round {mine.number}: the bot reports {said} (distance, coins, rocket " \
                   f"slams), the game {done}"
    if bot.rounds[-1].total != state["coins"]:
        return f"the bot reports a total of {bot.rounds[-1].total}, the game holds {state['coins']}"
    bought = [e for r in bot.rounds for e in r.events if e.startswith("bought")]
    made = [f"bought {p['name'].lower()} ({p['price']:,})" for p in state["purchases"]]
    if bought != made:
        return f"the bot reports {bought}, the game made {made}"
    return None
