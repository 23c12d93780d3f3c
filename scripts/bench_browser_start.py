#!/usr/bin/env python3
"""The browser's start: Debian's Chromium and its headless shell, each started as the bot
starts it (its flags; a throwaway context as `--fresh` runs, or a profile kept between runs)
until the bundled index page is shown, then closed; the headless shell with flags that leave
parts of Chromium's start out (FLAGS) beside the bot's own; and Playwright's driver (Node.js),
started and stopped with and without its compiled code kept (NODE_COMPILE_CACHE, as webbot
keeps it).

Each figure is the median of `--repeat` starts, the two ways taking turns so that both see
the machine in the same state. The CPU is that of the browser's processes and Playwright's
driver from the launch until the page is shown (a second core lets the wall time be shorter),
or the driver's until it answers.

    .venv/bin/python scripts/bench_browser_start.py [--repeat 5] [--docs]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

# scripts/ is on the path when this file is run as a script
from docs_table import cores, publish
from playwright.sync_api import Playwright, sync_playwright

from webbot.browser import CHROMIUM, CHROMIUM_ARGS, HEADLESS_SHELL
from webbot.server import FixtureServer

BROWSERS = (("Chromium (`chromium`, headless)", CHROMIUM),
            ("its headless shell (`chromium-headless-shell`)", HEADLESS_SHELL))
KINDS = ("a throwaway context (`--fresh`)", "a kept profile")


def spent() -> float:
    """CPU seconds of this process's children (Playwright's driver, the browser's processes)."""
    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            pass
    return total


# Flags that leave parts of Chromium's start out, tried beside the bot's own (CHROMIUM_ARGS) on
# the headless shell in a throwaway context.
FLAGS = (("--no-zygote (no zygote process to fork renderers from)", ["--no-zygote"]),
         ("--disable-extensions, --disable-default-apps, --disable-breakpad, "
          "--disable-client-side-phishing-detection",
          ["--disable-extensions", "--disable-default-apps", "--disable-breakpad",
           "--disable-client-side-phishing-detection"]),
         ("--disable-features=Translate,OptimizationHints,MediaRouter,PaintHolding",
          ["--disable-features=Translate,OptimizationHints,MediaRouter,PaintHolding"]),
         ("--renderer-process-limit=1", ["--renderer-process-limit=1"]),
         ("--disable-site-isolation-trials (weakens what keeps a page's frames apart)",
          ["--disable-site-isolation-trials"]))


def start(playwright: Playwright, executable: str, profile: Path | None, url: str,
          extra: list[str] | None = None) -> tuple[float, float, float]:
    """One start (`extra`: flags beside the bot's): seconds to the page shown, the CPU seconds
    that took, seconds to close."""
    before, started = spent(), time.perf_counter()
    if profile is None:
        browser = playwright.chromium.launch(executable_path=executable,
                                             args=CHROMIUM_ARGS + (extra or []))
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        closer = browser
    else:
        closer = context = playwright.chromium.launch_persistent_context(
            profile, executable_path=executable, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800})
        page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    shown, cpu = time.perf_counter() - started, spent() - before
    closing = time.perf_counter()
    closer.close()
    return shown, cpu, time.perf_counter() - closing


def flag_rows(playwright: Playwright, url: str, repeat: int) -> list[str]:
    """The headless shell's start with each of FLAGS beside the bot's, taking turns."""
    ways = (("the bot's flags alone", []), *FLAGS)
    runs: dict[str, list[tuple[float, float, float]]] = {}
    for _ in range(repeat):
        for name, extra in ways:
            runs.setdefault(name, []).append(start(playwright, HEADLESS_SHELL, None, url, extra))
    base = statistics.median(shown for shown, _, _ in runs[ways[0][0]])
    lines = ["", "| the headless shell, a throwaway context, flags added | to the page shown | "
             "its spread | CPU until then | closed in | against the bot's flags |",
             "|---|---|---|---|---|---|"]
    for name, _ in ways:
        shown, cpu, closed = (statistics.median(column)
                              for column in zip(*runs[name], strict=True))
        low, high = min(r[0] for r in runs[name]), max(r[0] for r in runs[name])
        lines.append(f"| {name} | {shown * 1000:.0f} ms | {low * 1000:.0f}-{high * 1000:.0f} ms "
                     f"| {cpu:.2f} s | {closed * 1000:.0f} ms | {base / shown:.2f}x as fast |")
    return lines


