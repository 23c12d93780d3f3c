"""`webbot trace`: Playwright's trace viewer for a run's trace.zip, served on 127.0.0.1.

Playwright's `show-trace` opens the viewer in a browser build of its own, which Debian's
Chromium is not; served over HTTP (`--host`, `--port`) it needs no browser of its own, and any
browser opens it.

The viewer is `python -m playwright`, which runs Playwright's node driver as a child of its
own: stopping the wrapper alone would leave node serving. So it runs in a process group of its
own and the whole group is stopped, however `webbot trace` ends (Ctrl-C, SIGTERM, an error)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import zipfile
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlsplit

from webbot.deadline import Deadline
from webbot.errors import WebbotError
from webbot.files import InputError
from webbot.shown import shown_name

START_S = 30.0  # the viewer listens within a second or two; a busy machine gets more
STOP_GRACE_S = 5.0


def trace_file(path: Path) -> Path:
    """The trace in `path`: a --debug-dir folder's trace.zip, or a trace's .zip itself."""
    trace = path / "trace.zip" if path.is_dir() else path
    if not trace.is_file():
        raise InputError(f"{path}: no trace here (a --debug-dir folder holds trace.zip)")
    try:
        with zipfile.ZipFile(trace) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError) as exc:
        reason = "not a zip file" if isinstance(exc, zipfile.BadZipFile) else exc.strerror
        raise InputError(f"{shown_name(trace)}: not a Playwright trace ({reason})") from None
    if not any(name.endswith(".trace") for name in names):  # Playwright's actions: trace.trace
        raise InputError(f"{shown_name(trace)}: not a Playwright trace (a zip without the "
                         "trace's actions)")
    return trace


def show_trace(trace: Path, port: int, say: Callable[[str], None],
               note: Callable[[str], None]) -> int:
    """Serve the viewer for `trace` on 127.0.0.1:`port` (0: any free port) until Ctrl-C (or
    SIGTERM, heard as Ctrl-C); the address is said once it listens, and `note` says when
    `port` was taken and the viewer went to another."""
    command = [sys.executable, "-m", "playwright", "show-trace", "--host", "127.0.0.1",
               "--port", str(port), str(trace)]
    viewer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, start_new_session=True)
    try:
        url = _listening(viewer)
        taken = urlsplit(url).port
        if port and taken != port:  # Playwright moves to a free port without a word
            note(f"note: port {port} is taken (by a trace viewer still serving?): the viewer "
                 f"is on port {taken} instead")
        say(f"Playwright's trace viewer for {shown_name(trace)} at {url} (Ctrl-C stops it)")
        viewer.wait()
        raise WebbotError(f"the trace viewer stopped (exit {viewer.returncode})")
    except KeyboardInterrupt:  # the way to stop it: not an error
        say("stopped")
        return 0
    finally:
        _stop(viewer)


def _listening(viewer: subprocess.Popen) -> str:
    """The viewer's address, from its "Listening on URL" line (its output read on a thread of
    its own, so that a silent viewer is given up on in time)."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert viewer.stdout is not None
        for line in viewer.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    deadline = Deadline(START_S)
    said: list[str] = []
    while not deadline.passed():
        try:
            line = lines.get(timeout=max(0.05, deadline.left()))
        except queue.Empty:
            break
        if line is None:
            break
        if line.startswith("Listening on "):
            return line.split()[-1]
        said.append(line.strip())
    raise WebbotError("the trace viewer did not start: " + (" ".join(said)[-300:] or
                                                            f"nothing said in {START_S:g} s"))


def _stop(viewer: subprocess.Popen) -> None:
    """SIGTERM to the viewer's process group (node too), a grace period, then SIGKILL."""
    _signal_group(viewer, signal.SIGTERM)
    with suppress(subprocess.TimeoutExpired):
        viewer.wait(timeout=STOP_GRACE_S)
    _signal_group(viewer, signal.SIGKILL)  # what is left of the group (node, when slow)
    viewer.wait()


def _signal_group(viewer: subprocess.Popen, signum: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(viewer.pid, signum)
