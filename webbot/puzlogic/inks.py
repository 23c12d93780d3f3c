"""Puzlogic's inks told apart by colour family, never by an exact value.

Real colours drift from capture to capture (anti-aliasing, colour management, JPEG, gamma):
the real blue sums measure about RGB(103,140,255) where a clean render has #8080FF, and the
blue pieces are #941AFF in some levels and #8181FF in others. So an ink is known by its hue,
saturation and lightness, and the dark grey by its lightness relative to the level's
background. Margins (OpenCV HSV: hue 0-180, saturation and value 0-255): the inks measured on
the real screenshots and the replica sit well inside them, the backgrounds well outside (the
pinkest, #D8A4A4, has saturation 61; the leaves drifting over it are paler still).
"""

from __future__ import annotations

import cv2
import numpy as np

from webbot.vision.pixels import brightest, value_and_chroma

DARK_LEVEL = 66       # the grey of outlines and given numbers (#424242)
DARK_CHROMA = 90      # a dark blue piece is as dark as the outline, but far from grey
WHITE = (50, 200)     # saturation at most, value at least
BLUE_HUES = (100, 150)  # #678CFF 113, #8080FF 120, #941AFF 136
BLUE_SATURATION = 90
RED_HUES = (10, 170)  # red is below the first or above the second
RED = (150, 150)      # saturation and value at least (#FF2A2A: 213, 255)
GREEN_HUES = (45, 75)   # a finished level's tick (#4CFF48: 59); the select screen's green is
GREEN = (150, 150)      # far paler (saturation 95)
GREY_MARGIN = 15        # a locked level's grey outline, below the select screen's green
LINE_CONTRAST = 40      # an outline is this much darker than the pixels just beside it,
LINE_BELOW = 25         # and this much darker than the background (not the background
                        # beside a white piece)


def _hsv(pixels: np.ndarray) -> np.ndarray:
    image = pixels.reshape(-1, 1, 3) if pixels.ndim < 3 else pixels
    return cv2.cvtColor(np.ascontiguousarray(image, np.uint8), cv2.COLOR_BGR2HSV)


def chroma(canvas: np.ndarray) -> np.ndarray:
    """Per pixel, its largest channel minus its smallest (0 for a grey)."""
    return value_and_chroma(canvas)[1]


def off_background(canvas: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Per pixel, how far its farthest channel is from the background's."""
    flat = tuple(float(v) for v in np.clip(np.round(background), 0, 255)) + (0.0,)
    return brightest(cv2.absdiff(canvas, flat))


def _gray(bgr: np.ndarray) -> float:
    return float(0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2])


def dark_ink(canvas: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Where the dark grey ink is: nearer in lightness to it than to the background, and
    nearly grey. A blurred or JPEG-compressed 2 px outline keeps its middle this dark."""
    gray = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
    return (gray <= (_gray(background) + DARK_LEVEL) / 2) & (chroma(canvas) <= DARK_CHROMA)


def line_ink(canvas: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Where the dark grey lines of outlines and brackets are: nearly grey pixels darker than
    the background and well darker than the lightest pixel within 3 px (the background beside
    a 2 px line). A pale leaf drifting over a line lightens the line and its surroundings
    alike, so the line stays."""
    gray = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
    beside = cv2.dilate(gray, np.ones((7, 7), np.uint8))
    return ((cv2.subtract(beside, gray) >= LINE_CONTRAST) & (gray <= _gray(background) - LINE_BELOW)
            & (chroma(canvas) <= DARK_CHROMA))


def grey_ink(canvas: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Any nearly grey ink darker than the background: the dark grey, and the lighter grey
    of a locked level's outline."""
    gray = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
    return (gray <= _gray(background) - GREY_MARGIN) & (chroma(canvas) <= DARK_CHROMA)


# Each family as ranges of OpenCV's HSV (hue, saturation, value), both ends included.
_RANGES = {
    "white": [((0, 0, WHITE[1]), (255, WHITE[0], 255))],
    "blue": [((BLUE_HUES[0], BLUE_SATURATION, 0), (BLUE_HUES[1], 255, 255))],
    "red": [((0, RED[0], RED[1]), (RED_HUES[0] - 1, 255, 255)),
            ((RED_HUES[1] + 1, RED[0], RED[1]), (255, 255, 255))],
    "green": [((GREEN_HUES[0], GREEN[0], GREEN[1]), (GREEN_HUES[1], 255, 255))],
}


def masks(canvas: np.ndarray, *only: str) -> dict[str, np.ndarray]:
    """Per-pixel masks of the white, blue, red and green families (or `only` those named)."""
    hsv = _hsv(canvas)
    found = {}
    for name in only or _RANGES:
        ranges = [cv2.inRange(hsv, low, high) for low, high in _RANGES[name]]
        mask = ranges[0] if len(ranges) == 1 else cv2.bitwise_or(*ranges)
        found[name] = mask > 0
    return found


def mask(canvas: np.ndarray, name: str) -> np.ndarray:
    """Per-pixel mask of one family (white, blue, red or green)."""
    return masks(canvas, name)[name]


def family(colour: np.ndarray, background: np.ndarray) -> str | None:
    """dark, white, blue or red for one colour (BGR), or None when it is none of them."""
    pixel = np.clip(colour, 0, 255).astype(np.uint8).reshape(1, 1, 3)
    if dark_ink(pixel, background)[0, 0]:
        return "dark"
    for name, mask in masks(pixel).items():
        if mask[0, 0]:
            return name
    return None


def shares(pixels: np.ndarray, background: np.ndarray) -> dict[str, float]:
    """Of some ink pixels (BGR), the share in each family: dark, white, blue, red. A dark blue
    pixel (the dark edge of a blue stroke) counts as blue, not dark."""
    if not len(pixels):
        return dict.fromkeys(("dark", "white", "blue", "red"), 0.0)
    row = np.ascontiguousarray(pixels.reshape(-1, 1, 3), np.uint8)
    families = masks(row)
    families["dark"] = dark_ink(row, background) & ~families["blue"]
    return {name: float(families[name].sum()) / len(pixels)
            for name in ("dark", "white", "blue", "red")}
