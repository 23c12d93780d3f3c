"""The dark 2 px lines of Puzlogic's grid boxes: board cells' full outlines and tray slots'
corner brackets, measured on a mask of line ink (webbot.puzlogic.inks.line_ink)."""

from __future__ import annotations

import cv2
import numpy as np


class Lines:
    """Where the 2 px dark lines of outlines and brackets run. A line counts where it is dark
    somewhere across it, a pixel either side allowed (a blurred or JPEG-compressed line keeps
    only one dark row here and there). A row's (or column's) running count is made the first
    time a line along it is measured (boxes sit on a grid: a few dozen rows and columns), so
    each measure is then two lookups."""

    def __init__(self, dark: np.ndarray) -> None:
        self._ink = dark.astype(np.uint8)
        self.height, self.width = dark.shape
        self._spread: dict[tuple[str, int], np.ndarray] = {}
        self._rows: dict[tuple[int, int], np.ndarray] = {}
        self._columns: dict[tuple[int, int], np.ndarray] = {}

    # across: a pixel counts when a dark one is 1 above to 2 below it (a 2 px line, +-1);
    # without slack, on it or 1 below (and down alike, sideways): kernel and anchor (x, y)
    KERNELS = {("across", 1): ((4, 1), (0, 1)), ("across", 0): ((2, 1), (0, 0)),
               ("down", 1): ((1, 4), (1, 0)), ("down", 0): ((1, 2), (0, 0))}

    def spread(self, way: str, slack: int) -> np.ndarray:
        """The ink spread as a line measured `way` (across or down) counts it."""
        if (way, slack) not in self._spread:
            kernel, anchor = self.KERNELS[way, slack]
            self._spread[way, slack] = cv2.dilate(self._ink, np.ones(kernel, np.uint8),
                                                  anchor=anchor)
        return self._spread[way, slack]

    def _row(self, top: int, slack: int) -> np.ndarray:
        if (top, slack) not in self._rows:
            self._rows[top, slack] = _running(self.spread("across", slack)[top])
        return self._rows[top, slack]

    def _column(self, left: int, slack: int) -> np.ndarray:
        if (left, slack) not in self._columns:
            self._columns[left, slack] = _running(self.spread("down", slack)[:, left])
        return self._columns[left, slack]

    def across(self, top: int, left: int, length: int, slack: int = 1) -> float:
        """Share of the horizontal line from (left, top) that is dark."""
        right, left = min(left + length, self.width), max(left, 0)
        if not 0 <= top < self.height or right <= left:
            return 0.0
        row = self._row(top, slack)
        return float(row[right] - row[left]) / (right - left)

    def down(self, top: int, left: int, length: int, slack: int = 1) -> float:
        """Share of the vertical line from (left, top) that is dark."""
        bottom, top = min(top + length, self.height), max(top, 0)
        if not 0 <= left < self.width or bottom <= top:
            return 0.0
        column = self._column(left, slack)
        return float(column[bottom] - column[top]) / (bottom - top)


def _running(line: np.ndarray) -> np.ndarray:
    """Running count of a line's dark pixels (0 first)."""
    return np.concatenate(([0], np.cumsum(line, dtype=np.int64)))


def outline_grid(lines: Lines, xs: list[int], ys: list[int]) -> np.ndarray:
    """outline_sides of every box at (x, y) for x in `xs` and y in `ys`, as [y][x][side]: the
    same shares, measured for all the boxes at once (boxes wholly inside the picture; any
    other, one by one)."""
    left, top = np.array(xs), np.array(ys)
    if len(xs) == 0 or len(ys) == 0 or left.min() < 0 or top.min() < 0 or \
            left.max() + 46 > lines.width or top.max() + 46 > lines.height:
        return np.array([[outline_sides(lines, x, y) for x in xs] for y in ys]).reshape(
            len(ys), len(xs), 8)
    grid = np.empty((len(ys), len(xs), 8))
    for side, (way, slack, start, length, shift) in enumerate(OUTLINE):
        if way == "across":  # rows top + shift, from left + start
            rows = _running_all(lines.spread("across", slack)[top + shift], axis=1)
            grid[:, :, side] = (rows[:, left + start + length] - rows[:, left + start]) / length
        else:  # columns left + shift, from top + start
            columns = _running_all(lines.spread("down", slack)[:, left + shift], axis=0)
            grid[:, :, side] = (columns[top + start + length] - columns[top + start]) / length
    return grid


# outline_sides' eight lines: (way, slack, start along the line, length, offset across it)
OUTLINE = (("across", 1, 4, 36, 0), ("across", 1, 4, 36, 42), ("down", 1, 4, 36, 0),
           ("down", 1, 4, 36, 42), ("across", 0, 17, 10, 0), ("across", 0, 17, 10, 42),
           ("down", 0, 17, 10, 0), ("down", 0, 17, 10, 42))


def _running_all(lines: np.ndarray, axis: int) -> np.ndarray:
    """Running counts along `axis` of several lines at once (0 first)."""
    counts = np.cumsum(lines, axis=axis, dtype=np.int64)
    return np.concatenate((np.zeros((1, lines.shape[1]) if axis == 0 else
                                    (lines.shape[0], 1), np.int64), counts), axis=axis)


def outline_sides(lines: Lines, x: int, y: int) -> list[float]:
    """How much of each side of a box's outline is there, and of each side's middle (where
    a tray slot's brackets leave a gap, even when a small picture blurs their ends)."""
    return [lines.across(y, x + 4, 36), lines.across(y + 42, x + 4, 36),
            lines.down(y + 4, x, 36), lines.down(y + 4, x + 42, 36),
            lines.across(y, x + 17, 10, 0), lines.across(y + 42, x + 17, 10, 0),
            lines.down(y + 17, x, 10, 0), lines.down(y + 17, x + 42, 10, 0)]


def bracket_arms(lines: Lines, x: int, y: int) -> tuple[float, float]:
    """(share of the eight bracket arms present, share of the four side middles dark)."""
    arms = [lines.across(y, x + 3, 9), lines.across(y, x + 32, 9),
            lines.across(y + 42, x + 3, 9), lines.across(y + 42, x + 32, 9),
            lines.down(y + 3, x, 9), lines.down(y + 32, x, 9),
            lines.down(y + 3, x + 42, 9), lines.down(y + 32, x + 42, 9)]
    middles = [lines.across(y, x + 18, 8, 0), lines.across(y + 42, x + 18, 8, 0),
               lines.down(y + 18, x, 8, 0), lines.down(y + 18, x + 42, 8, 0)]
    return (sum(arm > 0.7 for arm in arms) / 8, sum(middle > 0.7 for middle in middles) / 4)
