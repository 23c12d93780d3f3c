"""Reading numbers off the results screen: distance, round coins and total.

The game writes its numbers in white with a dark outline, so the white fill alone is the ink,
read glyph by glyph against the pack's taught digits (digits.py): a number is read when every
glyph is, else it is unreadable and the reason is kept. Regions are placed from the Next
button, so they follow the screen wherever the canvas sits in the picture. (The shop is read
by shop.py.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import cv2
import numpy as np

from webbot.burrito_bison.digits import (
    Glyphs,
    Judged,
    blobs,
    judge_all,
    number_of,
    tesseract_labels,
)
from webbot.burrito_bison.model import Sighting
from webbot.vision.digits import DigitReader
from webbot.vision.ocr import read_text

DIGITS = "--psm 7 -c tessedit_char_whitelist=0123456789,M"
WORD = "--psm 7 -c tessedit_char_whitelist=ABCDEFGHIJKLMNOPQRSTUVWXYZ"
NO_DIGITS = "it has no digits (pack cut teaches them from results.png and shop.png)"
# Offsets (x, y, width, height) from the Next button's top-left corner, as in the real game.
NUMBERS_STILL_S = 0.3  # the results' numbers count up; they are read once they stop
NEXT_AT = (892, 510)
RESULTS_REGIONS = {
    "distance": (170 - NEXT_AT[0], 212 - NEXT_AT[1], 160, 46),  # "774M", inside the banner
    "coins": (690 - NEXT_AT[0], 305 - NEXT_AT[1], 395, 80),
    "total": (800 - NEXT_AT[0], 425 - NEXT_AT[1], 300, 55),
}
# The same regions in the 1173x660 scene, where the game draws its Next button.
RESULTS_PLACES = {name: (NEXT_AT[0] + dx, NEXT_AT[1] + dy, width, height)
                  for name, (dx, dy, width, height) in RESULTS_REGIONS.items()}


@dataclass(frozen=True)
class Number:
    """A number read, or None and why it could not be read with the pack."""

    value: int | None
    why: str = ""  # why a number written there is not read ("" when none is)


@dataclass(frozen=True)
class ResultsReading:
    distance: int | None
    coins: int | None
    total: int | None
    unreadable: dict[str, str] = field(default_factory=dict)  # name -> why it is None


def _without_border_blobs(ink: np.ndarray) -> np.ndarray:
    """Drop the ink that touches the crop's edge: outlines and panels passing through it, never
    the lettering inside."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    height, width = ink.shape
    x, y, w, h = (stats[:, i] for i in range(4))
    touching = (x == 0) | (y == 0) | (x + w >= width) | (y + h >= height)
    touching[0] = True  # the background
    return np.where(touching[labels], 0, ink).astype(np.uint8)


def white_ink(picture: np.ndarray) -> np.ndarray:
    """The picture's near-white pixels: the fill of the game's white lettering."""
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    return (hsv[..., 1] <= 70) & (hsv[..., 2] >= 200)


def ink_page(picture: np.ndarray) -> np.ndarray:
    """The picture's white lettering as Tesseract's page (black on white, padded, enlarged)."""
    return page_of(white_ink(picture))


def page_of(ink: np.ndarray) -> np.ndarray:
    """A mask of lettering as Tesseract's page: black on white, padded, enlarged; what touches
    the edge of the crop is no lettering."""
    ink = _without_border_blobs(ink.astype(np.uint8))
    page = np.where(ink > 0, 0, 255).astype(np.uint8)
    page = cv2.copyMakeBorder(page, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=255)
    return cv2.resize(page, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)


def number_read(picture: np.ndarray, glyphs: Glyphs | None = None) -> Number:
    """The number written in white in a picture, or why it is not read."""
    return read_in(white_ink(picture), glyphs) if picture.size else Number(None)


def number_in(ink: np.ndarray, glyphs: Glyphs | None = None) -> int | None:
    """The number in an ink mask (`read_in`), None when unreadable."""
    return read_in(ink, glyphs).value


def read_in(ink: np.ndarray, glyphs: Glyphs | None = None) -> Number:
    """The number in an ink mask, glyph by glyph (digits.judge_all): each from the pack's
    taught glyphs, Tesseract's vote on a glyph (or else its reading of the whole number)
    only choosing among the labels the glyph is near; alone, Tesseract reads the real font
    wrong ("883" as 33, "489" as 4484). A glyph not read makes the number unreadable: better
    '?' than a wrong number. A pack without taught glyphs (no `digits/`) reads none."""
    inks = blobs(ink)
    if not inks:
        return Number(None)  # nothing written there
    if not glyphs:
        return Number(None, NO_DIGITS)
    reader = DigitReader(learn=False)
    judged = judge_all([glyphs.scores(glyph) for glyph in inks],
                       lambda unread: tesseract_labels(reader, [inks[k] for k in unread]),
                       lambda: re.sub(r"[^0-9M]", "", read_text(page_of(ink), DIGITS)))
    return number_judged(judged)


def number_judged(judged: list[Judged]) -> Number:
    """The number a number's judged glyphs (digits.Judged) make, or why there is none."""
    unread = next((one.why for one in judged if one.label is None), None)
    if unread is not None:
        return Number(None, unread)
    text = "".join(one.label for one in judged)
    value = number_of(text)
    return Number(value, "" if value is not None else f"{text} is not a number")


def says_max(picture: np.ndarray) -> bool:
    """A shop button at the last level: "MAX" instead of a price."""
    return picture.size > 0 and "MAX" in read_text(ink_page(picture), WORD)


def _crop(image: np.ndarray, x: int, y: int, width: int, height: int) -> np.ndarray:
    top, left = max(0, y), max(0, x)
    return image[top:max(top, y + height), left:max(left, x + width)]


def results_numbers(image: np.ndarray, sighting: Sighting) -> dict[str, np.ndarray]:
    """The crops of a results screen that hold its numbers (none without a Next button)."""
    if "next" not in sighting.targets:
        return {}
    next_match = sighting.matches["next-button"]
    x, y = round(next_match.x), round(next_match.y)
    return {name: _crop(image, x + dx, y + dy, width, height)
            for name, (dx, dy, width, height) in RESULTS_REGIONS.items()}


def read_results(image: np.ndarray, sighting: Sighting,
                 glyphs: Glyphs | None = None) -> ResultsReading:
    """Distance, round coins and total on a results screen (None for what cannot be read, and
    why)."""
    read = {name: number_read(crop, glyphs)
            for name, crop in results_numbers(image, sighting).items()}
    value = {name: number.value for name, number in read.items()}
    return ResultsReading(value.get("distance"), value.get("coins"), value.get("total"),
                          {name: number.why for name, number in read.items() if number.why})
