#!/usr/bin/env python3
"""What a user sees: each game's command, timed as a process from its start to its exit.

Each command plays the bundled replica in a throwaway browser profile (`--fresh`), as a user
types it. A first run starts with an empty cache (a new machine: nothing learned yet); a later
run is the same command right after, on the cache the first one left. The runs go in pairs (a
first run, then a later one on its cache) so that both see the machine in the same state, and
each figure is the median of the pairs. The earlier bot is that commit checked out into a
temporary worktree and run from there with this checkout's Python environment (its own
replica, its own code), its later runs timed the same way; a commit that no longer runs says
so in its row.

    .venv/bin/python scripts/bench_commands.py [--pairs 3] [--before COMMIT] [--games ...]
                                               [--docs]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# scripts/ is on the path when this file is run as a script
from docs_table import cores, put_in_docs

ROOT = Path(__file__).resolve().parents[1]
# The bot as it stood before the work on speed of 2026-11-27 (issue 32) and on first runs.
BEFORE = "d430c57"
GRACE_S, LIMIT_S = 5, 600


@dataclass(frozen=True)
class Command:
    game: str
    args: tuple[str, ...]  # today's command line, after `webbot`
    before_args: tuple[str, ...]  # the same for the earlier bot (it had no --fresh: every
    # run of its was fresh)
    game_paced: bool = False  # its length is the game's (a round lasts as long as the bison
    # flies): no ratio of bots' speeds can be read from it


COMMANDS = (
    Command("puzlogic", ("puzlogic", "--fresh"), ("puzlogic",)),
    Command("daily-set", ("daily-set", "--fresh"), ("daily-set",)),
    Command("burrito-bison", ("burrito-bison", "--fresh", "--rounds", "1"),
            ("burrito-bison", "--rounds", "1"), game_paced=True),
)


class Failed(Exception):
    """A run that did not end well (its last words are the message)."""


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Seconds from the process's start to its exit; Failed unless it exits 0."""
    started = time.perf_counter()
    finished(argv, cwd, env)
    return time.perf_counter() - started


def finished(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    """The process run to its exit (ended, with what it started, past LIMIT_S); Failed
    unless it exits 0."""
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 15)
        try:
            process.wait(GRACE_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
        raise Failed(f"still running after {LIMIT_S} s") from None
    if process.returncode:
        last = [line for line in output.splitlines() if line.strip()][-1:]
        raise Failed(f"exit {process.returncode}: {' '.join(last)}")


def environment(cache: Path, data: Path) -> dict[str, str]:
    """A new user's: the cache and the data folder (the default profile) of their own."""
    env = {**os.environ, "WEBBOT_CACHE_DIR": str(cache), "XDG_DATA_HOME": str(data),
           "COLUMNS": "200"}
    env.pop("WEBBOT_AUTOCONSENT", None)
    return env


def pairs(argv: list[str], cwd: Path, count: int, extra: dict[str, str]) -> tuple[list, list]:
    """(first runs, later runs) in seconds: `count` pairs, each on a new cache."""
    first, later = [], []
    for _ in range(count):
        with tempfile.TemporaryDirectory(prefix="webbot-bench-") as folder:
            env = {**environment(Path(folder) / "cache", Path(folder) / "data"), **extra}
            first.append(timed(argv, cwd, env))
            later.append(timed(argv, cwd, env))
    return first, later


def webbot_argv(python: str, args: tuple[str, ...]) -> list[str]:
    return [python, "-m", "webbot.cli", *args]


def earlier_bot(commit: str, folder: Path) -> tuple[Path, dict[str, str]]:
    """The commit checked out into `folder`, with what it needs from this checkout to run:
    the consent library (installed by npm here, not in the repository)."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                    str(folder), commit], check=True)
    extra = {"PYTHONPATH": str(folder),
             "WEBBOT_AUTOCONSENT": str(ROOT / "webbot" / "consent")}
    return folder, extra


def fmt(values: list[float]) -> str:
    """The median, and the range when there are several."""
    spread = f" ({min(values):.1f}-{max(values):.1f})" if len(values) > 1 else ""
    return f"{statistics.median(values):.1f} s{spread}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="first/later pairs per command")
    parser.add_argument("--before", default=BEFORE, help="the earlier bot's commit")
    parser.add_argument("--games", nargs="*", default=[c.game for c in COMMANDS],
                        help="which games' commands to time")
    parser.add_argument("--docs", action="store_true", help="write into the README")
    args = parser.parse_args()
    python = sys.executable
    chosen = [c for c in COMMANDS if c.game in args.games]
    started = time.monotonic()
    described = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h (%cs)",
                                args.before], capture_output=True, text=True)
    before_name = described.stdout.strip() or args.before
    lines = ["| command | first run (empty cache) | later runs | first / later "
             f"| the bot of {before_name}, later runs | today's later runs against it |",
             "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="webbot-before-") as holder:
        try:
            before_cwd, before_env = earlier_bot(args.before, Path(holder) / "checkout")
            before_problem = None
        except subprocess.CalledProcessError as exc:
            before_cwd, before_env, before_problem = ROOT, {}, f"not checked out ({exc})"
        try:
            for command in chosen:
                try:
                    first, later = pairs(webbot_argv(python, command.args), ROOT, args.pairs,
                                         {})
                    ratio = ("-" if command.game_paced else
                             f"{statistics.median(first) / statistics.median(later):.2f}x")
                    now = f"{fmt(first)} | {fmt(later)} | {ratio}"
                except Failed as exc:
                    now, later = f"failed: {exc} | - | -", []
                if before_problem:
                    then = f"does not run: {before_problem} | -"
                else:
                    try:
                        _, old = pairs(webbot_argv(python, command.before_args), before_cwd,
                                       args.pairs, before_env)
                        ratio = (f"{statistics.median(old) / statistics.median(later):.2f}x "
                                 "as fast" if later and not command.game_paced else
                                 "- (the round's length is the game's)")
                        then = f"{fmt(old)} | {ratio}"
                    except Failed as exc:
                        then = f"does not run: {exc} | -"
                lines.append(f"| `webbot {' '.join(command.args)}` | {now} | {then} |")
                print(lines[-1], file=sys.stderr)
        finally:
            if not before_problem:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(before_cwd)], check=False)
    lines.append(f"\nEach time is a process's, from its start to its exit (the browser's "
                 f"start, the page, the menus and the play), the median of {args.pairs} pairs "
                 "(their range in brackets). A Burrito Bison round lasts as long as the bison "
                 "flies, so its time is the game's more than the bot's: the bot's speed there "
                 "is in its decisions a second, below. "
                 f"Measured {time.strftime('%Y-%m-%d')} on {cores()} cores in "
                 f"{time.monotonic() - started:.0f} s with `scripts/bench_commands.py --docs`.")
    table = "\n".join(lines)
    print(table)
    if args.docs and not put_in_docs("speed_commands", table):
        return 1
    return 0


if __name__ == "__main__":
    if shutil.which("git") is None:
        sys.exit("bench_commands: git is needed to check the earlier bot out")
    sys.exit(main())
