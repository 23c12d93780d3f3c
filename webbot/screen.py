"""What the bot looks at: element screenshots as numpy pictures, and waiting on them.

A `Grab` is a BGR picture of one page element plus where that element sits on the page, so a
point found in the picture maps to the page point the mouse must go to, whatever the device
pixel ratio or zoom.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from playwright.sync_api import CDPSession, ElementHandle, Error, Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from webbot import answer
from webbot.deadline import Deadline
from webbot.errors import WaitTimeout, WebbotError
from webbot.inputs import decode_page_picture
from webbot.shown import shown
from webbot.stream import (
    DEVTOOLS_TIMEOUT_MS,
    SHOWN_AFTER_INPUT,
    FrameStream,
    StreamFrame,
    crop,
    frames_begun,
)
from webbot.vision.still import alike, changed_fraction


@dataclass(frozen=True)
class Box:
    """A rectangle in page (CSS pixel, viewport) coordinates."""

    x: float
    y: float
    width: float
    height: float

    @classmethod
    def of(cls, found: dict) -> Box:
        """From Playwright's bounding_box() answer."""
        return cls(found["x"], found["y"], found["width"], found["height"])

    def larger_than(self, width: float, height: float) -> bool:
        """Whether it cannot fit a window of `width` x `height`, wherever it lay (half a CSS
        pixel's slack: a box of fractional size)."""
        return self.width > width + 0.5 or self.height > height + 0.5

    def within(self, width: float, height: float, slack: float = 0.0) -> bool:
        """Whether it lies wholly inside a window of `width` x `height`, `slack` allowed at
        the right and the bottom."""
        return (self.x >= 0 and self.y >= 0 and self.x + self.width <= width + slack
                and self.y + self.height <= height + slack)


@dataclass(frozen=True)
class Grab:
    """One screenshot of an element.

    `image` is BGR uint8. Image coordinates are continuous: the pixel at column i covers
    [i, i+1), so its centre is i + 0.5. `scale` is image pixels per CSS pixel: the device pixel
    ratio (times any page zoom that the element's box does not already show).
    """

    image: np.ndarray
    box: Box
    taken_at: float = field(default_factory=time.monotonic)
    # The element's box as it is now (it moves when a banner loads above it): points found in
    # the picture are mapped through it, not through where the element was when grabbed.
    anchor: Callable[[], Box] | None = field(default=None, repr=False, compare=False)
    streamed: bool = False  # from the page's screencast (taken_at: when it was shown)
    # When the picture reached the bot (time.monotonic()): a streamed frame's arrival, a
    # pulled picture's asking. A decision's latency counts from it.
    arrived_at: float = field(default_factory=time.monotonic)
    # Shown before the last input could show in it (a look that asked for frames early).
    before_input: bool = False
    # A streamed frame's data, one object for frames Chromium sent as the same bytes
    # (webbot.stream): two grabs of one source and one box hold the same pixels.
    source: str | None = field(default=None, repr=False, compare=False)

    def same_pixels(self, other: Grab | None) -> bool:
        """This grab holds the pixels `other` held: a frame sent again as it was, cut by the
        same box (a reading of one is a reading of both)."""
        return other is not None and self.source is not None and \
            self.source is other.source and self.box == other.box

    @property
    def scale(self) -> float:
        return self.image.shape[1] / self.box.width

    @property
    def scale_y(self) -> float:
        return self.image.shape[0] / self.box.height

    def origin(self) -> tuple[float, float]:
        """The element's top-left corner on the page now."""
        box = self.anchor() if self.anchor else self.box
        return box.x, box.y

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """Image point -> page point (for the mouse), with the element where it is now."""
        return self.to_page_all((x, y))[0]

    def to_page_all(self, *points: tuple[float, float]) -> list[tuple[float, float]]:
        """Image points -> page points, the element's place measured once for them all."""
        left, top = self.origin()
        return [(left + x / self.scale, top + y / self.scale_y) for x, y in points]

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        """Page point -> image point."""
        return (x - self.box.x) * self.scale, (y - self.box.y) * self.scale_y


