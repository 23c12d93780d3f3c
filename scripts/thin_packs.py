#!/usr/bin/env python3
"""Burrito Bison's numbers read with thin template packs: right, unreadable or wrong; the
limits of webbot/burrito_bison/digits.py (MARGIN, ALONE, FLOOR) chosen on a tune part and
measured on a test part kept apart from it.

A pack's digits are taught as `webbot burrito-bison pack cut` teaches them (digits.teach) from
a results screenshot alone, a shop alone, or both; and, as a pack whose screenshots never
showed some digit would be, from both with every glyph of one label dropped (one pack for each
of 0-9 and M). These packs, and the bundled one, read every number of their part's screens
(distance, round coins and total on the results; coins and price on the shop), each screen
with the game at the four real sizes.

The parts, fixed in scripts/parts.py (BURRITO_COINS, BURRITO_REAL) and nowhere else:
- tune: the replica's screens with the tune part's coins (so that totals and shop coins show
  other digits), packs cut from them; the numbers of the real 2018 results screen
  (../shared/reference), read by packs cut from the real results and shop;
- test: the replica's screens with the test part's coins, packs cut from them; the numbers of
  the real shop, read by the same real packs.
A part's packs are cut from its own screens and read them too, as a user's pack reads the
screens it was cut from: what the test part keeps apart is the choice of the limits. The
bundled pack is cut from the train part's coins (scripts/cut_burrito_templates.py): the totals
and shop coins it reads are out of its sample; the results' distance and round coins and the
shop's price (774, 489 and 100 on every frozen screen) are numbers it was taught from.

Chosen on tune, a step away from where it reads a number wrong (the limit one step lower reads
none wrong either): first MARGIN and ALONE, no glyph read below ACCEPT, the pair reading the
most right (a tie: the MARGIN nearest KEPT_MARGIN, then the lower ALONE); then FLOOR, the one
reading the most right (a tie: the higher). Printed: the tune part at every limit tried, then
how many numbers each part reads right, unreadable (null, with the reason) and wrong at the
limits digits.py holds.
Exit 1 when digits.py does not hold the chosen limits or a test number reads wrong.

    .venv/bin/python scripts/thin_packs.py [--no-real]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

# scripts/ is on the path when this file is run as a script
from parts import BURRITO_COINS, BURRITO_REAL

from webbot.browser import BrowserOptions, open_url
from webbot.burrito_bison import digits, shop
from webbot.burrito_bison.digits import Glyph, Glyphs, Limits, blobs, judge_all
from webbot.burrito_bison.layout import PACK_GAME_SIZE, REAL_SIZES
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.pack import number_inks, scene
from webbot.burrito_bison.perceive import framed_game, read_image
from webbot.burrito_bison.readout import DIGITS as WHOLE_NUMBER
from webbot.burrito_bison.readout import number_judged, page_of
from webbot.screen import Screen
from webbot.server import FixtureServer
from webbot.tabs import open_page
from webbot.vision.digits import DigitReader, normalise, unit_vector
from webbot.vision.ocr import read_text

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "reference" / "burrito-bison" / "screens"
REAL_SHOTS = {"results": "round-finished-results.png", "shop": "shop.png"}
REAL_TRUTH = {"results-distance": 774, "results-coins": 489, "results-total": 5119,
              "shop-coins": 883, "shop-price": 6100}
# The replica drawn at each real size (a device pixel ratio of 2 at one); the pack of the k-th
# number of coins is cut from its screens at the k-th size.
SIZES = (((1173, 660), 1), ((1146, 644), 1), ((1280, 768), 2), ((1120, 540), 1))
MARGINS = (0.04, 0.08, 0.12, 0.16)
ALONES = tuple(round(0.78 + 0.02 * k, 2) for k in range(10))   # 0.78 .. 0.96
FLOORS = tuple(round(0.55 + 0.025 * k, 3) for k in range(9))   # 0.55 .. 0.75 (ACCEPT)
KEPT_MARGIN = 0.08  # digits.py's MARGIN before this script, kept while tune shows none better
KINDS = ("right", "unreadable", "wrong")


@dataclass
class Part:
    """Screens of one kind in a part: those its packs are cut from and the numbers read."""

    name: str
    sources: list[dict[str, np.ndarray]]  # the scenes ("results", "shop") of each pack's cut
    numbers: list[tuple[list[np.ndarray], np.ndarray, int]]  # (glyphs, ink, the true value)


class Votes:
    """Tesseract's votes and whole readings, each asked once (the sweep asks the same glyphs
    again and again)."""

    def __init__(self) -> None:
        self.reader = DigitReader(learn=False)
        self._votes: dict[bytes, str | None] = {}
        self._whole: dict[bytes, str] = {}

    def votes(self, glyphs: list[np.ndarray], whitelist: str = digits.TESSERACT_LABELS
              ) -> list[str | None]:
        """digits.tesseract_labels; a DigitReader's `votes` for digits.teach."""
        new = [glyph for glyph in glyphs if _key(glyph) not in self._votes]
        for glyph, vote in zip(new, digits.tesseract_labels(self.reader, new) if new else [],
                               strict=True):
            self._votes[_key(glyph)] = vote
        return [self._votes[_key(glyph)] for glyph in glyphs]

    def whole(self, ink: np.ndarray) -> str:
        key = _key(ink)
        if key not in self._whole:
            text = read_text(page_of(ink), WHOLE_NUMBER)
            self._whole[key] = "".join(char for char in text if char in digits.LABELS)
        return self._whole[key]


