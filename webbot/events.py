"""Waiting on the page's events with Playwright's sync API, in one call.

The sync API hands events over only while a call of it runs, so a wait for something an event
handler (or an in-page script) tells is one call that the telling ends: a future on
Playwright's own event loop, awaited through the sync API's `_sync`, set by the handler. A loop
of short calls instead took so much of two cores that the browser drew fewer frames (measured).
`_loop`, `_sync` and `_impl_obj` are not public: playwright is pinned in pyproject.toml.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from playwright.sync_api import Page


def told(page: Page) -> asyncio.Future:
    """A future an event handler sets (with why) to end `wait_until_told`."""
    return page._loop.create_future()


def wait_until_told(page: Page, future: asyncio.Future, seconds: float) -> Any:
    """Lets Playwright hand events over until `future` is set or `seconds` pass; its result,
    or None when it was not set in time."""
    with contextlib.suppress(asyncio.TimeoutError):
        page._sync(asyncio.wait_for(asyncio.shield(future), max(0.0, seconds)))
    return future.result() if future.done() else None


def in_background(page: Page, call: Coroutine) -> asyncio.Task:
    """A call of Playwright's own (async) objects, sent and not waited for; an error it ends
    in is nobody's business unless a callback added to the task looks at it."""
    task = page._loop.create_task(call)
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
    return task
