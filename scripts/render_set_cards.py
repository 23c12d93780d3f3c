"""Draws the Daily SET replica's card images: the 81 small GIF cards of the old page, the 258x167
GIF cards of the 2022 page, the PNG cards of the current page, and the page's few buttons.

    python scripts/render_set_cards.py [--out fixtures/daily-set/images] [--cards 1,63,81]

The look follows the real cards' measurements (reference README and real GIFs): a 95x62 white
card; 1-3 upright shapes 19x42 px side by side on a 32 px pitch, tops at y=10; colours red
#fe0101, green #409743, purple #9901cc; empty shapes a 3 px outline (4 px for ovals), striped
ones 2 px horizontal lines every 4 px inside the outline; a soft grey drop shadow 2 px down and
right; antialiased edges. File numbers follow the real site's numbering, so a saved real page
and its card files line up with the replica's; the bot never reads them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

SMALL = (95, 62)  # width, height of an old-page card
LARGE = (258, 167)  # the 2022 page's GIF cards (shown at 95x62)
NEW_SCALE = 2  # new-page cards: the same drawing, twice the size, on a rounded card
SUPERSAMPLE = 8
SHAPE_W, SHAPE_H, SHAPE_TOP, PITCH = 19.0, 42.0, 10.0, 32.0
OUTLINE = {"diamond": 4.5, "oval": 4.5, "squiggle": 3.5}
STRIPE_PERIOD, STRIPE_WIDTH = 4.0, 2.0
SHADOW_OFFSET, SHADOW_BLUR, SHADOW_GREY = 1.6, 1.2, 150
COLORS_RGB = {"red": (254, 1, 1), "green": (64, 151, 67), "purple": (153, 1, 204)}

# The real site's numbering: n = number - 1 = fill*27 + shape*9 + colour*3 + (count-1).
SITE_FILLS = ("solid", "striped", "empty")
SITE_SHAPES = ("squiggle", "diamond", "oval")
SITE_COLORS = ("red", "purple", "green")


def card_for_number(number: int) -> dict[str, int | str]:
    """The card a site image number shows (1..81)."""
    if not 1 <= number <= 81:
        raise ValueError(f"card numbers run from 1 to 81, not {number}")
    n = number - 1
    return {"count": n % 3 + 1, "shape": SITE_SHAPES[n // 9 % 3],
            "color": SITE_COLORS[n // 3 % 3], "fill": SITE_FILLS[n // 27]}


def outline_points(shape: str, cx: float) -> np.ndarray:
    """The shape's outline in card units, centred on x=cx."""
    top, h, w = SHAPE_TOP, SHAPE_H, SHAPE_W
    cy = top + h / 2
    if shape == "diamond":
        return np.array([(cx, top), (cx + w / 2, cy), (cx, top + h), (cx - w / 2, cy)])
    t = np.linspace(0.0, 1.0, 241)
    if shape == "oval":  # a stadium: straight sides, round ends
        r = w / 2
        angles = np.linspace(np.pi, 2 * np.pi, 60)
        upper = np.stack([cx + r * np.cos(angles), top + r + r * np.sin(angles)], axis=1)
        lower = np.stack([cx - r * np.cos(angles), top + h - r - r * np.sin(angles)], axis=1)
        return np.vstack([upper, lower])
    # squiggle: a fat band, its left side dented above the middle and its right side below,
    # rounded at both ends
    def dent(at: float, depth: float) -> np.ndarray:
        return depth * w * np.exp(-(((t - at) / 0.11) ** 2))

    round_ends = np.clip(1 - np.abs(2 * t - 1) ** 6, 0, 1) ** 0.5
    y = top + h * t
    right = cx + (0.45 * w - dent(0.7, 0.17) + dent(0.3, 0.03)) * round_ends
    left = cx - (0.45 * w - dent(0.36, 0.19) + dent(0.75, 0.03)) * round_ends
    right = np.stack([right, y], axis=1)
    left = np.stack([left, y], axis=1)[::-1]
    return np.vstack([right, left])


