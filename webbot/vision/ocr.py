"""Tesseract through pytesseract, with its absence turned into a clear error."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytesseract

from webbot.errors import WebbotError

# Tesseract's OpenMP threads only cost here: it reads a line or a list of small pictures,
# often while a browser draws and other readings run (its makers advise one thread a process
# where processes run side by side). A limit the user set is kept.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")
_MISSING = "Tesseract not found: install Debian's package (apt-get install tesseract-ocr)"
PAGE_BREAK = "\f"  # what Tesseract writes between the pages of a list of pictures


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


# What Tesseract read in the latest pictures, by their exact pixels and the config: a picture
# read again (a shop panel's name, a price's glyphs, in frame after frame) costs a lookup, not a
# Tesseract process (~0.1 s each). The same pixels read the same.
_READ: OrderedDict[tuple, str] = OrderedDict()
READ_KEPT = 1024


def forget_readings() -> None:
    """Tesseract asked anew about every picture (a test of its own readings)."""
    _READ.clear()


def _key(image: np.ndarray, config: str) -> tuple:
    return (hashlib.blake2b(np.ascontiguousarray(image).tobytes(), digest_size=16).digest(),
            image.shape, image.dtype.str, config)


def _kept(key: tuple, text: str) -> str:
    _READ[key] = text
    while len(_READ) > READ_KEPT:
        _READ.popitem(last=False)
    return text


def read_text(image: np.ndarray, config: str) -> str:
    """What Tesseract reads in a picture (grey, or BGR), stripped."""
    key = _key(image, config)
    if key in _READ:
        return _READ[key]
    picture = image if image.ndim == 2 else image[:, :, ::-1]
    try:
        return _kept(key, pytesseract.image_to_string(picture, config=config).strip())
    except pytesseract.TesseractNotFoundError:
        raise WebbotError(_MISSING) from None


def read_texts(images: Sequence[np.ndarray], config: str) -> list[str]:
    """What Tesseract reads in each picture (grey, or BGR), stripped: one Tesseract for them
    all, given the list of their files, so its model is loaded once rather than once a
    picture (most of the cost of reading a small one). Each picture is a page of its own, read as
    it would be alone."""
    keys = [_key(image, config) for image in images]
    read = {key: _READ[key] for key in keys if key in _READ}
    unread = [k for k, key in enumerate(keys) if key not in read]
    for k, text in zip(unread, _read_all([images[k] for k in unread], config), strict=True):
        read[keys[k]] = _kept(keys[k], text)
    return [read[key] for key in keys]


def _read_all(images: Sequence[np.ndarray], config: str) -> list[str]:
    if len(images) < 2:
        return [read_text(image, config) for image in images]
    with tempfile.TemporaryDirectory(prefix="webbot-ocr-") as folder:
        paths = [Path(folder) / f"{k}.png" for k in range(len(images))]
        for path, image in zip(paths, images, strict=True):
            cv2.imwrite(str(path), image)
        listing = Path(folder) / "pages.txt"
        listing.write_text("".join(f"{path}\n" for path in paths))
        try:
            text = pytesseract.image_to_string(str(listing), config=config)
        except pytesseract.TesseractNotFoundError:
            raise WebbotError(_MISSING) from None
    pages = text.split(PAGE_BREAK)
    if len(pages) != len(images):
        raise WebbotError(f"Tesseract gave {len(pages)} pages for {len(images)} pictures")
    return [page.strip() for page in pages]
