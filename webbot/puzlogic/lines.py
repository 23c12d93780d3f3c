"""The dark 2 px lines of Puzlogic's grid boxes: board cells' full outlines and tray slots'
corner brackets, measured on a mask of line ink (webbot.puzlogic.inks.line_ink)."""

from __future__ import annotations

import cv2
import numpy as np


class Lines:
    """Where the 2 px dark lines of outlines and brackets run. A line counts where it is dark
    somewhere across it, a pixel either side allowed (a blurred or JPEG-compressed line keeps
    only one dark row here and there); integral images make each measure four lookups."""

    def __init__(self, dark: np.ndarray) -> None:
        ink = dark.astype(np.uint8)

        def integral(kernel: tuple[int, int], anchor: tuple[int, int]) -> np.ndarray:
            return cv2.integral(cv2.dilate(ink, np.ones(kernel, np.uint8), anchor=anchor))

        # across: a pixel counts when a dark one is 1 above to 2 below it (a 2 px line, +-1)
        self._across = {1: integral((4, 1), (0, 1)), 0: integral((2, 1), (0, 0))}
        self._down = {1: integral((1, 4), (1, 0)), 0: integral((1, 2), (0, 0))}
        self.height, self.width = dark.shape

    @staticmethod
    def _share(sums: np.ndarray, top: int, bottom: int, left: int, right: int) -> float:
        total = sums[bottom, right] - sums[top, right] - sums[bottom, left] + sums[top, left]
        return float(total) / ((bottom - top) * (right - left))

    def across(self, top: int, left: int, length: int, slack: int = 1) -> float:
        """Share of the horizontal line from (left, top) that is dark."""
        right, left = min(left + length, self.width), max(left, 0)
        if not 0 <= top < self.height or right <= left:
            return 0.0
        return self._share(self._across[slack], top, top + 1, left, right)

    def down(self, top: int, left: int, length: int, slack: int = 1) -> float:
        """Share of the vertical line from (left, top) that is dark."""
        bottom, top = min(top + length, self.height), max(top, 0)
        if not 0 <= left < self.width or bottom <= top:
            return 0.0
        return self._share(self._down[slack], top, bottom, left, left + 1)


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