def shape_masks(card: dict, size: tuple[int, int], scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Supersampled masks (0..1 floats) of the ink and of the whole shape silhouettes."""
    s = scale * SUPERSAMPLE
    width, height = size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE
    count = int(card["count"])
    centre = size[0] / scale / 2
    silhouettes = np.zeros((height, width), np.uint8)
    for k in range(count):
        cx = centre + (k - (count - 1) / 2) * PITCH
        points = np.round(outline_points(str(card["shape"]), cx) * s).astype(np.int32)
        cv2.fillPoly(silhouettes, [points], 255)
    if card["fill"] == "solid":
        ink = silhouettes
    else:
        thickness = int(round(OUTLINE[str(card["shape"])] * s))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * thickness + 1,) * 2)
        inside = cv2.erode(silhouettes, kernel)
        ink = cv2.subtract(silhouettes, inside)
        if card["fill"] == "striped":
            rows = (np.arange(height) / s - SHAPE_TOP) % STRIPE_PERIOD < STRIPE_WIDTH
            ink = np.maximum(ink, inside * rows[:, None].astype(np.uint8))
    return ink.astype(np.float32) / 255, silhouettes.astype(np.float32) / 255


def draw_card(card: dict, scale: float = 1.0) -> np.ndarray:
    """A card picture (BGR, white background) at `scale` times the small card's size."""
    size = (int(round(SMALL[0] * scale)), int(round(SMALL[1] * scale)))
    ink, _ = shape_masks(card, size, scale)
    shift = SHADOW_OFFSET * scale * SUPERSAMPLE
    move = np.float32([[1, 0, shift], [0, 1, shift]])
    shadow = cv2.warpAffine(ink, move, (ink.shape[1], ink.shape[0]))
    blur = SHADOW_BLUR * scale * SUPERSAMPLE
    shadow = cv2.GaussianBlur(shadow, (0, 0), blur) * 0.8
    picture = np.full(ink.shape + (3,), 255.0, np.float32)
    picture -= (255 - SHADOW_GREY) * shadow[..., None]
    rgb = np.array(COLORS_RGB[str(card["color"])], np.float32)
    bgr = rgb[::-1]
    picture = picture * (1 - ink[..., None]) + bgr * ink[..., None]
    small = cv2.resize(picture, size, interpolation=cv2.INTER_AREA)
    return np.clip(np.round(small), 0, 255).astype(np.uint8)


def new_card(card: dict) -> np.ndarray:
    """A new-page card: the drawing at twice the size on a rounded white card with a grey
    border and transparent corners (BGRA)."""
    face = draw_card(card, NEW_SCALE)
    h, w = face.shape[:2]
    s = SUPERSAMPLE
    outline = np.zeros((h * s, w * s), np.uint8)
    radius = 10 * s
    rect = (s, s, w * s - 2 * s, h * s - 2 * s)
    _rounded_rect(outline, rect, radius, 255, True)
    alpha = cv2.resize(outline, (w, h), interpolation=cv2.INTER_AREA)
    border = np.zeros_like(outline)
    _rounded_rect(border, rect, radius, 255, False, thickness=2 * s)
    border = cv2.resize(border, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    grey = np.array((200, 200, 200), np.float32)
    face = face.astype(np.float32) * (1 - border[..., None]) + grey * border[..., None]
    return np.dstack([np.round(face).astype(np.uint8), alpha])


def large_card(card: dict) -> np.ndarray:
    """A 2022-page card: the same drawing at 258x167."""
    return draw_card(card, LARGE[0] / SMALL[0])[:LARGE[1], :LARGE[0]]


def _rounded_rect(image: np.ndarray, rect: tuple[int, int, int, int], radius: int, colour: int,
                  filled: bool, thickness: int = 1) -> None:
    x, y, w, h = rect
    points = []
    corners = ((x + w - radius, y + radius, -90), (x + w - radius, y + h - radius, 0),
               (x + radius, y + h - radius, 90), (x + radius, y + radius, 180))
    for cx, cy, start in corners:
        points += cv2.ellipse2Poly((cx, cy), (radius, radius), 0, start, start + 90, 5).tolist()
    polygon = np.array(points, np.int32)
    if filled:
        cv2.fillPoly(image, [polygon], colour)
    else:
        cv2.polylines(image, [polygon], True, colour, thickness)


def empty_card() -> np.ndarray:
    """The SETs Found panel's placeholder: a blank light card."""
    return np.full((SMALL[1], SMALL[0], 3), 236, np.uint8)


def text_button(text: str, size: tuple[int, int], fill: tuple[int, int, int]) -> np.ndarray:
    button = np.full((size[1], size[0], 3), fill[::-1], np.uint8)
    font, scale_, thick = cv2.FONT_HERSHEY_SIMPLEX, 0.45, 1
    (tw, th), _ = cv2.getTextSize(text, font, scale_, thick)
    origin = ((size[0] - tw) // 2, (size[1] + th) // 2)
    cv2.putText(button, text, origin, font, scale_, (255, 255, 255), thick, cv2.LINE_AA)
    return button


def render(out: Path, numbers: list[int] | None = None) -> list[Path]:
    """Writes every image (or the cards `numbers` and the buttons) under `out`; returns the
    files written."""
    small, new = out / "setcards" / "small", out / "setcards" / "new"
    large = out / "setcards" / "large"
    for folder in (small, new, large):
        folder.mkdir(parents=True, exist_ok=True)
    written = []
    for number in numbers or range(1, 82):
        card = card_for_number(number)
        written.append(_write(small / f"{number:02d}.gif", draw_card(card)))
        written.append(_write(new / f"{number}.png", new_card(card)))
        written.append(_write(large / f"{number}.gif", large_card(card)))
    written.append(_write(small / "empty_card.gif", empty_card()))
    written.append(_write(out / "sets_found_button.gif",
                          text_button("SETs Found", (96, 22), (99, 0, 125))))
    written.append(_write(out / "x_button.gif", text_button("x", (14, 14), (120, 120, 120))))
    return written


def _write(path: Path, image: np.ndarray) -> Path:
    if path.suffix == ".gif":
        # OpenCV's GIF encoder dithers and tints the white; Pillow's median cut keeps the
        # antialiased edges clean, like the real cards' 40-odd colour palettes.
        rgb = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
        rgb.quantize(64, Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path)
    elif not cv2.imwrite(str(path), image):
        raise OSError(f"cannot write {path}")
    return path


def _numbers(text: str) -> list[int]:
    numbers = [int(part) for part in text.split(",") if part.strip()]
    if not numbers or not all(1 <= n <= 81 for n in numbers):
        raise argparse.ArgumentTypeError(f"{text!r}: expected card numbers from 1 to 81")
    return numbers


def main() -> None:
    default = Path(__file__).resolve().parents[1] / "fixtures" / "daily-set" / "images"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=default, help=f"default: {default}")
    parser.add_argument("--cards", type=_numbers, help="only these cards (1-81), comma-separated")
    args = parser.parse_args()
    files = render(args.out, args.cards)
    print(f"wrote {len(files)} images under {args.out}")


if __name__ == "__main__":
    main()
