#!/usr/bin/env python3
"""Benchmark of the Puzlogic bot: perception per frame, the digit reader against plain
Tesseract, and the whole 15-level run at the bot's pace and set to a slow pace, all headless, in
one session.

Frames: every bundled level grabbed from the replica's canvas as the bot grabs it (device
scale 1 and 2, drifting leaves), and the real screenshots in ../shared/reference when present:
Puzlogic's train and tune parts (scripts/parts.py), so its numbers right are in sample (the
reading out of sample is scripts/robustness_puzlogic.py's test part). Each frame is read by
the bot's reader (templates learned beforehand on the train part's generated page, as in any
run after the first) and by the baseline, the same pipeline with every glyph sent to
Tesseract once (--psm 10, padded crop, digit whitelist), as the original bot read its cells.
Every number read (a given, a piece, a sum) is checked against the level file.

The run: the 15 bundled levels played by the bot at its pace (webbot.puzlogic.act.Tempo;
--repeat runs, 3 by default, and its median run is the one shown: one run moves by a few
tenths of a second with the machine's load) and set to a slow pace, SLOW_PACE (a setting of
today's bot, not an earlier bot: a mouse move per 80 game px, per 12 px for clicks; a whole
reading after each drop; 50 ms between grabs; the default PNG encoding), after an untimed
run (a first run teaches the reader the glyphs its teaching frames did not show, and leaves
them on disk), the time split by the run's parts
(webbot.phases): finding the game, menus, reading, deciding (solving among it), dragging,
checking each drop, waiting for the game's own animations, and the rest. The bot's own time
per piece is its dragging and checking. The bot once more with a look after each drop
(Tempo(drags_per_look=1)), and on the page's screencast (PNG; issue 32);
and the README's row: the run against its floor (scripts/floors.py: the replica's own settle
and fade, read from its source, and a page frame for each mouse move its levels need). Then
--generated levels (50 by default) of the replica's generator, 15 to a page of the test part
(4 to 12 pieces, boards up to 7 rows, all three sum kinds), at the bot's pace; their shapes and
sums are taken from the fixture's test hook, as a tester would (the bot never reads it).
Last, first runs: the 15 levels on an empty cache with the bundled templates
(webbot/puzlogic/glyphs, learned from these levels) beside a later run on the cache it left, in
pairs (--pairs), and one first run without the bundled templates. Prints Markdown tables;
--docs also puts them into their docs page.

    .venv/bin/python scripts/bench_puzlogic.py [--frames 2] [--no-run] [--generated 50]
                                               [--repeat 3] [--pairs 2] [--quick] [--docs]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

# scripts/ is on the path when this file is run as a script
from docs_table import cores, put_in_docs
from floors import puzlogic_floor
from parts import PUZLOGIC_PAGES, PUZLOGIC_REAL
from playwright.sync_api import sync_playwright

from webbot.browser import CHROMIUM_ARGS, find_chromium
from webbot.errors import WebbotError
from webbot.puzlogic.act import SLOW_PACE, Tempo
from webbot.puzlogic.model import LevelView
from webbot.puzlogic.perceive import GLYPHS, Reader, classify, normalise
from webbot.server import FixtureServer
from webbot.vision.digits import WHITELIST, DigitRead, DigitReader, padded_page
from webbot.vision.ocr import forget_readings, read_text

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "reference" / "puzlogic"
# the tune part's real screenshots of levels 1-6 (the thin blue sums of level 10 are measured
# by scripts/robustness_puzlogic.py)
REAL_LEVELS = {name: number for name, number in PUZLOGIC_REAL.items() if number <= 6}
TRAIN_PAGE = PUZLOGIC_PAGES["train"][0]
TARGET_FRAME_MS, TARGET_RUN_S, TARGET_PIECE_MS = 100, 25, 150
GOAL_RUN_S = 18  # issue 32
PHASES = ("finding the game", "menus", "reading", "deciding", "acting", "dragging",
          "checking drops", "waiting")


class PlainTesseract(DigitReader):
    """The baseline: one Tesseract call per glyph, nothing learned."""

    def read(self, glyph: np.ndarray, style: str, agree: bool = False) -> DigitRead:
        page = padded_page(glyph, 32)
        if page is None:
            return DigitRead(None, 0.0, "none")
        self.tesseract_calls += 1
        forget_readings()  # (webbot's cache of Tesseract's readings: not the baseline's)
        text = read_text(page, f"--psm 10 {WHITELIST}")
        ok = len(text) == 1 and text.isdigit()
        return DigitRead(int(text) if ok else None, 1.0, "tesseract")


def levels() -> list[dict]:
    return json.loads((ROOT / "fixtures" / "puzlogic" / "levels.json").read_text())["levels"]


def grab_frames(per_level: int, numbers: list[int], scales: list[int], query: str = ""
                ) -> list[tuple[str, int, np.ndarray]]:
    """(label, level, picture) for the levels, as the bot's canvas grabs (the bundled levels,
    or with `&generate=SEED` a generated page's: the train part's either way)."""
    kind = "generated levels" if "generate=" in query else "bundled levels"
    frames = []
    with FixtureServer() as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(headless=True),
                                             args=CHROMIUM_ARGS)
        for dpr in scales:
            page = browser.new_page(device_scale_factor=dpr)
            for number in numbers:
                page.goto(f"{server.url}puzlogic/index.html?level={number}&leaves=20{query}")
                page.wait_for_function("window.__puzlogicTest.state().screen === 'level'")
                for k in range(per_level if dpr == 1 else 1):
                    if k:
                        page.wait_for_timeout(700)  # let the leaves drift to other cells
                    png = page.locator("canvas").screenshot()
                    frames.append((f"{kind} dpr {dpr} (train)", number,
                                   cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)))
            page.close()
        browser.close()
    return frames


def real_frames() -> list[tuple[str, int, np.ndarray]]:
    return [("real screenshots (tune)", number, cv2.imread(str(REAL / name)))
            for name, number in REAL_LEVELS.items() if (REAL / name).exists()]


def score(view: LevelView, level: dict) -> tuple[int, int]:
    """(numbers read right, numbers there are): givens by cell, pieces and sums as multisets."""
    givens = {(r, c): v for r, c, v in level["cells"] if v is not None}
    right = sum(view.cells.get(cell) == value for cell, value in givens.items())
    pieces = Counter((p["value"], p["color"]) for p in level["pieces"])
    right += sum((pieces & Counter((p.value, p.color) for p in view.tray)).values())
    sums = Counter((s["line"], s["index"], s["counts"], s["target"]) for s in level["sums"])
    right += sum((sums & Counter((s.line, s.index, s.counts, s.target)
                                 for s in view.sums)).values())
    return right, len(givens) + len(level["pieces"]) + len(level["sums"])


def measure(reader: Reader, frames: list, truth: list[dict]) -> dict:
    times, right, total, glyphs_before = [], 0, 0, reader.digits.tesseract_calls
    for _, number, image in frames:
        forget_readings()  # (each frame read as if first seen: no Tesseract reading kept)
        started = time.perf_counter()
        picture = normalise(image)
        assert classify(picture) == "level"
        view = reader.read_level(picture)
        times.append((time.perf_counter() - started) * 1000)
        got, out_of = score(view, truth[number - 1])
        right, total = right + got, total + out_of
    return {"median": statistics.median(times), "p90": sorted(times)[int(0.9 * len(times))],
            "max": max(times), "right": right, "total": total,
            "tesseract": reader.digits.tesseract_calls - glyphs_before}


def full_run(reader: Reader, tempo) -> dict:
    """The 15 bundled levels from a fresh page, timed from opening it to the last level."""
    from webbot.play import play
    from webbot.puzlogic.bot import player
    from webbot.session import RunOptions, game_session

    started = time.perf_counter()
    with game_session(RunOptions(), "puzlogic/index.html") as session:
        playable = player(session, list(range(1, 16)), reader=reader, tempo=tempo)
        bot = playable.bot
        play(playable)
        seconds = time.perf_counter() - started
    phases = dict(bot.phases.seconds)  # (the run's: the session's parts, the loop's, its own)
    phases.pop("closing", None)  # (after the time is taken)
    phases["other (between the parts)"] = seconds - sum(phases.values())
    return {"seconds": seconds, "completed": sum(r.completed for r in bot.results),
            "pieces": sum(r.pieces for r in bot.results), "phases": phases}


def first_runs(pairs: int) -> dict:
    """A first run (an empty cache, the bundled templates) beside a later one (a new reader on
    the cache the first left, as the next process is), in pairs; and a first run without the
    bundled templates, teaching itself every digit as a first run did before they came."""
    runs: dict = {"first": [], "later": [], "asked": [], "unbundled": []}
    for _ in range(pairs):
        with tempfile.TemporaryDirectory() as cache:
            first = Reader(DigitReader(Path(cache), seeds=GLYPHS))
            runs["first"].append(full_run(first, Tempo())["seconds"])
            runs["asked"].append(first.digits.tesseract_calls)
            later = Reader(DigitReader(Path(cache), seeds=GLYPHS))
            runs["later"].append(full_run(later, Tempo())["seconds"])
    with tempfile.TemporaryDirectory() as cache:
        runs["unbundled"].append(full_run(Reader(DigitReader(Path(cache))), Tempo())["seconds"])
    return runs


def first_run_table(runs: dict) -> list[str]:
    first, later = statistics.median(runs["first"]), statistics.median(runs["later"])
    return ["| 15 bundled levels (train), headless | first run (empty cache, bundled templates) "
            "| later run (its cache) | first / later | glyphs asked of Tesseract on a first run "
            "| a first run without the bundled templates |",
            "|---|---|---|---|---|---|",
            f"| median of {len(runs['first'])} pairs | {first:.1f} s | {later:.1f} s "
            f"| {first / later:.2f}x | {statistics.median(runs['asked']):.0f} "
            f"| {runs['unbundled'][0]:.1f} s ({runs['unbundled'][0] / later:.2f}x the later) |"]


GENERATED_SEEDS = PUZLOGIC_PAGES["test"]  # a page of 15 levels each


def generated_run(reader: Reader, count: int) -> dict:
    """`count` generated levels at the bot's pace, 15 to a page, timed like the bundled run."""
    from webbot.play import play
    from webbot.puzlogic.bot import player
    from webbot.session import RunOptions, game_session

    run = {"seconds": 0.0, "completed": 0, "pieces": 0, "levels": 0, "phases": Counter(),
           "kinds": Counter(), "rows": 0, "columns": 0, "failures": []}
    for seed in GENERATED_SEEDS:
        wanted = list(range(1, min(15, count - run["levels"]) + 1))
        if not wanted:
            break
        started = time.perf_counter()
        with game_session(RunOptions(), f"puzlogic/index.html?generate={seed}") as session:
            playable = player(session, wanted, reader=reader)
            bot = playable.bot
            try:
                play(playable)
            except WebbotError as exc:
                run["failures"].append(f"generate={seed}: {exc}")
            run["seconds"] += time.perf_counter() - started
            levels = [session.page.evaluate(f"window.__puzlogicTest.level({n})") for n in wanted]
        run["levels"] += len(wanted)
        run["completed"] += sum(r.completed and not r.unlocking for r in bot.results)
        run["pieces"] += sum(r.pieces for r in bot.results)
        run["phases"].update(bot.phases.seconds)
        for level in levels:
            run["kinds"].update(s["counts"] for s in level["sums"])
            run["rows"] = max(run["rows"], 1 + max(c[0] for c in level["cells"]))
            run["columns"] = max(run["columns"], 1 + max(c[1] for c in level["cells"]))
    return run


