#!/usr/bin/env python3
"""The soak figures in docs/soak.md: long soaks of each game on a local Dask cluster, and the
throughput at 1, 2 and 4 workers (the same Puzlogic games, 1 worker being the baseline,
measured in the same run).

    .venv/bin/python scripts/soak_figures.py [--puzlogic 300] [--daily-set 200]
        [--burrito-minutes 30] [--throughput 40] [--docs] [--jsonl DIR]

Every game is checked against the replica's own record; a failure is a bug to fix, and the
script exits 1 when there was any. --quick plays a handful of each (a smoke test).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

from docs_table import cores, put_in_docs

from webbot.soak.runner import Plan, SoakResult, dask_client, percentile, run_soak


def soak(plan: Plan, jsonl: Path | None) -> SoakResult:
    with dask_client(plan) as client:
        def note(record) -> None:
            if not record.passed:
                print(f"  failed: {record.case.name}: {record.tries[-1].played.reason}",
                      file=sys.stderr)

        result = run_soak(plan, client, note)
    if jsonl:
        jsonl.mkdir(parents=True, exist_ok=True)
        name = f"{plan.game}-{plan.workers or 'auto'}-{plan.count or plan.minutes}.jsonl"
        with (jsonl / name).open("w") as out:
            for record in result.records:
                out.write(json.dumps(record.as_json()) + "\n")
    passed = sum(r.passed for r in result.records)
    print(f"{plan.game}: {passed}/{len(result.records)} passed in {result.seconds:.0f} s "
          f"on {result.workers} workers", file=sys.stderr)
    return result


def row(label: str, result: SoakResult, baseline: float | None = None) -> str:
    records = result.records
    seconds = [r.seconds for r in records]
    passed = sum(r.passed for r in records)
    retried = sum(len(r.tries) > 1 for r in records)
    rate = len(records) / max(result.seconds, 1e-9) * 60
    ratio = f" | {rate / baseline:.2f}x" if baseline else ""
    return (f"| {label} | {result.workers} | {len(records)} | {passed} | "
            f"{len(records) - passed} | {retried} | {percentile(seconds, 0.5):.1f} | "
            f"{percentile(seconds, 0.95):.1f} | {rate:.1f} | {result.seconds / 60:.1f}{ratio} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzlogic", type=int, default=300)
    parser.add_argument("--daily-set", type=int, default=200)
    parser.add_argument("--burrito-minutes", type=float, default=30)
    parser.add_argument("--throughput", type=int, default=40,
                        help="Puzlogic games played at each of 1, 2 and 4 workers")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--docs", action="store_true", help="write into its docs page")
    parser.add_argument("--jsonl", type=Path, help="keep each soak's games in this folder")
    args = parser.parse_args()
    if args.quick:
        args.puzlogic, args.daily_set, args.burrito_minutes, args.throughput = 2, 2, 0.2, 2

    header = ("| soak | workers | games | passed | failed | retried | s/game p50 | "
              "s/game p95 | games/min | minutes |")
    runs = [
        ("Puzlogic: generated levels (3-12 pieces, every sum kind)",
         soak(Plan("puzlogic", count=args.puzlogic, seed=1), args.jsonl)),
        ("Daily SET: seeded puzzles, old / 2022 / current page",
         soak(Plan("daily-set", count=args.daily_set, seed=1), args.jsonl)),
        # seed 3: the soak run again after the digits fix (docs/soak.md tells of seed 1's)
        ("Burrito Bison: 2-round runs at the four real sizes",
         soak(Plan("burrito-bison", minutes=args.burrito_minutes, seed=3), args.jsonl)),
    ]
    speed = [(k, soak(Plan("puzlogic", count=args.throughput, workers=k, seed=2), args.jsonl))
             for k in (1, 2, 4)]
    baseline = len(speed[0][1].records) / max(speed[0][1].seconds, 1e-9) * 60
    block = "\n".join([
        header, "|---|---|---|---|---|---|---|---|---|---|",
        *(row(label, result) for label, result in runs), "",
        f"Throughput: the same {args.throughput} Puzlogic games (seed 2) at 1, 2 and 4 local "
        "workers, 1 worker being the baseline:", "",
        header + " vs 1 worker |", "|---|---|---|---|---|---|---|---|---|---|---|",
        *(row(f"{k} worker{'s' * (k > 1)}", result, baseline) for k, result in speed), "",
        f"Measured {datetime.date.today()} on {cores()} cores with "
        "`scripts/soak_figures.py --docs`; a game's seconds include starting its browser.",
    ])
    print(block)
    if args.docs:
        put_in_docs("soak_figures", block)
    results = [result for _, result in runs + speed]
    return 1 if any(not r.passed for result in results for r in result.records) else 0


if __name__ == "__main__":
    sys.exit(main())