def _key(array: np.ndarray) -> bytes:
    return array.tobytes() + str(array.shape).encode()


def replica(name: str, coins: tuple[int, ...]) -> Part:
    """The replica's results and shop with each number of coins, at every size."""
    sources: list[dict[str, np.ndarray]] = []
    numbers = []
    with FixtureServer() as server:
        for place, ((width, height), dpr) in enumerate(SIZES):
            options = BrowserOptions(viewport=(1400, 900), device_scale_factor=dpr)
            with open_page(options) as page:
                for k, count in enumerate(coins):
                    scenes = {}
                    for shot in ("results", "shop"):
                        url = (f"{server.url}burrito-bison/index.html?seed=5&freeze=1"
                               f"&scene={shot}&coins={count}&size={width}x{height}")
                        open_url(page, url)
                        page.evaluate("localStorage.clear()")  # coins saved by another shot
                        open_url(page, url)
                        page.wait_for_function("window.__burritoTest && __burritoTest.ready "
                                               "&& !__burritoTest.state().transitioning")
                        image = Screen(page, "canvas").wait_until_still(max_changed=0.05).image
                        scenes[shot] = scene(image, (0, 0, image.shape[1], image.shape[0]))
                    truth = {"results-distance": 774, "results-coins": 489,
                             "results-total": count + 489, "shop-coins": count,
                             "shop-price": 100}  # the first card at level 0
                    numbers += [(blobs(ink), ink, truth[number])
                                for number, ink in number_inks(scenes).items()]
                    if k % len(SIZES) == place:
                        sources.append(scenes)
    return Part(name, sources, numbers)


def real() -> dict[str, Part]:
    """The real results' numbers and the real shop's, as grabbed and with the game at the
    other real sizes, each read by packs cut from both."""
    scenes = {}
    for shot, file in REAL_SHOTS.items():
        grab = read_image(REAL / file)
        scenes[shot] = scene(grab, framed_game(grab))
    numbers: dict[str, list] = {"results": [], "shop": []}
    for width, height in REAL_SIZES:
        scale = min(width / PACK_GAME_SIZE[0], height / PACK_GAME_SIZE[1])
        sized = {}
        for shot, picture in scenes.items():
            small = cv2.resize(picture, (round(PACK_GAME_SIZE[0] * scale),
                                         round(PACK_GAME_SIZE[1] * scale)),
                               interpolation=cv2.INTER_AREA)
            game = np.zeros((height, width, 3), np.uint8)
            top, left = (height - small.shape[0]) // 2, (width - small.shape[1]) // 2
            game[top:top + small.shape[0], left:left + small.shape[1]] = small
            sized[shot] = scene(game, (0, 0, width, height))
        for number, ink in number_inks(sized).items():
            numbers[number.split("-")[0]].append((blobs(ink), ink, REAL_TRUTH[number]))
    return {shot: Part(f"real {shot}", [scenes], numbers[shot]) for shot in REAL_SHOTS}


