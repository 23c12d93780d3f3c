"""The one gate every input file passes before anything else looks at it.

A file must be a regular file (a named pipe would block the reader forever, a device never
ends) of bounded size; a text file must be UTF-8; JSON may not nest deeper than a person would
write it; a picture must be of a kind webbot reads (PNG, JPEG, GIF, BMP, WebP: known by its
first bytes) and decode, and its size is read from its header before any pixel is decoded, so an
absurd picture costs no memory. Every refusal is an `InputError`: one line that names the file
and what was wrong with it.

Every picture webbot decodes passes `decode_image` (the user's files, a page's card images,
the browser's screenshots and screencast frames, the caches): OpenCV would decode any of the
kinds it knows (HDR, PFM, PNM, EXR, TIFF, JPEG 2000...) at whatever size it declares.
"""

from __future__ import annotations

import io
import json
import os
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from webbot.errors import WebbotError
from webbot.shown import shown_name
from webbot.words import in_bytes

MAX_TEXT_BYTES = 1 << 20  # a puzzle file is a few kB; the whole reference levels file 20 kB
MAX_IMAGE_BYTES = 64 << 20
# An 8K screenshot is 33 million; OpenCV's own cap is the same (set in webbot/__init__.py).
MAX_IMAGE_PIXELS = 40_000_000
MAX_JSON_DEPTH = 32

# OpenCV logs its own "[ WARN ...]" lines on stderr for files it cannot read; ours say it once.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


class InputError(WebbotError):
    """A file or value given by the user that cannot be used; exit code 2, like bad usage."""

    exit_code = 2


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "something other than a regular file"


def _refused(exc: OSError | ValueError, path: str | Path) -> InputError:
    path = shown_name(path)  # (a file's name is shown as text: see webbot.shown)
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{path}: no such file")
    reason = getattr(exc, "strerror", None) or "not a usable file name"
    return InputError(f"{path}: cannot open it ({reason.lower()})")


def _not_a_file(mode: int, path: str | Path) -> InputError:
    return InputError(f"{shown_name(path)} is {_kind(mode)}, not a file")


def check_file(path: str | Path) -> None:
    """Refuse, before anything is read, a path that is not a regular file (missing, a folder,
    a pipe, a device), in the words read_bytes would use."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as exc:
        raise _refused(exc, path) from None
    if not stat.S_ISREG(mode):
        raise _not_a_file(mode, path)


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or an InputError."""
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer; fstat then refuses it.
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError) as exc:
        raise _refused(exc, path) from None
    # Checked before the descriptor becomes a file object: a folder's cannot become one.
    info = os.fstat(handle)
    if not stat.S_ISREG(info.st_mode):
        os.close(handle)
        raise _not_a_file(info.st_mode, path)
    path = shown_name(path)
    with os.fdopen(handle, "rb") as file:
        if info.st_size > limit:
            raise InputError(f"{path} is {in_bytes(info.st_size)}; the most read is "
                             f"{in_bytes(limit)}")
        try:
            data = file.read(limit + 1)
        except OSError as exc:
            raise InputError(f"{path}: cannot read it ({(exc.strerror or '').lower()})") from None
    if len(data) > limit:  # it grew while being read
        raise InputError(f"{path} is over {in_bytes(limit)}, the most read")
    return data


def read_text(path: str | Path, limit: int = MAX_TEXT_BYTES) -> str:
    """A UTF-8 text file (a byte-order mark is allowed), or an InputError."""
    data = read_bytes(path, limit)
    path = shown_name(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                         f"{exc.start}); save it as UTF-8") from None


def parse_json(text: str, name: str) -> Any:
    """JSON text to Python values; too deep, too long a number or malformed is an InputError."""
    name = shown_name(name)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name} is not JSON: {exc.msg} at line {exc.lineno} column "
                         f"{exc.colno}") from None
    except RecursionError:
        raise InputError(f"{name}: JSON nested too deeply") from None
    except ValueError:  # Python refuses integers of more than 4300 digits
        raise InputError(f"{name}: a number in it is thousands of digits long") from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise InputError(f"{name}: JSON nested more than {MAX_JSON_DEPTH} deep")
    return data


def _depth(data: Any) -> int:
    deepest, level, todo = 0, 0, [(data, 1)]
    while todo:
        item, level = todo.pop()
        deepest = max(deepest, level)
        if deepest > MAX_JSON_DEPTH:
            break
        if isinstance(item, dict):
            todo.extend((value, level + 1) for value in item.values())
        elif isinstance(item, list):
            todo.extend((value, level + 1) for value in item)
    return deepest


def load_json(path: str | Path, limit: int = MAX_TEXT_BYTES) -> Any:
    return parse_json(read_text(path, limit), str(path))


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
    """Within the block, what C libraries write straight to the process's stderr goes to a
    throwaway file, not the user's terminal: libjpeg warns of a damaged JPEG there
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
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


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
