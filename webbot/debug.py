"""Seeing what the bot saw: frames, annotated copies, a Playwright trace, and failure records."""

from __future__ import annotations

import os
import queue
import re
import shutil
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from pathlib import Path

import cv2
from playwright.sync_api import BrowserContext, Error

from webbot import folders
from webbot.answer import NoAnswer
from webbot.browser import start_trace, stop_trace
from webbot.phases import Phases
from webbot.report import RunReport
from webbot.screen import Grab
from webbot.shown import shown
from webbot.vision.labels import Key
from webbot.vision.marks import Mark, annotate
from webbot.words import counted

MAX_NAME = 80  # characters of a label in a frame's file name
# Frames waiting to be drawn and written by the writer thread: past this, a frame is dropped
# (and the run says so) rather than the play loop waiting on the disk.
QUEUE_FRAMES = 32
DRAIN_S = 10.0  # how long the end of a run waits for the frames still queued


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
        # Frames are drawn, encoded and written by a thread of their own, in order, so that
        # watching a run does not slow the run it watches.
        self._queue: queue.Queue[Callable[[], None] | None] = queue.Queue(QUEUE_FRAMES)
        self._writer: threading.Thread | None = None
        self.dropped = 0  # frames not kept: the writer was QUEUE_FRAMES behind

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

    def _later(self, work: Callable[[], None]) -> None:
        """`work` (drawing and writing a frame) done by the writer thread, after the work
        queued before it; dropped, and counted, when QUEUE_FRAMES are waiting already."""
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_queued, name="webbot-frames",
                                            daemon=True)
            self._writer.start()
        try:
            self._queue.put_nowait(work)
        except queue.Full:
            self.dropped += 1

    def _write_queued(self) -> None:
        while (work := self._queue.get()) is not None:
            try:
                work()
            except Exception as exc:  # a frame that cannot be drawn must not end the writer
                if not self._unwritten:
                    self._unwritten = True
                    self._warn(f"cannot keep a frame ({type(exc).__name__}: {exc})")

    def close(self) -> None:
        """The frames still queued written (within DRAIN_S), and how many were dropped said."""
        if self._writer is not None:
            deadline = time.monotonic() + DRAIN_S
            while True:
                try:
                    self._queue.put(None, timeout=0.1)
                    break
                except queue.Full:
                    if time.monotonic() > deadline or not self._writer.is_alive():
                        break
            self._writer.join(max(deadline - time.monotonic(), 0))
            self._writer = None
        if self.dropped:
            self._warn(f"{counted(self.dropped, 'frame')} not kept: the folder's writing fell "
                       f"{QUEUE_FRAMES} frames behind the run, which does not wait for it")
            self.dropped = 0

    def _path(self, label: str, suffix: str = "") -> Path:
        """The next frame's name in the folder (numbered as the run saw it, a dropped frame's
        number left unused)."""
        assert self.directory is not None
        self._count += 1
        return self.directory / f"{self._count:04d}-{_slug(label)}{suffix}.png"

    def _store(self, path: Path, image) -> None:
        """A frame written into the folder, then the oldest past `keep` removed (the writer
        thread's: the frames are written in order)."""
        self._write(path, image)
        self._written.append(path)
        while self._keep is not None and len(self._written) > self._keep:
            self._written.popleft().unlink(missing_ok=True)

    def saw(self, grab: Grab) -> None:
        self.last_grab = grab
        if self.report is not None:
            self.report.looks += 1

    def keep(self, grab: Grab, label: str) -> None:
        self.last_grab = grab  # (seen already: counted)
        if self.directory:
            path = self._path(label)
            self._later(lambda: self._store(path, grab.image))

    def wants_frames(self) -> bool:
        """Whether annotated frames are kept (a debug folder, or a report)."""
        return bool(self.directory) or self.report is not None

    def annotated(self, grab: Grab, label: str, marks: Iterable[Mark],
                  legend: Sequence[Key] = ()) -> None:
        """The frame with `marks` drawn on it, kept in the folder and the report: drawn and
        written by the writer thread, the play loop going on meanwhile."""
        if not self.wants_frames():
            return
        marks, legend = list(marks), tuple(legend)
        path = self._path(label, "-annotated") if self.directory else None

        def draw_and_keep() -> None:
            image = annotate(grab, marks, legend)
            if path is not None:
                self._store(path, image)
            if self.report is not None:
                self.report.frame(path.stem if path is not None else label, image)

        self._later(draw_and_keep)

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
