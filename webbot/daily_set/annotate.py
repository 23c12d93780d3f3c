"""A board picture with what was read drawn on it: each card's box and position, and each set
as a line through its three cards in a colour of its own, named in a legend below."""

from __future__ import annotations

import cv2
import numpy as np

from webbot.daily_set.board import Board

# BGR; none of them a SET ink (red, green, purple), so a line is not taken for a card's colour.
SET_COLOURS = ((0, 140, 255), (255, 120, 0), (0, 190, 220), (140, 80, 0), (255, 0, 200),
               (40, 40, 40), (0, 90, 160), (160, 160, 0), (120, 120, 255), (90, 0, 90))
BOX_COLOUR = (70, 70, 70)


def annotated(image: np.ndarray, board: Board) -> np.ndarray:
    """A copy of the picture (BGR) with the board drawn on it and a legend strip below."""
    picture = image.copy()
    unit = max(1, round(min(picture.shape[:2]) / 400))  # line width: thicker on big pictures
    centres = {}
    for card in board.cards:
        corners = np.round(card.corners).astype(np.int32)
        cv2.polylines(picture, [corners], True, BOX_COLOUR, unit, cv2.LINE_AA)
        x, y = corners[0]
        _label(picture, str(card.position), (int(x) + 2 * unit, int(y) + 2 * unit), BOX_COLOUR,
               unit)
        centres[card.position] = card.corners.mean(axis=0)
    for number, triple in enumerate(board.sets):
        colour = SET_COLOURS[number % len(SET_COLOURS)]
        # Each set a little apart from the others, so lines sharing a card stay visible.
        shift = np.array((0, (number - len(board.sets) / 2) * 3 * unit))
        points = np.round([centres[p] + shift for p in triple]).astype(np.int32)
        cv2.polylines(picture, [points], False, colour, 2 * unit, cv2.LINE_AA)
        for point in points:
            cv2.circle(picture, tuple(int(v) for v in point), 4 * unit, colour, -1, cv2.LINE_AA)
    return np.vstack([picture, _legend(board, picture.shape[1], unit)])


def _legend(board: Board, width: int, unit: int) -> np.ndarray:
    line = 18 * unit
    rows = max(1, len(board.sets))
    strip = np.full((line * rows + 8 * unit, width, 3), 255, np.uint8)
    if not board.sets:
        _text(strip, "no set", (6 * unit, line), BOX_COLOUR, unit)
    for number, triple in enumerate(board.sets):
        colour = SET_COLOURS[number % len(SET_COLOURS)]
        _text(strip, f"set {number + 1}: cards {' '.join(map(str, triple))}",
              (6 * unit, line * (number + 1)), colour, unit)
    return strip


def _text(picture: np.ndarray, text: str, at: tuple[int, int], colour, unit: int) -> None:
    cv2.putText(picture, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * unit, colour, unit,
                cv2.LINE_AA)


def _label(picture: np.ndarray, text: str, at: tuple[int, int], colour, unit: int) -> None:
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.45 * unit, unit)
    x, y = at
    cv2.rectangle(picture, (x, y), (x + w + 4 * unit, y + h + 4 * unit), colour, -1)
    cv2.putText(picture, text, (x + 2 * unit, y + h + 2 * unit), cv2.FONT_HERSHEY_SIMPLEX,
                0.45 * unit, (255, 255, 255), unit, cv2.LINE_AA)
