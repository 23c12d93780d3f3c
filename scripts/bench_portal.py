#!/usr/bin/env python3
"""Benchmark: time from opening the page to the bot's first move, on a portal page against the
bare replica page, and the consent engine against the bot's own consent handling, measured in
the same run.

For each game, a fresh browser page opens the bare replica (the baseline), then the portal
replica with the game two cross-site frames deep behind a OneTrust dialog, answered first by the
bot's own handling alone (the library turned off: what the bot did before the engine), then by
the consent chain with DuckDuckGo's autoconsent; a last row adds a 3 s preroll. The clock runs
from page.goto to the bot's first mouse press in the game. "vs bare page" is a row's time over
the bare page's; "engine adds" is the engine's time less the bot's own handling's.

    .venv/bin/python scripts/bench_portal.py [--runs 3] [--quick] [--docs]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from urllib.parse import urljoin

# scripts/ is on the path when this file is run as a script
from docs_table import cores, put_in_docs

from webbot.browser import BrowserOptions
from webbot.burrito_bison.bot import player as burrito_player
from webbot.daily_set.bot import player as daily_set_player
from webbot.errors import WebbotError
from webbot.mouse import Mouse
from webbot.play import play
from webbot.puzlogic.bot import player as puzlogic_player
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

    original = Mouse.click, Mouse.drag, Mouse.press
    Mouse.click = Mouse.drag = Mouse.press = stop
    try:
        with game_session(options, "") as session:
            # game_session opened the page already; time it from a fresh navigation instead
            started = time.perf_counter()
            session.page.goto(options.url, wait_until="load")
            if game == "puzlogic":
                play(puzlogic_player(session, [1]))
            elif game == "daily-set":
                play(daily_set_player(session))
            else:
                play(burrito_player(session, 1))
    except FirstMove:
        return time.perf_counter() - started
    except WebbotError as exc:
        if isinstance(exc.__context__, FirstMove) or "FirstMove" in str(exc):
            return time.perf_counter() - started
        raise
    finally:
        Mouse.click, Mouse.drag, Mouse.press = original
    raise RuntimeError(f"{game}: the bot finished without a mouse press")


def timed(options: RunOptions, game: str, engine: bool, runs: int) -> list[float]:
    """First-move times with the consent engine on, or off (the bot's own handling alone)."""
    before = os.environ.get("WEBBOT_AUTOCONSENT")
    if not engine:
        os.environ["WEBBOT_AUTOCONSENT"] = "off"
    elif before == "off":
        del os.environ["WEBBOT_AUTOCONSENT"]
    try:
        return [first_press(options, game) for _ in range(runs)]
    finally:
        os.environ.pop("WEBBOT_AUTOCONSENT", None)
        if before is not None:
            os.environ["WEBBOT_AUTOCONSENT"] = before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one run, Puzlogic only")
    parser.add_argument("--docs", action="store_true", help="write into its docs page")
    args = parser.parse_args()
    games = ["puzlogic"] if args.quick else list(BARE)
    runs = 1 if args.quick else args.runs
    rows = []
    browser = BrowserOptions(viewport=(1400, 900))
    with FixtureServer() as server:
        for game in games:
            portal = urljoin(server.url, PORTAL.format(game=game))
            pages = [("bare replica page", urljoin(server.url, BARE[game]), True),
                     ("portal, OneTrust, 2 frames deep", portal, False),
                     ("portal, OneTrust, 2 frames deep", portal, True),
                     ("... and a 3 s preroll", portal + "&preroll=3", True)]
            baseline = own = None
            for label, url, engine in pages:
                times = timed(RunOptions(url=url, browser=browser), game, engine, runs)
                median = statistics.median(times)
                baseline = baseline or median
                handling = "autoconsent, then own" if engine else "own (before the engine)"
                adds = ""
                if label.startswith("portal") and not engine:
                    own = median
                elif label.startswith("portal") and own is not None:
                    adds = f"{median - own:+.2f}"
                rows.append(f"| {game} | {label} | {handling} | {median:.2f} | {min(times):.2f} "
                            f"| {median / baseline:.1f}x | {adds} |")
    table = "\n".join([
        f"Page open to first move, median of {runs} run(s), headless, {cores()} cores:", "",
        "| game | page | consent handling | median s | best s | vs bare page | engine adds s |",
        "|---|---|---|---|---|---|---|", *rows])
    print(table)
    if args.docs:
        put_in_docs("bench-portal", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