def generated_table(run: dict, bundled: dict) -> list[str]:
    def pace(r: dict) -> tuple[float, float, float]:
        own = 1000 * (r["phases"].get("dragging", 0) + r["phases"].get("checking drops", 0))
        levels = r.get("levels", 15)
        return r["seconds"] / levels, 1000 * r["seconds"] / r["pieces"], own / r["pieces"]

    kinds = ", ".join(f"{run['kinds'][k]} {k}" for k in ("all", "blue", "white"))
    lines = ["| levels, headless, at the bot's pace | completed | pieces | seconds | per level "
             "| per piece | bot's own time per piece |", "|---|---|---|---|---|---|---|"]
    for label, r in ((f"{run['levels']} generated, test (boards up to {run['rows']}x"
                      f"{run['columns']}; sums: {kinds})", run), ("15 bundled, train (above)",
                                                                 bundled)):
        per_level, per_piece, own = pace(r)
        levels = r.get("levels", 15)
        lines.append(f"| {label} | {r['completed']}/{levels} | {r['pieces']} | "
                     f"{r['seconds']:.1f} s | {per_level:.2f} s | {per_piece:.0f} ms | "
                     f"{own:.0f} ms |")
    return lines + [f"\nFailures: {'; '.join(run['failures'])}" if run["failures"] else ""]


