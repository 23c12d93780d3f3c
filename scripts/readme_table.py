"""Puts a benchmark's Markdown into README.md between its two marker comments (shared by the
scripts/bench_*.py benchmarks)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def put_in_readme(name: str, block: str) -> bool:
    """Replace what stands between <!-- name:start --> and <!-- name:end -->; False (and a
    message) when the README has no such markers."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = README.read_text()
    pattern = re.escape(start) + ".*?" + re.escape(end)
    if not re.search(pattern, text, re.S):
        print(f"README.md has no {name} markers; not written", file=sys.stderr)
        return False
    README.write_text(re.sub(pattern, lambda _: f"{start}\n{block}\n{end}", text, flags=re.S))
    return True


def cores() -> int:
    return len(os.sched_getaffinity(0))


def publish(name: str, table: str, write: bool, wrong: int) -> int:
    """Print a table, put it in README.md when asked; the exit code: 1 when the README has no
    place for it or any reading was wrong, else 0."""
    print(table)
    if write and not put_in_readme(name, table):
        return 1
    return 1 if wrong else 0
