"""Cut each card: the second stage of reading a picture of SET cards.

A card found by its shapes (find.ShapedCards) is cut out around its shapes, inside the card,
for the card reader (perceive.py), and placed in the picture as given by a card's proportions
around them; a card that cannot be cut whole is refused at its place, with why. A card with
edges of its own is cut out and straightened as it is found (photo.py); a board's card found
by its shapes is cut so too when a table's card must be read on its own (cut_again).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from webbot.set_cards.find import ShapedCards
from webbot.set_cards.grid import off_column
from webbot.set_cards.model import Board
from webbot.set_cards.perceive import CardError
from webbot.set_cards.photo import CutCard, straightened
from webbot.set_cards.shapes import CARD_H, CARD_W, Shape, centre, ink_beyond

# A card's crop for the classifier, in shape heights: the real card is 2.26 wide and 1.48 high
# with 0.14 beside three shapes; the crop stays inside it.
CROP_H, CROP_PAD_X, CROP_MIN_W = 1.4, 0.12, 2.0


@dataclass(frozen=True)
class ShapeCut:
    """A card found by its shapes, cut out for reading."""

    position: int  # 1-based, row by row
    shapes: list[Shape]
    corners: np.ndarray  # the card's four corners in the picture as given
    box: tuple[int, int, int, int]  # x, y, width, height in the picture as given
    picture: np.ndarray | CardError  # the crop around its shapes; or why it cannot be cut


def cut_shaped(found: ShapedCards) -> list[ShapeCut]:
    """Each card of the board cut out around its shapes, row by row; a card whose shapes lie
    off its column's middle, or whose lone shape has ink beside it, may have lost a shape at
    its edge, and is not cut."""
    shifted = off_column(found.cards)
    cuts = []
    for position, group in enumerate(found.cards, 1):
        corners = cv2.transform(_corners(group)[None], found.back)[0]
        x, y, w, h = cv2.boundingRect(corners.astype(np.float32))
        picture: np.ndarray | CardError
        try:
            if position - 1 in shifted:
                raise CardError("its shapes lie off the middle of its column: one at the "
                                "card's edge may be unseen")
            picture = _inside(found.picture, group, found.pitch)
        except CardError as exc:
            picture = exc
        cuts.append(ShapeCut(position, group, corners, (x, y, w, h), picture))
    return cuts


def cut_again(image: np.ndarray, board: Board) -> list[CutCard]:
    """Each card of a board read from its shapes cut out of the picture (BGR) by its corners
    and straightened, as a card with edges of its own is."""
    cuts = []
    for card in board.cards:
        corners = card.corners.astype(np.float32)
        cuts.append(CutCard(corners, straightened(image, corners)))
    return cuts


def _inside(upright: np.ndarray, group: list[Shape], pitch: float) -> np.ndarray:
    """The crop around a card's shapes, inside the card; a CardError where ink lies beside a
    lone shape (shapes too faint for colour beside it) or the card runs off the picture."""
    if len(group) == 1 and ink_beyond(upright, group, pitch):
        raise CardError("ink lies where shapes beside its one would be: they may be unseen")
    height = float(np.median([s.h for s in group]))
    left = min(s.x for s in group)
    right = max(s.x + s.w for s in group)
    cx, cy = (left + right) / 2, centre(group)[1]
    width = max(right - left + 2 * CROP_PAD_X * height, CROP_MIN_W * height)
    top, bottom = round(cy - CROP_H * height / 2), round(cy + CROP_H * height / 2)
    x0, x1 = round(cx - width / 2), round(cx + width / 2)
    if top < 0 or x0 < 0 or bottom > upright.shape[0] or x1 > upright.shape[1]:
        raise CardError("the card runs off the picture")
    return upright[top:bottom, x0:x1]


def _corners(group: list[Shape]) -> np.ndarray:
    """The card's corners (upright picture), a card's proportions around its shapes."""
    height = float(np.median([s.h for s in group]))
    cx, cy = centre(group)
    w, h = CARD_W * height / 2, CARD_H * height / 2
    return np.array([(cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)],
                    np.float64)
