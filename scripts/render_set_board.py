"""Draws pictures of SET boards, as a screenshot or a photo would show them: the Daily SET's
cards laid out like its three pages (or any card pictures), on any background, scaled, tilted,
with shadows or outlines, saved as PNG or JPEG. For the tests of `webbot daily-set read IMAGE`
and the README's example.

    python scripts/render_set_board.py OUT.png [--layout current|2022|old] [--seed N]
        [--background RRGGBB] [--scale S] [--rotate DEG] [--shadow] [--outline] [--jpeg Q]

Cards come from the replica's images (fixtures/daily-set/images/setcards); the layouts follow the
pages: the current page's 190x124 rounded cards 24 px apart on white, the 2022 page's 258x167
cards shown at 95x62 in a table (4 px apart) on white, the old page's 95x62 cards on #eceeee.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "fixtures" / "daily-set" / "images" / "setcards"


@dataclass(frozen=True)
class Layout:
    folder: str  # under IMAGES
    name: str  # the file name of card n
    size: tuple[int, int]  # a card as shown, width and height
    gap: int  # between cards
    background: tuple[int, int, int]  # BGR


LAYOUTS = {"current": Layout("new", "{n}.png", (190, 124), 24, (255, 255, 255)),
           "2022": Layout("large", "{n}.gif", (95, 62), 4, (255, 255, 255)),
           "old": Layout("small", "{n:02d}.gif", (95, 62), 4, (0xee, 0xee, 0xec))}


@dataclass(frozen=True)
class Look:
    """How the picture is taken."""

    layout: str = "current"
    background: tuple[int, int, int] | None = None  # BGR; None: the layout's page colour
    scale: float = 1.0
    rotate: float = 0.0  # degrees, anticlockwise
    shadow: bool = False  # a soft drop shadow under each card
    outline: bool = False  # a thin grey line round each card
    jpeg: int | None = None  # quality, or None for a lossless picture
    columns: int = 4
    margin: int = 60  # around the board, at scale 1


def card_picture(layout: Layout, number: int) -> np.ndarray:
    """Card `number` of the replica as the layout shows it: BGRA at the layout's size."""
    path = IMAGES / layout.folder / layout.name.format(n=number)
    picture = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)  # (OpenCV reads GIFs since 4.7)
    if picture is None:
        raise SystemExit(f"cannot read {path}")
    if picture.ndim == 2:
        picture = cv2.cvtColor(picture, cv2.COLOR_GRAY2BGRA)
    elif picture.shape[2] == 3:
        picture = cv2.cvtColor(picture, cv2.COLOR_BGR2BGRA)
    return cv2.resize(picture, layout.size, interpolation=cv2.INTER_AREA)


def board(cards: list[np.ndarray], look: Look) -> np.ndarray:
    """The cards (BGRA, all one size) laid out row by row, as `look` says (BGR)."""
    layout = LAYOUTS[look.layout]
    height, width = cards[0].shape[:2]
    rows = (len(cards) + look.columns - 1) // look.columns
    pitch_x, pitch_y = width + layout.gap, height + layout.gap
    size = (2 * look.margin + look.columns * pitch_x - layout.gap,
            2 * look.margin + rows * pitch_y - layout.gap)
    colour = np.array(look.background or layout.background, np.float32)
    picture = np.empty((size[1], size[0], 3), np.float32)
    picture[:] = colour
    boxes = [(look.margin + (i % look.columns) * pitch_x,
              look.margin + (i // look.columns) * pitch_y) for i in range(len(cards))]
    if look.shadow:
        shade = np.zeros(picture.shape[:2], np.float32)
        for (x, y), card in zip(boxes, cards, strict=True):
            shade[y + 4:y + 4 + height, x + 3:x + 3 + width] = np.maximum(
                shade[y + 4:y + 4 + height, x + 3:x + 3 + width], card[..., 3] / 255)
        shade = cv2.GaussianBlur(shade, (0, 0), 3) * 0.45
        picture *= 1 - shade[..., None]
    for (x, y), card in zip(boxes, cards, strict=True):
        alpha = card[..., 3:4].astype(np.float32) / 255
        spot = picture[y:y + height, x:x + width]
        spot[:] = spot * (1 - alpha) + card[..., :3].astype(np.float32) * alpha
        if look.outline:
            cv2.rectangle(picture, (x - 1, y - 1), (x + width, y + height), (150, 150, 150), 1,
                          cv2.LINE_AA)
    picture = np.clip(np.round(picture), 0, 255).astype(np.uint8)
    if look.scale != 1:
        shrink = cv2.INTER_AREA if look.scale < 1 else cv2.INTER_CUBIC
        picture = cv2.resize(picture, None, fx=look.scale, fy=look.scale, interpolation=shrink)
    if look.rotate:
        h, w = picture.shape[:2]
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), look.rotate, 1)
        edge = tuple(int(c) for c in colour)
        picture = cv2.warpAffine(picture, turn, (w, h), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=edge)
    if look.jpeg is not None:
        ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        picture = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return picture


def daily_puzzle(seed: int) -> list[int]:
    """Twelve card numbers (1-81) among which there are exactly six sets, as the Daily SET
    deals them."""
    try:
        from scripts.render_set_cards import card_for_number
    except ImportError:  # run as a script, from scripts/
        from render_set_cards import card_for_number

    def is_set(a: dict, b: dict, c: dict) -> bool:
        return all(len({a[k], b[k], c[k]}) != 2 for k in ("count", "shape", "color", "fill"))

    chance = random.Random(seed)
    while True:
        numbers = chance.sample(range(1, 82), 12)
        cards = [card_for_number(n) for n in numbers]
        sets = sum(is_set(cards[i], cards[j], cards[k]) for i in range(12)
                   for j in range(i + 1, 12) for k in range(j + 1, 12))
        if sets == 6:
            return numbers


def daily_board(numbers: list[int], look: Look) -> np.ndarray:
    layout = LAYOUTS[look.layout]
    return board([card_picture(layout, n) for n in numbers], look)


def _colour(text: str) -> tuple[int, int, int]:
    value = text.lstrip("#")
    if len(value) != 6:
        raise argparse.ArgumentTypeError(f"{text!r}: expected RRGGBB")
    r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return b, g, r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--layout", choices=sorted(LAYOUTS), default="current")
    parser.add_argument("--seed", type=int, default=1, help="which puzzle (default 1)")
    parser.add_argument("--background", type=_colour)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--rotate", type=float, default=0.0, help="degrees")
    parser.add_argument("--shadow", action="store_true")
    parser.add_argument("--outline", action="store_true")
    parser.add_argument("--jpeg", type=int, help="JPEG quality (1-100)")
    args = parser.parse_args()
    look = Look(args.layout, args.background, args.scale, args.rotate, args.shadow,
                args.outline, args.jpeg)
    numbers = daily_puzzle(args.seed)
    picture = daily_board(numbers, look)
    if not cv2.imwrite(str(args.out), picture):
        raise SystemExit(f"cannot write {args.out}")
    print(f"wrote {args.out}: cards {' '.join(map(str, numbers))}")


if __name__ == "__main__":
    main()
