"""Chromium's own frames of a page, pushed as it draws them: the DevTools screencast.

Chromium sends a frame of the whole window each time the page's picture changes (none while it
holds still), two at most unacknowledged, each with the time it was put on screen. A pulled
picture (Page.captureScreenshot) is slow and the page waits for it; a pushed one costs only
its decoding. The frames are in CSS pixels whatever the device pixel ratio, and show
cross-site frames as the window does.

The sync Playwright API hands events over only while a call of it runs: `frame_after` waits
inside one call, which the next frame's arrival ends.
"""

from __future__ import annotations

import asyncio
import base64
import bisect
import math
import time
from dataclasses import dataclass, field, replace

import numpy as np
from playwright.sync_api import CDPSession, ElementHandle, Error, Locator, Page

from webbot.answer import NoAnswer, cdp_session, detach, evaluate
from webbot.errors import WebbotError
from webbot.events import in_background, wait_for_wake, wake_future
from webbot.inputs import decode_page_picture
from webbot.page_scripts import page_script
from webbot.playwright_inside import own

FORMATS = ("png", "jpeg")
# A JPEG frame's quality. At 75 a frame is about a third smaller than at 90: less for the
# browser to encode, for Playwright's driver to pass on and for the bot to decode, on cores
# that Chromium's own drawing mostly fills; Burrito Bison's bot decides on more of the frames
# the game draws (scripts/bench_burrito_bison.py plays at both). What it reads is checked
# through JPEG 70, wherever JPEG's blocks fall (tests/burrito_bison).
JPEG_QUALITY = 75
MAX_SIDE = 8192  # px
# Playwright's DevTools calls wait for ever by default, and one made as the page navigates away
# (its server stopped, the page reloaded onto an error page) may never be answered: this
# bounds each call, far above a picture's normal cost.
DEVTOOLS_TIMEOUT_MS = 15_000
# Frames kept, the newest last: an input's first effect is looked for among them (frame_after's
# `first`): those shown in the last KEPT_S, KEPT_FRAMES at most (a second at 60 a second; a
# busy machine sends fewer). Only the newest keeps its decoded picture.
KEPT_S = 1.0
KEPT_FRAMES = 60
# The times the latest frames were shown, kept longer than the frames themselves: an input's
# effect is the SHOWN_AFTER_INPUT-th frame shown after it (nth_shown_after).
SHOWN_KEPT = 600


@dataclass(frozen=True)
class StreamFrame:
    """One frame of the window, as Chromium sent it."""

    # base64 PNG or JPEG; the same object as the frame's before when Chromium sent the same
    # bytes again at the same offset (a screen holding still)
    data: str
    shown_at: float  # when it was put on screen: the browser's wall clock (Date.now()), s
    drawn_at: float  # the same moment on this process's time.monotonic() clock
    received_at: float  # when it reached this process (time.monotonic())
    offset_top: float  # CSS pixels above the page's top in the picture
    page_scale: float  # pinch zoom: 1 unless the page is zoomed in
    _image: list = field(default_factory=list, repr=False, compare=False)

    def image(self) -> np.ndarray | None:
        """The frame decoded to BGR (once); None when it cannot be (through webbot.inputs'
        gate, as every picture: a frame too large is not used, a picture is pulled instead)."""
        if not self._image:
            try:
                image = decode_page_picture(base64.b64decode(self.data), "a screencast frame")
            except (WebbotError, ValueError):  # (ValueError: not base64)
                image = None
            self._image.append(image)
        return self._image[0]


