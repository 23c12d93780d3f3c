"""Marks drawn on a picture: what was recognised, boxed and labelled, and the picture saved
where the user asked."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from webbot.errors import WebbotError
from webbot.vision.labels import Key, badge, badge_size, with_legend


class Framed(Protocol):
    """A frame as marks are drawn on it (webbot.screen.Grab is one): its picture, and its
    device pixels per CSS pixel (letters are drawn that much larger)."""

    @property
    def image(self) -> np.ndarray: ...

    @property
    def scale(self) -> float: ...


LETTERS = 11  # the height of a label's letters, in CSS pixels


@dataclass(frozen=True)
class Mark:
    """Something recognised in a frame: a box in image coordinates and what it was read as."""

    x: float
    y: float
    width: float
    height: float
    text: str = ""
    color: tuple[int, int, int] = (0, 0, 255)  # BGR
    # Where the text goes: "above" the box, or "inside" it, large, over what is there (a
    # cell's reading or answer, read at a glance)
    where: str = "above"


def annotate(grab: Framed, marks: Iterable[Mark], legend: Sequence[Key] = ()) -> np.ndarray:
    """A copy of the frame's picture with the marks drawn on it, each text in a badge that
    reads on any background; with a `legend`, a strip below saying what the marks mean."""
    image = grab.image.copy()
    thickness = max(1, round(grab.scale))
    letters = LETTERS * grab.scale
    for mark in marks:
        top_left = (round(mark.x), round(mark.y))
        bottom_right = (round(mark.x + mark.width), round(mark.y + mark.height))
        cv2.rectangle(image, top_left, bottom_right, mark.color, thickness)
        if not mark.text:
            continue
        if mark.where == "above":
            _, tall = badge_size(mark.text, letters)
            badge(image, mark.text, (mark.x, mark.y - tall - 1), mark.color, letters)
            continue
        height = mark.height * 0.4
        width, tall = badge_size(mark.text, height)
        if width > mark.width * 0.9:  # a long text: smaller letters, still inside
            height *= mark.width * 0.9 / width
            width, tall = badge_size(mark.text, height)
        badge(image, mark.text, (mark.x + (mark.width - width) / 2,
                                 mark.y + (mark.height - tall) / 2), mark.color, height)
    return with_legend(image, legend, letters)


def lines(grab: Framed, texts: Sequence[str], colour: tuple[int, int, int]) -> list[Mark]:
    """Lines of text at the picture's top left, one under the other, as marks."""
    step = badge_size("Mg", LETTERS * grab.scale)[1] + 2
    return [Mark(8, step * (i + 1), 0, 0, text, colour) for i, text in enumerate(texts)]



def save_picture(path: Path, image) -> None:
    """An annotated picture saved where the user asked, or a one-line error."""
    if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp", ".webp"):
        raise WebbotError(f"{path}: name a .png (or .jpg) file for the annotated picture")
    if not cv2.imwrite(str(path), image):
        raise WebbotError(f"cannot write {path} (does its folder exist?)")