class MovedSinceSeen(WebbotError):
    """The game moved on the page after the picture a point was found in was cut from the
    window: the point may not be where it was seen. Nothing was done; look again."""


def _moved(before: dict, now: Box) -> bool:
    return max(abs(now.x - before["x"]), abs(now.y - before["y"]),
               abs(now.width - before["width"]), abs(now.height - before["height"])) > MOVED_PX


class Camera:
    """Pictures of a box of the page, through Chromium's own screenshot call.

    Playwright's page.screenshot captures "beyond the viewport" whenever the page is larger
    than the window, and any capture at device resolution (DPR 2, say) leaves Chromium routing
    mouse input into out-of-process (cross-site) frames at the wrong place: a click at page
    (410, 340) reached the game at (205, 170). So the capture is made here, inside the
    viewport, and at device resolution only on a page without frames: on any page with a
    frame (a portal, an ad) the picture is in CSS pixels; vision reads any scale. Without a
    CDP session (not Chromium) Playwright's call is used.
    """

    def __init__(self, page: Page, *, fast: bool = False) -> None:
        self.page = page
        # fast: Chromium's quicker PNG encoding (for decision loops); the same pixels.
        self.fast = fast
        self._cdp: CDPSession | None = None
        self._ratio: float | None = None  # the browser's device pixel ratio, asked once
        self._portable = False  # no CDP here: Playwright's call

    def _scale(self) -> float:
        if len(self.page.frames) > 1:
            return 1.0
        if self._ratio is None:
            self._ratio = device_scale(self.page, self._cdp)
        return self._ratio

    def shoot(self, box: dict) -> bytes:
        """A PNG of `box` (CSS pixels, in the viewport)."""
        return self.shot(box, self.clip(box))

    def shot(self, box: dict, clip: dict | None) -> bytes:
        """A PNG of `box` through its `clip` (Camera.clip, which waited for any capture under
        way on the page)."""
        if clip is None:
            return self.page.screenshot(clip=box, animations="allow", caret="hide",
                                        scale="device" if self._scale() != 1 else "css",
                                        timeout=DEVTOOLS_TIMEOUT_MS)
        try:
            shot = self._cdp.send("Page.captureScreenshot", self._asked(clip),  # type: ignore[union-attr]
                                  timeout=DEVTOOLS_TIMEOUT_MS)
        except PlaywrightTimeout:
            raise self.not_given() from None
        return base64.b64decode(shot["data"])

    def clip(self, box: dict) -> dict | None:
        """Chromium's clip for a picture of `box` (CSS pixels, in the viewport), or None where
        Playwright's own call takes it (no CDP here, or a box not inside the viewport)."""
        answer.captures_settled(self.page, DEVTOOLS_TIMEOUT_MS / 1000)  # (its emulation)
        if self._cdp is None and not self._portable:
            try:
                self._cdp = answer.cdp_session(self.page)
            except Error:
                self._portable = True
        scale = self._scale()
        view_size = self.page.viewport_size
        outside = view_size is not None and not Box.of(box).within(
            view_size["width"], view_size["height"], slack=0.5)
        if view_size is not None:
            _refuse_beyond_window(box, view_size["width"], view_size["height"], scale,
                                  self.page.url)
        if self._cdp is None or outside:
            return None
        try:
            view = self._cdp.send("Page.getLayoutMetrics",
                                  timeout=DEVTOOLS_TIMEOUT_MS)["cssVisualViewport"]
        except PlaywrightTimeout:
            raise self.not_given() from None
        _refuse_beyond_window(box, view["clientWidth"], view["clientHeight"], scale,
                              self.page.url)
        return {"x": box["x"] + view["pageX"], "y": box["y"] + view["pageY"],
                "width": box["width"], "height": box["height"],
                "scale": scale * view.get("zoom", 1)}

    def _asked(self, clip: dict) -> dict:
        return {"format": "png", "clip": clip, "captureBeyondViewport": False,
                "optimizeForSpeed": self.fast}

    def shot_and_next(self, clip: dict) -> tuple[bytes, asyncio.Task]:
        """A PNG of `clip` (Camera.clip) now, and the next one asked as soon as Chromium has
        taken it, not waited for (its task's answer: Chromium's, and when it was asked,
        time.monotonic())."""
        assert self._cdp is not None
        try:
            shot, later = answer.sent_twice(self._cdp, "Page.captureScreenshot",
                                            self._asked(clip), DEVTOOLS_TIMEOUT_MS / 1000)
        except (PlaywrightTimeout, answer.NoAnswer):
            raise self.not_given() from None
        answer.capture_under_way(self.page, later)
        return base64.b64decode(shot["data"]), later

    def not_given(self) -> WebbotError:
        return WebbotError(f"no picture of the game from {shown(self.page.url)} within "
                           f"{DEVTOOLS_TIMEOUT_MS / 1000:g} s")


