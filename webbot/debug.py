"""Seeing what the bot saw: frames, annotated copies, a Playwright trace, and failure records."""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from playwright.sync_api import BrowserContext, Error

from webbot import folders
from webbot.answer import NoAnswer
from webbot.browser import start_trace, stop_trace
from webbot.errors import WebbotError
from webbot.phases import Phases
from webbot.report import RunReport
from webbot.screen import Grab
from webbot.shown import shown
from webbot.vision.labels import Key, badge, badge_size, with_legend

MAX_NAME = 80  # characters of a label in a frame's file name
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


def annotate(grab: Grab, marks: Iterable[Mark], legend: Sequence[Key] = ()) -> np.ndarray:
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


def lines(grab: Grab, texts: Sequence[str], colour: tuple[int, int, int]) -> list[Mark]:
    """Lines of text at the picture's top left, one under the other, as marks."""
    step = badge_size("Mg", LETTERS * grab.scale)[1] + 2
    return [Mark(8, step * (i + 1), 0, 0, text, colour) for i, text in enumerate(texts)]


def _slug(label: str) -> str:
    """A file name's part from a label (which may hold page text), in letters, digits and
    `_.-`, short enough for any file system."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", shown(label, MAX_NAME)).strip("-") or "frame"


def _on_stderr(line: str) -> None:
    print(f"webbot: {line}", file=sys.stderr)


class Recorder:
    """Keeps the last frame seen; with a debug folder also saves frames and a trace there.

    The debug folder is webbot's own (webbot.folders: new, empty or written by webbot before;
    private to the user, as what it keeps shows pages and their cookies), and so is the
    failure folder; nothing in them is written through a link, and `keep` removes only the
    frames this run wrote."""

    def __init__(self, directory: Path | None = None, report: RunReport | None = None,
                 keep: int | None = None, warn: Callable[[str], None] = _on_stderr) -> None:
        self.directory = Path(directory) if directory else None
        self.report = report  # annotated frames go to the run's report too
        self.phases = report.phases if report is not None else Phases()  # the play loop's
        self._written: deque[Path] = deque()  # the frames in the folder, oldest first
        self._keep = keep  # at most this many frames in the folder, the latest
        if self.directory:
            folders.claim(self.directory, folders.DEBUG)
        self.last_grab: Grab | None = None
        self.page_shot: bytes | None = None  # the whole page as a PNG, taken on a failure
        self._count = 0
        self._tracing: BrowserContext | None = None
        self._failure_folder: Path | None = None
        self._warn = warn  # told once when a frame cannot be written
        self._unwritten = False

    def _write(self, path: Path, image) -> None:
        """A frame into the folder; one that cannot be written (a full disk, a folder gone)
        is said once, and the run goes on."""
        try:
            folders.write_private(path, cv2.imencode(".png", image)[1].tobytes())
        except (OSError, cv2.error):
            if not self._unwritten:
                self._unwritten = True
                self._warn(f"cannot write the frame {path}; frames after it may be missing "
                           "too")

    def _path(self, label: str, suffix: str = "") -> Path:
        assert self.directory is not None
        self._count += 1
        path = self.directory / f"{self._count:04d}-{_slug(label)}{suffix}.png"
        self._written.append(path)
        while self._keep is not None and len(self._written) > self._keep:
            self._written.popleft().unlink(missing_ok=True)
        return path

    def saw(self, grab: Grab) -> None:
        self.last_grab = grab
        if self.report is not None:
            self.report.looks += 1

    def keep(self, grab: Grab, label: str) -> None:
        self.last_grab = grab  # (seen already: counted)
        if self.directory:
            self._write(self._path(label), grab.image)

    def wants_frames(self) -> bool:
        """Whether annotated frames are kept (a debug folder, or a report)."""
        return bool(self.directory) or self.report is not None

    def annotated(self, grab: Grab, label: str, marks: Iterable[Mark],
                  legend: Sequence[Key] = ()) -> None:
        if not self.wants_frames():
            return
        image = annotate(grab, marks, legend)
        if self.directory:
            path = self._path(label, "-annotated")
            self._write(path, image)
            label = path.stem
        if self.report is not None:
            self.report.frame(label, image)

    def lost(self, cause: str, number: int) -> None:
        """A lost page, in the debug folder: the cause in recoveries.txt, and the last frame
        seen before it as NNNN-page-lost-N.png."""
        if not self.directory:
            return
        with suppress(OSError):
            folders.append_private(self.directory / "recoveries.txt", f"{number}: {cause}\n")
        if self.last_grab is not None:
            self._write(self._path(f"page-lost-{number}"), self.last_grab.image)

    def start_trace(self, context: BrowserContext | None) -> None:
        """Trace `context` into the debug folder; None (the user's own browser): no trace."""
        if self.directory and context is not None:
            start_trace(context)
            self._tracing = context

    def stop_trace(self, name: str = "trace.zip") -> None:
        """The trace into the debug folder, private to the user (it holds the pages, their
        cookies and storage); written beside its name and moved there, so a link in its
        place is replaced, not written through."""
        if self._tracing and self.directory:
            with tempfile.TemporaryDirectory(dir=self.directory, prefix=".trace-") as beside:
                written = Path(beside) / name
                with suppress(Error, NoAnswer):  # a context lost with its browser keeps none
                    stop_trace(self._tracing, written)
                if written.is_file():
                    os.chmod(written, folders.PRIVATE_FILE)
                    os.replace(written, self.directory / name)
            self._tracing = None

    def failure_folder(self) -> Path:
        """DIR/failure with a debug folder, else one temporary folder for the whole run."""
        if self._failure_folder is None:
            if self.directory:
                self._failure_folder = folders.private_folder(self.directory / "failure")
            else:
                self._failure_folder = Path(tempfile.mkdtemp(prefix="webbot-failure-"))
        return self._failure_folder

    def temporary_folder(self) -> Path | None:
        """The run's temporary failure folder (no debug folder given), if one was made."""
        return None if self.directory else self._failure_folder

    def discard_temporary(self) -> None:
        """Remove the temporary failure folder: the run it was kept for passed after all (a
        soak's game whose stuck screen was saved, then recovered)."""
        folder = self.temporary_folder()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
            self._failure_folder = None

    def save_grab(self, grab: Grab, label: str) -> Path:
        """Keep a frame worth looking at after the run (a stuck screen) in the failure
        folder; return its path."""
        path = self.failure_folder() / f"{_slug(label)}.png"
        self._write(path, grab.image)
        return path

    def save_failure(self, reason: str, details: str | None = None) -> Path:
        """Write the last frame and the reason; return the folder holding them."""
        folder = self.failure_folder()
        folders.write_private(folder / "reason.txt", (shown(reason, limit=None) + "\n").encode())
        if details:
            folders.write_private(folder / "details.txt", shown(details, limit=None).encode())
        if self.last_grab is not None:
            self._write(folder / "last-frame.png", self.last_grab.image)
        if self.page_shot:
            folders.write_private(folder / "page.png", self.page_shot)
        return folder


def save_picture(path: Path, image) -> None:
    """An annotated picture saved where the user asked, or a one-line error."""
    if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp", ".webp"):
        raise WebbotError(f"{path}: name a .png (or .jpg) file for the annotated picture")
    if not cv2.imwrite(str(path), image):
        raise WebbotError(f"cannot write {path} (does its folder exist?)")