def run_table(bot: dict, base: dict, each: dict, streamed: dict) -> list[str]:
    lines = ["| 15 bundled levels, headless | the bot set to SLOW_PACE | bot | bot vs SLOW_PACE "
             "| bot, a look after each drop (drags_per_look=1) | bot on the screencast (PNG) |",
             "|---|---|---|---|---|---|"]
    names = [*PHASES, *[name for name in bot["phases"] if name not in PHASES]]
    for name in names:
        mine, theirs = bot["phases"].get(name, 0.0), base["phases"].get(name, 0.0)
        ratio = f"{theirs / mine:.1f}x faster" if mine > 0.05 else ""
        lines.append(f"| {name} | {theirs:.2f} s | {mine:.2f} s | {ratio} | "
                     f"{each['phases'].get(name, 0.0):.2f} s | "
                     f"{streamed['phases'].get(name, 0.0):.2f} s |")
    lines.append(f"| **total** | **{base['seconds']:.1f} s** | **{bot['seconds']:.1f} s** | "
                 f"**{base['seconds'] / bot['seconds']:.1f}x faster** | "
                 f"**{each['seconds']:.1f} s** | **{streamed['seconds']:.1f} s** |")
    for label, key in (("levels completed", "completed"), ("pieces placed", "pieces")):
        lines.append(f"| {label} | {base[key]} | {bot[key]} | | {each[key]} | "
                     f"{streamed[key]} |")
    own = [1000 * (run["phases"].get("dragging", 0) + run["phases"].get("checking drops", 0))
           / max(1, run["pieces"]) for run in (base, bot, each, streamed)]
    lines.append(f"| the bot's own time per piece (dragging and checking) | {own[0]:.0f} ms | "
                 f"{own[1]:.0f} ms | {own[0] / own[1]:.1f}x faster | {own[2]:.0f} ms | "
                 f"{own[3]:.0f} ms |")
    lines += ["", f"Targets: 15 levels in at most {TARGET_RUN_S} s (bot: {bot['seconds']:.1f} s,"
              f" {bot['seconds'] / TARGET_RUN_S:.2f} of it); at most {TARGET_PIECE_MS} ms of "
              f"the bot's own time per piece (bot: {own[1]:.0f} ms). The bot drags a "
              "level's pieces one after another and then looks once (the look says which "
              "landed); with a look after each drop it took "
              f"{each['seconds'] / bot['seconds']:.2f}x as long. It plays on pulled "
              "pictures: on the page's screencast (PNG frames of the whole window, 60 a "
              "second under the drifting leaves) the same bot took "
              f"{streamed['seconds'] / bot['seconds']:.2f}x as long, its drags and checks "
              "slowed by the browser's encoding."]
    return lines


