"""Per-pixel measures of an 8-bit BGR picture, by OpenCV: numpy's max or min over a last axis
of 3 is many times slower (a Puzlogic look spent more on it than on the rest of telling its
screen)."""

from __future__ import annotations

import cv2
import numpy as np


def brightest(picture: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel (its HSV value)."""
    blue, green, red = cv2.split(np.ascontiguousarray(picture[..., :3]))
    return cv2.max(cv2.max(blue, green), red)


def value_and_chroma(picture: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's largest channel and its largest minus its smallest (0 for a grey)."""
    blue, green, red = cv2.split(np.ascontiguousarray(picture[..., :3]))
    value = cv2.max(cv2.max(blue, green), red)
    return value, cv2.subtract(value, cv2.min(cv2.min(blue, green), red))
