"""Draws a SET card as the printed card game looks (not the Daily SET page's art): a white card
with rounded corners, 1-3 large upright shapes side by side, thin outlines, stripes as fine
horizontal lines, and the printed inks as a camera sees them in ordinary light (an orange red, a
mid green, a dark violet). The measures are taken from the real photos in
../shared/reference/daily-set/photos/. Cards are the dicts of scripts/render_set_cards.py
(count, shape, color, fill).

    python scripts/physical_cards.py OUT.png [--height 200]   (all 81 cards on one sheet)
"""

from __future__ import annotations

import argparse
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

try:  # imported from the repository's root, as the tests do
    from scripts.render_set_cards import card_for_number
except ModuleNotFoundError:  # run as a file from scripts/
    from render_set_cards import card_for_number

# Lengths are shares of the card's height (its short side); the card is landscape.
CARD_ASPECT = 1.53
CORNER_RADIUS = 0.05
SHAPE_HEIGHT = 0.7
SHAPE_WIDTH = {"diamond": 0.34, "oval": 0.34, "squiggle": 0.33}
PITCH = 0.45  # between the centres of neighbouring shapes
OUTLINE = 0.016
STRIPE_PERIOD, STRIPE_WIDTH = 0.017, 0.006  # measured on both photos: 1.7%
PAPER = (244, 245, 246)  # BGR
INKS = {"red": (40, 62, 228), "green": (78, 148, 22), "purple": (132, 44, 104)}  # BGR
SUPERSAMPLE = 4

# The squiggle's outline, read off the phone photo's cards: half of it, the other half the
# same turned by 180 degrees; x and y as shares of the shape's width and height about its centre.
_SQUIGGLE_HALF = [(-0.2, -0.5), (0.12, -0.47), (0.34, -0.33), (0.31, -0.12), (0.26, 0.06),
                  (0.42, 0.25), (0.52, 0.4)]


def physical_card(card: dict, height: int = 200) -> np.ndarray:
    """The card (count, shape, color, fill) as a printed card, `height` px high and landscape,
    shapes upright (BGRA: transparent outside the rounded corners)."""
    key = (int(card["count"]), str(card["shape"]), str(card["color"]), str(card["fill"]))
    return _drawn(key, int(height)).copy()


@lru_cache(maxsize=256)
def _drawn(key: tuple[int, str, str, str], height: int) -> np.ndarray:
    count, shape, color, fill = key
    width = int(round(height * CARD_ASPECT))
    s = height * SUPERSAMPLE  # supersampled pixels per card height
    size = (width * SUPERSAMPLE, height * SUPERSAMPLE)
    silhouettes = np.zeros(size[::-1], np.uint8)
    for k in range(count):
        centre = (size[0] / 2 + (k - (count - 1) / 2) * PITCH * s, size[1] / 2)
        points = _outline(shape) * (SHAPE_WIDTH[shape] * s, SHAPE_HEIGHT * s) + centre
        cv2.fillPoly(silhouettes, [np.round(points).astype(np.int32)], 255)
    ink = silhouettes
    if fill != "solid":
        thickness = max(1, int(round(OUTLINE * s)))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * thickness + 1,) * 2)
        inside = cv2.erode(silhouettes, kernel)
        ink = cv2.subtract(silhouettes, inside)
        if fill == "striped":
            rows = np.arange(size[1]) / s % STRIPE_PERIOD < STRIPE_WIDTH
            ink = np.maximum(ink, inside * rows[:, None].astype(np.uint8))
    outline = np.zeros(size[::-1], np.uint8)
    _rounded_rect(outline, size, int(CORNER_RADIUS * s))
    ink = cv2.resize(ink, (width, height), interpolation=cv2.INTER_AREA)[..., None] / 255.0
    alpha = cv2.resize(outline, (width, height), interpolation=cv2.INTER_AREA)
    face = np.array(PAPER, np.float64) * (1 - ink) + np.array(INKS[color], np.float64) * ink
    return np.dstack([np.round(face).astype(np.uint8), alpha])


def _outline(shape: str) -> np.ndarray:
    """The shape's outline in a unit box centred on 0 (x right, y down)."""
    if shape == "diamond":
        return np.array([(0, -0.5), (0.5, 0), (0, 0.5), (-0.5, 0)])
    if shape == "oval":  # a stadium: straight sides, round ends, as wide as the box
        turn = np.linspace(np.pi, 2 * np.pi, 60)
        aspect = SHAPE_WIDTH["oval"] / SHAPE_HEIGHT  # the ends' radius in box heights
        top = np.stack([0.5 * np.cos(turn), -0.5 + aspect / 2 + aspect / 2 * np.sin(turn)], 1)
        return np.vstack([top, -top])
    half = np.array(_SQUIGGLE_HALF)
    points = np.vstack([half, -half])
    for _ in range(4):  # Chaikin's corner cutting: a smooth closed curve through the points
        after = np.roll(points, -1, axis=0)
        points = np.stack([0.75 * points + 0.25 * after, 0.25 * points + 0.75 * after], 1)
        points = points.reshape(-1, 2)
    low, high = points.min(0), points.max(0)
    return (points - (low + high) / 2) / (high - low)


def _rounded_rect(image: np.ndarray, size: tuple[int, int], radius: int) -> None:
    width, height = size
    cv2.rectangle(image, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(image, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for x in (radius, width - 1 - radius):
        for y in (radius, height - 1 - radius):
            cv2.circle(image, (x, y), radius, 255, -1)


def sheet(height: int = 120) -> np.ndarray:
    """The 81 cards on a dark table, 9 to a row (BGR)."""
    cards = [physical_card(card_for_number(n), height) for n in range(1, 82)]
    h, w = cards[0].shape[:2]
    gap = height // 8
    picture = np.full((9 * (h + gap) + gap, 9 * (w + gap) + gap, 3), 30, np.uint8)
    for i, art in enumerate(cards):
        top, left = gap + i // 9 * (h + gap), gap + i % 9 * (w + gap)
        alpha = art[..., 3:] / 255.0
        area = picture[top:top + h, left:left + w]
        area[:] = np.round(art[..., :3] * alpha + area * (1 - alpha)).astype(np.uint8)
    return picture


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the sheet to write (PNG)")
    parser.add_argument("--height", type=int, default=120, help="a card's height, px")
    args = parser.parse_args()
    if not cv2.imwrite(str(args.out), sheet(args.height)):
        raise SystemExit(f"physical_cards: error: cannot write {args.out}")
    print(f"wrote 81 cards to {args.out}")


if __name__ == "__main__":
    main()