def packs(source: dict[str, np.ndarray], votes: Votes, limits: Limits) -> dict[str, Glyphs]:
    """The thin packs cut from one results and shop (see the module's help)."""
    pips = digits.pip_inks(shop.pip_pictures(source["shop"]))
    inks = number_inks(source)

    def taught(screens: tuple[str, ...]) -> list[Glyph]:
        chosen = {name: ink for name, ink in inks.items() if name.split("-")[0] in screens}
        return digits.teach(pips if "shop" in screens else [], chosen, votes, limits)[0]

    both = taught(("results", "shop"))
    made = {"results alone": Glyphs(taught(("results",))),
            "shop alone": Glyphs(taught(("shop",))),
            "results and shop": Glyphs(both)}
    for label in digits.LABELS:
        made[f"without {label}"] = Glyphs([glyph for glyph in both if glyph.label != label])
    return made


class Scored:
    """The scores of every glyph of a part's numbers with a pack's glyphs (Glyphs.scores of
    each), all at once: the pack's glyphs' vectors times the numbers'."""

    def __init__(self, part: Part) -> None:
        self.glyphs = [glyphs for glyphs, _, _ in part.numbers]
        self.vectors = np.array([vector(glyph) for glyphs in self.glyphs for glyph in glyphs])
        self._done: dict[tuple, list[list[dict[str, float]]]] = {}

    def scores(self, pack: Glyphs) -> list[list[dict[str, float]]]:
        key = tuple((glyph.label, _key(glyph.ink)) for glyph in pack.glyphs)
        if key not in self._done:
            self._done[key] = self._scores(pack)
        return self._done[key]

    def _scores(self, pack: Glyphs) -> list[list[dict[str, float]]]:
        labels = sorted(pack.labels)
        if not labels:
            return [[{} for _ in glyphs] for glyphs in self.glyphs]
        correlations = np.array([vector(glyph.ink) for glyph in pack.glyphs]) @ self.vectors.T
        best = np.array([correlations[[glyph.label == label for glyph in pack.glyphs]].max(axis=0)
                         for label in labels]).T.tolist()
        flat = iter(best)
        return [[dict(zip(labels, next(flat), strict=True)) for _ in glyphs]
                for glyphs in self.glyphs]


def vector(glyph: np.ndarray) -> np.ndarray:
    return unit_vector(normalise(glyph))


def outcomes(parts: list[Part], scored: dict[str, Scored], votes: Votes, limits: Limits
             ) -> Counter[tuple[str, str, str]]:
    """How the parts' numbers read with the packs cut from their screens and the bundled
    pack: (part, pack, outcome) counted."""
    counted: Counter[tuple[str, str, str]] = Counter()
    bundled = TemplatePack().digits
    for part in parts:
        cut = [packs(source, votes, limits) for source in part.sources]
        for name, pack in [*((name, pack) for made in cut for name, pack in made.items()),
                           ("bundled", bundled)]:
            for (glyphs, ink, truth), scores in zip(part.numbers, scored[part.name].scores(pack),
                                                    strict=True):
                value = read(scores, glyphs, ink, votes, limits)
                counted[part.name, name, "right" if value == truth else
                        "unreadable" if value is None else "wrong"] += 1
    return counted


def read(scores: list[dict[str, float]], glyphs: list[np.ndarray], ink: np.ndarray,
         votes: Votes, limits: Limits) -> int | None:
    """readout.read_in from the glyphs' scores, at the given limits."""
    if not glyphs or not any(scores):
        return None
    judged = judge_all(scores, lambda unread: votes.votes([glyphs[k] for k in unread]),
                       lambda: votes.whole(ink), limits)
    return number_judged(judged).value


