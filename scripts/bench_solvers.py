#!/usr/bin/env python3
"""Benchmark of the Puzlogic solvers: the 15 reference levels and generated boards.

Every backend and the baseline (the textbook Z3 model: an Int per cell, Distinct per line) run
in the same session, each measurement in a child process killed at the time limit. Prints a
Markdown table of medians and of each backend's speed-up over the baseline; --docs also puts
it into docs/puzlogic.md. Every answer is checked by the referee (webbot.puzlogic.rules).

    .venv/bin/python scripts/bench_solvers.py [--instances 5] [--timeout 10] [--docs]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

# scripts/ is on the path when this file is run as a script
from docs_table import put_in_docs

from webbot.puzlogic.generate import latin_puzzle
from webbot.puzlogic.model import Puzzle
from webbot.puzlogic.rules import broken_rules
from webbot.puzlogic.solvers import BACKENDS
from webbot.puzlogic.solvers.z3 import naive_solutions

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ROOT.parent / "shared" / "reference" / "puzlogic" / "levels.json"
BASELINE = "z3-naive"
SOLVERS = {**BACKENDS, BASELINE: naive_solutions}


def _solve_all(name: str, puzzles: list[Puzzle], answer) -> None:
    started = time.perf_counter()
    found = [next(SOLVERS[name](p), None) for p in puzzles]
    seconds = time.perf_counter() - started
    wrong = sum(1 for p, s in zip(puzzles, found, strict=True)
                if s is None or broken_rules(p, s))
    answer.send((seconds, wrong))


def measure(name: str, puzzles: list[Puzzle], timeout: float) -> tuple[float | None, int]:
    """Seconds to solve every puzzle (None past the limit) and how many answers were wrong."""
    receive, send = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(
        target=_solve_all, args=(name, puzzles, send))
    child.start()
    ready = receive.poll(timeout)
    result = receive.recv() if ready else (None, 0)
    child.kill()
    child.join()
    return result


def cases(instances: int, sizes: list[int]) -> list[tuple[str, int, list[list[Puzzle]]]]:
    """(name, free cells, runs); each run is a list of puzzles solved back to back."""
    out = []
    if LEVELS.exists():
        levels = [Puzzle.from_json(level) for level in json.loads(LEVELS.read_text())["levels"]]
        out.append(("15 levels, all", sum(len(p.free) for p in levels), [levels] * instances))
    for size in sizes:
        boards = [latin_puzzle(size, seed)[0] for seed in range(instances)]
        out.append((f"{size}x{size}", len(boards[0].free), [[b] for b in boards]))
    return out


def fmt(seconds: float | None, timeout: float) -> str:
    if seconds is None:
        return f"> {timeout:g} s"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=9, help="boards per size / level runs")
    parser.add_argument("--timeout", type=float, default=10, help="seconds per measurement")
    parser.add_argument("--sizes", default="6,9,15,25")
    parser.add_argument("--docs", action="store_true", help="write into its docs page")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    names = [*BACKENDS, BASELINE]
    header = ["case", "free cells", *names, f"fast vs {BASELINE}", "fast worst"]
    rows, medians, fast_times = [], {}, []
    for case, free, runs in cases(args.instances, sizes):
        row = [case, str(free)]
        for name in names:
            results = []
            for run in runs:
                results.append(measure(name, run, args.timeout))
                if sum(t is None for t, _ in results) > len(runs) / 2:
                    break  # the median is past the limit already: spare the other runs
            wrong = sum(w for _, w in results)
            times = [t for t, _ in results]
            # A run past the limit counts as the limit: the median is then a lower bound.
            times += [None] * (len(runs) - len(times))
            median = statistics.median(t if t is not None else math.inf for t in times)
            medians[case, name] = None if median == math.inf else median
            if name == "fast":
                fast_times = times
            row.append("WRONG" if wrong else fmt(medians[case, name], args.timeout))
            print(f"  {case:>16}  {name:>10}  {row[-1]}", file=sys.stderr, flush=True)
        fast, base = medians[case, "fast"], medians[case, BASELINE]
        if fast and base:
            row.append(f"{base / fast:.0f}x faster")
        else:
            row.append(f"> {args.timeout / fast:.0f}x faster" if fast else "n/a")
        row.append(fmt(None if None in fast_times else max(fast_times), args.timeout))
        rows.append(row)
    table = "\n".join(["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
                      + ["| " + " | ".join(r) + " |" for r in rows])
    growth = growth_note(medians, sizes)
    note = (f"Medians of {args.instances} runs (levels: all 15 solved back to back), "
            f"{args.timeout:g} s limit per run, measured {time.strftime('%Y-%m-%d')} on "
            f"{multiprocessing.cpu_count()} cores. {growth}")
    print(table)
    print()
    print(note)
    if args.docs and not put_in_docs("bench_solvers", f"{table}\n\n{note}"):
        return 1
    return 0


def growth_note(medians: dict, sizes: list[int]) -> str:
    points = [(size * size * 0.6, medians.get((f"{size}x{size}", "fast"))) for size in sizes]
    points = [(n, t) for n, t in points if t]
    if len(points) < 2:
        return ""
    steps = [f"{math.log(t2 / t1) / math.log(n2 / n1):.1f}"
             for (n1, t1), (n2, t2) in zip(points, points[1:], strict=False)]
    return ("Growth of the fast solver's median with the number of free cells n, as the "
            f"exponent k in t ~ n^k between successive sizes: {', '.join(steps)}.")


if __name__ == "__main__":
    sys.exit(main())
