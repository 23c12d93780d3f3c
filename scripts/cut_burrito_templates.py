#!/usr/bin/env python3
"""Cut the bundled Burrito Bison template pack from the replica's own frames.

Each screen is shown settled and frozen (`?scene=...&freeze=1`) in headless Chromium at
device scale 1 and cut by the same code as `webbot burrito-bison pack cut` (the boxes of
webbot/burrito_bison/pack.py), so running this again on the same replica gives the same
PNGs.

    .venv/bin/python scripts/cut_burrito_templates.py [--out DIR] [--check]

--check cuts into a temporary folder and fails when any PNG differs from the bundled pack.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

# scripts/ is on the path when this file is run as a script
from parts import BURRITO_PACK_COINS

from webbot.browser import BrowserOptions, open_url
from webbot.burrito_bison.layout import PACK_GAME_SIZE
from webbot.burrito_bison.pack import MANIFEST, cut_pack
from webbot.screen import Screen
from webbot.server import FixtureServer
from webbot.tabs import open_page

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "webbot" / "burrito_bison" / "templates"
GAME = "burrito-bison/index.html"

# The screenshot of each screen the manifest cuts from: the replica's scene query.
SHOTS = {
    "title": "scene=title",
    "comic": "scene=comic",
    "ring": "scene=ring&player=bison&opponent=sour-patch",
    "ring-pineapple": "scene=ring&player=pineapple&opponent=sour-patch",
    "flight": "scene=flight",
    "rocket_ready": "scene=rocket_ready",
    "flash_sale": "scene=flash_sale",
    "pinata": "scene=pinata",
    "cards": "scene=cards",
    "missions": "scene=missions",
    "unlocked": "scene=unlocked",
    # a total whose digits the other numbers lack, each taught at the results' small size, and
    # shop coins whose digits the results do not show, so every digit is taught from a number:
    # Burrito Bison's train part (scripts/parts.py)
    "results": f"scene=results&coins={BURRITO_PACK_COINS['results']}",
    "shop": f"scene=shop&coins={BURRITO_PACK_COINS['shop']}",
}


def cut(out: Path) -> list[Path]:
    with tempfile.TemporaryDirectory() as folder, FixtureServer() as server, \
            open_page(BrowserOptions()) as page:
        shots = []
        for name, query in SHOTS.items():
            url = f"{server.url}{GAME}?seed=1&freeze=1&{query}"
            open_url(page, url)
            page.evaluate("localStorage.clear()")  # the coins the results saved win over ?coins=
            open_url(page, url)
            frame = Screen(page, "canvas").wait_until_still()
            shots.append(Path(folder) / f"{name}.png")
            cv2.imwrite(str(shots[-1]), frame.image)
        report = cut_pack(shots, out, box=(0, 0, *PACK_GAME_SIZE))
    bad = [check.shot for check in report.checks if not check.ok]
    if bad or report.missing_shots or report.unlabelled:
        raise SystemExit(f"the replica's pack does not tell apart: {bad}; "
                         f"missing {report.missing_shots}; digits not labelled: "
                         f"{report.unlabelled}")
    print("numbers read back:", ", ".join(f"{name} {number.value}"
                                          for name, number in report.numbers),
          file=sys.stderr)
    return list(report.written + report.glyphs)


def same_picture(a: Path, b: Path) -> bool:
    first, second = cv2.imread(str(a)), cv2.imread(str(b))
    return first is not None and second is not None and first.shape == second.shape and \
        int(np.abs(first.astype(int) - second.astype(int)).max()) <= 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PACK)
    parser.add_argument("--check", action="store_true",
                        help="cut into a temporary folder and compare with the bundled pack")
    args = parser.parse_args()
    if not args.check:
        for path in cut(args.out):
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        made = cut(Path(folder))
        differ = [str(p.relative_to(folder)) for p in made
                  if not same_picture(p, PACK / p.relative_to(folder))]
        bundled = {p.relative_to(PACK) for p in PACK.rglob("*.png")}
        differ += sorted(str(p) for p in bundled - {p.relative_to(folder) for p in made})
    if differ:
        print(f"differ from the bundled pack: {', '.join(differ)}", file=sys.stderr)
        return 1
    print(f"all {len(MANIFEST)} templates and the digits match the bundled pack")
    return 0


if __name__ == "__main__":
    sys.exit(main())
