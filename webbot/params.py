"""Checked command-line values: bounded finite numbers and URLs of the schemes that can work.

click turns a refusal here into `webbot: error: Invalid value for '--x': ...` and exit 2.
"""

from __future__ import annotations

import math
import re
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import click


class WordsDefault(click.Option):
    """An option whose default is said in words (`show_default="one per core"`), shown as
    plainly as a value's: `[default: one per core]`, not click's `[default: (one per core)]`."""

    def get_help_extra(self, ctx: click.Context) -> dict:
        extra = super().get_help_extra(ctx)
        if isinstance(self.show_default, str):
            extra["default"] = self.show_default
        return extra


class Finite(click.FloatRange):
    """A float in [low, high] that is a real number (click's FloatRange lets nan through)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


class Url(click.ParamType):
    """A URL whose scheme is one of `schemes`, with a host where the scheme needs one."""

    name = "url"

    def __init__(self, schemes: tuple[str, ...]) -> None:
        self.schemes = schemes

    def convert(self, value, param, ctx):
        text = str(value).strip()
        try:
            parts = urlsplit(text)
            port = parts.port  # a port that is not a number 0-65535 raises here
        except ValueError as exc:
            self.fail(f"{value!r} is not a URL ({exc})", param, ctx)
        if parts.scheme not in self.schemes:
            starts = ", ".join(f"{scheme}://" for scheme in self.schemes)
            self.fail(f"{value!r}: expected a URL starting with one of {starts}", param, ctx)
        if parts.scheme != "file" and not parts.hostname:
            self.fail(f"{value!r} has no host", param, ctx)
        if port == 0 or any(c.isspace() or ord(c) < 32 for c in text):
            self.fail(f"{value!r} is not a usable URL", param, ctx)
        if len(text) > 8192:
            self.fail("the URL is longer than 8192 characters", param, ctx)
        return text


PAGE_URL = Url(("http", "https", "file"))
BROWSER_ENDPOINT = Url(("ws", "wss", "http", "https"))
SCHEDULER = Url(("tcp", "tls", "ws", "wss", "inproc"))


class Size(click.ParamType):
    """WxH in pixels, each within bounds: `--viewport 1024x640`."""

    name = "WxH"

    def __init__(self, low: int = 200, high: int = 8000) -> None:
        self.low, self.high = low, high

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        match = re.fullmatch(r"\s*(\d{1,5})\s*[xX]\s*(\d{1,5})\s*", str(value))
        if not match:
            self.fail(f"{value!r}: expected WIDTHxHEIGHT, such as 1280x800", param, ctx)
        size = int(match.group(1)), int(match.group(2))
        if not all(self.low <= side <= self.high for side in size):
            self.fail(f"{value!r}: each side must be from {self.low} to {self.high}", param, ctx)
        return size


VIEWPORT = Size()


class Rect(click.ParamType):
    """X,Y,W,H in pixels: `--box 213,194,1173,660`."""

    name = "X,Y,W,H"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        match = re.fullmatch(r"\s*(\d{1,5})\s*,\s*(\d{1,5})\s*,\s*(\d{1,5})\s*,\s*(\d{1,5})\s*",
                             str(value))
        if not match:
            self.fail(f"{value!r}: expected X,Y,WIDTH,HEIGHT, such as 213,194,1173,660", param,
                      ctx)
        rect = tuple(int(group) for group in match.groups())
        if min(rect[2:]) < 32:
            self.fail(f"{value!r}: the box must be at least 32 pixels each way", param, ctx)
        return rect


class GameSelector(click.ParamType):
    """`--game-selector`: checked before anything starts (see webbot.finder.frame_selector)."""

    name = "SELECTOR"

    def convert(self, value, param, ctx):
        from webbot.files import InputError
        from webbot.finder import frame_selector

        try:
            frame_selector(value)
        except InputError as exc:
            self.fail(str(exc).removeprefix("--game-selector "), param, ctx)
        return value


GAME_SELECTOR = GameSelector()


class InputFile(click.ParamType):
    """A file the command will read: one that is missing, a folder, a pipe or a device is
    refused before any is read, in the one line webbot.inputs says it in (exit 2)."""

    name = "FILE"

    def convert(self, value, param, ctx):
        from webbot.files import check_file

        check_file(value)
        return str(value)


INPUT_FILE = InputFile()


class Output(click.ParamType):
    """A file (or a folder, `folder=True`) the command will write: checked before anything
    starts, by writing there, so that a run does not fail on it after its games."""

    def __init__(self, folder: bool = False) -> None:
        self.folder = folder
        self.name = "DIR" if folder else "FILE"

    def convert(self, value, param, ctx):
        path = Path(value)
        if self.folder and path.exists() and not path.is_dir():
            self.fail(f"{value}: not a folder", param, ctx)
        if not self.folder and path.is_dir():
            self.fail(f"{value}: a folder, not a file", param, ctx)
        try:
            if not self.folder and path.exists():
                path.open("a").close()  # appending nothing: the file is as it was
            elif not self.folder and not path.parent.is_dir():
                raise FileNotFoundError(0, f"no folder {path.parent}")
            else:  # a new file, or a folder made when it is used: write in what exists
                where = next(p for p in (path, *path.parents) if p.exists())
                if not where.is_dir():
                    raise NotADirectoryError(f"{where} is not a folder")
                tempfile.TemporaryFile(dir=where).close()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.fail(f"{value}: cannot be written ({reason.lower()})", param, ctx)
        return path


OUTPUT_FILE = Output()
OUTPUT_DIR = Output(folder=True)


class OwnFolder(Output):
    """A folder webbot will write in as its own `kind` (webbot.folders): beside Output's
    checks, one that is a link or holds what webbot did not make is refused before anything
    starts."""

    def __init__(self, kind) -> None:
        super().__init__(folder=True)
        self.kind = kind

    def convert(self, value, param, ctx):
        from webbot.folders import NotOurs, check

        path = super().convert(value, param, ctx)
        try:
            check(path, self.kind)
        except NotOurs as exc:
            self.fail(str(exc), param, ctx)
        return path
