"""Words drawn on pictures so a person reads them at a glance, whatever is under them: each
label a badge (a filled box in the label's colour, the words in black or white, whichever
stands out on it, edged in that colour too), and a legend strip that says what the marks
mean."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

FONT = cv2.FONT_HERSHEY_SIMPLEX
Colour = tuple[int, int, int]  # BGR
INK = (40, 40, 40)  # the legend's words


@dataclass(frozen=True)
class Key:
    """One line of a legend: a sample of a label as drawn, in its colour, and what it means."""

    sample: str
    colour: Colour
    meaning: str


def text_on(fill: Colour) -> Colour:
    """Black or white, whichever reads better on `fill` (by its relative luminance, WCAG's:
    the contrast with black beats the one with white above about 0.18)."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    b, g, r = (linear(c) for c in fill)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (0, 0, 0) if (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) else \
        (255, 255, 255)


def badge_size(text: str, height: float) -> tuple[int, int]:
    """The width and height of a badge whose letters are about `height` pixels tall."""
    scale, thickness = _font(height)
    (w, h), _ = cv2.getTextSize(text, FONT, scale, thickness)
    pad = max(2, round(h * 0.3))
    return w + 2 * pad, h + 2 * pad


def badge(picture: np.ndarray, text: str, at: tuple[float, float], colour: Colour,
          height: float) -> None:
    """`text` in a badge of `colour` with its top-left corner `at` (kept inside the picture),
    letters about `height` pixels tall."""
    scale, thickness = _font(height)
    (w, h), _ = cv2.getTextSize(text, FONT, scale, thickness)
    pad = max(2, round(h * 0.3))
    width, tall = w + 2 * pad, h + 2 * pad
    x = int(min(max(0, at[0]), max(0, picture.shape[1] - width)))
    y = int(min(max(0, at[1]), max(0, picture.shape[0] - tall)))
    ink = text_on(colour)
    cv2.rectangle(picture, (x, y), (x + width - 1, y + tall - 1), colour, -1)
    cv2.rectangle(picture, (x, y), (x + width - 1, y + tall - 1), ink, 1)
    cv2.putText(picture, text, (x + pad, y + pad + h), FONT, scale, ink, thickness, cv2.LINE_AA)


def with_legend(picture: np.ndarray, keys: Sequence[Key], height: float) -> np.ndarray:
    """The picture with a white strip below it: each key's sample badge and its meaning,
    folded onto more lines where the picture is too narrow for it (never cut at its edge)."""
    if not keys:
        return picture
    line = round(height * 2.2)
    scale, thickness = _font(height)
    samples = max(badge_size(key.sample, height)[0] for key in keys)
    left = line // 3 + samples + line // 2
    room = max(picture.shape[1] - left - line // 3, 1)
    meanings = [_folded(key.meaning, room, scale, thickness) for key in keys]
    strip = np.full((line * sum(map(len, meanings)) + line // 2, picture.shape[1], 3), 255,
                    np.uint8)
    top = line // 4
    for key, lines in zip(keys, meanings, strict=True):
        badge(strip, key.sample, (line // 3, top), key.colour, height)
        _, tall = badge_size(key.sample, height)
        for number, words in enumerate(lines):
            baseline = top + (tall + round(height)) // 2 + number * line
            cv2.putText(strip, words, (left, baseline), FONT, scale, INK, thickness,
                        cv2.LINE_AA)
        top += line * len(lines)
    return np.vstack([picture, strip])


def _folded(text: str, width: int, scale: float, thickness: int) -> list[str]:
    """`text` in lines no wider than `width` pixels, broken between words (a word wider than
    that alone on its line)."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and cv2.getTextSize(joined, FONT, scale, thickness)[0][0] <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]


def _font(height: float) -> tuple[float, int]:
    """The Hershey scale and stroke for letters about `height` pixels tall (a capital at
    scale 1 is 22 px)."""
    scale = max(0.35, height / 22)
    return scale, max(1, round(scale * 1.6))
