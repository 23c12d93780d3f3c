#!/usr/bin/env python3
"""Cut the bundled Burrito Bison template pack from the replica's own frames.

Each template is a box of one screen, shown settled and frozen (`?scene=...&freeze=1`) in
headless Chromium at device scale 1, so running this again on the same replica gives the
same PNGs. The names are those of the real game's crops (../shared/reference/burrito-bison/
templates) plus the optional extras the classifier knows.

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

from webbot.browser import BrowserOptions, open_page, open_url
from webbot.screen import Screen
from webbot.server import FixtureServer

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "webbot" / "burrito_bison" / "templates"
GAME = "burrito-bison/index.html"

# name: (scene query, box (x, y, w, h) in canvas pixels)
CUTS: dict[str, tuple[str, tuple[int, int, int, int]]] = {
    "bison-health-bar": ("scene=ring&player=bison&opponent=sour-patch", (451, 71, 101, 19)),
    "pineapple-health-bar": ("scene=ring&player=pineapple&opponent=sour-patch",
                             (434, 70, 118, 21)),
    "bison-head": ("scene=ring&player=bison&opponent=sour-patch", (489, 18, 42, 42)),
    "pineapple-head": ("scene=ring&player=pineapple&opponent=sour-patch", (228, 460, 101, 137)),
    "left-goalpost": ("scene=ring&player=bison&opponent=sour-patch", (343, 468, 30, 132)),
    "full-rocket": ("scene=rocket_ready", (29, 127, 29, 391)),
    "rocket-bar": ("scene=flight", (29, 127, 29, 40)),
    "filled-with-goodies": ("scene=pinata", (531, 222, 326, 42)),
    "cancel-button": ("scene=pinata", (540, 354, 81, 78)),
    "tap-to-continue": ("scene=missions", (491, 585, 197, 31)),
    "unlocked": ("scene=unlocked", (500, 60, 166, 40)),
    "next-button": ("scene=results", (892, 510, 160, 117)),
    "shop-button": ("scene=results", (715, 510, 130, 117)),
    "shop-title": ("scene=shop", (500, 20, 170, 60)),
}


def cut(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with FixtureServer() as server, open_page(BrowserOptions()) as page:
        for name, (query, (x, y, width, height)) in CUTS.items():
            open_url(page, f"{server.url}{GAME}?seed=1&freeze=1&{query}")
            frame = Screen(page, "canvas").wait_until_still()
            piece = frame.image[y:y + height, x:x + width]
            path = out / f"{name}.png"
            cv2.imwrite(str(path), piece)
            written.append(path)
    return written


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
        differ = [p.name for p in cut(Path(folder)) if not same_picture(p, PACK / p.name)]
    if differ:
        print(f"differ from the bundled pack: {', '.join(differ)}", file=sys.stderr)
        return 1
    print(f"all {len(CUTS)} templates match the bundled pack")
    return 0


if __name__ == "__main__":
    sys.exit(main())