def driver_start(cache: str | None) -> tuple[float, float]:
    """One start of Playwright's driver: seconds until it answers, its CPU seconds by then."""
    if cache:
        os.environ["NODE_COMPILE_CACHE"] = cache
    else:
        os.environ.pop("NODE_COMPILE_CACHE", None)
    before, started = spent(), time.perf_counter()
    manager = sync_playwright()
    manager.start()
    took, cpu = time.perf_counter() - started, spent() - before
    manager.__exit__()
    return took, cpu


def driver_rows(repeat: int, folder: str) -> list[str]:
    cache = os.path.join(folder, "node")
    ways = (("without a compile cache", None), ("with its compile cache kept", cache))
    driver_start(cache)  # the cache written, not counted
    runs: dict[str, list[tuple[float, float]]] = {}
    for _ in range(repeat):
        for name, kept in ways:
            runs.setdefault(name, []).append(driver_start(kept))
    base = statistics.median(cpu for _, cpu in runs[ways[0][0]])
    lines = ["", "| Playwright's driver (Node.js), started | until it answers | its CPU | "
             "CPU against without |", "|---|---|---|---|"]
    for name, _ in ways:
        took, cpu = (statistics.median(column) for column in zip(*runs[name], strict=True))
        lines.append(f"| {name} | {took * 1000:.0f} ms | {cpu:.2f} s | {cpu / base:.2f}x |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="starts of each browser and kind")
    parser.add_argument("--docs", action="store_true", help="write into the docs")
    args = parser.parse_args()
    missing = [path for _, path in BROWSERS if not Path(path).exists()]
    if missing:
        print(f"bench_browser_start: {missing[0]} is not installed (bash scripts/setup.sh)",
              file=sys.stderr)
        return 1
    began = time.monotonic()
    runs: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    with FixtureServer() as server, sync_playwright() as playwright, \
            tempfile.TemporaryDirectory(prefix="webbot-bench-") as folder:
        url = f"{server.url}index.html"
        for _, path in BROWSERS:  # a first start of each, not counted: files read, profile made
            start(playwright, path, Path(folder) / Path(path).name, url)
        for _ in range(args.repeat):
            for kind in KINDS:
                for _, path in BROWSERS:
                    profile = Path(folder) / Path(path).name if kind == KINDS[1] else None
                    runs.setdefault((kind, path), []).append(
                        start(playwright, path, profile, url))
        flags = flag_rows(playwright, url, args.repeat)
    lines = ["| browser, started on | to the page shown | CPU until then | closed in | "
             "CPU against Chromium's |", "|---|---|---|---|---|"]
    for kind in KINDS:
        base = statistics.median(cpu for _, cpu, _ in runs[kind, CHROMIUM])
        for name, path in BROWSERS:
            shown, cpu, closed = (statistics.median(column)
                                  for column in zip(*runs[kind, path], strict=True))
            lines.append(f"| {name}, {kind} | {shown * 1000:.0f} ms | {cpu:.2f} s | "
                         f"{closed * 1000:.0f} ms | {cpu / base:.2f}x |")
    lines += flags
    with tempfile.TemporaryDirectory(prefix="webbot-bench-") as folder:
        lines += driver_rows(args.repeat, folder)
    lines.append(f"\nMedians of {args.repeat} starts of each, the two ways taking turns; the "
                 "CPU is the browser's processes' and Playwright's driver's. Measured "
                 f"{time.strftime('%Y-%m-%d')} on {cores()} cores in "
                 f"{time.monotonic() - began:.0f} s with `scripts/bench_browser_start.py"
                 f"{' --docs' if args.docs else ''}`.")
    return publish("speed_browser_start", "\n".join(lines), args.docs, 0)


if __name__ == "__main__":
    sys.exit(main())