BEFORE_THE_PAGE = ("replica server", "browser start", "page load")


def played_s(run: dict) -> float:
    """A run's seconds from the page loaded: the floor leaves out the browser's start and the
    page's load, so does what it is held to."""
    return run["seconds"] - sum(run["phases"].get(part, 0.0) for part in BEFORE_THE_PAGE)


def median_run(runs: list[dict]) -> dict:
    """The run of the median time from the page loaded (an odd count: one of them), with
    every run's time from the page loaded under "played"."""
    ranked = sorted(runs, key=played_s)
    return {**ranked[len(ranked) // 2], "played": [played_s(run) for run in ranked]}


def floor_rows(bot: dict, base: dict, each: dict, streamed: dict) -> str:
    """The README's Puzlogic row: the 15 levels against their floor (the bot's median run of
    several), and against the same bot with a look after each drop and set to a slow pace
    (same process, a run each)."""
    floor = puzlogic_floor()
    played = played_s(bot)
    spread = bot["played"]
    runs = (f"the median of {len(spread)} runs, {spread[0]:.1f}-{spread[-1]:.1f} s; "
            if len(spread) > 1 else "")
    return "\n".join([
        "| game, measure | goal | the bot | the floor | from the floor |",
        "|---|---|---|---|---|",
        f"| Puzlogic, the 15 levels | <= {GOAL_RUN_S} s | {bot['seconds']:.1f} s, "
        f"{played:.1f} s from the page loaded ({runs}pulled "
        f"pictures; {each['seconds'] / bot['seconds']:.2f}x as fast as with a look after each "
        f"drop, Tempo(drags_per_look=1), and {base['seconds'] / bot['seconds']:.1f}x as fast "
        f"as set to a slow pace, Tempo SLOW_PACE; {streamed['seconds']:.1f} s on the "
        "screencast) "
        f"| {floor.value:.1f} s ({floor.how}) | {played / floor.value:.2f}x the floor (from "
        "the page loaded) |",
        "", f"Measured {time.strftime('%Y-%m-%d')} on {cores()} cores with "
        "`scripts/bench_puzlogic.py --docs`."])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2, help="frames per level at DPR 1")
    parser.add_argument("--no-run", action="store_true",
                        help="skip the 15-level runs and the generated levels")
    parser.add_argument("--generated", type=int, default=50,
                        help="generated levels to play after the 15 (0: none)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of the 15 levels for the bot's own row (its median run)")
    parser.add_argument("--pairs", type=int, default=2,
                        help="first-run/later-run pairs of the 15 levels")
    parser.add_argument("--docs", action="store_true", help="write into its docs page")
    parser.add_argument("--quick", action="store_true",
                        help="levels 1-3 at device scale 1 only (a smoke test)")
    args = parser.parse_args()

    truth = levels()
    numbers, scales = ([1, 2, 3], [1]) if args.quick else (list(range(1, 16)), [1, 2])
    frames = grab_frames(args.frames, numbers, scales) + ([] if args.quick else real_frames())
    # The templates are learned on other boards (generated puzzles), as a first run would
    # learn them; readings of the measured frames never taught the reader.
    teaching = grab_frames(1, numbers, scales, f"&generate={TRAIN_PAGE}")
    groups = sorted({label for label, _, _ in frames})
    with tempfile.TemporaryDirectory() as cache:
        ours = Reader(DigitReader(Path(cache)))
        for _, _, image in teaching:
            ours.read_level(normalise(image))
        learned = ours.digits.tesseract_calls
        rows = []
        for label in groups:
            chosen = [f for f in frames if f[0] == label]
            mine = measure(ours, chosen, truth)
            base = measure(Reader(PlainTesseract(learn=False)), chosen, truth)
            rows.append((label, len(chosen), mine, base))
            if mine["tesseract"]:  # a look the templates had not seen: once more, learned
                rows.append((f"{label}, read again", len(chosen), measure(ours, chosen, truth),
                             base))
        if not args.no_run:  # untimed: what the teaching frames did not show (the level
            full_run(ours, Tempo())  # select's buttons, the HUD), as a second run finds it
        runs = None if args.no_run else (median_run([full_run(ours, Tempo()) for _ in
                                                     range(max(1, args.repeat))]),
                                         full_run(ours, SLOW_PACE),
                                         full_run(ours, Tempo(drags_per_look=1)),
                                         full_run(ours, Tempo(camera="png")))
        generated = generated_run(ours, args.generated) if runs and args.generated else None
    firsts = None if args.no_run else first_runs(args.pairs)

    lines = ["| frames | count | bot: median | p90 | max | numbers right | Tesseract calls "
             "| plain Tesseract: median | numbers right | bot vs Tesseract |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for label, count, mine, base in rows:
        lines.append(
            f"| {label} | {count} | {mine['median']:.1f} ms | {mine['p90']:.1f} ms | "
            f"{mine['max']:.1f} ms | {mine['right']}/{mine['total']} | {mine['tesseract']} | "
            f"{base['median']:.0f} ms | {base['right']}/{base['total']} | "
            f"{base['median'] / mine['median']:.0f}x faster |")
    all_mine = statistics.median(r[2]["median"] for r in rows)
    lines += ["", f"Perception per frame (cut out the game, tell the screen, read the board): "
              f"target median <= {TARGET_FRAME_MS} ms. Before measuring, the bot's reader "
              f"learned its templates from {len(teaching)} frames of generated puzzles with "
              f"{learned} Tesseract calls (a first run pays that once; the templates stay on "
              "disk); Tesseract calls in the table are glyphs it still had to learn."]
    if runs:
        lines += ["", *run_table(*runs)]
    if firsts:
        lines += ["", *first_run_table(firsts)]
    if generated:
        lines += ["", *generated_table(generated, runs[0])]
    lines.append(f"\nMeasured {time.strftime('%Y-%m-%d')} on {cores()} cores.")
    table = "\n".join(lines)
    print(table)
    if all_mine > TARGET_FRAME_MS:
        print(f"perception median {all_mine:.1f} ms is over the target", file=sys.stderr)
    if args.docs and not put_in_docs("bench_puzlogic", table):
        return 1
    if runs:
        floor = floor_rows(*runs)
        print(floor)
        if args.docs and not put_in_docs("speed_puzlogic", floor):
            return 1
    if runs and any(run["completed"] != 15 for run in runs):
        print("a run did not complete every level", file=sys.stderr)
        return 1
    if generated and generated["completed"] != generated["levels"]:
        print("generated levels failed: " + "; ".join(generated["failures"]), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
