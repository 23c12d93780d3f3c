"""Reading the shop (perceive): the real shop's grid of upgrade cards, which are locked, and the
detail panel of the selected card (name, level, price, whether the game lets it be bought).

Everything sits at a fixed place of the game (layout.py), read on a frame at the pack's scale;
a frame of another aspect holds the 1173x660 scene centred, so places are shifted by the bars.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import cv2
import numpy as np

from webbot.burrito_bison.digits import Glyphs
from webbot.burrito_bison.layout import (
    PACK_GAME_SIZE,
    SHOP_BUY,
    SHOP_CARD,
    SHOP_COINS,
    SHOP_COLUMNS,
    SHOP_LOCK_AT,
    SHOP_NAME,
    SHOP_PIPS,
    SHOP_PRICE,
    SHOP_ROWS,
    Box,
)
from webbot.burrito_bison.matching import FINE_BLUR, TemplatePack
from webbot.burrito_bison.model import Point
from webbot.burrito_bison.readout import Number, number_read, page_of, read_in, says_max
from webbot.vision.ocr import read_text

LOCK_SCORE = 0.78  # the real padlocks score 0.81-1.0, the real upgrades' icons < 0.7
LOCK_SLACK = 6
# OpenCV HSV (hue 0-180): a card's blue, the red of a level pip reached, the green of a BUY
# button the game lets you press.
CARD_BLUE = ((95, 110, 90), (125, 255, 255))
PIP_RED = (((0, 140, 130), (10, 255, 255)), ((170, 140, 130), (180, 255, 255)))
BUY_GREEN = ((40, 100, 100), (80, 255, 255))
COIN_GOLD = ((15, 130, 150), (35, 255, 255))


@dataclass(frozen=True)
class Card:
    """A card of the shop's grid: slot number (row-major, 4 a row), its centre, and locked
    (None when the pack has no padlock crop to tell)."""

    slot: int
    centre: Point
    locked: bool | None


@dataclass(frozen=True)
class Detail:
    """The detail panel of the selected card. `price` None: no price shown (locked, at the
    last level, or unreadable); `buyable`: the game shows its BUY button green."""

    name: str
    level: int
    price: int | None
    buyable: bool
    maxed: bool
    price_unreadable: str = ""  # why a price shown is not read


def offset(image: np.ndarray) -> tuple[int, int]:
    """Where the 1173x660 scene starts in a frame at the pack's scale."""
    height, width = image.shape[:2]
    return round((width - PACK_GAME_SIZE[0]) / 2), round((height - PACK_GAME_SIZE[1]) / 2)


def crop(image: np.ndarray, box: Box) -> np.ndarray:
    dx, dy = offset(image)
    x, y, width, height = box
    return image[max(0, y + dy):y + dy + height, max(0, x + dx):x + dx + width]


def _share(picture: np.ndarray, *ranges: tuple[tuple[int, ...], tuple[int, ...]]) -> float:
    if picture.size == 0:
        return 0.0
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    mask = np.zeros(hsv.shape[:2], bool)
    for low, high in ranges:
        mask |= cv2.inRange(hsv, np.array(low), np.array(high)) > 0
    return float(mask.mean())


