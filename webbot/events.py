"""Waiting on the page's events with Playwright's sync API, in one call.

The sync API hands events over only while a call of it runs, so a wait for something an event
handler (or an in-page script) tells is one call that the telling ends: a future on
Playwright's own loop, set by the handler (webbot.playwright_inside says why).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from playwright.sync_api import Page

from webbot import playwright_inside
from webbot.playwright_inside import in_background

__all__ = ["in_background", "wake_future", "wait_for_wake"]


def wake_future(page: Page) -> asyncio.Future:
    """A future an event handler sets (with why) to end `wait_for_wake`."""
    return playwright_inside.future(page)


def wait_for_wake(page: Page, future: asyncio.Future, seconds: float) -> Any:
    """Lets Playwright hand events over until `future` is set or `seconds` pass; its result,
    or None when it was not set in time."""
    with contextlib.suppress(asyncio.TimeoutError):
        playwright_inside.run(page, asyncio.wait_for(asyncio.shield(future), max(0.0, seconds)))
    return future.result() if future.done() else None
