#!/usr/bin/env python3
"""The one place where the data of every tuned or trained reader is split into parts kept
apart: train (what a network learns from), tune (what thresholds and rules are chosen on) and
test (what a figure in the README or docs is measured on; nothing is chosen on it).

- Drawn SET pictures (scripts/photo_boards.py, scripts/photo_cards.py) by seed ranges. The
  finder's and the rules' thresholds were swept on seeds 0-599, so 0-9,999 is tune.
- The real card photos (../shared/reference/daily-set/real-cards, one deck) by file lists,
  written once by `--write` to scripts/real_card_parts.json: within each kind, photos whose
  numbers lie within GROUP_GAP of each other (frames of one moment) stay in one part. Two
  photos whose label the photo contradicts (LEFT_OUT, found by reading the tune and test
  parts) are measured in no part.
- The two shared photos of tables (../shared/reference/daily-set/photos) and the page's card
  art (the bundled cards and ../shared/reference/daily-set/cards) are tune: the rules' inks,
  stripes and outlines were set on them.
- Burrito Bison's digits: the replica's screens by coin counts (BURRITO_COINS): train the
  results and shop the bundled pack is cut from (scripts/cut_burrito_templates.py), tune and
  test those scripts/thin_packs.py chooses its limits on and measures; the real results screen
  tune, the real shop test (BURRITO_REAL).
- Burrito Bison's screens (the classifier's crops and thresholds): no part is kept apart. The
  bundled pack is cut from the replica's settled scenes (train), the real pack from the real
  screens (train), and the indicator, contrast, colour and padlock thresholds were set on the
  real screens and the replica's scenes at the four sizes (tune): every figure of them is in
  sample and says so.
- Puzlogic's digits and reading rules: the bundled templates are learned from the replica's 15
  levels (fixtures/puzlogic/levels.json) and its generated pages PUZLOGIC_PAGES["train"]
  (scripts/learn_puzlogic_glyphs.py: train); the inks, outlines and sum rules were set on the
  real screenshots PUZLOGIC_REAL and the generated pages PUZLOGIC_PAGES["tune"] (tune);
  generated pages PUZLOGIC_PAGES["test"] are test. A page `?generate=SEED` holds the levels of
  seeds SEED..SEED+14.

    .venv/bin/python scripts/parts.py            # each part's size
    .venv/bin/python scripts/parts.py --write    # the real photos' lists, once
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference"
REAL_CARDS = REFERENCE / "daily-set" / "real-cards"
REAL_CARD_PARTS = Path(__file__).with_name("real_card_parts.json")
PART_NAMES = ("train", "tune", "test")
SHARES = {"train": 0.6, "tune": 0.2, "test": 0.2}
GROUP_GAP = 3  # photo numbers this close are one moment's frames: one part
SPLIT_SEED = 66


@dataclass(frozen=True)
class Seeds:
    """A part's seeds for a drawing script."""

    train: range
    tune: range
    test: range

    def of(self, part: str) -> range:
        return getattr(self, part)


BOARD_SEEDS = Seeds(train=range(1_000_000, 1_500_000), tune=range(0, 10_000),
                    test=range(50_000, 60_000))
CARD_SEEDS = Seeds(train=range(1_500_000, 2_000_000), tune=range(0, 10_000),
                   test=range(60_000, 70_000))
# Photos whose label the photo contradicts, left out of every part: measured against them, a
# reader that reads the photo as it is would count as wrong.
LEFT_OUT = {
    "3-green-striped-diamond/old__44_.png": "labelled striped; its diamonds show no stripe",
    "3-red-empty-diamond/tytyt__195_.png": "labelled red; its ink is plainly green",
}
# The coins the bundled pack's results and shop are cut with (its total and shop coins show
# every digit between them).
BURRITO_PACK_COINS = {"results": 3_255_618, "shop": 2_356}
BURRITO_COINS = {"train": tuple(sorted(BURRITO_PACK_COINS.values())),
                 "tune": (938, 3017, 24683, 65211), "test": (687, 9000, 15342, 72596)}
BURRITO_REAL = {"tune": "results", "test": "shop"}
# looked at while mending blue sums misread under JPEG (issue 66)
PUZLOGIC_TUNE_PAGES = (2000, 3000, 4000, 5000, 6000, 8000)
PUZLOGIC_PAGES = {"train": (500,), "tune": PUZLOGIC_TUNE_PAGES,
                  "test": tuple(page for page in range(1000, 100_000, 1000)
                                if page not in PUZLOGIC_TUNE_PAGES)}
