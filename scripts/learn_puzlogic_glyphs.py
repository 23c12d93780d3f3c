#!/usr/bin/env python3
"""Learn the bundled Puzlogic digit templates (webbot/puzlogic/glyphs/) from the replica.

The bot plays the replica's 15 levels at device scale 1 and 2, and the train part's page of
generated levels (scripts/parts.py: Puzlogic's train part is these levels and that page),
with an empty cache and no bundled templates, then reads the 15 levels grabbed as PNG at both
scales (as `webbot puzlogic read` gets a screenshot): its reader learns each digit as a first run
does, Tesseract teaching what no template matches yet, under the reader's usual rules (a
digit Tesseract is unsure of is not learned). The templates it learned become the bundle, so a
user's first run starts from them instead of teaching itself for twenty seconds. The replica
draws its digits in Liberation Sans, the font with Arial's shapes and metrics that the real
game uses; a digit drawn otherwise still goes to Tesseract and is learned into the user's cache.

    .venv/bin/python scripts/learn_puzlogic_glyphs.py [--check | --rivals]

--check plays and grabs the 15 levels at device scale 1 and 2 on the bundled templates with an
empty cache, and fails when the reader had to ask Tesseract about any digit. --rivals prints,
for each style, how closely the bundled templates of two different digits correlate (what the
reader's limit for a new template, webbot.vision.digits.CONFLICT, stands off from: measured on
the train part the templates were learned from).
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import sys
import tempfile
from pathlib import Path

# scripts/ is on the path when this file is run as a script
import cv2
import numpy as np
from bench_puzlogic import grab_frames
from parts import PUZLOGIC_PAGES

from webbot.browser import BrowserOptions
from webbot.play import play as run
from webbot.puzlogic.bot import player
from webbot.puzlogic.perceive import GLYPHS, Reader, normalise
from webbot.session import RunOptions, game_session
from webbot.vision.digits import DigitReader, unit_vector

PAGES = ("puzlogic/index.html",
         *(f"puzlogic/index.html?generate={seed}" for seed in PUZLOGIC_PAGES["train"]))
SCALES = (1, 2)


def play(reader: Reader, page: str, scale: int) -> None:
    options = RunOptions(browser=BrowserOptions(device_scale_factor=scale))
    with game_session(options, page) as session:
        playable = player(session, list(range(1, 16)), reader=reader)
        bot = playable.bot
        run(playable)
        done = sum(result.completed for result in bot.results)
    if done != 15:
        raise SystemExit(f"learn_puzlogic_glyphs: {page} at scale {scale}: {done} of 15 levels")


def learn() -> int:
    with tempfile.TemporaryDirectory(prefix="webbot-glyphs-") as cache:
        reader = Reader(DigitReader(Path(cache)))
        for page in PAGES:
            for scale in SCALES:
                play(reader, page, scale)
        for _, _, image in grab_frames(1, list(range(1, 16)), list(SCALES)):
            reader.read_level(normalise(image))
        shutil.rmtree(GLYPHS, ignore_errors=True)
        shutil.copytree(cache, GLYPHS)
    counts = {style.name: len(list(style.glob("*.png"))) for style in sorted(GLYPHS.iterdir())}
    print(f"bundled {sum(counts.values())} templates in {GLYPHS}: "
          + ", ".join(f"{style} {count}" for style, count in counts.items()))
    return 0


def check() -> int:
    with tempfile.TemporaryDirectory(prefix="webbot-glyphs-") as cache:
        reader = Reader(DigitReader(Path(cache), seeds=GLYPHS))
        for scale in SCALES:
            play(reader, PAGES[0], scale)
        for _, _, image in grab_frames(1, list(range(1, 16)), list(SCALES)):
            reader.read_level(normalise(image))
    asked = reader.digits.tesseract_calls
    print(f"the bundled templates read the 15 levels (played, and grabbed) at scale "
          f"{' and '.join(map(str, SCALES))} with {asked} glyphs asked of Tesseract")
    return 1 if asked else 0


def rivals() -> int:
    for style in sorted(GLYPHS.iterdir()):
        templates = [(path.name[0], unit_vector(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
                                                .astype(np.float32) / 255))
                     for path in sorted(style.glob("[0-9]-*.png"))]
        score, first, second = max((float(a @ b), da, db) for (da, a), (db, b)
                                   in itertools.combinations(templates, 2) if da != db)
        print(f"{style.name}: {len(templates)} templates; two different digits correlate at "
              f"most {score:.2f} ({first} and {second})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="play on the bundled templates; fail if any digit needed Tesseract")
    parser.add_argument("--rivals", action="store_true",
                        help="how closely the bundled templates of different digits correlate")
    args = parser.parse_args()
    return rivals() if args.rivals else check() if args.check else learn()


if __name__ == "__main__":
    sys.exit(main())
