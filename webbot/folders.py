"""Folders webbot writes or deletes in: its own, private, and no link followed.

A folder a user names for webbot to write in (a profile, a debug folder, a template pack) is
webbot's only when webbot made it or was given it empty. webbot then leaves a mark in it (MARK:
what the folder is, and for a pack the files webbot wrote there), which later runs find. A
folder that holds anything else, or that is a symbolic link, is refused before anything is
written or deleted in it, so a mistyped path never costs the user a file. Inside its folders
webbot creates files without following links (a link planted where a file of webbot's goes is
replaced, never written through), private to the user: folders 0700, files 0600, for they may
hold a page's content or a site's cookies.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from webbot.errors import WebbotError
from webbot.shown import shown_name

MARK = ".webbot"
MARK_BYTES = 1 << 20
PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


class NotOurs(WebbotError):
    """A folder webbot was asked to write or delete in that is not webbot's."""

    exit_code = 2


@dataclass(frozen=True)
class Kind:
    """What a folder of webbot's is ("profile", "debug folder", "template pack"), and how one
    made before folders were marked is recognised (by names only webbot and Chromium write)."""

    name: str
    made_before: Callable[[set[str]], bool] = field(default=lambda names: False)


# What `--debug-dir` holds when webbot wrote it: frames, the trace, the recoveries' causes, the
# failure folder.
_DEBUG_NAMES = re.compile(r"\d{4}-[A-Za-z0-9_.-]+\.png|trace\.zip|recoveries\.txt|failure")
DEBUG = Kind("debug folder", lambda names: all(_DEBUG_NAMES.fullmatch(n) for n in names))
PACK = Kind("template pack")


def _names(folder: Path) -> set[str] | None:
    """The names in `folder`, or None when it is not there."""
    shown = shown_name(folder)  # (a folder's name is shown as text: see webbot.shown)
    try:
        return set(os.listdir(folder))
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise NotOurs(f"{shown} is a file, not a folder") from None
    except OSError as exc:
        raise NotOurs(f"{shown}: cannot look into it ({(exc.strerror or '').lower()})"
                      ) from None


def mark_of(folder: Path) -> list[str] | None:
    """The lines of the folder's mark (its kind first), or None when it has none."""
    try:
        handle = os.open(folder / MARK, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(handle, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return None
        text = file.read(MARK_BYTES).decode("utf-8", "replace")
    lines = text.splitlines()
    return lines if lines and lines[0].startswith("webbot ") else None


def check(folder: Path, kind: Kind) -> None:
    """Refuse, before anything is written, a folder that webbot may not use as `kind`: a
    symbolic link, a file, a folder holding what webbot did not make there. A folder not there
    yet is fine (it is made when used)."""
    shown = shown_name(folder)
    if folder.is_symlink():
        raise NotOurs(f"{shown} is a symbolic link: name the folder itself for the {kind.name}")
    names = _names(folder)
    if not names:
        return
    mark = mark_of(folder)
    if mark is not None:
        if mark[0] != f"webbot {kind.name}":
            raise NotOurs(f"{shown} is a {mark[0]}, not a {kind.name}")
        return
    if MARK in names:
        raise NotOurs(f"{shown}: its {MARK} is not webbot's mark; name a new or empty folder "
                      f"for the {kind.name}")
    if not kind.made_before(names):
        raise NotOurs(f"{shown} is not a webbot {kind.name} (it holds other files): name a "
                      f"new or empty folder for it")


def claim(folder: Path, kind: Kind) -> Path:
    """`folder` as a `kind` of webbot's: checked (see `check`), made when missing, marked,
    private to the user; the folder."""
    check(folder, kind)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=PRIVATE_FOLDER)
        if folder.is_symlink() or not folder.is_dir():  # (swapped for a link meanwhile)
            raise NotOurs(f"{shown_name(folder)} is not a folder of webbot's")
        os.chmod(folder, PRIVATE_FOLDER)
        mark = mark_of(folder)
        if mark is None:
            write_private(folder / MARK, f"webbot {kind.name}\n".encode())
    except OSError as exc:
        raise NotOurs(f"cannot use {shown_name(folder)} for the {kind.name}: "
                      f"{(exc.strerror or str(exc)).lower()}") from None
    return folder


def made_here(folder: Path) -> list[str]:
    """The files webbot recorded in the folder's mark as written by it (see `record`)."""
    return (mark_of(folder) or [])[1:]


def record(folder: Path, kind: Kind, names: Iterable[str]) -> None:
    """The folder's mark, now naming `names` (paths relative to it) as what webbot wrote."""
    lines = [f"webbot {kind.name}", *sorted(names)]
    write_private(folder / MARK, ("\n".join(lines) + "\n").encode())


def remove_made(folder: Path, names: Iterable[str]) -> None:
    """Remove the files `names` (relative to `folder`) that its mark names as written by
    webbot, and nothing else: a name that leads out of the folder or through a link is
    skipped."""
    made = set(made_here(folder))
    for name in names:
        if name not in made:
            continue
        parts = Path(name).parts
        if not parts or Path(name).is_absolute() or ".." in parts:
            continue
        if any((folder / Path(*parts[:k])).is_symlink() for k in range(1, len(parts))):
            continue
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):
            (folder / name).unlink()


def private_folder(folder: Path) -> Path:
    """A folder inside one of webbot's (a failure folder, a pack's digits): made 0700 when
    missing; one that is a link or a file is refused."""
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=PRIVATE_FOLDER)
    if folder.is_symlink() or not folder.is_dir():
        raise NotOurs(f"{shown_name(folder)} is not a folder of webbot's (a link, or a file)")
    os.chmod(folder, PRIVATE_FOLDER)
    return folder


def write_private(path: Path, data: bytes) -> None:
    """`data` as the file `path`, private to the user. Written beside it and moved into place:
    a link at `path` is replaced, never written through, and a reader never sees half a
    file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def append_private(path: Path, text: str) -> None:
    """`text` added at the end of the file `path` (made private when new); a link there is
    not followed (OSError)."""
    handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW,
                     PRIVATE_FILE)
    with os.fdopen(handle, "a", encoding="utf-8") as out:
        out.write(text)


def open_no_follow(path: Path) -> int:
    """A descriptor of the file `path` for reading and writing: made exclusively (0600) where
    there is none, opened without following a link where there is; OSError otherwise (a link:
    ELOOP)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, PRIVATE_FILE)
    except FileExistsError:
        handle = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise OSError(0, "not a regular file")
    return handle


def empty(folder: Path, keep: Iterable[str] = ()) -> None:
    """Everything in `folder` removed but the names in `keep` and its mark; links inside are
    removed as links, never followed."""
    kept = {MARK, *keep}
    for name in os.listdir(folder):
        if name in kept:
            continue
        path = folder / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)  # (rmtree follows no link: Linux's fd walk)
        else:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
