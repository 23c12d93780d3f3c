#!/usr/bin/env python3
"""The real-world regression table: every real screenshot in ../shared/reference (Puzlogic's
levels, Burrito Bison's screens of two builds) as saved, rescaled 0.75x and 1.25x, and saved as
JPEG 70, read by the bot: right, refused (the reader says why, or `unknown`), or wrong. Burrito
Bison's screens are classified with the original bot's 2018 template folder and with a pack
cut from the screens themselves, as they are and put into page grabs of another portal (the
game at each real size under a toolbar, beside a sidebar, not framed in black).

"Right" for Burrito Bison is what the pack can know (tests/real_world.py `expected`): the
original folder has no crop of the 2022 screens, so `unknown` is right there, and it knows the
shop by its Next arrow, as the results. Exit 1 on any wrong reading; exit 2 without
../shared/reference.

    .venv/bin/python scripts/regression_real.py [--docs]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the material and its judges live with the tests that use them

from docs_table import cores, publish  # noqa: E402

from tests.puzlogic.perturb import outcome as puzlogic_outcome  # noqa: E402
from tests.real_world import (  # noqa: E402
    BURRITO,
    ORIGINAL_TEMPLATES,
    PERTURBATIONS,
    PUZLOGIC,
    PUZLOGIC_LEVELS,
    burrito_outcome,
    burrito_screens,
    cut_from_reference,
    game_scene,
    portal_grab,
)
from webbot.burrito_bison.layout import REAL_SIZES  # noqa: E402
from webbot.burrito_bison.matching import TemplatePack  # noqa: E402
from webbot.puzlogic.perceive import GLYPHS, Reader  # noqa: E402
from webbot.vision.digits import DigitReader  # noqa: E402

KINDS = ("right", "refused", "wrong")


def puzlogic_row(cache: Path) -> dict[str, list[str]]:
    levels = json.loads((PUZLOGIC / "levels.json").read_text())["levels"]
    reader = Reader(DigitReader(cache, seeds=GLYPHS))  # a first run's: nothing learned yet
    row = {}
    for name, perturb in PERTURBATIONS.items():
        row[name] = []
        for file, number in PUZLOGIC_LEVELS.items():
            read = puzlogic_outcome(reader, perturb(cv2.imread(str(PUZLOGIC / file))),
                                    levels[number - 1])
            row[name].append("right" if read == "exact" else read)
    return row


def burrito_row(pack: TemplatePack, pictures: dict[str, object]) -> dict[str, list[str]]:
    return {name: [burrito_outcome(pack, perturb(picture), shot)
                   for (shot, _), picture in pictures.items()]
            for name, perturb in PERTURBATIONS.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", action="store_true", help="write into its docs page")
    args = parser.parse_args()
    if not (PUZLOGIC.is_dir() and BURRITO.is_dir()):
        print(f"regression_real: no real material at {PUZLOGIC.parent}", file=sys.stderr)
        return 2
    started = time.monotonic()
    screens = burrito_screens()
    as_saved = {(shot, "saved"): picture for shot, picture in screens.items()}
    grabs = {(shot, f"{width}x{height}"): portal_grab(game_scene(picture), (width, height))
             for shot, picture in screens.items() for width, height in REAL_SIZES}
    with tempfile.TemporaryDirectory() as work:
        original = TemplatePack(ORIGINAL_TEMPLATES)
        cut = cut_from_reference(Path(work) / "cut")
        rows = {
            f"Puzlogic level screenshots ({len(PUZLOGIC_LEVELS)})": puzlogic_row(Path(work)),
            f"Burrito Bison screens, original 2018 folder ({len(as_saved)})":
                burrito_row(original, as_saved),
            f"Burrito Bison screens, pack cut from them ({len(as_saved)})":
                burrito_row(cut, as_saved),
            f"the same in another portal's grab, original folder ({len(grabs)})":
                burrito_row(original, grabs),
            f"the same in another portal's grab, cut pack ({len(grabs)})":
                burrito_row(cut, grabs),
        }
    lines = ["| material | " + " | ".join(PERTURBATIONS) + " |",
             "|---" * (len(PERTURBATIONS) + 1) + "|"]
    totals = dict.fromkeys(KINDS, 0)
    for material, row in rows.items():
        cells = []
        for name in PERTURBATIONS:
            counts = {kind: row[name].count(kind) for kind in KINDS}
            cells.append(" / ".join(str(counts[kind]) for kind in KINDS))
            for kind in KINDS:
                totals[kind] += counts[kind]
        lines.append(f"| {material} | " + " | ".join(cells) + " |")
    readings = sum(totals.values())
    lines += ["", f"Cells: right / refused / wrong. {readings} readings: {totals['right']} right, "
              f"{totals['refused']} refused, {totals['wrong']} wrong. The portal grabs put the "
              f"game at {', '.join(f'{w}x{h}' for w, h in REAL_SIZES)} under a toolbar, beside "
              "a sidebar, without a black frame.",
              f"Measured {time.strftime('%Y-%m-%d')} on {cores()} cores in "
              f"{time.monotonic() - started:.0f} s."]
    return publish("regression_real", "\n".join(lines), args.docs, totals["wrong"])


if __name__ == "__main__":
    sys.exit(main())
