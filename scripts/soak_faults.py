#!/usr/bin/env python3
"""The Reliability figures in the README: a soak of every game under injected faults.

Games are played as `webbot soak` plays them (a LocalCluster of worker processes, each game in
a browser of its own, checked against the replica's record), while a fault thread kills, by
their pids, all the renderer processes of one browser under way every --renderer-every
seconds (what an out-of-memory kill does to a tab), and one Dask worker process (with the game
it is playing) every --worker-every seconds. What is counted: games passed, pages the bot got
back (recoveries), games tried twice, workers lost, and from the records themselves, games
missing (records lost) and games recorded twice (duplicates); both must be 0.

    .venv/bin/python scripts/soak_faults.py [--puzlogic 100] [--daily-set 90]
        [--burrito-bison 10] [--burrito-rounds 1] [--workers 2] [--renderer-every 20]
        [--worker-every 120] [--docs] [--quick]

Exit 1 when a game failed, a record was lost or duplicated, or no fault was injected.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import signal
import sys
import threading
import time
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from docs_table import cores, put_in_docs

from webbot.soak.runner import Plan, SoakResult, dask_client, run_soak


def children() -> dict[int, list[int]]:
    """Every process's children, from /proc."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()  # pid (comm) state ppid ...
                tree.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(
                    int(entry.name))
    return tree


def under(pid: int, tree: dict[int, list[int]]) -> list[int]:
    found, frontier = [], [pid]
    while frontier:
        frontier = [child for parent in frontier for child in tree.get(parent, [])]
        found += frontier
    return found