class FrameStream:
    """The screencast of a page: the last KEPT_FRAMES frames kept in the order they were
    shown, waited on by the time they were shown."""

    def __init__(self, page: Page, image_format: str = "png",
                 quality: int = JPEG_QUALITY) -> None:
        if image_format not in FORMATS:
            raise ValueError(f"a screencast sends {' or '.join(FORMATS)}, not {image_format}")
        self.page = page
        self.image_format = image_format
        self.quality = quality
        self.kept: list[StreamFrame] = []  # in the order they were shown
        self.frames = 0  # received since start
        self._cdp: CDPSession | None = None
        self._shift = 0.0  # the browser's wall clock minus this process's monotonic clock
        self._arrived: asyncio.Future | None = None  # a frame came (see _wait_for_one)
        self.shown: list[float] = []  # when the latest SHOWN_KEPT frames were shown, in order
        self._forgotten = -math.inf  # when the newest frame no longer in `shown` was shown
        self._delivered = -math.inf  # the most a frame's shown time exceeded its arrival's

    @property
    def newest(self) -> StreamFrame | None:
        return self.kept[-1] if self.kept else None

    @property
    def running(self) -> bool:
        return self._cdp is not None

    def start(self) -> bool:
        """Starts the screencast; False where there is none (not Chromium, or no DevTools
        session to be had: the caller takes pulled pictures)."""
        try:
            cdp = cdp_session(self.page)
            before = time.monotonic()
            wall = cdp.send("Runtime.evaluate", {"expression": "Date.now()",
                                                 "returnByValue": True},
                            timeout=DEVTOOLS_TIMEOUT_MS)["result"]["value"]
            after = time.monotonic()
            cdp.on("Page.screencastFrame", self._on_frame)
            # Unbounded, frames come no larger than the window (CSS pixels); the default bound
            # is the emulated screen's size, which shrinks the frames of a larger window.
            settings = {"format": self.image_format, "everyNthFrame": 1,
                        "maxWidth": MAX_SIDE, "maxHeight": MAX_SIDE}
            if self.image_format == "jpeg":
                settings["quality"] = self.quality
            cdp.send("Page.startScreencast", settings, timeout=DEVTOOLS_TIMEOUT_MS)
        except Error:
            return False
        # Frames carry the browser's wall-clock time of their swap; Date.now() reads the same
        # clock, here once, between two readings of ours (the page's own Date.now(), which its
        # scripts may have made answer anything: on_browser_clock does not rest on it alone).
        self._shift = wall / 1000 - (before + after) / 2 if isinstance(wall, (int, float)) \
            and math.isfinite(wall) else 0.0
        self._cdp = cdp
        return True

    def stop(self) -> None:
        cdp, self._cdp = self._cdp, None
        if cdp is None:
            return
        try:
            cdp.send("Page.stopScreencast", timeout=DEVTOOLS_TIMEOUT_MS)
            detach(cdp)
        except (Error, NoAnswer):
            pass  # the page is gone, and its screencast with it

    def frame_after(self, moment: float, wait_s: float, *, first: bool = False
                    ) -> StreamFrame | None:
        """The newest frame shown after `moment` (the browser's wall clock, s), or with
        `first` the earliest one kept, waiting up to `wait_s` for one; None if none came.

        The earliest is an input's first effect: a look that came late (its mark's answer
        slow on a busy machine) still sees it, where the newest may show the effect over.
        (Else a short-lived effect, such as a rocket slam, can be missed entirely.)"""
        deadline = time.monotonic() + wait_s
        while True:
            frame = self.newest
            if frame is not None and frame.shown_at > moment:
                if first:
                    return self.kept[bisect.bisect_right(self.kept, moment,
                                                         key=lambda kept: kept.shown_at)]
                return frame
            if self._cdp is None or time.monotonic() >= deadline:
                return None
            try:
                self._wait_for_one(deadline - time.monotonic())
            except Error:
                return None

    def on_browser_clock(self, moment: float) -> float:
        """`moment` (this process's time.monotonic()) on the browser's wall clock, as the
        frames are dated (s), never earlier than the frames themselves allow: a frame was shown
        before it reached this process, so the clocks differ by at least its shown time less
        its arrival (the page's Date.now(), read once at start, may say less)."""
        return moment + max(self._shift, self._delivered)

    def nth_shown_after(self, moment: float, count: int) -> float | None:
        """When the `count`-th frame shown after `moment` (the browser's wall clock, s) was
        shown; None while fewer have come. (A frame the screencast did not send is not
        counted: the answer is then a later frame, never an earlier one.)"""
        if self._forgotten > moment:  # more than SHOWN_KEPT frames since
            return self.shown[0]
        at = bisect.bisect_right(self.shown, moment) + count - 1
        return self.shown[at] if at < len(self.shown) else None

    def shown_at(self, moment: float) -> StreamFrame | None:
        """The kept frame shown at `moment`, if it is still kept."""
        at = bisect.bisect_left(self.kept, moment, key=lambda kept: kept.shown_at)
        return self.kept[at] if at < len(self.kept) and self.kept[at].shown_at == moment \
            else None

    def held(self, moment: float) -> StreamFrame | None:
        """The newest frame, dated `moment` (the browser's wall clock, s): the caller knows
        the page still showed it then."""
        if self.newest is None:
            return None
        return replace(self.newest, drawn_at=moment - self._shift)

    def _wait_for_one(self, seconds: float) -> None:
        """Lets Playwright hand events over until a frame comes or `seconds` pass, in one call
        that the frame's handler ends (webbot.events)."""
        self._arrived = wake_future(self.page)
        wait_for_wake(self.page, self._arrived, seconds)
        self._arrived = None

    def _on_frame(self, event: dict) -> None:
        received = time.monotonic()
        cdp = self._cdp
        meta = event["metadata"]
        stamp = meta.get("timestamp")
        shown_at = stamp if stamp is not None else time.monotonic() + self._shift
        # Frames may come out of order; in the order of their swap times
        # what they show never goes back, so they are kept in that order.
        # A screen holding still comes as the same bytes frame after frame: such a frame
        # shares the one before's data and decoded picture (StreamFrame.data: a reader may
        # take one reading for both).
        newest = self.newest
        data = event["data"]
        same = newest is not None and newest.data == data and \
            (newest.offset_top, newest.page_scale) == (meta["offsetTop"], meta["pageScaleFactor"])
        frame = StreamFrame(newest.data if same else data, shown_at, shown_at - self._shift,
                            received, meta["offsetTop"], meta["pageScaleFactor"],
                            list(newest._image) if same else [])
        bisect.insort(self.kept, frame, key=lambda kept: kept.shown_at)
        bisect.insort(self.shown, shown_at)
        if len(self.shown) > SHOWN_KEPT:
            self._forgotten = self.shown[-SHOWN_KEPT - 1]
            del self.shown[:-SHOWN_KEPT]
        gone = bisect.bisect_left(self.kept, self.kept[-1].shown_at - KEPT_S,
                                  key=lambda kept: kept.shown_at)
        del self.kept[:max(gone, len(self.kept) - KEPT_FRAMES)]
        for older in self.kept[:-1]:  # (a look's Grab holds its own cut of its picture)
            older._image.clear()
        self.frames += 1
        self._delivered = max(self._delivered, shown_at - received)
        if self._arrived is not None and not self._arrived.done():
            self._arrived.set_result(None)
        if cdp is not None:
            self._acknowledge(cdp, event["sessionId"])

    def _acknowledge(self, cdp: CDPSession, session_id: int) -> None:
        """Tells Chromium the frame came: it sends the next one then. Sent and not waited
        for (webbot.playwright_inside says why)."""
        # (an answer that fails, a page closed meanwhile, is nobody's business)
        in_background(self.page, own(cdp).send("Page.screencastFrameAck",
                                               {"sessionId": session_id}, None))


