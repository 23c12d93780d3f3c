"""Find the cards: the first stage of reading a picture of SET cards.

Cards are found two ways. A card with edges of its own (a photo of the card game's table) is
found by its outline and cut out with it (photo.find_cards: CardsFound). A board whose cards
have no edge to see (the Daily SET's white cards on a white page) is found by its shapes
(shapes.py), chained into cards and laid in rows and columns (grid.py): ShapedCards, here.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from webbot.set_cards.grid import (
    completed,
    numbered,
    parted_by_columns,
    pitch_of,
    rejoined,
    tilt_of,
)
from webbot.set_cards.model import DAILY_CARDS, BoardError, TooSmall
from webbot.set_cards.shapes import Shape, chained, find_shapes

MIN_TILT = 0.3  # degrees: a slope below this is left as it is
HALF_LOOK_PIXELS = 2_500_000  # a picture this large is first read at half size (half_look)
MIN_HALF_SHAPE_H = 40  # px at half size: about the page's own (42 px high shapes)
# Through JPEG, shapes lower than this do not read reliably (a card about 50 px wide draws
# them about 22 px high), so they are refused, untried.
MIN_LOSSY_SHAPE_H = 20


@dataclass(frozen=True)
class Sight:
    """The cards' shapes found in a picture, for its slope and which way up it stands."""

    picture: np.ndarray  # as given, or turned a quarter clockwise (cards standing on end)
    groups: list[list[Shape]]
    quarter: np.ndarray  # the affine map from the picture as given to `picture`


@dataclass(frozen=True)
class ShapedCards:
    """The cards of a board found by their shapes, numbered row by row as given."""

    picture: np.ndarray  # the picture looked at, turned level and on end as the cards need
    cards: list[list[Shape]]  # each card's shapes, left to right
    tilt: float  # degrees the picture was turned to read it
    on_end: bool  # the cards stand on end in the picture as given (read turned a quarter)
    back: np.ndarray  # the affine map from `picture` to the picture as given
    pitch: float  # the median distance between a card's neighbouring shapes (0: none)


def look(image: np.ndarray) -> Sight:
    """The picture's cards, as it stands or, where more show so, turned a quarter (cards
    standing on end: shapes lying down)."""
    sight = Sight(image, chained(find_shapes(image)), np.eye(2, 3, dtype=np.float64))
    if len(sight.groups) < DAILY_CARDS:
        h = image.shape[0]
        turned = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        turned_groups = chained(find_shapes(turned))
        if len(turned_groups) > len(sight.groups):
            return Sight(turned, turned_groups,
                         np.array([[0, -1, h - 1], [1, 0, 0]], np.float64))  # (x, y) -> turned
    return sight


def half_look(image: np.ndarray) -> Sight | None:
    """A picture of HALF_LOOK_PIXELS or more (a photo) looked at at half size (a quarter of
    the work), where its cards are drawn at least as large as a page draws them; else None."""
    if image.shape[0] * image.shape[1] < HALF_LOOK_PIXELS:
        return None
    half = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    sight = look(half)
    heights = [s.h for g in sight.groups for s in g]
    if len(sight.groups) >= DAILY_CARDS and np.median(heights) >= MIN_HALF_SHAPE_H:
        return sight
    return None


def by_shapes(sight: Sight, lossy: bool = False, scale: float = 1.0) -> ShapedCards:
    """The cards in what `look` saw, turned level and numbered, their places multiplied by
    `scale` (a picture looked at at half size, placed in the whole); a BoardError where the
    shapes are no board's (none, too small for a `lossy` picture, more alike in a row than a
    card holds)."""
    image, groups, quarter = sight.picture, sight.groups, sight.quarter
    tilt = tilt_of(groups)
    turn = quarter
    upright = image
    if abs(tilt) >= MIN_TILT:
        h, w = image.shape[:2]
        level = cv2.getRotationMatrix2D((w / 2, h / 2), -tilt, 1)  # back level
        upright = cv2.warpAffine(image, level, (w, h), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
        turn = np.hstack([level[:, :2] @ quarter[:, :2],
                          (level[:, :2] @ quarter[:, 2] + level[:, 2])[:, None]])
        groups = chained(find_shapes(upright))
    on_end = bool(quarter[0, 0] == 0)
    if not groups:
        raise BoardError("no SET cards in the picture (no coloured shapes on light cards)")
    height = float(np.median([s.h for g in groups for s in g]))
    if lossy and height < MIN_LOSSY_SHAPE_H:
        raise TooSmall(f"the cards are too small to read through JPEG compression: their "
                       f"shapes are {height:.0f} px high, {MIN_LOSSY_SHAPE_H} needed")
    groups = parted_by_columns(groups)
    crowded = [g for g in groups if len(g) > 3]
    if crowded:
        x, y = crowded[0][0].centre
        raise BoardError(f"{len(crowded[0])} alike shapes in a row near ({x:.0f}, {y:.0f}): "
                         "cannot tell the cards apart")
    back = cv2.invertAffineTransform(turn) * scale
    placed = completed(upright, rejoined(numbered(groups, on_end)))
    return ShapedCards(upright, placed, tilt, on_end, back, pitch_of(placed))
