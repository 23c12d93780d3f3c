#!/usr/bin/env python3
"""Puzlogic's reading under colour drift, JPEG, blur, other scales and leaves: the real
screenshots (when ../shared/reference is there) and every replica level, each perturbed every
way (tests/puzlogic/perturb.py), counted as exact, refused or wrong. Exit 1 on any wrong
reading.

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

from tests.puzlogic.perturb import PERTURBATIONS, tally  # noqa: E402
from webbot.browser import BrowserOptions, open_page, open_url  # noqa: E402
from webbot.puzlogic.perceive import Reader  # noqa: E402
from webbot.server import FixtureServer, fixtures_root  # noqa: E402
from webbot.vision.digits import DigitReader  # noqa: E402

REAL = ROOT.parent / "shared" / "reference" / "puzlogic"
REAL_LEVELS = {"puzlogic-map-1.png": 1, "puzlogic-map-2.png": 2, "puzlogic-map-3.png": 3,
               "puzlogic-with-sums.png": 6, "puzlogic-map-10.png": 10}


def replica_pictures() -> list[tuple[np.ndarray, dict]]:
    levels = json.loads((fixtures_root() / "puzlogic" / "levels.json").read_text())["levels"]
    pictures = []
    with FixtureServer() as server, open_page(BrowserOptions(viewport=(1000, 700))) as page:
        for number, level in enumerate(levels, 1):
            open_url(page, f"{server.url}puzlogic/index.html?leaves=0&level={number}")
            page.wait_for_function("window.__puzlogicTest && "
                                   "__puzlogicTest.state().screen === 'level'")
            shot = cv2.imdecode(np.frombuffer(page.screenshot(), np.uint8), cv2.IMREAD_COLOR)
            pictures.append((shot, level))
    return pictures


def real_pictures() -> list[tuple[np.ndarray, dict]]:
    levels = json.loads((REAL / "levels.json").read_text())["levels"]
    return [(cv2.imread(str(REAL / name)), levels[number - 1])
            for name, number in REAL_LEVELS.items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", action="store_true", help="write into its docs page")
    args = parser.parse_args()
    groups = [("replica levels", replica_pictures())]
    if REAL.is_dir():
        groups.insert(0, ("real screenshots", real_pictures()))
    with tempfile.TemporaryDirectory() as cache:  # a first run's reader: nothing learned yet
        reader = Reader(DigitReader(Path(cache)))
        counts = {label: tally(reader, pictures) for label, pictures in groups}
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
              f"Measured {time.strftime('%Y-%m-%d')} on {cores()} cores."]
    return publish("robustness_puzlogic", "\n".join(lines), args.docs, totals["wrong"])


if __name__ == "__main__":
    sys.exit(main())
