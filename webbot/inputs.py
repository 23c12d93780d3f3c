"""The gate every picture passes before anything else looks at it (after webbot.files, for a
user's file): of a kind webbot reads (PNG, JPEG, GIF, BMP, WebP: known by its first bytes), it
must decode, and its size is read from its header before any pixel is decoded, so an absurd
picture costs no memory. Every refusal is an `InputError`: one line that names the picture and
what was wrong with it.

Every picture webbot decodes passes `decode_image` (the user's files, a page's card images,
the browser's screenshots and screencast frames, the caches): OpenCV would decode any of the
kinds it knows (HDR, PFM, PNM, EXR, TIFF, JPEG 2000...) at whatever size it declares.
"""

from __future__ import annotations

import io
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from webbot.errors import WebbotError
from webbot.files import InputError, read_bytes
from webbot.shown import shown_name
from webbot.words import in_bytes

MAX_IMAGE_BYTES = 64 << 20
# An 8K screenshot is 33 million; OpenCV's own cap is the same (set in webbot/__init__.py).
MAX_IMAGE_PIXELS = 40_000_000

# OpenCV logs its own "[ WARN ...]" lines on stderr for files it cannot read; ours say it once.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


# The kinds of picture webbot reads, by Pillow's names: what the games' pages serve (PNG, GIF,
# JPEG) and what a user's screenshot or photo comes as.
KINDS = ("PNG", "JPEG", "GIF", "BMP", "WEBP")
NOT_DECODED = "is not an image that can be decoded (PNG, JPEG, GIF, BMP, WebP)"


def picture_kind(data: bytes) -> str | None:
    """Which of KINDS the bytes are, by the bytes each kind starts with; None for any other."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "GIF"
    if data.startswith(b"BM"):
        return "BMP"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def _declared_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """Width and height from the picture's header (no pixels decoded), read by Pillow's reader
    of `kind` alone; None when that header cannot be read."""
    from PIL import Image, UnidentifiedImageError

    # Pillow's own bomb check would refuse before telling the size; ours is MAX_IMAGE_PIXELS.
    Image.MAX_IMAGE_PIXELS = None
    try:
        with Image.open(io.BytesIO(data), formats=[kind]) as picture:
            return picture.size
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        return None


def decode_image(data: bytes, name: str, flags: int = cv2.IMREAD_COLOR, *,
                 max_pixels: int = MAX_IMAGE_PIXELS) -> np.ndarray:
    """Picture bytes to an OpenCV array (BGR by default), or an InputError. Before any decode,
    the bytes must be at most MAX_IMAGE_BYTES, of one of KINDS, with a header that declares at
    most `max_pixels`."""
    name = shown_name(name)
    if len(data) > MAX_IMAGE_BYTES:
        raise InputError(f"{name} is {in_bytes(len(data))}; the most read is "
                         f"{in_bytes(MAX_IMAGE_BYTES)}")
    kind = picture_kind(data)
    if kind is None:
        raise InputError(f"{name} {NOT_DECODED}")
    size = _declared_size(data, kind)
    if size is None:
        raise InputError(f"{name} {NOT_DECODED}: its {kind} header cannot be read, so its "
                         "size is unknown")
    if size[0] * size[1] > max_pixels:
        most = (f"{max_pixels // 1_000_000} million pixels" if max_pixels >= 1_000_000
                else f"{max_pixels} pixels")
        raise InputError(f"{name} is too large a picture ({size[0]}x{size[1]}); the most read "
                         f"is {most}")
    try:
        with _c_noise_kept_off():
            image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error:  # (OpenCV's own cap, OPENCV_IO_MAX_IMAGE_PIXELS, refuses this way too)
        image = None
    if image is None or image.size == 0:
        raise InputError(f"{name} {NOT_DECODED}")
    return image


def decode_page_picture(data: bytes, name: str, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """`decode_image` for a picture the browser or a page gave (a screenshot, a screencast
    frame): the same gate, but a refusal is a failed run (exit 1), not the user's bad input."""
    try:
        return decode_image(data, name, flags)
    except InputError as exc:
        raise WebbotError(str(exc)) from None


@contextmanager
def _c_noise_kept_off() -> Iterator[None]:
    """Within the block, what C libraries write straight to the process's stderr goes to
    the null device, not the user's terminal: libjpeg warns of a damaged JPEG there
    ("Invalid SOS parameters for sequential JPEG"), past OpenCV's own log level, and decodes
    it all the same. The process's descriptor 2 is swapped for the block, so only in the main
    thread, which writes the run's own lines: swaps by threads at once would leave it on one
    of their files, and the error line with it (pictures a page's cards come in, decoded in
    threads, go as they are)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to keep off
        yield
        return
    try:
        os.dup2(_sink(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


_sinks: list[int] = []


def _sink() -> int:
    """The null device, opened once for the process (a file made for each picture cost a
    screencast's frame 0.35 ms)."""
    if not _sinks:
        _sinks.append(os.open(os.devnull, os.O_WRONLY))
    return _sinks[0]


def is_lossy(data: bytes) -> bool:
    """Whether picture bytes are lossily compressed: a JPEG, or a WebP holding a lossy
    ('VP8 ') bitstream."""
    if data[:3] == b"\xff\xd8\xff":
        return True
    return data[:4] == b"RIFF" and data[8:12] == b"WEBP" and b"VP8 " in data[12:4096]


def read_image(path: str | Path, flags: int = cv2.IMREAD_COLOR, *,
               limit: int = MAX_IMAGE_BYTES, max_pixels: int = MAX_IMAGE_PIXELS) -> np.ndarray:
    """A picture file of at most `limit` bytes and `max_pixels` as an OpenCV array (BGR by
    default), or an InputError."""
    return decode_image(read_bytes(path, limit), str(path), flags, max_pixels=max_pixels)