# The scale of a picture: a page can redefine its own devicePixelRatio (a huge one would make
# captures large enough to bring the browser down), so it is read in a script world of the
# bot's own, which the page's scripts cannot reach. (DevTools' layout metrics cannot tell it:
# under the context's emulated scale, they report the same CSS sizes in both viewports.)
SCALE_WORLD = "webbot-scale"


def device_scale(page: Page, cdp: CDPSession | None = None) -> float:
    """The browser's device pixels per CSS pixel on `page`, whatever the page's own scripts
    say (1 where it cannot be asked: not Chromium)."""
    try:
        session = cdp or answer.cdp_session(page)
        frame_id = session.send("Page.getFrameTree",
                                timeout=DEVTOOLS_TIMEOUT_MS)["frameTree"]["frame"]["id"]
        world = session.send("Page.createIsolatedWorld",
                             {"frameId": frame_id, "worldName": SCALE_WORLD},
                             timeout=DEVTOOLS_TIMEOUT_MS)["executionContextId"]
        said = session.send("Runtime.evaluate",
                            {"expression": "devicePixelRatio", "contextId": world,
                             "returnByValue": True}, timeout=DEVTOOLS_TIMEOUT_MS)
        if session is not cdp:
            answer.detach(session)
    except Error:
        return 1.0
    ratio = said.get("result", {}).get("value")
    if not isinstance(ratio, (int, float)) or not 0 < ratio < math.inf:
        return 1.0
    return float(ratio)


def _refuse_beyond_window(box: dict, width: float, height: float, scale: float,
                          url: str) -> None:
    """A picture is of a part of the window: a box larger than the window (CSS pixels; a page
    that made its element huge) is refused, not captured."""
    if Box.of(box).larger_than(width, height):
        raise WebbotError(
            f"a picture of {box['width']:.0f}x{box['height']:.0f} on {shown(url)} is larger "
            "than the "
            f"{width:.0f}x{height:.0f} window: refused (at scale {scale:g} it would be "
            f"{box['width'] * scale:.0f}x{box['height'] * scale:.0f} px)")


# Frames received after an input's call returned, past which the input shows whatever the
# clocks say (webbot.stream.on_browser_clock): at most 3 begun before its ack are shown after
# it and 2 more may be on their way unacknowledged, then SHOWN_AFTER_INPUT.
RECEIVED_AFTER_INPUT = 3 + 2 + SHOWN_AFTER_INPUT
# A look waits this long for a frame shown after the last picture (frames come every frame or
# two while the page moves, none while it holds still); then the newest stands for the page
# once the page has drawn frames since and none of them came in HELD_WAIT_S (longer than a
# frame takes to reach the bot after it was shown).
STREAM_WAIT_S = 0.1
HELD_WAIT_S = 0.2
BOX_FRESH_S = 0.5
MOVED_PX = 0.5  # (boxes come in fractions of a CSS pixel)


AHEAD_KEPT_S = 1.0  # a picture taken longer ago than this is not looked at as a new one


@dataclass
class _Ahead:
    """A picture asked right after another was taken, not waited for."""

    task: asyncio.Task  # (its answer: the PNG and when it was asked)
    asked_at: float  # (with the one before it)
    box: dict  # the game's box as measured for the picture before it
    after: bytes  # the picture before it


