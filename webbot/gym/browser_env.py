"""What every webbot environment shares: a game session on the bundled replica (or a real
site's page), kept on a thread of its own.

Playwright's sync API refuses a second instance on a thread that runs one, and Gymnasium's
checker makes a second environment beside the first: each environment therefore does all
its browser work on its own one-thread executor."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, suppress
from typing import Any, TypeVar

import click
import gymnasium as gym
import numpy as np
from playwright.sync_api import Error, Page

from webbot import answer
from webbot.deadline import Deadline
from webbot.errors import WebbotError
from webbot.options import RunOptions
from webbot.params import PAGE_URL
from webbot.screen import MovedSinceSeen
from webbot.session import Session, game_session

T = TypeVar("T")
ToPage = Callable[[float, float], tuple[float, float]]  # a point of a picture, on the page
# The raw moves (webbot.gym.raw) and keys: look again, click, drag, a key pressed.
LOOK, CLICK, DRAG, KEY = range(4)
KEYS = ("Escape", "Enter", "Space", "Tab", "ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown")
# Each in-page move costs about a frame: a click needs only its end, a drag's path is hand-like
# (a game may follow it).
CLICK_STEP_PX, DRAG_STEP_PX = 150, 25
NAVIGATION_S = 10.0  # for a page on its way to another to land


class BrowserEnv(gym.Env):
    """A Gymnasium environment whose game lives in a browser: `_open` a replica page (on the
    browser's thread), `_on_browser_thread` for everything that touches it, `close` ends it.
    `REPLICA` names the replica module whose judge webbot.gym.judge asks (through
    `on_page`); the environment itself never reads it."""

    REPLICA = ""
    RAW_SIZE = (0, 0)  # the raw picture's width and height (webbot.gym.raw)

    def __init__(self, render_mode: str | None = None, url: str | None = None) -> None:
        self.render_mode = render_mode
        self.url = _page_url(url)  # a real site's page instead of the bundled replica
        self._browser_thread = ThreadPoolExecutor(1, thread_name_prefix="webbot-env")
        self._closed = False
        self._stack: ExitStack | None = None
        self._session: Session | None = None
        self._to_page: ToPage | None = None  # of the last raw picture
        self.browser_ms = 0.0  # the last call's time in the browser (a step's, a reset's)

    def on_page(self, script: str) -> Any:
        """`script` evaluated on the game's page, for webbot.gym.judge and the tests: never
        part of what the agent observes."""
        if self._session is None:
            raise gym.error.ResetNeeded("call reset() before asking the page")
        page = self._session.page
        return self._on_browser_thread(lambda: _settled_evaluate(page, script))

    def raw_step(self, move: int, at: tuple[float, float], end: tuple[float, float],
                 key: int) -> tuple[np.ndarray, bool]:
        """A raw input (webbot.gym.raw) at fractions of the last raw picture, then a new one
        (RGB) and whether the game says it is over."""
        return self._on_browser_thread(lambda: self._raw(move, at, end, key))

    def raw_look(self) -> np.ndarray:
        """A raw picture of the game (RGB, RAW_SIZE)."""
        return self._on_browser_thread(lambda: self._raw(LOOK, (0, 0), (0, 0), 0))[0]

    def close(self) -> None:
        """The browser ended (within its bounded stop), and its thread; again, nothing."""
        if not self._closed:
            self._closed = True
            self._on_browser_thread(self._end)
            self._browser_thread.shutdown()

    def _on_browser_thread(self, call: Callable[[], T]) -> T:
        started = time.perf_counter()
        try:
            return self._browser_thread.submit(self._said, call).result()
        finally:
            self.browser_ms = (time.perf_counter() - started) * 1000

    def _metrics(self) -> dict[str, Any]:
        """What a step's info says of its cost: the milliseconds its action and look took in
        the browser (in the animated games' info: a deterministic one's is the same each time
        for the same seed and actions)."""
        return {"browser_ms": round(self.browser_ms, 1)}

    def _said(self, call: Callable[[], T]) -> T:
        """`call`, a page lost under it (a crashed tab, a closed browser) said in one line."""
        try:
            return call()
        except Error as exc:
            why = self._session.lost() if self._session is not None else None
            raise WebbotError(f"the game's page was lost ({why or _first_line(exc)}); "
                              "reset() opens it afresh") from None

    def _open(self, page: str) -> Session:
        """A fresh session on the replica's `page`, or on the real site's (`url`); the last one
        ended; browser thread only."""
        self._end()
        self._stack = ExitStack()
        self._session = self._stack.enter_context(game_session(RunOptions(url=self.url), page))
        return self._session

    def _end(self) -> None:
        """Ends the session, if any, and forgets the game; browser thread only."""
        if self._stack is not None:
            self._stack.close()
        self._stack, self._session, self._to_page = None, None, None
        self._forget()

    def _bundled_only(self, options: dict | None, *names: str) -> None:
        """Refuses an episode's options that only the bundled replica has, on a real site."""
        given = [name for name in names if name in (options or {})]
        if self.url is not None and given:
            raise ValueError(f"{', '.join(given)}: an option of the bundled replica, not of "
                             f"a real site ({self.url})")

    def _forget(self) -> None:
        """Drops what the environment kept of the game its session showed."""

    def _raw(self, move: int, at: tuple[float, float], end: tuple[float, float],
             key: int) -> tuple[np.ndarray, bool]:
        if self._session is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        mouse, to_page = self._session.mouse, self._to_page
        width, height = self.RAW_SIZE
        point = lambda f: to_page(f[0] * (width - 1), f[1] * (height - 1))  # noqa: E731
        with suppress(MovedSinceSeen):  # the game moved on the page since seen: nothing done
            if move == CLICK and to_page is not None:
                mouse.click(*point(at), step_px=CLICK_STEP_PX)
            elif move == DRAG and to_page is not None:
                mouse.move_to(*point(at), step_px=CLICK_STEP_PX)
                mouse.drag(point(at), point(end), step_px=DRAG_STEP_PX)
            elif move == KEY:
                mouse.press_key(KEYS[key])
        picture, self._to_page, over = self._raw_picture()
        return picture, over

    def _raw_picture(self) -> tuple[np.ndarray, ToPage, bool]:
        """The game's picture (RGB, RAW_SIZE), how its points map to the page, and whether
        it shows the game over; browser thread only."""
        raise NotImplementedError


def _settled_evaluate(page: Page, script: str) -> Any:
    """`script` on the page; on a page that is navigating (the Daily SET's move to its
    completion page), on the page it lands on once that has loaded."""
    deadline = Deadline(NAVIGATION_S)
    while True:
        try:
            return answer.evaluate(page, script)
        except Error as exc:
            if "navigation" not in str(exc) or deadline.passed():
                raise
            answer.answered(page, lambda own: answer.with_defaults(
                own.wait_for_load_state, state="load", timeout=NAVIGATION_S * 1000),
                "a page's load", NAVIGATION_S + 1)


def _page_url(url: str | None) -> str | None:
    """`url` checked as `--url` is (http, https or file, with a host), or None."""
    if url is None:
        return None
    try:
        return PAGE_URL.convert(url, None, None)
    except click.BadParameter as exc:
        raise ValueError(exc.message) from None


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def fraction(values: Any) -> tuple[float, float]:
    """A point as fractions of a picture's width and height, each held to 0-1."""
    x, y = np.clip(np.asarray(values, dtype=np.float64).reshape(2), 0.0, 1.0)
    return float(x), float(y)
