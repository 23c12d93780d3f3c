#!/usr/bin/env python3
"""Where one run's time goes: each game's command, run as a user types it (`--fresh`, the
bundled replica), split into its parts from the bot's own phases (webbot.phases, written by the
run when WEBBOT_PHASES names a file; no Playwright trace, which would slow what it measures):
the process's start (Python, the imports, the command line), the replica's server, the
browser's start, the page's load, finding the game, perception, deciding, acting, waiting on
the game, and the process's end (the browser closed, the tables, the exit). Each part says
whose time it is: the game's (what anyone playing waits for: the page's load, its animations,
its answers, its next frame) or ours; and beside it, where the game's floor (scripts/floors.py)
has a part of the same kind, that part.

One run of each command after a run that fills the cache (the runs after a user's first).

    .venv/bin/python scripts/bench_breakdown.py [--games puzlogic daily-set burrito-bison]
                                                [--docs]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

# scripts/ is on the path when this file is run as a script
from bench_commands import COMMANDS, ROOT, Failed, environment, finished, webbot_argv
from docs_table import cores, put_in_docs
from floors import FRAME_S, burrito_bison_floor, daily_set_floor, puzlogic_floor

from webbot.phases import whose

# The order the parts come in a run, the bot's own phases among them (Puzlogic's rooms: menus,
# reading, dragging, checking drops, waiting; the Daily SET's: fetching the cards, perception,
# checking clicks, the page's answers; Burrito Bison's: waiting on the game, perception) and
# closing (the browser, the server and the profile's lock let go of).
ORDER = ("process start", "replica server", "profile", "browser start", "page load",
         "finding the game", "fetching the cards", "menus", "reading", "perception",
         "deciding", "acting", "dragging", "checking drops", "checking clicks",
         "the page's answers", "waiting", "waiting on the game", "taking pictures",
         "recovering", "closing", "other (between the parts)", "process end")
DAILY_SET_PAGE = "daily-set/puzzle/set.htm"


def run_once(argv: list[str], env: dict[str, str]) -> tuple[dict, float, float]:
    """The run's parts as it wrote them, and the wall-clock moments its process was launched
    and ended; Failed unless it exits 0."""
    with tempfile.TemporaryDirectory(prefix="webbot-phases-") as folder:
        path = Path(folder) / "phases.json"
        launched = time.time()
        finished(argv, ROOT, {**env, "WEBBOT_PHASES": str(path)})
        ended = time.time()
        return json.loads(path.read_text()), launched, ended


def parts(record: dict, launched: float, ended: float) -> dict[str, float]:
    """Seconds of each part, the process's start and end and what falls between the parts
    included: they add up to the process's time."""
    seconds = dict(record["seconds"])
    run = record["run_ended"] - record["run_started"]
    seconds["process start"] = record["run_started"] - launched
    seconds["other (between the parts)"] = max(0.0, run - sum(record["seconds"].values()))
    seconds["process end"] = ended - record["run_ended"]
    return seconds


def floor_parts(game: str) -> dict[str, str]:
    """The game's floor (scripts/floors.py), split as the run is: the part of the run each
    of its pieces bounds."""
    if game == "puzlogic":
        floor = puzlogic_floor()
    elif game == "daily-set":
        from bench_daily_set import bare_loads

        from webbot.server import FixtureServer

        with FixtureServer() as server:
            floor = daily_set_floor(statistics.median(bare_loads([server.url + DAILY_SET_PAGE]
                                                                 * 3)))
    else:
        return {"waiting on the game": f"{FRAME_S * 1000:.1f} ms a decision (the game draws "
                                       f"{burrito_bison_floor().value:g} frames a second)"}
    return {part: f"{seconds:.2f} s ({how})" for part, seconds, how in floor.parts}


def table(game: str, args: tuple[str, ...], seconds: dict[str, float]) -> str:
    total = sum(seconds.values())
    floors = floor_parts(game)
    names = [name for name in ORDER if name in seconds] + \
        sorted(name for name in seconds if name not in ORDER)
    lines = [f"`webbot {' '.join(args)}`, {total:.2f} s as a process:", "",
             "| part | whose | seconds | share | the floor's part |",
             "|---|---|---:|---:|---|"]
    game_s = 0.0
    for name in names:
        if seconds[name] < 0.0005 and name not in floors:
            continue
        owner = whose(name)
        game_s += seconds[name] if owner == "the game's" else 0.0
        lines.append(f"| {name} | {owner} | {seconds[name]:.3f} | "
                     f"{100 * seconds[name] / total:.0f}% | {floors.get(name, '')} |")
    lines.append(f"\nThe game's: {game_s:.2f} s ({100 * game_s / total:.0f}%); ours: "
                 f"{total - game_s:.2f} s ({100 * (total - game_s) / total:.0f}%).")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=[c.game for c in COMMANDS],
                        help="which games' commands to break down")
    parser.add_argument("--docs", action="store_true", help="write into the README")
    args = parser.parse_args()
    started = time.monotonic()
    blocks = []
    with tempfile.TemporaryDirectory(prefix="webbot-bench-") as folder:
        env = environment(Path(folder) / "cache", Path(folder) / "data")
        for command in (c for c in COMMANDS if c.game in args.games):
            argv = webbot_argv(sys.executable, command.args)
            try:
                run_once(argv, env)  # (the cache filled, as after a user's first run)
                record, launched, ended = run_once(argv, env)
            except Failed as exc:
                blocks.append(f"`webbot {' '.join(command.args)}`: failed: {exc}")
                continue
            blocks.append(table(command.game, command.args, parts(record, launched, ended)))
            print(blocks[-1], file=sys.stderr)
    text = "\n\n".join(blocks) + (
        "\n\nEach part from the run's own phases (a part that nests in another is charged to "
        "the inner one, so they add up): the process's start is from its launch to the "
        "run's (Playwright's driver starts in it, while the bot's modules are imported: "
        "webbot/driver.py; the browser's start is then Chromium's), its end from the run's "
        "end (the browser closed) to its exit. The Daily SET's cards are read on a thread "
        "(from the browser's copy of the images) while the game is looked for: their time "
        "is inside finding the game, and only the wait for them, if any, is fetching the "
        "cards. "
        f"Measured {time.strftime('%Y-%m-%d')} on {cores()} cores in "
        f"{time.monotonic() - started:.0f} s with `scripts/bench_breakdown.py --docs`.")
    print(text)
    if args.docs and not put_in_docs("speed_breakdown", text):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
