"""Tesseract through pytesseract, with its absence turned into a clear error."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytesseract

from webbot.errors import WebbotError

_MISSING = "Tesseract not found: install Debian's package (apt-get install tesseract-ocr)"




@dataclass(frozen=True)
class Word:
    text: str
    x: int
    y: int
    width: int
    height: int
    confidence: float


def tesseract_version() -> str:
    try:
        return str(pytesseract.get_tesseract_version())
    except pytesseract.TesseractNotFoundError:
        raise WebbotError(_MISSING) from None


def read_words(image: np.ndarray, config: str = "--psm 3") -> list[Word]:
    """Words Tesseract finds in a BGR picture, with their boxes in image pixels."""
    try:
        data = pytesseract.image_to_data(
            image[:, :, ::-1], config=config, output_type=pytesseract.Output.DICT
        )
    except pytesseract.TesseractNotFoundError:
        raise WebbotError(_MISSING) from None
    return [
        Word(text.strip(), left, top, width, height, float(conf))
        for text, left, top, width, height, conf in zip(
            data["text"], data["left"], data["top"], data["width"], data["height"], data["conf"],
            strict=True,
        )
        if text.strip()
    ]


def read_text(image: np.ndarray, config: str) -> str:
    """What Tesseract reads in a picture (grey, or BGR), stripped."""
    picture = image if image.ndim == 2 else image[:, :, ::-1]
    try:
        return pytesseract.image_to_string(picture, config=config).strip()
    except pytesseract.TesseractNotFoundError:
        raise WebbotError(_MISSING) from None
