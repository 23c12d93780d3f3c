"""The dark 2 px lines of Puzlogic's grid boxes: board cells' full outlines and tray slots'
corner brackets, measured on a mask of line ink (webbot.puzlogic.inks.line_ink)."""

from __future__ import annotations

import numpy as np


class Lines:
    """Where the 2 px dark lines of outlines and brackets run. A line counts where it is dark
    somewhere across it, a pixel either side allowed (a blurred or JPEG-compressed line keeps
    only one dark row here and there). A row's (or column's) running count is made the first
    time a line along it is measured (boxes sit on a grid: a few dozen rows and columns), so
    each measure is then two lookups."""

    def __init__(self, dark: np.ndarray) -> None:
        self._dark = dark.astype(bool)
        self.height, self.width = dark.shape
        self._rows: dict[tuple[int, int], np.ndarray] = {}
        self._columns: dict[tuple[int, int], np.ndarray] = {}

    @staticmethod
    def _running(band: np.ndarray, axis: int) -> np.ndarray:
        """Running count of where the band is dark anywhere across it (0 first)."""
        return np.concatenate(([0], np.cumsum(band.any(axis=axis))))

    def _row(self, top: int, slack: int) -> np.ndarray:
        # across: a pixel counts when a dark one is 1 above to 2 below it (a 2 px line, +-1);
        # without slack, on it or 1 below
        if (top, slack) not in self._rows:
            low, high = (top - 1, top + 3) if slack else (top, top + 2)
            self._rows[top, slack] = self._running(
                self._dark[max(low, 0):min(high, self.height)], 0)
        return self._rows[top, slack]

    def _column(self, left: int, slack: int) -> np.ndarray:
        if (left, slack) not in self._columns:
            low, high = (left - 1, left + 3) if slack else (left, left + 2)
            self._columns[left, slack] = self._running(
                self._dark[:, max(low, 0):min(high, self.width)], 1)
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
