#!/usr/bin/env python3
"""How soon the command answers: its help, a usage error and `webbot profile`, each timed as a
process from its start to its exit, and a photo read as a process beside its reading.

Each command's figure is the best of `--repeat` runs (a command's start is its floor: the
runs above it are the machine's other work), beside the bare interpreter's start (`python -c
pass`, the floor of any Python command) and the same command of an earlier bot (a commit
checked out into a temporary worktree, run with this checkout's environment), all measured in
this run. A drawn 12 Mpx phone photo (test part) is read by `webbot daily-set read` as a
process and, in this process, its decoded picture by the same reader; the difference is what
the command adds to the reading (its start, its imports, the file's decoding).

    .venv/bin/python scripts/bench_startup.py [--repeat 5] [--before COMMIT] [--docs]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# scripts/ is on the path when this file is run as a script
from docs_table import cores, publish

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "5cbc760"  # the bot before its imports were moved where they are used (issue 67)
GOAL_S = 0.3  # a command's help, a usage error, `webbot profile`
PHOTO_GOAL_S = 0.5  # what the command may add to a photo's reading
COMMANDS = (
    ("--help",),
    ("puzlogic", "--help"),
    ("daily-set", "--help"),
    ("burrito-bison", "--help"),
    ("soak", "burrito-bison", "--help"),
    ("puzlogic", "--levels", "20"),  # a usage error
    ("profile",),
)


def best(argv: list[str], repeat: int, cwd: Path, env: dict[str, str]) -> float:
    """The shortest of `repeat` runs, in seconds from the process's start to its exit."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=120, check=False)
        times.append(time.perf_counter() - started)
    return min(times)


def earlier_bot(commit: str, folder: Path) -> dict[str, str]:
    """The commit checked out into `folder`; the environment that runs it from there."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                    str(folder), commit], check=True)
    return {"PYTHONPATH": str(folder)}


def command_rows(repeat: int, before: str, env: dict[str, str]) -> tuple[list[str], bool]:
    python = sys.executable
    floor = best([python, "-c", "pass"], repeat, ROOT, env)
    lines = [f"| command | best of {repeat} | goal {GOAL_S:g} s | against the bare interpreter "
             f"({floor * 1000:.0f} ms) | the bot of {before} | today against it |",
             "|---|---|---|---|---|---|"]
    met = True
    with tempfile.TemporaryDirectory(prefix="webbot-before-") as holder:
        checkout = Path(holder) / "checkout"
        earlier = {**env, **earlier_bot(before, checkout)}
        try:
            for args in COMMANDS:
                now = best([python, "-m", "webbot.cli", *args], repeat, ROOT, env)
                then = best([python, "-m", "webbot.cli", *args], repeat, checkout, earlier)
                met &= now <= GOAL_S
                lines.append(f"| `webbot {' '.join(args)}` | {now * 1000:.0f} ms | "
                             f"{'met' if now <= GOAL_S else 'missed'} | {now / floor:.1f}x | "
                             f"{then * 1000:.0f} ms | {then / now:.1f}x as fast |")
                print(lines[-1], file=sys.stderr)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(checkout)], check=False)
    return lines, met


def photo_rows(repeat: int, env: dict[str, str]) -> tuple[list[str], bool]:
    import cv2
    from bench_daily_set import read_command_times
    from parts import BOARD_SEEDS
    from photo_boards import draw_board

    from webbot.set_cards.model import BoardError
    from webbot.set_cards.perceive import load
    from webbot.set_cards.picture import read_picture

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "phone.jpg"
        for seed in BOARD_SEEDS.test[:20]:  # the first the reader answers (a refusal is quicker)
            picture, _, _ = draw_board(seed, size=(4032, 3024))
            cv2.imwrite(str(path), picture, [cv2.IMWRITE_JPEG_QUALITY, 90])
            try:  # (this process's own first reading warms it up)
                read_picture(load(path), lossy=True)
                break
            except BoardError:
                continue
        process, inside, code = read_command_times(path, repeat, env)
    said = "read" if code == 0 else f"refused (exit {code})"
    added = statistics.median(process) - statistics.median(inside)
    return ["", f"| a drawn 12 Mpx phone JPEG (test board {seed}) | median of {repeat} | goal |",
            "|---|---|---|",
            f"| `webbot daily-set read phone.jpg`, process start to answer ({said}) | "
            f"{statistics.median(process) * 1000:.0f} ms | |",
            f"| the same file read in this process (decoded, then read) | "
            f"{statistics.median(inside) * 1000:.0f} ms | |",
            f"| what the command adds | {added * 1000:.0f} ms | at most "
            f"{PHOTO_GOAL_S * 1000:.0f} ms: {'met' if added <= PHOTO_GOAL_S else 'missed'} |"
            ], added <= PHOTO_GOAL_S


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command")
    parser.add_argument("--before", default=BEFORE, help="the earlier bot's commit")
    parser.add_argument("--docs", action="store_true", help="write into the docs")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="webbot-bench-") as folder:
        env = {**os.environ, "XDG_DATA_HOME": folder, "WEBBOT_CACHE_DIR": folder}
        lines, quick = command_rows(args.repeat, args.before, env)
        photo, close = photo_rows(args.repeat, env)
    lines += photo
    lines.append(f"\nMeasured {time.strftime('%Y-%m-%d')} on {cores()} cores in "
                 f"{time.monotonic() - started:.0f} s with `scripts/bench_startup.py"
                 f"{' --docs' if args.docs else ''}`.")
    if not (quick and close):
        print("note: a goal was missed (see the table)", file=sys.stderr)
    return publish("speed_startup", "\n".join(lines), args.docs, 0)


if __name__ == "__main__":
    sys.exit(main())
