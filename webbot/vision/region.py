"""Finding a game's canvas inside a larger picture (a page or desktop grab)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from webbot.errors import WebbotError
from webbot.vision.pixels import brightest


class GameNotFound(WebbotError):
    """No region of the expected shape in the picture."""


@dataclass(frozen=True)
class Region:
    """A rectangle in image pixels."""

    x: int
    y: int
    width: int
    height: int

    def crop(self, image: np.ndarray) -> np.ndarray:
        return image[self.y:self.y + self.height, self.x:self.x + self.width]


BLACK_LEVELS = (12, 20, 28)  # what counts as black, tried in turn: JPEG rings a thin black
# frame beside a bright game up to about 25, which can join the game to the page around it


def find_game(image: np.ndarray, aspect: float, *, min_width: int = 200,
              tolerance: float = 0.03) -> Region:
    """The largest non-black block of the given width/height ratio, framed by black.

    In a page grab the game sits inside a black frame, so it is a connected block of non-black
    pixels whose bounding box has the game's proportions and which fills that box; a canvas
    screenshot is one such block from edge to edge.
    """
    height, width = image.shape[:2]
    for black in BLACK_LEVELS if image.size else ():
        found = _framed_block(image, aspect, min_width, black, tolerance)
        if found is not None:
            return found
    raise GameNotFound(f"no {aspect:.3g}:1 game area framed by black in the "
                       f"{width}x{height} picture")


def _framed_block(image: np.ndarray, aspect: float, min_width: int, black: int,
                  tolerance: float) -> Region | None:
    height, width = image.shape[:2]
    # Components on a quarter-size mask, then edges refined at full size: 10x cheaper.
    step = 4 if min(height, width) >= 2 * min_width else 1
    coarse = _non_black(image[::step, ::step], black)
    count, _, stats, _ = cv2.connectedComponentsWithStats(coarse, connectivity=4)
    best: Region | None = None
    for x, y, w, h, area in stats[1:count]:
        if w * step < min_width or abs(w / h - aspect) > 2 * tolerance * aspect:
            continue
        if area < 0.8 * w * h:
            continue
        region = _refine(image, black, x * step, y * step, w * step, h * step, step)
        if abs(region.width / region.height - aspect) > tolerance * aspect:
            continue
        if best is None or region.width * region.height > best.width * best.height:
            best = region
    return best


def _non_black(image: np.ndarray, black: int) -> np.ndarray:
    return (brightest(image) > black).astype(np.uint8)


def _refine(image: np.ndarray, black: int, x: int, y: int, w: int, h: int, step: int) -> Region:
    """Exact edges of a block found on a coarse mask: the outermost mostly non-black lines."""
    y0, y1 = max(0, y - step), min(image.shape[0], y + h + step)
    x0, x1 = max(0, x - step), min(image.shape[1], x + w + step)
    inner = _non_black(image[y0:y1, x0:x1], black)
    rows = np.nonzero(_mostly(inner[:, step:-step or None], axis=1))[0]
    cols = np.nonzero(_mostly(inner[step:-step or None, :], axis=0))[0]
    if not len(rows) or not len(cols):
        return Region(x, y, w, h)
    return Region(int(x0 + cols[0]), int(y0 + rows[0]), int(cols[-1] - cols[0] + 1),
                  int(rows[-1] - rows[0] + 1))


def _mostly(mask: np.ndarray, axis: int) -> np.ndarray:
    """Where more than half of a 0/1 mask's lines along `axis` are 1 (its mean above 0.5)."""
    return 2 * np.count_nonzero(mask, axis=axis) > mask.shape[axis]
