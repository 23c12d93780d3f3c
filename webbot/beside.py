"""Work beside a decision loop: a slow reading (a search over scales, Tesseract's) on a thread
of its own while the loop goes on looking at each new frame."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")


def on_a_thread(call: Callable[[], T], name: str = "webbot-beside") -> Future[T]:
    """`call()` on a daemon thread (OpenCV's matching and a Tesseract process let go of the
    GIL), so that work under way never holds up the end of a run; its answer, or its error,
    in the future."""
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(call())
        except BaseException as exc:  # (told through the future, to whoever waits for it)
            done.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return done
