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
import base64
import contextlib
import inspect
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from playwright.sync_api import (
    CDPSession,
    Dialog,
    ElementHandle,
    Error,
    Frame,
    JSHandle,
    Locator,
    Page,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from webbot.errors import WebbotError
from webbot.playwright_inside import in_background, own, run, to_own

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


def with_defaults(method: Callable[..., Awaitable[Any]], **given: Any) -> Awaitable[Any]:
    """An async object's `method` called with `given`, every other parameter None (its
    default: the async API's methods take every parameter the sync API hands them)."""
    unset = {name: None for name, parameter in inspect.signature(method).parameters.items()
             if name not in given and parameter.default is inspect.Parameter.empty
             and parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD}
    return method(**unset, **given)


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
    """The frame's HTML, as its document serialises it. Asked of the page's own world: Playwright's
    `frame.content()` first sets up a world of its own in the frame, some 15 ms the first time.
    What comes back is the page's word either way (its scripts make the document): a text, or
    else `frame.content()`'s."""
    html = evaluate(frame, "() => document.documentElement ? document.documentElement.outerHTML"
                           " : ''")
    if isinstance(html, str):
        return html
    return answered(frame, lambda own: own.content(None), "a frame's content")


def visible(element: ElementHandle) -> bool:
    return answered(element, lambda own: own.is_visible(), "an element")


def handles(locator: Locator) -> list[ElementHandle]:
    """`locator.element_handles()`."""
    return answered(locator, lambda own: own.element_handles(), "a search")


def focus(element: ElementHandle) -> None:
    """`element.focus()`: the page's own focus handlers run before it answers."""
    answered(element, lambda own: own.focus(), "a focus")


def inner_text(element: ElementHandle) -> str:
    return answered(element, lambda own: own.inner_text(), "an element's text")


def title(frame: Frame | Any) -> str:
    """`frame.title()` (a frame or a page)."""
    return answered(frame, lambda own: own.title(), "a title")


def click(element: ElementHandle | Locator, seconds: float) -> None:
    """`element.click()` within `seconds`: Playwright's own timeout for the element to be
    clickable, and a deadline for the page's click handlers. An element is scrolled into view
    first as `scroll_into_view` does."""
    if isinstance(element, ElementHandle):
        scroll_into_view(element, seconds)
    answered(element, lambda own: with_defaults(own.click, timeout=seconds * 1000), "a click",
             seconds + ANSWER_S)


def scroll_into_view(element: ElementHandle, seconds: float) -> None:
    """`element.scroll_into_view_if_needed()` within `seconds`; an element in a frame still
    outside the window after it, brought in by scrolling the frames around it one by one.
    (Chromium carries a frame's scroll on to the page around it; its headless shell does not
    where that page is another site's, a game on a portal, say.)"""
    answered(element, lambda own: with_defaults(own.scroll_into_view_if_needed,
                                          timeout=seconds * 1000), "a scroll", seconds + ANSWER_S)
    frame = owner_frame(element)
    place = box(element) if frame is not None and frame.parent_frame is not None else None
    if place is None or _inside(place, _window(frame.page.main_frame)):
        return  # (in the page itself, or already in the window: as Chromium scrolls)
    while frame is not None and frame.parent_frame is not None:
        frame = frame.parent_frame
        place, window = box(element), _window(frame)
        if place is None or window is None:
            return
        shift = [_shift(place[at], place[size], window[at], window[size])
                 for at, size in (("x", "width"), ("y", "height"))]
        if any(shift):
            evaluate(frame, "([x, y]) => window.scrollBy(x, y)", shift)


def _window(frame: Frame) -> dict | None:
    """What `frame` shows, in the page's window's coordinates (Playwright's measures, not the
    page's word); None when it cannot be told (a browser without a set viewport)."""
    if frame.parent_frame is not None:
        return box(frame_element(frame))
    view = frame.page.viewport_size
    return None if view is None else {"x": 0, "y": 0, **view}


def _inside(place: dict, window: dict | None) -> bool:
    return window is None or all(
        _shift(place[at], place[size], window[at], window[size]) == 0
        for at, size in (("x", "width"), ("y", "height")))


def _shift(start: float, length: float, shown_from: float, shown_length: float) -> float:
    """How far to scroll along one axis to show the span `start` + `length` (its start, when
    it is longer than what is shown)."""
    if start < shown_from or length > shown_length:
        return start - shown_from
    return max(0.0, start + length - (shown_from + shown_length))


def pause(page: Page, milliseconds: float) -> None:
    """`page.wait_for_timeout(ms)`: a wait on Playwright's loop, during which the page's
    events (messages, dialogs) are handed over; no page is asked anything."""
    answered(page, lambda own: own.wait_for_timeout(timeout=milliseconds), "a pause",
             milliseconds / 1000 + ANSWER_S)


def accept(dialog: Dialog) -> None:
    """`dialog.accept()`: an alert, confirm or prompt answered."""
    answered(dialog, lambda own: with_defaults(own.accept), "a dialog")


def dispose(handle: JSHandle) -> None:
    answered(handle, lambda own: own.dispose(), "a handle")


# Playwright's mouse and keyboard have no timeout: a page whose script never yields would
# hold them.
def mouse_move(page: Page, x: float, y: float) -> None:
    answered(page.mouse, lambda own: own.move(x, y, None), "the mouse")


def mouse_button(page: Page, button: str, *, down: bool) -> None:
    """The mouse's `button` pressed (`down`) or released where the mouse is."""
    answered(page.mouse, lambda own: (own.down if down else own.up)(button, None), "the mouse")


async def mouse_soon(page: Page, inputs: list[tuple[str, float, float]],
                     seconds: float = ANSWER_S) -> None:
    """Mouse inputs sent one after another, each once the page has taken the one before, as a
    coroutine: ("move", x, y), or ("down" or "up", _, _) with the left button where the mouse
    is; TimeoutError after `seconds` for any one of them."""
    mouse = own(page.mouse)
    for kind, x, y in inputs:
        if kind == "move":
            await asyncio.wait_for(mouse.move(x, y, None), seconds)
        else:
            await asyncio.wait_for((mouse.down if kind == "down" else mouse.up)("left", None),
                                   seconds)


def key(page: Page, name: str) -> None:
    """A key pressed and released on the page (Escape, say)."""
    answered(page.keyboard, lambda own: own.press(name, None), "the keyboard")


def cdp_session(page: Page) -> CDPSession:
    """A DevTools session on `page` (`page.context.new_cdp_session(page)`)."""
    return answered(page.context, lambda own: own.new_cdp_session(to_own(page)),
                    "a DevTools session")


def detach(session: CDPSession) -> None:
    answered(session, lambda own: own.detach(), "a DevTools session")


def asked_in_background(frame: Frame, script: str, arg: Any = None) -> asyncio.Task:
    """`frame.evaluate(script, arg)` sent and not waited for: its task, which ends when the
    page answers (a script that waits in the page for something to happen, say)."""
    return in_background(frame, own(frame).evaluate(script, to_own(arg)))


# For calls sent and not waited for: coroutines of Playwright's own objects, run by
# `background` on its loop; their task ends when the page answers (a later look takes it).
async def box_soon(element: ElementHandle, seconds: float = ANSWER_S) -> dict | None:
    """`element.bounding_box()`, as a coroutine; TimeoutError after `seconds`."""
    return await asyncio.wait_for(own(element).bounding_box(), seconds)


async def evaluated_soon(target: Frame | JSHandle | Any, script: str, arg: Any = None,
                         seconds: float = ANSWER_S) -> Any:
    """`target.evaluate(script, arg)`, as a coroutine; TimeoutError after `seconds`."""
    return await asyncio.wait_for(own(target).evaluate(script, to_own(arg)), seconds)


def sent_twice(session: CDPSession, method: str, params: dict,
               seconds: float = ANSWER_S) -> tuple[Any, asyncio.Task]:
    """A DevTools call made, and made again as soon as it has answered: the first's answer,
    given once the second is sent (a call sent from a background task goes out only while a
    call waits on Playwright's loop), and the second's task, not waited for (its answer, and
    when it was sent: time.monotonic()); NoAnswer after `seconds`."""
    again: list[asyncio.Task] = []

    async def twice(own_session: Any) -> Any:
        first = await own_session.send(method, params, seconds * 1000)
        call = asyncio.ensure_future(own_session.send(method, params, seconds * 1000))
        later = asyncio.ensure_future(_answered(call, time.monotonic(), seconds))
        later.add_done_callback(lambda done: done.cancelled() or done.exception())
        again.append(later)
        await asyncio.sleep(0)  # (the second's first step: its message written)
        return first

    return answered(session, twice, f"DevTools' {method}", seconds), again[0]


async def _answered(call: asyncio.Future, sent: float, seconds: float) -> tuple[Any, float]:
    return await asyncio.wait_for(call, seconds), sent


# Chromium takes a clipped screenshot by setting the page's device emulation for it and then
# setting back what it found: two captures of one page at once leave the second's "found" (the
# first's setting) in place, and the window fell to Chromium's own 800x600 under a page that
# asked for 1280x900 (tests/test_consent.py's covers: a debug picture of the page taken while
# a picture asked ahead was under way). So each capture waits for the one under way on its page,
# whichever camera asked it, and so does a read of the page's layout for one.
_CAPTURING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def capture_under_way(page: Page, task: asyncio.Task) -> None:
    """`task` (a screenshot sent without waiting) is under way on `page`."""
    _CAPTURING[page] = task


def captures_settled(page: Page, seconds: float = ANSWER_S) -> None:
    """The screenshot under way on `page`, if any, waited for (its answer is its asker's);
    NoAnswer when it does not end within `seconds`."""
    task = _CAPTURING.pop(page, None)
    if task is not None and not task.done():
        settled(page, task, "a picture of it", seconds)


def settled(target: Any, task: asyncio.Task, what: str, seconds: float = ANSWER_S) -> None:
    """A call sent without waiting (`background`) waited for until it ends, any other outcome
    left in its task for its asker; NoAnswer when it, or the wait, ran out of time."""
    try:
        run(target, asyncio.wait_for(asyncio.shield(task), seconds))
    except (TimeoutError, PlaywrightTimeout):
        raise NoAnswer(f"the page stopped answering: {what} got no answer within "
                       f"{seconds:g} s") from None
    except (Error, asyncio.CancelledError):
        pass  # (its asker's to say)


def awaited(target: Any, task: asyncio.Task) -> Any:
    """The answer of a call sent without waiting (`background`), waited for now on
    `target`'s loop (its own deadline bounds the wait)."""
    return run(target, task)


def background(target: Any, call: Coroutine) -> asyncio.Task:
    """`call` sent on `target`'s Playwright loop and not waited for: its task."""
    return in_background(target, call)


class Soon:
    """A call's answer that comes while the bot's own thread makes its other calls (Playwright
    hands answers over only then): another thread waits for it (`wait`), the bot's thread lets
    it come (`settle`) before it waits on that other thread."""

    def __init__(self, target: Any, call: Awaitable) -> None:
        self._target = target
        self._came = threading.Event()  # (set in the call's own step: no callback left over)
        self._answer: Any = None
        self.given_up = False
        self.task = in_background(target, self._kept(call))

    async def _kept(self, call: Awaitable) -> None:
        try:
            self._answer = await call
        finally:
            self._came.set()

    def wait(self, seconds: float) -> Any:
        """The answer (another thread's call): None when it failed, did not come within
        `seconds`, or was given up (`cancel`)."""
        self._came.wait(seconds)
        return None if self.given_up else self._answer

    def settle(self, seconds: float) -> None:
        """The bot's thread: Playwright's loop run until the answer came, for `seconds` at
        most (what another thread still waits for it), so that it is not left waiting."""
        if not self._came.is_set():
            with contextlib.suppress(Error, TimeoutError, asyncio.CancelledError):
                run(self._target, asyncio.wait_for(asyncio.shield(self.task), seconds))

    def cancel(self) -> None:
        """A thread waiting for the answer stops waiting, with none (the call itself ends on
        its own, within its deadline)."""
        self.given_up = True
        self._came.set()


def page_resources(page: Page, urls: list[str], most_bytes: int,
                   seconds: float = ANSWER_S) -> Soon:
    """The bytes of `urls` as the page's top frame loaded them, from the browser's own copy
    (DevTools' Page.getResourceContent: no second download), asked now and not waited for.
    Its answer: the URLs the frame has, each with its bytes; one the browser says is larger
    than `most_bytes`, or does not say the size of, is not asked for (its caller downloads
    it, within its limit: a page's image of any size would otherwise come whole)."""
    return Soon(page, _resources(own(page), urls, most_bytes, seconds))


async def _resources(page: Any, urls: list[str], most_bytes: int,
                     seconds: float) -> dict[str, bytes]:
    session = await asyncio.wait_for(page.context.new_cdp_session(page), seconds)
    try:
        return await asyncio.wait_for(_contents(session, urls, most_bytes), seconds)
    finally:  # (not waited for: a browser that stopped answering keeps no one waiting)
        detaching = asyncio.ensure_future(session.detach())
        detaching.add_done_callback(lambda done: done.cancelled() or done.exception())


async def _contents(session: Any, urls: list[str], most_bytes: int) -> dict[str, bytes]:
    await session.send("Page.enable", None, None)
    tree = (await session.send("Page.getResourceTree", None, None))["frameTree"]
    # Images the frame has whole: loaded (not failed, not cut short), of a size said.
    sizes = {resource.get("url"): resource.get("contentSize")
             for resource in tree.get("resources", [])
             if resource.get("type") == "Image" and not resource.get("failed")
             and not resource.get("canceled")}
    asked = [url for url in dict.fromkeys(urls)
             if isinstance(sizes.get(url), int) and 0 < sizes[url] <= most_bytes]
    answers = await asyncio.gather(
        *(session.send("Page.getResourceContent", {"frameId": tree["frame"]["id"], "url": url},
                       None) for url in asked), return_exceptions=True)
    found = {}
    for url, given in zip(asked, answers, strict=True):
        if isinstance(given, dict) and given.get("base64Encoded") is True \
                and isinstance(given.get("content"), str) \
                and len(given["content"]) <= most_bytes * 4 // 3 + 4:
            with contextlib.suppress(ValueError):
                data = base64.b64decode(given["content"], validate=True)
                if len(data) == sizes[url]:  # (else not the whole image: downloaded)
                    found[url] = data
    return found
