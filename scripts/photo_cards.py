"""Draws single SET cards as a camera sees them: the replica's card art
(scripts/render_set_cards.py, the card known from its number) photographed with a camera's
faults, each of random strength: a slight tilt and perspective, a little of the table around the
card or the picture cropped to it, warm or cold light, camera blur, stripes turned to moire by
sampling without a prefilter, sensor noise and JPEG, at 60-150 px wide. The measuring stick of
issue 54's "never wrong on a single card" (scripts/bench_photo_cards.py); deterministic for a
seed.

    python scripts/photo_cards.py OUT.png [--seed N] [--count 81]   (a contact sheet)
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

try:  # imported from the repository's root, as the tests do
    from scripts.render_set_cards import card_for_number, new_card
except ModuleNotFoundError:  # run as a file from scripts/
    from render_set_cards import card_for_number, new_card

WIDTHS = (60, 150)  # final picture width, px
CARD_ASPECT = 190 / 124  # the new page's card, width / height


@dataclass(frozen=True)
class Look:
    """How one photo is taken. Lengths are in output pixels unless said otherwise."""

    width: int = 100
    angle: float = 0.0  # degrees, the card turned in the picture
    skew: tuple[float, ...] = (0.0,) * 8  # corner offsets (x, y) x4, as shares of the width
    margin: float = 0.0  # table shown round the card (> 0) or card cut off (< 0), share of width
    table: tuple[int, int, int] = (40, 40, 40)  # BGR
    exposure: float = 1.0  # the card's white lands at 255 * exposure (before the cast)
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)  # colour cast: B, G, R multipliers
    shading: float = 0.0  # brightness falloff across the card (light from one side)
    moire: bool = False  # sampled straight from the drawing (no prefilter): stripes alias
    nearest: bool = False  # with moire: nearest-neighbour sampling (a harsher alias)
    blur: float = 0.0  # Gaussian sigma of the lens, at the final size
    noise: float = 0.0  # sensor noise, standard deviation in 8-bit levels
    jpeg: int = 0  # JPEG quality; 0 = none


def random_look(rng: np.random.Generator) -> Look:
    """A phone or webcam crop of a real card: every fault present, each at a random strength."""
    warm = rng.uniform(-1, 1)  # < 0 cold light, > 0 warm
    tint = rng.uniform(-0.05, 0.05, 3)
    gains = (1 - 0.15 * warm + tint[0], 1 + tint[1], 1 + 0.15 * warm + tint[2])
    width = int(rng.integers(WIDTHS[0], WIDTHS[1] + 1))
    tables = ((30, 30, 30), (60, 90, 130), (110, 110, 105), (40, 70, 40), (150, 150, 150))
    return Look(
        width=width,
        angle=float(rng.uniform(-4, 4)),
        skew=tuple(float(v) for v in rng.uniform(-0.025, 0.025, 8)),
        margin=float(rng.choice([rng.uniform(-0.03, 0.0), rng.uniform(0.0, 0.06)])),
        table=tables[int(rng.integers(len(tables)))],
        exposure=float(rng.uniform(0.75, 1.02)),
        gains=tuple(float(np.clip(g, 0.8, 1.2)) for g in gains),
        shading=float(rng.uniform(0, 0.15)),
        moire=bool(rng.random() < 0.6),
        nearest=bool(rng.random() < 0.3),
        # sigma 1.5 wipes out the stripes of a 60 px card (2.5 px apart) for a person too
        blur=float(rng.uniform(0.0, 1.5) * min(1.0, width / 110)),
        noise=float(rng.uniform(0.0, 6.0)),
        jpeg=int(rng.integers(60, 91)),
    )


def photo_card(number: int, rng: np.random.Generator) -> tuple[np.ndarray, dict[str, int | str]]:
    """A photographed-looking picture (BGR) of card `number` (1-81, the site's numbering) and
    the card's attributes (count, shape, colour, fill)."""
    return photograph(number, random_look(rng), rng), card_for_number(number)


def photograph(number: int, look: Look, rng: np.random.Generator | None = None) -> np.ndarray:
    """Card `number` taken as `look` says (BGR); `rng` draws the table's grain and the noise."""
    rng = rng if rng is not None else np.random.default_rng(0)
    card = _card_art(number)  # BGRA, transparent round the rounded corners
    width = look.width
    height = int(round(width / CARD_ASPECT))
    oversample = 1 if look.moire else 4
    out_w, out_h = width * oversample, height * oversample
    homography = _card_to_picture(card.shape[1], card.shape[0], look, out_w, out_h)
    interpolation = cv2.INTER_NEAREST if look.moire and look.nearest else cv2.INTER_LINEAR
    warped = cv2.warpPerspective(card, homography, (out_w, out_h), flags=interpolation,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    face = warped[..., :3].astype(np.float32) * look.exposure
    face *= _shading(out_w, out_h, look.shading, rng)[..., None]
    alpha = warped[..., 3:4].astype(np.float32) / 255
    table = _table(out_w, out_h, look.table, rng)
    picture = face * alpha + table * (1 - alpha)
    if oversample > 1:
        picture = cv2.resize(picture, (width, height), interpolation=cv2.INTER_AREA)
    picture *= np.array(look.gains, np.float32)
    if look.blur > 0:
        picture = cv2.GaussianBlur(picture, (0, 0), look.blur)
    if look.noise > 0:
        picture += rng.normal(0, look.noise, picture.shape).astype(np.float32)
    picture = np.clip(np.round(picture), 0, 255).astype(np.uint8)
    if look.jpeg:
        ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        assert ok
        picture = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return picture


@lru_cache(maxsize=81)
def _card_art(number: int) -> np.ndarray:
    return new_card(card_for_number(number))


def _card_to_picture(card_w: int, card_h: int, look: Look, out_w: int,
                     out_h: int) -> np.ndarray:
    """The homography from the card's drawing to the picture: the card filling the picture,
    less the margin, turned by the angle and its corners pushed by the skew."""
    inset = look.margin * out_w
    corners = np.array([(inset, inset), (out_w - inset, inset),
                        (out_w - inset, out_h - inset), (inset, out_h - inset)], np.float64)
    corners += np.array(look.skew, np.float64).reshape(4, 2) * out_w
    centre = np.array([out_w / 2, out_h / 2])
    turn = np.radians(look.angle)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    corners = (corners - centre) @ rotation.T + centre
    source = np.array([(0, 0), (card_w, 0), (card_w, card_h), (0, card_h)], np.float32)
    return cv2.getPerspectiveTransform(source, corners.astype(np.float32))


def _shading(width: int, height: int, strength: float, rng: np.random.Generator) -> np.ndarray:
    """1 on the lit side, 1 - strength on the far one, a straight ramp in a random direction."""
    direction = rng.uniform(0, 2 * np.pi)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    along = np.cos(direction) * x / width + np.sin(direction) * y / height
    along = (along - along.min()) / max(float(np.ptp(along)), 1e-6)
    return 1 - strength * along


def _table(width: int, height: int, colour: tuple[int, int, int],
           rng: np.random.Generator) -> np.ndarray:
    """A table top: the colour with a soft grain."""
    grain = cv2.GaussianBlur(rng.normal(0, 12, (height, width)).astype(np.float32), (0, 0), 2)
    return np.array(colour, np.float32) + grain[..., None]


def contact_sheet(pictures: list[np.ndarray], columns: int = 9, cell: int = 160) -> np.ndarray:
    """The pictures side by side at their own size, on grey, `columns` to a row."""
    rows = -(-len(pictures) // columns)
    cell_h = int(cell / CARD_ASPECT) + 8
    sheet = np.full((rows * cell_h, columns * cell, 3), 128, np.uint8)
    for i, picture in enumerate(pictures):
        top, left = i // columns * cell_h + 4, i % columns * cell + 4
        h, w = picture.shape[:2]
        sheet[top:top + h, left:left + w] = picture
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the contact sheet to write (PNG)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=81, help="cards drawn (numbers 1..81 cycled)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    pictures = [photo_card(i % 81 + 1, rng)[0] for i in range(args.count)]
    if not cv2.imwrite(str(args.out), contact_sheet(pictures)):
        raise SystemExit(f"photo_cards: error: cannot write {args.out}")
    print(f"wrote {len(pictures)} cards to {args.out}")


if __name__ == "__main__":
    main()
