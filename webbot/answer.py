"""Every call the bot makes to a page, given up after a deadline.

Playwright's calls that take a `timeout=` have one (goto, screenshots, clicks: 30 s unless
said). Those that take none (evaluate, a handle's box or properties, a frame's content, the
mouse) wait on the page's renderer for ever: a page whose script never yields
(`while (true) {}`) never answers them, nor does a page whose navigation waits on a server that
sends nothing. Here each such call is raced against a timer on Playwright's own loop
(webbot.playwright_inside), and given up when it runs out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.sync_api import ElementHandle, Frame, JSHandle, Locator

from webbot.errors import WebbotError
from webbot.playwright_inside import own, run, to_own

# How long a call without a timeout of its own may wait for the page. The bot's scripts answer
# in milliseconds; a page that keeps its main thread this long is not going to answer.
ANSWER_S = 10.0


class NoAnswer(WebbotError):
    """The page gave no answer in time: its script keeps it busy, or it waits on a server."""


def answered(target: Any, call: Callable[[Any], Awaitable[Any]], what: str,
             seconds: float = ANSWER_S) -> Any:
    """`call` of `target`'s Playwright (async) object, its result as the sync API gives it;
    NoAnswer after `seconds`."""
    try:
        return run(target, asyncio.wait_for(call(own(target)), seconds))
    except TimeoutError:
        raise NoAnswer(f"the page stopped answering: {what} got no answer within "
                       f"{seconds:g} s") from None


def evaluate(target: Frame | JSHandle | Locator | Any, script: str, arg: Any = None,
             seconds: float = ANSWER_S) -> Any:
    """`target.evaluate(script, arg)` (a page, frame, handle or locator), within `seconds`."""
    more = (None,) if isinstance(target, Locator) else ()  # a locator's own wait: the default
    return answered(target, lambda own: own.evaluate(script, to_own(arg), *more),
                    "a script", seconds)


def evaluate_handle(target: Frame | JSHandle | Any, script: str, arg: Any = None) -> JSHandle:
    return answered(target, lambda own: own.evaluate_handle(script, to_own(arg)),
                    "a script")


def box(element: ElementHandle) -> dict | None:
    """`element.bounding_box()`."""
    return answered(element, lambda own: own.bounding_box(), "an element's box")


def properties(handle: JSHandle) -> dict[str, JSHandle]:
    return answered(handle, lambda own: own.get_properties(), "a script's result")


def value(handle: JSHandle) -> Any:
    """`handle.json_value()`."""
    return answered(handle, lambda own: own.json_value(), "a script's result")


def owner_frame(element: ElementHandle) -> Frame | None:
    return answered(element, lambda own: own.owner_frame(), "an element's frame")


def frame_element(frame: Frame) -> ElementHandle:
    return answered(frame, lambda own: own.frame_element(), "a frame's element")


def query(frame: Frame, selector: str) -> ElementHandle | None:
    """`frame.query_selector(selector)`."""
    return answered(frame, lambda own: own.query_selector(selector, None), "a search")


def query_all(frame: Frame, selector: str) -> list[ElementHandle]:
    """`frame.query_selector_all(selector)`."""
    return answered(frame, lambda own: own.query_selector_all(selector), "a search")


def content(frame: Frame) -> str:
    """`frame.content()`: the frame's HTML."""
    return answered(frame, lambda own: own.content(None), "a frame's content")


def visible(element: ElementHandle) -> bool:
    return answered(element, lambda own: own.is_visible(), "an element")


def handles(locator: Locator) -> list[ElementHandle]:
    """`locator.element_handles()`."""
    return answered(locator, lambda own: own.element_handles(), "a search")
