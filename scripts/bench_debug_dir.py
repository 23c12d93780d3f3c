#!/usr/bin/env python3
"""Whether watching a run changes it: Burrito Bison's decisions a second with `--debug-dir`
against the same command without it, in pairs measured back to back in this run, and what the
folder kept (frames, frames dropped, the trace's size).

Each run is `webbot burrito-bison --fresh --rounds N --no-shop` on the bundled replica (seed
21, as bench_burrito_bison.py), a process as a user starts it; its decisions a second are the
ones its table's title prints. Goal: with the folder, within 10% of the decisions a second
without it.

    .venv/bin/python scripts/bench_debug_dir.py [--pairs 3] [--rounds 1] [--docs]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# scripts/ is on the path when this file is run as a script
from docs_table import cores, publish

ROOT = Path(__file__).resolve().parents[1]
GOAL = 0.9  # with --debug-dir, at least this share of the decisions a second without it
LIMIT_S = 600


def run(rounds: int, folder: Path | None, url: str, env: dict[str, str]) -> tuple[float, str]:
    """(decisions a second, the run's stderr) of one run; SystemExit when it fails."""
    argv = [sys.executable, "-m", "webbot.cli", "burrito-bison", "--fresh", "--rounds",
            str(rounds), "--no-shop", "--url", url]
    if folder is not None:
        argv += ["--debug-dir", str(folder)]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=LIMIT_S,
                          check=False)
    found = re.search(r"\(([\d.]+) decisions/s", done.stdout)
    if done.returncode or not found:
        sys.exit(f"bench_debug_dir: the run failed (exit {done.returncode}): "
                 f"{done.stderr.strip()[-300:]}")
    return float(found[1]), done.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="runs with and without")
    parser.add_argument("--rounds", type=int, default=1, help="rounds a run")
    parser.add_argument("--docs", action="store_true", help="write into the docs")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from webbot.server import FixtureServer

    started = time.monotonic()
    plain, watched, frames, traces, dropped = [], [], [], [], 0
    with tempfile.TemporaryDirectory(prefix="webbot-bench-") as scratch, \
            FixtureServer() as server:
        env = {**os.environ, "XDG_DATA_HOME": scratch, "COLUMNS": "200"}
        url = f"{server.url}burrito-bison/index.html?seed=21"
        for number in range(args.pairs):
            plain.append(run(args.rounds, None, url, env)[0])
            folder = Path(scratch) / f"debug-{number}"
            speed, said = run(args.rounds, folder, url, env)
            watched.append(speed)
            frames.append(len(list(folder.glob("*.png"))))
            traces.append(sum(p.stat().st_size for p in folder.glob("trace*.zip")))
            if found := re.search(r"(\d+) frames? not kept", said):
                dropped += int(found[1])
    ratio = statistics.median(watched) / statistics.median(plain)
    lines = ["| Burrito Bison, headless | decisions a second (median, range) | against "
             "without the folder | frames kept a run | dropped | trace a run |",
             "|---|---|---|---|---|---|",
             f"| without --debug-dir | {statistics.median(plain):.1f} "
             f"({min(plain):.1f}-{max(plain):.1f}) | 1.00x | - | - | - |",
             f"| with --debug-dir | {statistics.median(watched):.1f} "
             f"({min(watched):.1f}-{max(watched):.1f}) | {ratio:.2f}x (goal >= {GOAL:g}x: "
             f"{'met' if ratio >= GOAL else 'missed'}) | {statistics.median(frames):.0f} | "
             f"{dropped} | {statistics.median(traces) / 1e6:.1f} MB |",
             "",
             f"{args.pairs} pairs of `webbot burrito-bison --fresh --rounds {args.rounds} "
             "--no-shop` on the bundled replica (seed 21), one run without the folder and one "
             "with it, back to back. Measured "
             f"{time.strftime('%Y-%m-%d')} on {cores()} cores in "
             f"{time.monotonic() - started:.0f} s with `scripts/bench_debug_dir.py"
             f"{' --docs' if args.docs else ''}`."]
    return publish("speed_debug_dir", "\n".join(lines), args.docs, 0)


if __name__ == "__main__":
    sys.exit(main())
