"""The gate every file the user names passes before anything else looks at it.

A file must be a regular file (a named pipe would block the reader forever, a device never
ends) of bounded size; a text file must be UTF-8; JSON may not nest deeper than a person would
write it. `-` is standard input, read as a file is when it is not a terminal (asked for by that
name only: a pipe named otherwise is refused). Every refusal is an `InputError`: one line that
names the file and what was wrong with it. Pictures pass webbot.inputs after this."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from webbot.errors import WebbotError
from webbot.shown import shown_name
from webbot.words import in_bytes

MAX_TEXT_BYTES = 1 << 20  # a puzzle file is a few kB; the whole reference levels file 20 kB
MAX_JSON_DEPTH = 32
STDIN = "-"  # the name that asks for standard input


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
    a pipe, a device), in the words read_bytes would use; `-` when standard input is a
    terminal (nothing was piped in: reading would wait on the user) or was closed."""
    if str(path) == STDIN:
        _stdin()
        return
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as exc:
        raise _refused(exc, path) from None
    if not stat.S_ISREG(mode):
        raise _not_a_file(mode, path)


def _stdin():
    """Standard input's binary stream, when something may be piped in; else an InputError."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError(f"{STDIN}: there is no standard input to read")
    if stream.isatty():
        raise InputError(f"{STDIN}: standard input is a terminal; pipe a file into it "
                         "(... | webbot ... -) or name the file")
    return stream


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file (or of standard input, `-`) of at most `limit` bytes, or an
    InputError."""
    if str(path) == STDIN:
        try:
            data = _stdin().read(limit + 1)
        except OSError as exc:
            raise InputError(f"{STDIN}: cannot read standard input "
                             f"({(exc.strerror or '').lower()})") from None
        if len(data) > limit:
            raise InputError(f"{STDIN}: standard input is over {in_bytes(limit)}, the most "
                             "read")
        return data
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
