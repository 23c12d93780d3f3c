"""Playwright's driver started first, the rest of the bot loaded meanwhile.

A game's command needs Playwright's driver (a Node.js process: a fifth of a second to start)
and most of the bot (numpy, OpenCV, the consent library's models, the game: a third of a
second to import). Done one after the other, the process waits for the driver with nothing
to do; here the driver is asked for first, and while this thread waits for it, another
imports the bot. The run's `webbot.browser.playwright_driver` takes the driver over.
"""

from __future__ import annotations

import importlib
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from webbot.playwright_inside import driver_pid

# How long Playwright may take to stop before its driver is ended (webbot.browser's too).
STOP_S = 10.0
_started: list[tuple[Any, Any]] = []  # (the sync_playwright manager, its Playwright), if any


# What every game's run imports, beside its bot; and Pillow's picture readers, which the run's
# first picture loads (webbot.inputs reads each picture's header with them).
RUN_MODULES = ("webbot.session", "webbot.play", "PIL.Image", "PIL.BmpImagePlugin",
               "PIL.GifImagePlugin", "PIL.JpegImagePlugin", "PIL.PpmImagePlugin",
               "PIL.PngImagePlugin")


@contextmanager
def started_early(bot_module: str) -> Iterator[None]:
    """Playwright's driver started now, the run's modules and `bot_module` imported on a thread
    meanwhile. A driver the block's run did not take over is stopped at its end."""
    # Playwright's own modules first, on this thread: the other then needs none that this one
    # is still importing (two threads importing each other's modules can deadlock).
    from playwright.sync_api import sync_playwright

    from webbot.cache import keep_node_compile_cache

    keep_node_compile_cache()
    importing = threading.Thread(target=_import, args=((*RUN_MODULES, bot_module),),
                                 daemon=True, name="importing the bot")
    importing.start()
    manager = sync_playwright()
    try:
        _started.append((manager, manager.start()))
    finally:
        importing.join()  # (this thread imports nothing while the other does)
    try:
        yield
    finally:
        if _started:  # not taken over: the run ended before its browser
            stop_within(_started.pop()[0])  # (it started no browser)


def take_started() -> tuple[Any, Any] | None:
    """The driver started early (its manager and Playwright), now the caller's to stop; None
    when there is none."""
    return _started.pop() if _started else None


def stop_within(manager: Any, end: Callable[[int], object] | None = None) -> None:
    """Playwright's driver stopped within STOP_S, else ended by its pid: by `end` (one that
    started a browser: webbot.browser.end_browser ends its processes too), or SIGKILL."""
    pid = driver_pid(manager)
    ending = threading.Timer(STOP_S, _end, (pid, end or _kill))
    ending.daemon = True
    ending.start()
    try:
        manager.__exit__()
    finally:
        ending.cancel()


def _end(pid: int | None, end: Callable[[int], object]) -> None:
    if pid is not None:
        end(pid)


def _kill(pid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def _import(modules: Sequence[str]) -> None:
    for name in modules:
        with suppress(Exception):  # (the run imports it again, and says what is wrong)
            importlib.import_module(name)
