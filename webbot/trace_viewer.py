"""`webbot trace`: Playwright's trace viewer for a run's trace.zip, served on 127.0.0.1.

Playwright's `show-trace` opens the viewer in a browser build of its own, which Debian's
Chromium is not; served over HTTP (`--host`, `--port`) it needs no browser of its own, and any
browser opens it."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from webbot.deadline import Deadline
from webbot.errors import WebbotError
from webbot.inputs import InputError

START_S = 30.0  # the viewer listens within a second or two; a busy machine gets more
STOP_GRACE_S = 5.0


def trace_file(path: Path) -> Path:
    """The trace in `path`: a --debug-dir folder's trace.zip, or a trace's .zip itself."""
    trace = path / "trace.zip" if path.is_dir() else path
    if not trace.is_file():
        raise InputError(f"{path}: no trace here (a --debug-dir folder holds trace.zip)")
    return trace


def show_trace(trace: Path, port: int, say: Callable[[str], None]) -> int:
    """Serve the viewer for `trace` on 127.0.0.1:`port` (0: any free port) until Ctrl-C; the
    address is said once it listens."""
    command = [sys.executable, "-m", "playwright", "show-trace", "--host", "127.0.0.1",
               "--port", str(port), str(trace)]
    viewer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    try:
        url = _listening(viewer)
        say(f"Playwright's trace viewer for {trace} at {url} (Ctrl-C stops it)")
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
    with suppress(ProcessLookupError):
        viewer.terminate()
    try:
        viewer.wait(timeout=STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        viewer.kill()
        viewer.wait()
