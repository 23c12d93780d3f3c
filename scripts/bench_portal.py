#!/usr/bin/env python3
"""Benchmark: time from opening the page to the bot's first move, on a portal page against the
bare replica page, measured in the same run.

For each game, a fresh browser page opens the bare replica (the baseline), then the portal
replica with the game two cross-site frames deep behind a OneTrust dialog (and, on a third row,
behind a 3 s preroll too); the clock runs from page.goto to the bot's first mouse press in the
game. The ratio column is the portal's time over the bare page's.

    .venv/bin/python scripts/bench_portal.py [--runs 3] [--quick] [--readme]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from urllib.parse import urljoin

# scripts/ is on the path when this file is run as a script
from readme_table import cores, put_in_readme

from webbot.browser import BrowserOptions
from webbot.burrito_bison.bot import BurritoBot
from webbot.burrito_bison.screens import TemplatePack
from webbot.daily_set.bot import DailySetBot
from webbot.errors import WebbotError
from webbot.mouse import Mouse
from webbot.puzlogic.bot import PuzlogicBot
from webbot.server import FixtureServer
from webbot.session import RunOptions, game_session

BARE = {"puzlogic": "puzlogic/index.html", "daily-set": "daily-set/set/puzzle/index.html",
        "burrito-bison": "burrito-bison/index.html"}
PORTAL = "portal/index.html?game={game}&consent=onetrust&banner=3"


class FirstMove(Exception):
    """Raised at the bot's first mouse press: the clock stops there."""


def first_press(options: RunOptions, game: str) -> float:
    """Seconds from opening the page to the first press of the bot's mouse."""
    started = 0.0

    def stop(*args, **kwargs):
        raise FirstMove

    original = Mouse.click, Mouse.drag
    Mouse.click = Mouse.drag = stop
    try:
        with game_session(options, "") as session:
            # game_session opened the page already; time it from a fresh navigation instead
            started = time.perf_counter()
            session.page.goto(options.url, wait_until="load")
            if game == "puzlogic":
                PuzlogicBot(session, report=lambda line: None).play([1])
            elif game == "daily-set":
                DailySetBot(session, report=lambda line: None).play()
            else:
                BurritoBot(session, TemplatePack(), report=lambda line: None).play(rounds=1)
    except FirstMove:
        return time.perf_counter() - started
    except WebbotError as exc:
        if isinstance(exc.__context__, FirstMove) or "FirstMove" in str(exc):
            return time.perf_counter() - started
        raise
    finally:
        Mouse.click, Mouse.drag = original
    raise RuntimeError(f"{game}: the bot finished without a mouse press")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one run, Puzlogic only")
    parser.add_argument("--readme", action="store_true", help="put the table in README.md")
    args = parser.parse_args()
    games = ["puzlogic"] if args.quick else list(BARE)
    runs = 1 if args.quick else args.runs
    rows = []
    browser = BrowserOptions(viewport=(1400, 900))
    with FixtureServer() as server:
        for game in games:
            pages = [("bare replica page", urljoin(server.url, BARE[game])),
                     ("portal, consent, 2 frames deep",
                      urljoin(server.url, PORTAL.format(game=game))),
                     ("... and a 3 s preroll",
                      urljoin(server.url, PORTAL.format(game=game) + "&preroll=3"))]
            baseline = None
            for label, url in pages:
                options = RunOptions(url=url, browser=browser)
                times = [first_press(options, game) for _ in range(runs)]
                median = statistics.median(times)
                baseline = baseline or median
                rows.append(f"| {game} | {label} | {median:.2f} | {min(times):.2f} | "
                            f"{median / baseline:.1f}x |")
    table = "\n".join([
        f"Page open to first move, median of {runs} run(s), headless, {cores()} cores:", "",
        "| game | page | median s | best s | vs bare page |",
        "|---|---|---|---|---|", *rows])
    print(table)
    if args.readme:
        put_in_readme("bench-portal", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
