"""Playwright's internals, used here and nowhere else: where the bot needs more of the sync API
than it makes public. Playwright is pinned exactly in pyproject.toml to the version these were
written against (EXPECTED); a Playwright without them fails with one line naming it.

Why the public API does not serve:
- Waiting on a page's events in one call (webbot.events): the sync API hands events over only
  while a call of it runs; a loop of short calls takes enough CPU to slow the browser's
  drawing.
- A deadline on calls that take no timeout (webbot.answer): evaluate, a handle's box or
  properties, a frame's content and the mouse wait on the page for ever; a page whose script
  never yields never answers them, so without a deadline the bot hangs. Raced against a timer on
  Playwright's own loop, a call is given up (this Playwright aborts a call whose task is
  cancelled: `Connection.send_message_to_server`).
- The driver's process (webbot.browser): a driver that does not stop when asked is ended by its
  pid, which the public API does not tell.
- Sent and not waited for (webbot.stream's frame acknowledgements, the Daily SET's watching
  script): the sync call would wait for an answer nobody needs, a large part of a Burrito
  Bison decision's time; or answered while the bot makes its next calls (webbot.answer.Soon:
  the browser's copy of the Daily SET's card images, read by another thread; webbot.mouse's
  drag_soon and click_soon: a Burrito Bison launch's inputs, going out while the bot looks at
  the frames drawn meanwhile).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from webbot.errors import WebbotError

try:
    from playwright._impl._sync_base import mapping
except ImportError:  # (another Playwright: said at first use, in PlaywrightMismatch's words)
    mapping = None

EXPECTED = "1.65.2"
# A sync API object's internals: its async object, the call that runs a coroutine on its
# loop while handing events over, and the loop.
INTERNALS = ("_impl_obj", "_sync", "_loop")


class PlaywrightMismatch(WebbotError):
    """The installed Playwright lacks the internals webbot was written against."""


def own(target: Any) -> Any:
    """The async object behind a sync API object (its calls are coroutines)."""
    return _checked(target)._impl_obj


def run(target: Any, awaitable: Awaitable) -> Any:
    """`awaitable` run on Playwright's loop, events handed over meanwhile; its result as the
    sync API gives it (sync objects for async ones)."""
    return mapping.from_maybe_impl(_checked(target)._sync(awaitable))


def future(target: Any) -> asyncio.Future:
    """A future on Playwright's loop (for `run` to wait on, and an event handler to set)."""
    return _checked(target)._loop.create_future()


def in_background(target: Any, call: Coroutine) -> asyncio.Task:
    """`call` (of async objects: `own`) sent on Playwright's loop and not waited for; an error
    it ends in is nobody's business unless a callback added to the task looks at it."""
    task = _checked(target)._loop.create_task(call)
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
    return task


def driver_pid(manager: Any) -> int | None:
    """The process id of the driver a `sync_playwright()` started (None when it has none):
    to end it when it does not stop."""
    try:
        return manager._client._transport._proc.pid
    except AttributeError:
        return None


def to_own(value: Any) -> Any:
    """An argument for an async object's call (sync handles in it as their async ones)."""
    return mapping.to_impl(value)


def _checked(target: Any) -> Any:
    missing = [name for name in INTERNALS if not hasattr(target, name)]
    if missing or mapping is None:
        try:
            installed = version("playwright")
        except PackageNotFoundError:
            installed = "none"
        raise PlaywrightMismatch(
            f"webbot uses Playwright {EXPECTED}'s internals ({', '.join(missing) or 'mapping'}),"
            f" which the installed Playwright {installed} lacks: run scripts/setup.sh (it "
            f"installs {EXPECTED})")
    return target
