"""A board picture with what was read drawn on it: each card's box and position, and each set
as a line through its three cards in a colour of its own, named in a legend below."""

from __future__ import annotations

import cv2
import numpy as np

from webbot.set_cards.model import Board
from webbot.vision.labels import Key, badge, with_legend

# BGR; none of them a SET ink (red, green, purple), so a line is not taken for a card's colour.
SET_COLOURS = ((0, 140, 255), (255, 120, 0), (0, 190, 220), (140, 80, 0), (255, 0, 200),
               (40, 40, 40), (0, 90, 160), (160, 160, 0), (120, 120, 255), (90, 0, 90))
BOX_COLOUR = (70, 70, 70)


def annotated(image: np.ndarray, board: Board) -> np.ndarray:
    """A copy of the picture (BGR) with the board drawn on it and a legend strip below."""
    picture = image.copy()
    unit = max(1, round(min(picture.shape[:2]) / 400))  # line width: thicker on big pictures
    centres, heights = {}, []
    for card in board.cards:
        corners = np.round(card.corners).astype(np.int32)
        cv2.polylines(picture, [corners], True, BOX_COLOUR, unit, cv2.LINE_AA)
        centres[card.position] = card.corners.mean(axis=0)
        heights.append(float(np.ptp(card.corners[:, 1])))
    # A card's number large enough to read at a glance: a seventh of a card's height.
    letters = max(11.0, (np.median(heights) if heights else 0) / 7)
    for card in board.cards:
        x, y = card.corners.min(axis=0)
        badge(picture, str(card.position), (x + 2 * unit, y + 2 * unit), BOX_COLOUR, letters)
    for number, triple in enumerate(board.sets):
        colour = SET_COLOURS[number % len(SET_COLOURS)]
        # Each set a little apart from the others, so lines sharing a card stay visible.
        shift = np.array((0, (number - len(board.sets) / 2) * 3 * unit))
        points = np.round([centres[p] + shift for p in triple]).astype(np.int32)
        cv2.polylines(picture, [points], False, colour, 2 * unit, cv2.LINE_AA)
        for point in points:
            cv2.circle(picture, tuple(int(v) for v in point), 4 * unit, colour, -1, cv2.LINE_AA)
    return with_legend(picture, legend(board), 11 * unit)


def legend(board: Board) -> list[Key]:
    """What the marks mean: the cards' numbers, then each set's colour and its cards."""
    keys = [Key("7", BOX_COLOUR, "a card's position, row by row from the top left")]
    keys += [Key(f"set {number + 1}", SET_COLOURS[number % len(SET_COLOURS)],
                 f"a line through cards {' '.join(map(str, triple))}")
             for number, triple in enumerate(board.sets)]
    if not board.sets:
        keys.append(Key("no set", BOX_COLOUR, "no three of the cards make a set"))
    return keys