class _NoRecorder:
    def saw(self, grab: Grab) -> None:
        pass

    def keep(self, grab: Grab, label: str) -> None:
        pass


class Screen:
    """One element of a page (a game's canvas, say) that the bot grabs and waits on.

    `recorder` (see webbot.debug) is told of every frame taken, and of the frames handed back
    to the caller, so a failed run can show what the bot saw last. `stream`: pictures pushed
    by Chromium as it draws them (webbot.stream), for look(); grabs and waits pull theirs.
    `acted_at` tells when the page last took an input (the Mouse's): a look shows nothing
    drawn before it. `before_capture` is called before each picture to clear what has come
    over the game (webbot.way.Way.watch); given 0, it looks at once rather than at its pace;
    `beside=True` (a look on the screencast), it asks the page without waiting for the answer.
    """

    def __init__(self, page: Page, selector: str, recorder=None, timeout_s: float = 10,
                 *, fast: bool = False, element: ElementHandle | None = None,
                 stream: FrameStream | None = None,
                 acted_at: Callable[[], float] = lambda: -math.inf,
                 before_capture: Callable[..., None] = lambda *every_s, **beside: None,
                 seen: Grab | None = None) -> None:
        self.page = page
        self.stream = stream
        self.acted_at = acted_at
        self._seen_at = -math.inf  # when the last streamed picture looked at was shown
        self._input_at = -math.inf  # the last input a look waited out
        self._input_from: float | None = None  # its moment (browser's clock) until it shows
        self._input_received = 0  # the stream's frames received when the input was seen
        self._box: dict | None = None  # the game's box, as last measured for the stream
        self._box_at = -math.inf
        self._box_asked: asyncio.Task | None = None  # a measure asked without waiting
        self._measure_now = False  # the game was seen to move: measured at the next look
        self._ahead: _Ahead | None = None  # the next pulled picture, asked without waiting
        self._seen = seen  # a picture of the game taken just before (as it was recognised)
        # A game found by webbot.finder comes as its element (in any frame): measuring a handle
        # is much cheaper than re-finding a selector's element across frames.
        self.element = element
        self.camera = Camera(page, fast=fast)
        self.selector = selector
        self.locator = page.locator(selector).first
        self.recorder = recorder or _NoRecorder()
        self.timeout_s = timeout_s
        self._first = True
        self.before_capture = before_capture

    def _capture(self, early: bool = False, then: bool = False) -> Grab:
        if self.stream is not None and self.stream.running:
            streamed = self._streamed(early)
            if streamed is not None:
                self._seen = None  # (a picture older than this one)
                self.recorder.saw(streamed)
                return streamed
            then = False  # (a second capture leaves the stream's next frames blank)
        ahead = self._seen_taken() or self._ahead_taken()
        if ahead is not None:
            self.recorder.saw(ahead)
            return ahead
        # A page screenshot clipped to the element's box: the same pixels as an element
        # screenshot at about half the cost (no actionability checks).
        self.before_capture()
        asked = time.monotonic()
        try:
            box = self._measure() if self.element is not None else self._measure_selector()
            clip = self.camera.clip(box)
            next_one = None
            if then and clip is not None:
                asked_next = time.monotonic()
                png, later = self.camera.shot_and_next(clip)
                next_one = _Ahead(later, asked_next, box, png)
            else:
                png = self.camera.shot(box, clip)
        except Error as exc:
            if "Timeout" in str(exc):
                raise WebbotError(f"no visible '{self.selector}' on "
                                  f"{shown(self.page.url)}") from None
            raise
        self._ahead = next_one
        image = decode_page_picture(png, f"a screenshot of {shown(self.page.url)}")
        grab = Grab(image, Box.of(box), arrived_at=asked,
                    anchor=self.current_box if self.element is not None else None)
        self.recorder.saw(grab)
        return grab

    def _seen_taken(self) -> Grab | None:
        """The picture the game was recognised by, as the first look, when it is one to look
        at: taken before any input and not long ago, of the game where it still is."""
        seen, self._seen = self._seen, None
        if seen is None or self.acted_at() >= seen.taken_at or \
                time.monotonic() - seen.taken_at > AHEAD_KEPT_S:
            return None
        if _moved(dataclasses.asdict(seen.box), self.current_box()):
            return None
        return dataclasses.replace(seen, anchor=self.current_box if self.element is not None
                                   else None)

    def _ahead_taken(self) -> Grab | None:
        """The picture asked ahead, when it is one to look at: asked since the page's last
        input, taken not long ago, of the game where it still is, and not the same frame as
        the picture before it (its pixels again: a page holding still, or a frame shown twice,
        which would be no second look); None otherwise (a picture is taken now)."""
        ahead, self._ahead = self._ahead, None
        if ahead is None:
            return None
        try:  # (even one not looked at: no capture while it is under way)
            shot, sent = answer.awaited(self.page, ahead.task)
            png = base64.b64decode(shot["data"])
        except (TimeoutError, PlaywrightTimeout):
            raise self.camera.not_given() from None
        except (Error, asyncio.CancelledError):
            return None  # (the picture taken now says what is wrong, if anything is)
        if self.acted_at() >= ahead.asked_at or png == ahead.after or \
                time.monotonic() - sent > AHEAD_KEPT_S:
            return None
        now = self.current_box()
        if _moved(ahead.box, now):
            return None
        image = decode_page_picture(png, f"a screenshot of {shown(self.page.url)}")
        return Grab(image, now, arrived_at=sent,
                    anchor=self.current_box if self.element is not None else None)

    def _measure_selector(self) -> dict:
        if self._first:
            self.locator.scroll_into_view_if_needed(timeout=self.timeout_s * 1000)
            self._first = False
        box = self.locator.bounding_box(timeout=self.timeout_s * 1000)
        if box is None or box["width"] <= 0 or box["height"] <= 0:
            raise WebbotError(f"'{self.selector}' on {shown(self.page.url)} is not displayed")
        return box

    def _element_box(self) -> dict:
        assert self.element is not None
        try:
            box = answer.box(self.element)
        except Error:
            box = None
        if box is None or box["width"] <= 0 or box["height"] <= 0:
            raise WebbotError(f"the game ({self.selector}) is no longer displayed on "
                              f"{shown(self.page.url)}")
        return box

    def _measure(self) -> dict:
        """The game's box, scrolled fully into the window first when it is not."""
        box = self._element_box()
        view = self.page.viewport_size
        if view is None:
            return box
        if box["width"] > view["width"] + 0.5 or box["height"] > view["height"] + 0.5:
            raise WebbotError(
                f"the game ({box['width']:.0f}x{box['height']:.0f}) does not fit the "
                f"{view['width']}x{view['height']} window; give --viewport "
                f"{math.ceil(box['width']) + 40}x{math.ceil(box['height']) + 40} or larger")
        if not self._whole_in_window(box):
            answer.scroll_into_view(self.element, self.timeout_s)
            box = self._element_box()
        return box

    def current_box(self) -> Box:
        """Where the game element is on the page now (scrolled back into the window first if
        something pushed it out, so that a point mapped through it can be clicked)."""
        box = self._measure() if self.element is not None else self._measure_selector()
        return Box.of(box)

    def look(self, early: bool = False) -> Grab:
        """A frame for a decision loop: remembered as the last seen, not saved each time.
        `early`: on the screencast, the next frame even while the last input cannot show in
        it yet (marked Grab.before_input), rather than waiting for the first one that can."""
        return self._capture(early)

    def _streamed(self, early: bool = False) -> Grab | None:
        """The newest frame shown after the last picture; after an input, the first one
        shown SHOWN_AFTER_INPUT frames after it (the input's first effect, even to a late
        look), or with `early` each frame until then, marked as shown before the input could
        show. After a move of the game on the page, the first one shown after the game's
        page has begun FRAMES_AFTER_INPUT animation frames since (webbot.stream.frames_begun):
        frames shown before cannot be cut by the new box. When none comes, the newest, if the
        page holds still (_held). None when no frame can show the game (none came, a
        pinch-zoomed page, the game out of the window): only then is a picture pulled, as a
        clipped capture leaves the stream's next frames blank."""
        assert self.stream is not None
        self.before_capture(beside=True)
        box, moved = self._cached_box()
        acted = self.acted_at()
        target = self.element if self.element is not None else self.locator
        before_input = False
        if moved:
            self._input_at, self._input_from = max(self._input_at, acted), None
            self._seen_at = max(self._seen_at, frames_begun(target))
            frame = self._next(target, first=True)
        else:
            if acted > self._input_at:
                self._input_at = acted
                # (the input's ack came before its call returned: frames counted from later)
                self._input_from = self.stream.on_browser_clock(acted)
                self._input_received = self.stream.frames
            frame, before_input = self._after_input(target, early)
        if frame is None:
            return None
        window = self.page.viewport_size
        image = crop(frame, box, window["width"] if window else None)
        if image is None:
            return None
        self._seen_at = max(self._seen_at, frame.shown_at)
        return Grab(image, Box.of(box), taken_at=frame.drawn_at, arrived_at=frame.received_at,
                    anchor=lambda: self._box_as_cut(box), streamed=True,
                    before_input=before_input, source=frame.data)

    def _after_input(self, target: ElementHandle | Locator, early: bool
                     ) -> tuple[StreamFrame | None, bool]:
        """The next frame, and whether it was shown before the last input could show."""
        assert self.stream is not None
        while self._input_from is not None:
            shows = self.stream.nth_shown_after(self._input_from, SHOWN_AFTER_INPUT)
            if shows is not None:  # the input shows from that frame on
                self._input_from = None
                first = self.stream.shown_at(shows) if shows > self._seen_at else None
                return first or self._next(target), False
            if self.stream.frames - self._input_received >= RECEIVED_AFTER_INPUT:
                self._input_from = None  # (the clocks disagree: frames counted as they came)
                return self._next(target), False
            newest = self.stream.newest
            if early and newest is not None and newest.shown_at > self._seen_at:
                return newest, True
            since = newest.shown_at if newest is not None else -math.inf
            if self.stream.frame_after(since, HELD_WAIT_S) is None:  # the page holds still
                self._input_from = None
                mark = frames_begun(target)  # (begun since the input: what it shows, shows it)
                return self.stream.frame_after(mark, STREAM_WAIT_S, first=True) \
                    or self.stream.held(mark), False
        return self._next(target), False

    def _next(self, target: ElementHandle | Locator, *, first: bool = False
              ) -> StreamFrame | None:
        """The newest frame shown after the last picture (`first`: the earliest), waiting
        STREAM_WAIT_S for one; else the page's picture if it holds still."""
        assert self.stream is not None
        return self.stream.frame_after(self._seen_at, STREAM_WAIT_S, first=first) \
            or self._held(target, first=first)

    def _held(self, target: ElementHandle | Locator, *, first: bool = False
              ) -> StreamFrame | None:
        """The newest frame, taken as the page's picture once the page has begun
        FRAMES_AFTER_INPUT animation frames and no frame shown since came in HELD_WAIT_S: it
        is dated then. (A frame repeated only because a browser too busy to draw sent no new
        one must not pass for a still page: numbers still counting up would look final.) A
        frame that does come is the answer."""
        assert self.stream is not None
        mark = frames_begun(target)
        return self.stream.frame_after(self._seen_at, HELD_WAIT_S, first=first) \
            or self.stream.held(mark)

    def _box_as_cut(self, cut: dict) -> Box:
        """Where the game is now, for a point found in a streamed picture cut at `cut` (a box
        measured up to BOX_FRESH_S before): MovedSinceSeen when it has moved since."""
        now = self.current_box()
        if _moved(cut, now):
            self._box_at = -math.inf  # measured again, here, for the next look
            self._measure_now = True
            raise MovedSinceSeen(f"the game moved on {shown(self.page.url)} after it was seen")
        return now

    def _cached_box(self) -> tuple[dict, bool]:
        """The game's box, measured again every BOX_FRESH_S, and whether it moved since the
        last measure: frames shown before the move reached the screen cannot be cut by it. A
        measure waits on the page's renderer, busy drawing while the screencast runs: for a
        game found as its element, it is asked without waiting and its answer taken at a later
        look (measured here, where it may scroll the game back into the window, when the
        answer does not show the game whole in the window)."""
        now = time.monotonic()
        if self._box is not None and now - self._box_at <= BOX_FRESH_S:
            return self._box, False
        if self._box is not None and self.element is not None and not self._measure_now:
            asked = self._box_asked
            if asked is None:
                self._box_asked = answer.background(self.element, answer.box_soon(self.element))
                return self._box, False
            if not asked.done():
                return self._box, False
            self._box_asked = None
            box = None if asked.cancelled() or asked.exception() else asked.result()
            if box is not None and self._whole_in_window(box):
                moved = _moved(self._box, Box.of(box))
                self._box, self._box_at = box, now
                return box, moved
        box = self._measure() if self.element is not None else self._measure_selector()
        moved = self._box is not None and _moved(self._box, Box.of(box))
        self._box, self._box_at, self._measure_now = box, now, False
        self._box_asked = None  # (an answer asked before this measure would be older)
        return box, moved

    def _whole_in_window(self, box: dict) -> bool:
        """The box shown whole in the window (half a pixel of slack: boxes come in fractions
        of a CSS pixel)."""
        view = self.page.viewport_size
        return box["width"] > 0 and box["height"] > 0 and (view is None or (
            box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= view["width"] + 0.5
            and box["y"] + box["height"] <= view["height"] + 0.5))

    def grab(self, label: str = "frame", *, then: bool = False) -> Grab:
        """A picture of the game, kept as `label`. `then`: the next one is asked as soon as
        Chromium has taken this one, not waited for: the screen's next pulled picture is that
        one if nothing came between (Screen._ahead_taken)."""
        grab = self._capture(then=then)
        self.recorder.keep(grab, label)
        return grab

    def grab_uncovered(self, label: str = "frame") -> Grab:
        """A grab after a fresh look for anything come over the game: for when the game
        does not show what it should, and a popup that came a moment ago may be why."""
        self.before_capture(0)
        self._ahead = self._seen = None  # (a look after the way was cleared)
        return self.grab(label)

    def wait_until(
        self,
        condition: Callable[[Grab], bool],
        *,
        what: str = "the expected change",
        timeout_s: float | None = None,
        poll_s: float = 0.05,
        label: str | Callable[[Grab], str] = "frame",
        then: bool = False,
    ) -> Grab:
        """Grab frames until `condition(frame)` holds; WaitTimeout if it never does. The frame
        is kept under `label` (or the name `label` gives it). `then`: as grab's, each picture
        taken asks the next."""
        deadline = Deadline(timeout_s or self.timeout_s)
        while True:
            grab = self._capture(then=then)
            if condition(grab):
                self.recorder.keep(grab, label(grab) if callable(label) else label)
                return grab
            if deadline.passed():
                raise WaitTimeout(
                    f"{what} did not appear within {timeout_s or self.timeout_s:g} s", grab
                )
            if poll_s:  # a grab waits for the page's next frame anyway
                self.page.wait_for_timeout(poll_s * 1000)

    def wait_until_still(
        self,
        *,
        timeout_s: float | None = None,
        poll_s: float = 0.05,
        threshold: int = 8,
        max_changed: float = 0.0,
        label: str = "still",
    ) -> Grab:
        """Grab frames until two consecutive ones agree.

        Two frames agree when at most `max_changed` of their pixels moved by more than
        `threshold`; a game with a small ambient animation can allow some change.
        """
        limit = timeout_s or self.timeout_s
        deadline = Deadline(limit)
        previous = self._capture()
        while True:
            self.page.wait_for_timeout(poll_s * 1000)
            grab = self._capture()
            if alike(previous.image, grab.image, threshold, max_changed):
                self.recorder.keep(grab, label)
                return grab
            if deadline.passed():
                change = changed_fraction(previous.image, grab.image, threshold)
                raise WaitTimeout(
                    f"'{self.selector}' was still changing after {limit:g} s "
                    f"({change:.1%} of its pixels changed between the last two frames)",
                    grab,
                )
            previous = grab