def grid_cards(image: np.ndarray, pack: TemplatePack) -> list[Card]:
    """The grid's cards (an empty slot is no card), each with whether a padlock covers it."""
    dx, dy = offset(image)
    lock = pack.templates["shop-lock"].fine[1.0] if "shop-lock" in pack else None  # softened
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if lock is not None else None
    width, height = SHOP_CARD
    cards = []
    for slot in range(len(SHOP_ROWS) * len(SHOP_COLUMNS)):
        x, y = SHOP_COLUMNS[slot % 4], SHOP_ROWS[slot // 4]
        if _share(crop(image, (x, y, width, height)), CARD_BLUE) < 0.3:
            continue
        locked = None
        if gray is not None:
            left, top = x + dx + SHOP_LOCK_AT[0] - LOCK_SLACK, y + dy + SHOP_LOCK_AT[1] - LOCK_SLACK
            around = gray[max(0, top):top + lock.shape[0] + 2 * LOCK_SLACK,
                          max(0, left):left + lock.shape[1] + 2 * LOCK_SLACK]
            score = cv2.minMaxLoc(cv2.matchTemplate(cv2.GaussianBlur(around, (0, 0), FINE_BLUR),
                                                    lock, cv2.TM_CCOEFF_NORMED))[1] \
                if around.shape[0] >= lock.shape[0] and around.shape[1] >= lock.shape[1] else 0
            locked = bool(score >= LOCK_SCORE)
        cards.append(Card(slot, (x + dx + width / 2, y + dy + height / 2), locked))
    return cards


def level(image: np.ndarray) -> int:
    """Level pips reached: the red ones, counted from the first."""
    dx, dy = offset(image)
    x0, y, pitch, count = SHOP_PIPS
    reached = 0
    for k in range(count):
        x = round(x0 + pitch * k)
        spot = image[y + dy - 5:y + dy + 6, x + dx - 5:x + dx + 6]
        if _share(spot, *PIP_RED) < 0.4:
            break
        reached += 1
    return reached


def read_name(image: np.ndarray) -> str:
    """The selected card's name, from the red lettering of its panel (a Tesseract process:
    ~0.1-0.4 s on a busy machine). The letters are where the panel is red and, there, darker
    than the rest: JPEG keeps colour at half the resolution and smears it into the gaps
    between letters (the screencast's "COIN" read "COM"), brightness at full."""
    picture = crop(image, SHOP_NAME)
    if picture.size == 0:
        return ""
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    red = ((hsv[..., 0] <= 8) | (hsv[..., 0] >= 170)) & (hsv[..., 1] >= 120) & (hsv[..., 2] >= 90)
    near = cv2.dilate(red.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    if not near.any():
        return ""
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    darker, _ = cv2.threshold(gray[near].reshape(-1, 1), 0, 255,
                              cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # (no letter whitelist: with one Tesseract runs the words together)
    letters = page_of(near & (gray <= darker))
    return " ".join(re.sub(r"[^A-Z ]", "", read_text(letters, "--psm 7").upper()).split())


def read_detail(image: np.ndarray, glyphs: Glyphs | None = None, *, named: bool = True
                ) -> Detail:
    """The selected card's panel; its name left unread ("") unless `named`."""
    name = read_name(image) if named else ""
    button = crop(image, SHOP_BUY)
    ink = price_ink(crop(image, SHOP_PRICE))
    price = read_in(ink, glyphs) if ink is not None else Number(None)
    maxed = price.value is None and says_max(button)
    return Detail(name, level(image), price.value,
                  _share(button, BUY_GREEN) > 0.3, maxed, "" if maxed else price.why)


def price_ink(picture: np.ndarray) -> np.ndarray | None:
    """The lettering of the price on the BUY button: light, well lighter than the button (a
    grey button's is light grey, not white), right of its coin."""
    if picture.size == 0:
        return None
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    gold = cv2.inRange(hsv, np.array(COIN_GOLD[0]), np.array(COIN_GOLD[1]))
    columns = np.flatnonzero(gold.sum(axis=0) > 3 * 255)
    if len(columns):  # the number starts right of the coin (whose shine is light too)
        hsv = hsv[:, columns.max() + 2:]
    light = max(200.0, float(np.median(hsv[..., 2])) + 35)
    return (hsv[..., 1] <= 110) & (hsv[..., 2] >= light)


def coins(image: np.ndarray, glyphs: Glyphs | None = None) -> int | None:
    """The coin counter at the top of the shop."""
    return coins_read(image, glyphs).value


def coins_read(image: np.ndarray, glyphs: Glyphs | None = None) -> Number:
    """The coin counter at the top of the shop, or why it is not read."""
    return number_read(crop(image, SHOP_COINS), glyphs)


def pip_pictures(image: np.ndarray) -> list[np.ndarray]:
    """The nine level pips of the detail panel, each a picture around its digit (narrow enough
    to leave out a reached pip's red disc beside it)."""
    dx, dy = offset(image)
    x0, y, pitch, count = SHOP_PIPS
    return [image[max(0, y + dy - 15):y + dy + 15,
                  max(0, round(x0 + pitch * k) + dx - 9):round(x0 + pitch * k) + dx + 9]
            for k in range(count)]


def buy_button(image: np.ndarray) -> Point:
    dx, dy = offset(image)
    x, y, width, height = SHOP_BUY
    return x + dx + width / 2, y + dy + height / 2


def panel(image: np.ndarray) -> np.ndarray:
    """The part of the panel that changes with the selection or a purchase (to wait on)."""
    x, y, _, _ = SHOP_NAME
    bx, by, bw, bh = SHOP_BUY
    return crop(image, (x, y, bx + bw - x, by + bh - y))
