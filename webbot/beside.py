"""Work beside a decision loop: a slow reading (a search over scales, Tesseract's) on a thread
of its own while the loop goes on looking at each new frame."""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")

# How long the process's end waits for work still under way beside the loop. A daemon thread
# still in OpenCV's C++ at the interpreter's end is unwound through it, which aborts the
# process ("terminate called without an active exception", exit -6: CI, a Ctrl-C as a search
# ran); a search takes well under a second.
EXIT_WAIT_S = 3.0
_running: set[threading.Thread] = set()


def on_a_thread(call: Callable[[], T], name: str = "webbot-beside") -> Future[T]:
    """`call()` on a daemon thread (OpenCV's matching and a Tesseract process let go of the
    GIL), so that work under way holds up the end of a run EXIT_WAIT_S at most; its answer, or
    its error, in the future."""
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(call())
        except BaseException as exc:  # (told through the future, to whoever waits for it)
            done.set_exception(exc)

    thread = threading.Thread(target=run, name=name, daemon=True)
    _running.add(thread)
    done.add_done_callback(lambda _: _running.discard(thread))
    thread.start()
    return done


@atexit.register
def _wait_for_work_under_way() -> None:
    deadline = time.monotonic() + EXIT_WAIT_S
    for thread in list(_running):
        thread.join(max(0.0, deadline - time.monotonic()))