PUZLOGIC_LEVELS_PER_PAGE = 15
# The real level screenshots (../shared/reference/puzlogic) and the level each shows: tune.
PUZLOGIC_REAL = {"puzlogic-map-1.png": 1, "puzlogic-map-2.png": 2, "puzlogic-map-3.png": 3,
                 "puzlogic-with-sums.png": 6, "puzlogic-map-10.png": 10}


def puzlogic_seeds(part: str) -> set[int]:
    """The generated levels' seeds of a part's pages."""
    return {page + k for page in PUZLOGIC_PAGES.get(part, ())
            for k in range(PUZLOGIC_LEVELS_PER_PAGE)}


def real_card_part(part: str, root: Path = REAL_CARDS) -> list[Path]:
    """The real card photos of a part, in a fixed order, less LEFT_OUT (empty when ../shared is
    absent)."""
    if not root.is_dir():
        return []
    names = json.loads(REAL_CARD_PARTS.read_text())[part]
    return [root / name for name in names if name not in LEFT_OUT]


def real_card_label(path: Path) -> dict[str, int | str]:
    """A real photo's card, from its folder's name (COUNT-COLOUR-FILL-SHAPE)."""
    count, color, fill, shape = path.parent.name.split("-")
    return {"count": int(count), "shape": shape, "color": color, "fill": fill}


def _groups(names: list[str]) -> list[list[str]]:
    """A kind's photos, those numbered within GROUP_GAP of each other (by source) together."""
    by_source: dict[str, list[tuple[int, str]]] = {}
    for name in names:
        match = re.fullmatch(r"(.*?)_*(\d+)_*\.png", name)
        source, number = (match.group(1), int(match.group(2))) if match else (name, 0)
        by_source.setdefault(source, []).append((number, name))
    groups = []
    for source in sorted(by_source):
        group: list[str] = []
        last = None
        for number, name in sorted(by_source[source]):
            if last is not None and number - last > GROUP_GAP:
                groups.append(group)
                group = []
            group.append(name)
            last = number
        groups.append(group)
    return groups


def split_real_cards(root: Path = REAL_CARDS) -> dict[str, list[str]]:
    """Each kind's photo groups shuffled (SPLIT_SEED) and dealt to the parts by their shares."""
    parts: dict[str, list[str]] = {name: [] for name in PART_NAMES}
    for kind in sorted(path.name for path in root.iterdir() if path.is_dir()):
        groups = _groups(sorted(p.name for p in (root / kind).iterdir() if p.suffix == ".png"))
        random.Random(f"{SPLIT_SEED}-{kind}").shuffle(groups)
        total = sum(map(len, groups))
        dealt = {name: 0 for name in PART_NAMES}
        for group in groups:
            # to the part furthest below its share (tune and test first on a tie)
            part = min(PART_NAMES[::-1], key=lambda n: dealt[n] / total - SHARES[n])
            parts[part] += [f"{kind}/{name}" for name in group]
            dealt[part] += len(group)
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help=f"write the real photos' lists to {REAL_CARD_PARTS.name}")
    args = parser.parse_args()
    if args.write:
        if not REAL_CARDS.is_dir():
            raise SystemExit(f"parts.py: no {REAL_CARDS}")
        REAL_CARD_PARTS.write_text(json.dumps(split_real_cards(), indent=0) + "\n")
    kept = json.loads(REAL_CARD_PARTS.read_text())
    for part in PART_NAMES:
        print(f"{part:5}  real card photos {len(kept[part]):4}   drawn boards "
              f"{BOARD_SEEDS.of(part).start}-{BOARD_SEEDS.of(part).stop - 1}   drawn cards "
              f"{CARD_SEEDS.of(part).start}-{CARD_SEEDS.of(part).stop - 1}")
    print(f"Burrito Bison's digits: the replica's coins {BURRITO_COINS}, the real {BURRITO_REAL}")
    print(f"Puzlogic: train the 15 bundled levels and generated pages {PUZLOGIC_PAGES['train']}, "
          f"tune the real screenshots ({len(PUZLOGIC_REAL)}) and generated pages "
          f"{PUZLOGIC_PAGES['tune']}, test "
          f"{len(PUZLOGIC_PAGES['test'])} generated pages ({PUZLOGIC_PAGES['test'][0]}, "
          f"{PUZLOGIC_PAGES['test'][1]}, ...)")


if __name__ == "__main__":
    sys.exit(main())