def total(counted: Counter[tuple[str, str, str]], kind: str, **only: str) -> int:
    return sum(count for (part, pack, outcome), count in counted.items() if outcome == kind
               and only.get("part", part) == part and only.get("pack", pack) == pack)


def said(counted: Counter[tuple[str, str, str]], **only: str) -> str:
    return "/".join(str(total(counted, kind, **only)) for kind in KINDS)


def safe(sweep: dict[tuple, Counter], key: tuple, steps: tuple[float, ...], at: int) -> bool:
    """No number read wrong with the limits `key` and with its value at `at` one step lower
    (`steps` the values tried there)."""
    place = steps.index(key[at])
    lower = (*key[:at], steps[place - 1], *key[at + 1:])
    return place > 0 and not total(sweep[key], "wrong") and not total(sweep[lower], "wrong")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-real", action="store_true",
                        help="leave out the real screens (read when ../shared/reference is "
                             "there)")
    args = parser.parse_args()
    votes = Votes()
    tune = [replica("replica", BURRITO_COINS["tune"])]
    test = [replica("replica", BURRITO_COINS["test"])]
    if not args.no_real and REAL.is_dir():
        screens = real()
        tune.append(screens[BURRITO_REAL["tune"]])
        test.append(screens[BURRITO_REAL["test"]])
    scored_tune = {part.name: Scored(part) for part in tune}
    scored_test = {part.name: Scored(part) for part in test}

    pairs = {(margin, alone): outcomes(tune, scored_tune, votes,
                                       Limits(margin, alone, digits.ACCEPT))
             for margin in MARGINS for alone in ALONES}
    fit = [pair for pair in pairs if safe(pairs, pair, ALONES, 1)]
    margin, alone = max(fit, key=lambda pair: (total(pairs[pair], "right"),
                                               -abs(pair[0] - KEPT_MARGIN), -pair[1]))
    floors = {(floor,): outcomes(tune, scored_tune, votes, Limits(margin, alone, floor))
              for floor in FLOORS}
    (floor,) = max((key for key in floors if safe(floors, key, FLOORS, 0)),
                   key=lambda key: (total(floors[key], "right"), key[0]))
    chosen, held = Limits(margin, alone, floor), Limits()

    print(f"The tune part ({', '.join(part.name for part in tune)}) read by its packs: "
          "right/unreadable/wrong, no glyph read below ACCEPT")
    print()
    print("| MARGIN | " + " | ".join(f"ALONE {value}" for value in ALONES) + " |")
    print("|---" * (len(ALONES) + 1) + "|")
    for value in MARGINS:
        print(f"| {value} | "
              + " | ".join(said(pairs[value, other]) for other in ALONES) + " |")
    print()
    print(f"At MARGIN {margin}, ALONE {alone}, by FLOOR:")
    print()
    print("| " + " | ".join(f"FLOOR {value}" for value in FLOORS) + " |")
    print("|---" * len(FLOORS) + "|")
    print("| " + " | ".join(said(floors[value,]) for value in FLOORS) + " |")
    print()
    print(f"Chosen: MARGIN {chosen.margin}, ALONE {chosen.alone}, FLOOR {chosen.floor}; "
          f"digits.py holds MARGIN {held.margin}, ALONE {held.alone}, FLOOR {held.floor}.")
    print()
    tuned = outcomes(tune, scored_tune, votes, held)
    tested = outcomes(test, scored_test, votes, held)
    parts = [("tune", part.name, tuned) for part in tune] + \
        [("test", part.name, tested) for part in test]
    print("Numbers read at the limits digits.py holds: right/unreadable/wrong")
    print()
    print("| pack | " + " | ".join(f"{kind}: {name}" for kind, name, _ in parts) + " |")
    print("|---" * (len(parts) + 1) + "|")
    for pack in dict.fromkeys(pack for _, pack, _ in tested):
        print(f"| {pack} | " + " | ".join(said(counted, part=name, pack=pack)
                                         for _, name, counted in parts) + " |")
    print("| all | " + " | ".join(said(counted, part=name) for _, name, counted in parts)
          + " |")
    return 1 if total(tested, "wrong") or chosen != held else 0


if __name__ == "__main__":
    sys.exit(main())
