"""The one "has it held still?": two pictures agree, and a picture (or a set of crops of one)
that has agreed with itself for long enough. Games animate: numbers count up, panels and
overlays fade in, and the bot reads or clicks only once they stop."""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

Pictures = np.ndarray | Mapping[str, np.ndarray]


def changed_fraction(a: np.ndarray, b: np.ndarray, threshold: int = 8) -> float:
    """Share of pixels whose colour moved by more than `threshold` in some channel (1.0 for
    pictures of different shapes)."""
    if a.shape != b.shape:
        return 1.0
    moved = cv2.absdiff(a, b)
    if moved.ndim == 3:
        moved = moved.max(axis=2)
    moved = moved > threshold
    return float(np.count_nonzero(moved)) / max(1, moved.size)


def alike(a: Pictures | None, b: Pictures | None, threshold: int = 0,
          max_changed: float = 0.0) -> bool:
    """The same pictures (or the same named crops), to `threshold` and `max_changed`."""
    if a is None or b is None:
        return False
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        return (isinstance(a, Mapping) and isinstance(b, Mapping) and bool(a)
                and a.keys() == b.keys()
                and all(alike(a[k], b[k], threshold, max_changed) for k in a))
    return changed_fraction(a, b, threshold) <= max_changed


class Stillness:
    """Watches a picture over looks: `still` is True once it has not changed for `seconds`
    (0: since the look before)."""

    def __init__(self, seconds: float = 0.0, threshold: int = 0,
                 max_changed: float = 0.0) -> None:
        self.seconds, self.threshold, self.max_changed = seconds, threshold, max_changed
        self.last: Pictures | None = None
        self.since = 0.0

    def still(self, pictures: Pictures, now: float) -> bool:
        same = alike(self.last, pictures, self.threshold, self.max_changed)
        if not same:
            self.last, self.since = pictures, now
        return same and now - self.since >= self.seconds
