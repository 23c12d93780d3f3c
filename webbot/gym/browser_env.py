"""What every webbot environment shares: a game session on the bundled replica, kept on a
thread of its own.

Playwright's sync API refuses a second instance on a thread that runs one, and Gymnasium's
checker makes a second environment beside the first: each environment therefore does all
its browser work on its own one-thread executor."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any, TypeVar

import gymnasium as gym

from webbot.answer import evaluate
from webbot.options import RunOptions
from webbot.session import Session, game_session

T = TypeVar("T")


class BrowserEnv(gym.Env):
    """A Gymnasium environment whose game lives in a browser: `_open` a replica page (on the
    browser's thread), `_on_browser_thread` for everything that touches it, `close` ends it.
    `JUDGE` is the replica's test hook and `score` what it counts: for webbot.gym.judge
    alone."""

    JUDGE = ""

    def __init__(self) -> None:
        self._browser_thread = ThreadPoolExecutor(1, thread_name_prefix="webbot-env")
        self._closed = False
        self._stack: ExitStack | None = None
        self._session: Session | None = None

    @staticmethod
    def score(judged: Any) -> float:
        """What the replica's judge counts as done so far."""
        raise NotImplementedError

    def judged(self) -> Any:
        """What the replica's own judge says now (its test hook), for webbot.gym.judge: never
        part of what the agent observes."""
        if self._session is None:
            raise gym.error.ResetNeeded("call reset() before asking the judge")
        page = self._session.page
        return self._on_browser_thread(lambda: evaluate(page, self.JUDGE))

    def close(self) -> None:
        """The browser ended (within its bounded stop), and its thread; again, nothing."""
        if not self._closed:
            self._closed = True
            self._on_browser_thread(self._end)
            self._browser_thread.shutdown()

    def _on_browser_thread(self, call: Callable[[], T]) -> T:
        return self._browser_thread.submit(call).result()

    def _open(self, page: str) -> Session:
        """A fresh session on the replica's `page` (the last one ended); browser thread only."""
        self._end()
        self._stack = ExitStack()
        self._session = self._stack.enter_context(game_session(RunOptions(), page))
        return self._session

    def _end(self) -> None:
        """Ends the session, if any, and forgets the game; browser thread only."""
        if self._stack is not None:
            self._stack.close()
        self._stack, self._session = None, None
        self._forget()

    def _forget(self) -> None:
        """Drops what the environment kept of the game its session showed."""
