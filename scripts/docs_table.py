"""Puts a benchmark's Markdown into the documentation page that holds its two marker comments
(README.md or a page under docs/; shared by the scripts/bench_*.py benchmarks)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]


def put_in_docs(name: str, block: str) -> bool:
    """Replace what stands between <!-- name:start --> and <!-- name:end --> in the page that
    has them; False (and a message) when no page has such markers."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    pattern = re.escape(start) + ".*?" + re.escape(end)
    for page in pages():
        text = page.read_text()
        if re.search(pattern, text, re.S):
            page.write_text(re.sub(pattern, lambda _: f"{start}\n{block}\n{end}", text,
                                   flags=re.S))
            return True
    print(f"no page of the docs has {name} markers; not written", file=sys.stderr)
    return False


def cores() -> int:
    return len(os.sched_getaffinity(0))


def publish(name: str, table: str, write: bool, wrong: int) -> int:
    """Print a table, put it in its docs page when asked; the exit code: 1 when no page has a
    place for it or any reading was wrong, else 0."""
    print(table)
    if write and not put_in_docs(name, table):
        return 1
    return 1 if wrong else 0
