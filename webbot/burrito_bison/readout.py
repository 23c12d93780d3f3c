"""Reading numbers off the screens: distance and coins on the results, prices in the shop.

The game writes its numbers in white with a dark outline, so the white fill alone, as black
on white, is what Tesseract gets; the shop's upgrade names are dark on light cards. Regions
on the results screen are placed from the Next button, so they follow the screen wherever
the canvas sits in the picture.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import cv2
import numpy as np

from webbot.burrito_bison.model import Sighting
from webbot.vision.ocr import read_text

DIGITS = "--psm 7 -c tessedit_char_whitelist=0123456789,M"
WORD = "--psm 7 -c tessedit_char_whitelist=ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Offsets (x, y, width, height) from the Next button's top-left corner, as in the real game.
NEXT_AT = (892, 510)
RESULTS_REGIONS = {
    "distance": (170 - NEXT_AT[0], 212 - NEXT_AT[1], 160, 46),  # "774M", inside the banner
    "coins": (690 - NEXT_AT[0], 305 - NEXT_AT[1], 395, 80),
    "total": (800 - NEXT_AT[0], 425 - NEXT_AT[1], 300, 55),
}


@dataclass(frozen=True)
class ResultsReading:
    distance: int | None
    coins: int | None
    total: int | None


@dataclass(frozen=True)
class Offer:
    """One upgrade in the shop: its BUY button (x, y, w, h), price, and whether the game shows
    it as affordable (a green button rather than a grey one)."""

    name: str
    price: int | None
    affordable: bool
    button: tuple[int, int, int, int]

    @property
    def centre(self) -> tuple[float, float]:
        x, y, width, height = self.button
        return x + width / 2, y + height / 2


def _without_border_blobs(ink: np.ndarray) -> np.ndarray:
    """Drop the ink that touches the crop's edge: outlines and panels passing through it, never
    the lettering inside."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    height, width = ink.shape
    x, y, w, h = (stats[:, i] for i in range(4))
    touching = (x == 0) | (y == 0) | (x + w >= width) | (y + h >= height)
    touching[0] = True  # the background
    return np.where(touching[labels], 0, ink).astype(np.uint8)


def ink_page(picture: np.ndarray, white: bool = True) -> np.ndarray:
    """Black text on white for Tesseract, padded and enlarged: the picture's near-white
    pixels (white lettering), or its dark ones (dark lettering on a light card)."""
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    ink = (hsv[..., 1] <= 70) & (hsv[..., 2] >= 200) if white else hsv[..., 2] <= 140
    ink = _without_border_blobs(ink.astype(np.uint8))
    page = np.where(ink > 0, 0, 255).astype(np.uint8)
    page = cv2.copyMakeBorder(page, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=255)
    return cv2.resize(page, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)


def read_number(picture: np.ndarray) -> int | None:
    """The number written in white in a picture; None when there is none to read."""
    if picture.size == 0:
        return None
    text = read_text(ink_page(picture), DIGITS)
    match = re.search(r"\d{1,3}(?:,\d{3})+|\d+", text.replace(" ", ""))
    return int(match.group().replace(",", "")) if match else None


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


def read_results(image: np.ndarray, sighting: Sighting) -> ResultsReading:
    """Distance, round coins and total on a results screen (None for what cannot be read)."""
    values = {name: read_number(crop)
              for name, crop in results_numbers(image, sighting).items()}
    return ResultsReading(values.get("distance"), values.get("coins"), values.get("total"))


# Button colours in OpenCV HSV (hue 0-180): the game's green BUY and its grey "can't afford".
GREEN = ((45, 120, 100), (75, 255, 255))
GREY = ((0, 0, 110), (180, 25, 160))
BUTTON_SIZE = ((120, 40), (260, 90))  # (min w, min h), (max w, max h)
NAME_ABOVE = (-10, -235, 20, 45)  # the card's name: offsets from the button's box


def _buttons(hsv: np.ndarray, low, high) -> list[tuple[int, int, int, int]]:
    mask = cv2.inRange(hsv, np.array(low), np.array(high))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (min_w, min_h), (max_w, max_h) = BUTTON_SIZE
    boxes = [cv2.boundingRect(c) for c in contours]
    return [b for b in boxes if min_w <= b[2] <= max_w and min_h <= b[3] <= max_h]


def _name_above(image: np.ndarray, button: tuple[int, int, int, int]) -> str:
    x, y, width, _ = button
    dx, dy, dw, dh = NAME_ABOVE
    name_box = _crop(image, x + dx, y + dy, width + dw, dh)
    name = read_text(ink_page(name_box, white=False), WORD) if name_box.size else ""
    return name or f"upgrade at x={x}"


def read_shop(image: np.ndarray,
              known_names: dict[tuple[int, int, int, int], str] | None = None) -> list[Offer]:
    """The shop's BUY buttons, left to right, with their prices and upgrade names (taken from
    `known_names` for a button already read: names do not change within a visit)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    offers = []
    for affordable, (low, high) in ((True, GREEN), (False, GREY)):
        for x, y, width, height in _buttons(hsv, low, high):
            price = read_number(image[y:y + height, x:x + width])
            box = (x, y, width, height)
            name = (known_names or {}).get(box) or _name_above(image, box)
            offers.append(Offer(name, price, affordable, box))
    return sorted(offers, key=lambda offer: offer.button[0])
