"""The browser profile the bot plays in, kept between runs as a person's browser keeps what a
game saved (its progress, the consent answered, a portal's login).

A profile is Chromium's user-data folder. One run at a time may use it: the run holds an
advisory lock on `webbot.lock` in it (flock: the kernel lets it go when its process ends, so a
killed run leaves no lock behind), and the lock file names the holder's pid for the message.

A profile is a folder of webbot's (webbot.folders): made by it, or given to it empty, and
marked; one made before folders were marked is known by the lock beside Chromium's own
`Local State`. Any other folder is refused before a browser starts, and `clear` empties no
folder but a profile.
"""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from webbot import folders
from webbot.errors import WebbotError
from webbot.progress import RECORDS
from webbot.shown import shown, shown_name

LOCK = "webbot.lock"
PORT = "webbot-replica-port"  # where the bundled replicas were served for this profile
CHROMIUM_STATE = "Local State"  # the file Chromium keeps at the top of every profile
OWN = {LOCK, PORT, folders.MARK, RECORDS}  # webbot's own files in a profile


def _made_before_marks(names: set[str]) -> bool:
    """A profile webbot made before it marked its folders: its lock beside Chromium's state
    (or, once cleared, its lock and the replicas' port alone)."""
    return LOCK in names and (CHROMIUM_STATE in names or names <= {LOCK, PORT})


PROFILE = folders.Kind("profile", _made_before_marks)
BROWSER_DATA = folders.Kind("browser data folder", lambda names: names <= {PORT})
_held: dict[Path, int] = {}  # the profiles this process holds, and how many times over


def default_profile() -> Path:
    """Where the bot's own profile lives: $XDG_DATA_HOME/webbot/profile, else
    ~/.local/share/webbot/profile."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "webbot" / "profile"


def users_browser_data() -> Path:
    """What the bot keeps for the user's own browser (--connect to its DevTools): where the
    bundled replicas were served for it. A folder of webbot's, made when missing."""
    return folders.claim(default_profile().parent / "users-browser", BROWSER_DATA)


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
    folders.claim(folder, PROFILE)
    try:
        lock = open(folders.open_no_follow(folder / LOCK), "r+",  # noqa: SIM115 - held
                    encoding="utf-8")
    except OSError as exc:
        why = (f"its lock {folder / LOCK} is a symbolic link" if exc.errno == errno.ELOOP
               else (exc.strerror or "its lock is not a file").lower())
        raise WebbotError(f"cannot use the profile {shown_name(folder)}: {why}") from None
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "unknown"
            raise ProfileInUse(f"profile {shown_name(folder)} is in use by another run "
                               f"(pid {shown(holder, 20)})") from None
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
    """The bytes of the browser's data in `folder` (0 when there is none): every file but
    webbot's own at its top (its lock, mark and records); no link is followed."""
    total = 0
    for top, _, names in os.walk(folder) if not folder.is_symlink() else ():
        for name in names:
            if top == str(folder) and name in OWN:
                continue
            try:
                info = os.lstat(os.path.join(top, name))
            except OSError:
                continue  # a file Chromium removed meanwhile
            total += info.st_size if not os.path.islink(os.path.join(top, name)) else 0
    return total


def clear(folder: Path) -> None:
    """Empty the profile (it must not be in use): everything the games kept is gone. A folder
    that is not a profile is refused (webbot.folders.NotOurs), whatever it holds."""
    with profile_lock(folder):
        folders.empty(folder, keep=(LOCK,))


def remembered_port(folder: Path) -> int | None:
    """The port the bundled replicas were served on for this profile, if any: a page's
    storage belongs to its origin, port included, so the games' progress is found there."""
    try:
        handle = os.open(folder / PORT, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(handle, "rb") as file:
            text = file.read(16).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.isdigit() or len(text) > 5:
        return None
    port = int(text)
    return port if 1024 <= port <= 65535 else None


def remember_port(folder: Path, port: int) -> None:
    """Keep the replicas' port in `folder` (a profile held, or users_browser_data())."""
    folders.write_private(folder / PORT, str(port).encode())
