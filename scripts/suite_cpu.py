"""Where the test suite's time goes: the CPU the whole machine spent during each test, the suite
run one test at a time (so that what the machine did was that test's: the test's own reading,
the `webbot` runs it started, their browsers and the pages they drew, which a test's own
process accounting misses), summed by file and listed for the costliest tests.

    .venv/bin/python scripts/suite_cpu.py            # the suite as CI runs it (about 25 min)
    .venv/bin/python scripts/suite_cpu.py tests/hostile --top 10

Run it on an otherwise idle machine: another load's CPU is counted too. The same test costs
the same CPU whether the suite runs on one core or two; CI's two test processes share the
machine's cores, so the suite's time in CI is about this total over the cores, plus waits.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def machine_busy_s() -> float:
    """CPU seconds the machine has spent busy (every core) since it started."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / TICKS  # less idle and iowait


class MachineCPU:
    """A pytest plugin: each test's machine CPU seconds and wall seconds."""

    def __init__(self) -> None:
        self.tests: list[tuple[str, float, float]] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        busy, started = machine_busy_s(), time.monotonic()
        yield
        self.tests.append((item.nodeid, machine_busy_s() - busy, time.monotonic() - started))


def table(tests: list[tuple[str, float, float]], top: int) -> str:
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for name, cpu, wall in tests:
        row = by_file[name.split("::")[0]]
        row[0] += cpu
        row[1] += wall
        row[2] += 1
    total_cpu, total_wall = sum(t[1] for t in tests), sum(t[2] for t in tests)
    lines = [f"{len(tests)} tests: {total_cpu:.0f} CPU seconds, {total_wall:.0f} s one at a "
             f"time ({total_cpu / max(total_wall, 1e-9):.2f} cores busy on average)", "",
             "| file | tests | CPU s | share | wall s |", "|---|---|---|---|---|"]
    for name, (cpu, wall, count) in sorted(by_file.items(), key=lambda row: -row[1][0]):
        lines.append(f"| {name} | {count} | {cpu:.1f} | {cpu / total_cpu:.1%} | {wall:.1f} |")
    lines += ["", f"The {top} costliest tests:", "", "| test | CPU s | wall s |", "|---|---|---|"]
    for name, cpu, wall in sorted(tests, key=lambda test: -test[1])[:top]:
        lines.append(f"| {name} | {cpu:.1f} | {wall:.1f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="test files or folders (default: all)")
    parser.add_argument("--top", type=int, default=30, help="costliest tests listed")
    parser.add_argument("--full", action="store_true", help="the full suite's tests too")
    args = parser.parse_args()
    os.chdir(ROOT)
    plugin = MachineCPU()
    code = pytest.main(["-p", "no:cacheprovider", "-n", "0", "-q", *(["--full"] * args.full),
                        *args.paths], plugins=[plugin])
    print(table(plugin.tests, args.top))
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
