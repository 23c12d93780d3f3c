#!/usr/bin/env python3
"""Puzlogic's reading under colour drift, JPEG, blur, other scales and leaves, on each part of
scripts/parts.py: the real screenshots (tune, when ../shared/reference is there), the 15
bundled levels (train: the bundled templates were learned from them), the 15 levels of the
tune part's first generated page and those of the test part's first, each perturbed every way
(tests/puzlogic/perturb.py), read as the bot reads them (the bundled templates, nothing learned
yet), counted as exact, refused or wrong; each wrong reading is said (the part, the
perturbation, the picture: the level on a page, in order, and what it misread). Exit 1 on any
wrong reading.

    .venv/bin/python scripts/robustness_puzlogic.py [--docs]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the perturbations live with the tests that use them

from docs_table import cores, publish  # noqa: E402
from parts import PUZLOGIC_LEVELS_PER_PAGE, PUZLOGIC_PAGES, PUZLOGIC_REAL  # noqa: E402

from tests.puzlogic.perturb import PERTURBATIONS, tally  # noqa: E402
from webbot.browser import BrowserOptions, open_url  # noqa: E402
from webbot.puzlogic.perceive import GLYPHS, Reader  # noqa: E402
from webbot.server import FixtureServer  # noqa: E402
from webbot.tabs import open_page  # noqa: E402
from webbot.vision.digits import DigitReader  # noqa: E402

REAL = ROOT.parent / "shared" / "reference" / "puzlogic"
TUNE_PAGE, TEST_PAGE = PUZLOGIC_PAGES["tune"][0], PUZLOGIC_PAGES["test"][0]


def replica_pictures(query: str = "") -> list[tuple[np.ndarray, dict]]:
    """The replica's 15 levels of a page (the bundled ones, or `generate=SEED`'s), each with
    the level the replica drew (its test hook: the reader never sees it)."""
    pictures = []
    with FixtureServer() as server, open_page(BrowserOptions(viewport=(1000, 700))) as page:
        for number in range(1, PUZLOGIC_LEVELS_PER_PAGE + 1):
            open_url(page, f"{server.url}puzlogic/index.html?leaves=0&level={number}{query}")
            page.wait_for_function("window.__puzlogicTest && "
                                   "__puzlogicTest.state().screen === 'level'")
            shot = cv2.imdecode(np.frombuffer(page.screenshot(), np.uint8), cv2.IMREAD_COLOR)
            pictures.append((shot, page.evaluate(f"__puzlogicTest.level({number})")))
    return pictures


def real_pictures() -> list[tuple[np.ndarray, dict]]:
    levels = json.loads((REAL / "levels.json").read_text())["levels"]
    return [(cv2.imread(str(REAL / name)), levels[number - 1])
            for name, number in PUZLOGIC_REAL.items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", action="store_true", help="write into its docs page")
    args = parser.parse_args()
    groups = [("bundled levels, train", replica_pictures()),
              (f"generated page {TUNE_PAGE}, tune", replica_pictures(f"&generate={TUNE_PAGE}")),
              (f"generated page {TEST_PAGE}, test", replica_pictures(f"&generate={TEST_PAGE}"))]
    if REAL.is_dir():
        groups.insert(0, ("real screenshots, tune", real_pictures()))
    with tempfile.TemporaryDirectory() as cache:  # a first run's reader: nothing learned yet
        reader = Reader(DigitReader(Path(cache), seeds=GLYPHS))  # as the bot builds it
        wrong: dict[str, list[str]] = {label: [] for label, _ in groups}
        counts = {label: tally(reader, pictures, wrong=wrong[label])
                  for label, pictures in groups}
    header = " | ".join(f"{label} ({len(pictures)}): exact / refused / wrong"
                        for label, pictures in groups)
    lines = [f"| perturbation | {header} |", "|---" * (len(groups) + 1) + "|"]
    for name in PERTURBATIONS:
        cells = " | ".join("{exact} / {refused} / {wrong}".format(**counts[label][name])
                           for label, _ in groups)
        lines.append(f"| {name} | {cells} |")
    totals = {kind: sum(c[kind] for group in counts.values() for c in group.values())
              for kind in ("exact", "refused", "wrong")}
    readings = sum(totals.values())
    lines += ["", f"{readings} readings: {totals['exact']} exact "
              f"({100 * totals['exact'] / readings:.0f}%), {totals['refused']} refused, "
              f"{totals['wrong']} wrong.",
              *(f"Wrong: {label}, {said}." for label, said_all in wrong.items()
                for said in said_all),
              f"Measured {time.strftime('%Y-%m-%d')} on {cores()} cores."]
    return publish("robustness_puzlogic", "\n".join(lines), args.docs, totals["wrong"])


if __name__ == "__main__":
    sys.exit(main())
