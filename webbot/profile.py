"""The browser profile the bot plays in, kept between runs as a person's browser keeps what a
game saved (its progress, the consent answered, a portal's login).

A profile is Chromium's user-data folder. One run at a time may use it: the run holds an
advisory lock on `webbot.lock` in it (flock: the kernel lets it go when its process ends, so a
killed run leaves no lock behind), and the lock file names the holder's pid for the message.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from webbot.errors import WebbotError

LOCK = "webbot.lock"
PORT = "webbot-replica-port"  # where the bundled replicas were served for this profile
_held: dict[Path, int] = {}  # the profiles this process holds, and how many times over


def default_profile() -> Path:
    """Where the bot's own profile lives: $XDG_DATA_HOME/webbot/profile, else
    ~/.local/share/webbot/profile."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "webbot" / "profile"


def users_browser_data() -> Path:
    """What the bot keeps for the user's own browser (--connect to its DevTools): where the
    bundled replicas were served for it."""
    return default_profile().parent / "users-browser"


class ProfileInUse(WebbotError):
    """Another run holds the profile."""


@contextmanager
def profile_lock(folder: Path) -> Iterator[Path]:
    """Hold the profile in `folder` (made when missing) for this run; ProfileInUse when
    another run holds it. Held again in the same process (the run's session, then its
    browser), it is the same hold."""
    key = folder.resolve()
    if key in _held:
        _held[key] += 1
        try:
            yield folder
        finally:
            _held[key] -= 1
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / LOCK, "a+", encoding="utf-8")  # noqa: SIM115 - held for the block
    except OSError as exc:
        raise WebbotError(f"cannot use the profile {folder}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "unknown"
            raise ProfileInUse(f"profile {folder} is in use by another run (pid {holder})"
                               ) from None
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        _held[key] = 1
        try:
            yield folder
        finally:
            del _held[key]
    finally:
        lock.close()  # (and with it the lock)


def size_of(folder: Path) -> int:
    """The bytes of every file in `folder` (0 when there is none)."""
    total = 0
    for path in folder.rglob("*") if folder.is_dir() else ():
        try:
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
        except OSError:
            continue  # a file Chromium removed meanwhile
    return total


def clear(folder: Path) -> None:
    """Empty the profile (it must not be in use): everything the games kept is gone."""
    with profile_lock(folder):
        for path in folder.iterdir():
            if path.name == LOCK:
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def remembered_port(folder: Path) -> int | None:
    """The port the bundled replicas were served on for this profile, if any: a page's
    storage belongs to its origin, port included, so the games' progress is found there."""
    try:
        port = int((folder / PORT).read_text().strip())
    except (OSError, ValueError):
        return None
    return port if 1024 <= port <= 65535 else None


def remember_port(folder: Path, port: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / PORT).write_text(str(port))