# Chromium's pipeline is three animation frames deep (a frame's main-thread work, its commit
# and raster, its draw), even on a busy machine: a frame shown after the start of the page's
# third animation frame after an input's ack shows the input. One frame more for margin.
FRAMES_AFTER_INPUT = 4
# Counted in frames shown instead: at most three frames begun before an input's ack are shown
# after it, so the fourth shown after it was begun after it; one more for margin (a game that
# steps its world at a fixed rate may skip a step on a short frame).
SHOWN_AFTER_INPUT = FRAMES_AFTER_INPUT + 1
# How far the page's clock may stand from this process's (the same machine's) and be believed.
CLOCK_SLACK_S = 0.05


def frames_begun(target: ElementHandle | Locator, count: int = FRAMES_AFTER_INPUT) -> float:
    """The browser's wall-clock time (s) when the page of `target` (its frame: a cross-site
    one draws on its own) starts its `count`-th animation frame from now: any frame shown
    after it shows what an input acknowledged before this call did. Now, if the frame is gone."""
    asked = time.time()
    try:
        began = evaluate(target, page_script("frames_begun"), count)
    except Error:
        return time.time()
    answered = time.time()
    # The page's own Date.now(), which its scripts may have made answer anything: a time
    # outside the call's own is not believed, and the call's end is taken instead (the frame
    # began before the page answered, so a frame shown after that shows the input too). A
    # page whose clock said 0 had a look take the oldest frame kept (CI, under load).
    if isinstance(began, bool) or not isinstance(began, (int, float)) or not math.isfinite(began) \
            or not asked - CLOCK_SLACK_S <= began / 1000 <= answered + CLOCK_SLACK_S:
        return answered
    return began / 1000


def crop(frame: StreamFrame, box: dict, window_width: float | None) -> np.ndarray | None:
    """The part of the frame under `box` (CSS pixels, in a window `window_width` CSS pixels
    wide; None: as wide as the frame); None when the frame cannot show it as it is (a zoomed
    page, a box out of the window, a frame of another size than the window's, a frame that
    does not decode). (The frame's own deviceWidth is the emulated screen's, not the
    window's.)"""
    image = frame.image()
    # Frames come in CSS pixels, one per pixel of the window; any other (a frame shrunk to
    # the emulated screen's size, as on a window larger than the screen) is not used.
    if image is None or frame.page_scale != 1 or (
            window_width is not None and image.shape[1] != round(window_width)):
        return None
    left, top = box["x"], box["y"] + frame.offset_top
    right, bottom = left + box["width"], top + box["height"]
    x0, y0, x1, y1 = (math.floor(left + 0.5), math.floor(top + 0.5),
                      math.floor(right + 0.5), math.floor(bottom + 0.5))
    if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0] or x1 <= x0 or y1 <= y0:
        return None
    return image[y0:y1, x0:x1]