def command(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def is_browser(pid: int) -> bool:
    """Chromium's browser process (its own children have a --type)."""
    line = command(pid)
    return b"chrom" in line.split(b"\0")[0] and b"--type=" not in line


def is_tab_renderer(pid: int) -> bool:
    line = command(pid)
    return b"--type=renderer" in line and b"--top-chrome-webui" not in line


def is_worker(pid: int) -> bool:
    """A Dask worker process started by the LocalCluster's nanny (multiprocessing's spawn)."""
    line = command(pid)
    return b"spawn_main" in line and b"resource_tracker" not in line


@dataclass
class Faults:
    """Kills renderers and workers on a timer, on a thread of its own, until stopped."""

    renderer_every_s: float
    worker_every_s: float
    chance: random.Random = field(default_factory=lambda: random.Random(1))
    renderer_kills: int = 0   # browsers whose renderers were all killed
    renderers_killed: int = 0
    worker_kills: int = 0
    stopping: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        started = time.monotonic()
        next_renderer, next_worker = self.renderer_every_s, self.worker_every_s
        while not self.stopping.wait(1.0):
            elapsed = time.monotonic() - started
            if elapsed >= next_renderer:
                next_renderer += self.renderer_every_s
                self.kill_renderers()
            if elapsed >= next_worker:
                next_worker += self.worker_every_s
                self.kill_worker()

    def kill_renderers(self) -> None:
        tree = children()
        browsers = [pid for pid in under(os.getpid(), tree) if is_browser(pid)]
        if not browsers:
            return
        browser = self.chance.choice(sorted(browsers))
        killed = 0
        for pid in under(browser, tree):
            if is_tab_renderer(pid):
                with suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
        if killed:
            self.renderer_kills += 1
            self.renderers_killed += killed

    def kill_worker(self) -> None:
        tree = children()
        workers = [pid for pid in tree.get(os.getpid(), []) if is_worker(pid)]
        if workers:
            worker = self.chance.choice(sorted(workers))
            for pid in [worker, *under(worker, tree)]:  # the worker, and its browser with it
                with suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            self.worker_kills += 1


def checked(result: SoakResult, count: int) -> tuple[int, int]:
    """Records lost (games of the plan with no record) and duplicates (games recorded more
    than once)."""
    numbers = Counter(record.case.number for record in result.records)
    lost = 0 if result.interrupted else sum(1 for n in range(count) if n not in numbers)
    return lost, sum(times - 1 for times in numbers.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzlogic", type=int, default=100)
    parser.add_argument("--daily-set", type=int, default=90)
    parser.add_argument("--burrito-bison", type=int, default=10)
    parser.add_argument("--burrito-rounds", type=int, default=1, help="rounds a Burrito game")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--renderer-every", type=float, default=20)
    parser.add_argument("--worker-every", type=float, default=120)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--quick", action="store_true", help="a few games (a smoke test)")
    parser.add_argument("--docs", action="store_true", help="write into the README")
    args = parser.parse_args()
    if args.quick:
        args.puzlogic, args.daily_set, args.burrito_bison = 4, 4, 1
    counts = {"puzlogic": args.puzlogic, "daily-set": args.daily_set,
              "burrito-bison": args.burrito_bison}
    faults = Faults(args.renderer_every, args.worker_every)
    rows, bad = [], 0
    first = Plan("puzlogic", count=1, workers=args.workers)
    with dask_client(first) as client:
        thread = threading.Thread(target=faults.run, daemon=True, name="faults")
        thread.start()
        started = time.monotonic()
        try:
            for game, count in counts.items():
                if count <= 0:
                    continue
                options = {"rounds": args.burrito_rounds} if game == "burrito-bison" else {}
                plan = Plan(game, count=count, workers=args.workers, seed=args.seed,
                            options=options)
                result = run_soak(plan, client, note)
                lost, twice = checked(result, count)
                passed = sum(r.passed for r in result.records)
                bad += (len(result.records) - passed) + lost + twice
                rows.append((game, count, passed, sum(len(r.tries) > 1 for r in result.records),
                             sum(r.recoveries for r in result.records), result.lost_workers,
                             lost, twice, result.seconds))
                print(f"{game}: {passed}/{count} passed in {result.seconds:.0f} s", file=sys.stderr)
        finally:
            faults.stopping.set()
            thread.join()
        minutes = (time.monotonic() - started) / 60
    total = [sum(row[i] for row in rows) for i in range(1, 8)]
    block = "\n".join([
        "| game | games | passed | retried | pages recovered | workers lost | records lost | "
        "duplicates |",
        "|---|---|---|---|---|---|---|---|",
        *(f"| {game} | {count} | {passed} | {retried} | {recovered} | {workers} | {lost} | "
          f"{twice} |" for game, count, passed, retried, recovered, workers, lost, twice, _
          in rows),
        "| **all** | " + " | ".join(f"**{value}**" for value in total) + " |",
        "",
        f"Faults injected over {minutes:.0f} minutes on {args.workers} workers: all the tab "
        f"renderers of a running browser killed {faults.renderer_kills} times (every "
        f"{args.renderer_every:g} s; {faults.renderers_killed} processes), a worker process "
        f"killed {faults.worker_kills} times (every {args.worker_every:g} s). Measured "
        f"{datetime.date.today()} on {cores()} cores with `scripts/soak_faults.py --docs`.",
    ])
    print(block)
    if args.docs:
        put_in_docs("soak_faults", block)
    if not faults.renderer_kills:
        print("no renderer was killed: the soak was too short to measure anything",
              file=sys.stderr)
        return 1
    return 1 if bad else 0


def note(record) -> None:
    """A line per game as it ends (progress on a long soak), with what went wrong."""
    last = record.tries[-1].played
    how = "passed" if record.passed else f"FAILED: {last.reason}"
    extra = "".join([f", {record.recoveries} recovered" if record.recoveries else "",
                     f", {len(record.tries)} tries" if len(record.tries) > 1 else ""])
    print(f"  {record.case.game} #{record.case.number} {record.case.name}: {how} "
          f"({record.seconds:.1f} s{extra})", file=sys.stderr, flush=True)
    for number, tried in enumerate(record.tries[:-1], 1):
        print(f"    try {number} on {tried.worker}: {tried.played.reason}", file=sys.stderr,
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
