"""Where the test suite's time goes: the CPU the whole machine spent during each test, the suite
run one test at a time (so that what the machine did was that test's: the test's own reading,
the `webbot` runs it started, their browsers and the pages they drew, which a test's own
process accounting misses), summed by file and listed for the costliest tests.

    .venv/bin/python scripts/suite_cpu.py            # the suite as CI runs it (about 25 min)
    .venv/bin/python scripts/suite_cpu.py tests/hostile --top 10
    .venv/bin/python scripts/suite_cpu.py --by-process   # and the CPU by kind of process

With --by-process, every process on the machine is looked at four times a second, and the CPU
each spent is summed by its kind (Chromium's by its role, Playwright's driver, the `webbot`
runs, the test process): a process that lives less than a quarter of a second may be missed.

Run it on an otherwise idle machine: another load's CPU is counted too. The same test costs
the same CPU whether the suite runs on one core or two; CI's two test processes share the
machine's cores, so the suite's time in CI is about this total over the cores, plus waits.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
import time
from collections import Counter, defaultdict
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


def process_kind(pid: int, command: bytes) -> str:
    """What a process is, from its command line."""
    words = command.replace(b"\0", b" ")
    if pid == os.getpid():
        return "the test process"
    if b"driver/node" in words:
        return "Playwright's driver (node)"
    if b"chrom" in words.split(b" ")[0]:
        role = next((word[7:].decode() for word in words.split() if word.startswith(b"--type=")),
                    "browser")
        return f"Chromium: {role}"
    if b"tests.forkserver" in words:
        return "webbot runs (forked) and their fork server"
    if b"webbot.cli" in words or b"bin/webbot" in words:
        return "webbot runs (fresh interpreters)"
    if b"distributed" in words or b"dask" in words:
        return "Dask's scheduler and workers"
    if not words.strip():
        return "the kernel's threads"
    return words.split(b" ")[0].decode(errors="replace").rsplit("/", 1)[-1]


class ProcessCPU:
    """CPU seconds by kind of process, sampled from /proc while it runs (a `with` block)."""

    def __init__(self, interval_s: float = 0.25) -> None:
        self.interval_s = interval_s
        self.spent: dict[tuple[int, str], list] = {}  # (pid, start time): [kind, first, last]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ProcessCPU:
        self._sample()  # what ran before is not counted: each process from its first sight
        self._thread.start()
        return self

    def __exit__(self, *_) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._sample()

    def _sample(self) -> None:
        first = not self.spent
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                cpu = (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime
                key = (int(entry.name), fields[19])  # (a pid, reused, has another start)
                if key not in self.spent:
                    with open(f"/proc/{entry.name}/cmdline", "rb") as command:
                        kind = process_kind(key[0], command.read())
                    self.spent[key] = [kind, cpu if first else 0.0, cpu]
                self.spent[key][2] = cpu
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile

    def table(self) -> str:
        by_kind: Counter = Counter()
        for kind, first, last in self.spent.values():
            by_kind[kind] += last - first
        total = sum(by_kind.values())
        lines = [f"CPU by kind of process: {total:.0f} CPU seconds seen", "",
                 "| process | CPU s | share |", "|---|---|---|"]
        lines += [f"| {kind} | {cpu:.1f} | {cpu / max(total, 1e-9):.1%} |"
                  for kind, cpu in by_kind.most_common() if cpu >= 0.05]
        return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="test files or folders (default: all)")
    parser.add_argument("--top", type=int, default=30, help="costliest tests listed")
    parser.add_argument("--full", action="store_true", help="the full suite's tests too")
    parser.add_argument("--by-process", action="store_true",
                        help="also the CPU by kind of process (Chromium's roles, the driver, ...)")
    args = parser.parse_args()
    os.chdir(ROOT)
    plugin = MachineCPU()
    processes = ProcessCPU() if args.by_process else None
    with processes or contextlib.nullcontext():
        code = pytest.main(["-p", "no:cacheprovider", "-n", "0", "-q",
                            *(["--full"] * args.full), *args.paths], plugins=[plugin])
    print(table(plugin.tests, args.top))
    if processes is not None:
        print()
        print(processes.table())
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
