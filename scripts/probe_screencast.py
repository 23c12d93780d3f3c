#!/usr/bin/env python3
"""What Chromium's screencast (DevTools Page.startScreencast) gives a bot, measured: the facts
issue 32's camera must be built on. Not a benchmark of the bot.

Two pages, headless, the bundled Chromium: the Burrito Bison replica's title screen (it moves
all the time) and a test page whose canvas draws one black square per press, a dot drifting
along its top edge so that the page never holds still. Printed:

- frames a second, how long after it was shown a frame reaches Python (its swap time, from the
  frame's metadata, against Date.now() read once between two readings of ours), decoding and
  a frame's mean size, as PNG and as JPEG at 90 and at the bot's quality;
- against the bot's pulled picture of the same canvas (webbot.screen.Screen.look: a clipped
  Page.captureScreenshot) on the same page;
- after each of N presses, every frame that came in the next 250 ms: the latest swap time
  (after the press's input was acknowledged) of a frame still showing the page before the
  press, the earliest of one showing it after (from when the click began), frames showing
  fewer squares than a frame before them (the page never takes a square away: an older
  picture sent after a newer one), frames whose swap time is earlier than one before, and
  frames in which the canvas is not drawn at all, the most frames of one press shown after its
  ack still showing the page before it; with the screencast alone, and with a
  pulled picture taken after each press as well.

    .venv/bin/python scripts/probe_screencast.py [--presses 30] [--seconds 3] [--save-torn DIR]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import math
import statistics
import time
from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np
from playwright.sync_api import Browser, CDPSession, Error, Page, sync_playwright

from webbot.browser import BrowserOptions, open_browser
from webbot.mouse import Mouse
from webbot.screen import Screen
from webbot.server import FixtureServer
from webbot.stream import JPEG_QUALITY

PRESSES_PAGE = """<!DOCTYPE html><body style="margin:0;background:#fff">
<canvas id="scene" width="400" height="100" style="position:absolute;left:10px;top:10px">
</canvas><script>
  const g = document.getElementById("scene").getContext("2d");
  window.presses = 0;
  function draw(now) {
    g.clearRect(0, 0, 400, 100);
    g.fillStyle = "#000";
    for (let i = 0; i < Math.min(window.presses, 12); i++) g.fillRect(10 + i * 30, 40, 20, 20);
    g.fillStyle = "#00f";
    g.fillRect(Math.floor(now / 10) % 100, 0, 2, 2);
  }
  addEventListener("mousedown", () => { window.presses += 1; draw(performance.now()); });
  (function loop(now) { draw(now || 0); requestAnimationFrame(loop); })();
</script></body>"""


@dataclass
class Frame:
    data: str
    shown_at: float  # our monotonic clock (the swap time, mapped)
    received_at: float
    stamp: float  # the swap time as sent: the browser's wall clock, seconds


class Screencast:
    """The screencast of a page, every frame kept (a probe's, not the bot's)."""

    def __init__(self, page: Page, image_format: str = "png", quality: int = 0) -> None:
        self.frames: list[Frame] = []
        self.cdp: CDPSession = page.context.new_cdp_session(page)
        before = time.monotonic()
        wall = self.cdp.send("Runtime.evaluate", {"expression": "Date.now()",
                                                  "returnByValue": True})["result"]["value"]
        after = time.monotonic()
        self.shift = wall / 1000 - (before + after) / 2
        self.cdp.on("Page.screencastFrame", self._on_frame)
        self.cdp.send("Page.startScreencast", {"format": image_format, "everyNthFrame": 1,
                                               "maxWidth": 8192, "maxHeight": 8192,
                                               **({"quality": quality} if quality else {})})

    def _on_frame(self, event: dict) -> None:
        now = time.monotonic()
        stamp = event["metadata"]["timestamp"]
        self.frames.append(Frame(event["data"], stamp - self.shift, now, stamp))
        with contextlib.suppress(Error):  # (a page closing)
            self.cdp.send("Page.screencastFrameAck", {"sessionId": event["sessionId"]})

    def stop(self) -> None:
        self.cdp.send("Page.stopScreencast")
        self.cdp.detach()


def decode(frame: Frame) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(base64.b64decode(frame.data), np.uint8), cv2.IMREAD_COLOR)


def squares(window: np.ndarray) -> int:
    """The black squares on the presses page's canvas, in a picture of the whole window."""
    row = window[60, 10:410, :].max(axis=1) < 60
    return int(np.count_nonzero(row[1:] & ~row[:-1]))


def p95(values: list[float]) -> float:
    return float(np.percentile(values, 95))


def stream_rows(page: Page, label: str, seconds: float, image_format: str,
                quality: int = 0) -> list[str]:
    cast = Screencast(page, image_format, quality)
    page.wait_for_timeout(300)
    start = len(cast.frames)
    page.wait_for_timeout(seconds * 1000)
    frames = cast.frames[start:]
    cast.stop()
    page.close()
    lags = [(f.received_at - f.shown_at) * 1000 for f in frames]
    started = time.perf_counter()
    for frame in frames[:20]:
        decode(frame)
    decode_ms = (time.perf_counter() - started) * 1000 / min(20, len(frames))
    kb = statistics.mean(len(base64.b64decode(frame.data)) for frame in frames) / 1024
    named = f"{image_format.upper()} {quality}" if quality else image_format.upper()
    return [f"| {label}, screencast ({named}) | "
            f"{len(frames) / seconds:.0f} | {statistics.median(lags):.0f} ms | {p95(lags):.0f} ms "
            f"| {decode_ms:.1f} ms | {kb:.0f} KB |"]


def pulled_row(page: Page, selector: str, label: str, count: int = 30) -> str:
    screen = Screen(page, selector, fast=True)
    screen.look()
    times = []
    for _ in range(count):
        started = time.perf_counter()
        screen.look()
        times.append((time.perf_counter() - started) * 1000)
    page.close()
    return (f"| {label}, the bot's pulled look | {1000 / statistics.median(times):.0f} "
            f"| - | - | (in the look: {statistics.median(times):.0f} ms) | - |")


# The page's wall clock at the start of each of the next four frames it makes (animation
# frames), read right after an input was acknowledged.
MARKS = """() => new Promise(done => { const at = [];
  (function next() { requestAnimationFrame(() => { at.push(Date.now());
                                                   at.length < 4 ? next() : done(at); }); })();
})"""


def press_figures(browser: Browser, presses: int, pulls: bool,
                  save_to: str | None) -> list[str]:
    """Figures of the frames after each press (`pulls`: a pulled picture of the canvas taken
    after each press, as a bot that pulls one after its input would), on a page of its own (a
    screencast started again on a page whose first one stopped sends few frames, all with
    the canvas not drawn: measured)."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_content(PRESSES_PAGE)
    cast = Screencast(page)
    page.wait_for_timeout(300)
    mouse = Mouse(page)
    screen = Screen(page, "#scene")
    old_after, new_after, torn, seen, unordered, regressed, blank = [], [], 0, 0, 0, 0, 0
    old_after_marks: list[list[float]] = [[], [], [], []]
    old_counted = 0  # the most frames of a press shown after its ack and still before it
    last_shown = -math.inf
    for press in range(1, presses + 1):
        if press % 12 == 1 and press > 1:  # a full row: wiped, and its frames let pass
            page.evaluate("window.presses = 0")
            page.wait_for_timeout(300)
        target = (press - 1) % 12 + 1
        before = len(cast.frames)
        clicked = time.monotonic()
        mouse.click(300, 80)
        acked = time.monotonic()
        if pulls:
            screen.grab()
            marks = None
        else:
            marks = page.evaluate(MARKS)
        page.wait_for_timeout(250)
        most = 0
        counted = []  # (shown_at, squares) of this press's frames
        for frame in cast.frames[before:]:
            window = decode(frame)
            count = squares(window)
            seen += 1
            unordered += frame.shown_at < last_shown
            last_shown = max(last_shown, frame.shown_at)
            canvas = window[10:110, 10:410]
            if canvas.min() > 200:  # not even the drifting dot: the canvas not drawn
                blank += 1
            if count < most:
                torn += 1
                if save_to:
                    cv2.imwrite(f"{save_to}/{'pulls-' * pulls}fewer-{press:02d}-{seen}.png",
                                window)
            most = max(most, count)
            counted.append((frame.shown_at, count))
            if count < target:
                old_after.append((frame.shown_at - acked) * 1000)
                for k, mark in enumerate(marks or []):
                    old_after_marks[k].append(frame.stamp * 1000 - mark)
            else:
                new_after.append((frame.shown_at - clicked) * 1000)
        old_counted = max(old_counted, sum(shown > acked and count < target
                                           for shown, count in counted))
        in_time = [count for _, count in sorted(counted)]
        regressed += sum(b < a for a, b in pairwise(in_time))
    cast.stop()
    page.close()
    return [str(seen), f"{max(old_after):.0f} ms" if old_after else "none",
            f"{min(new_after):.0f} ms" if new_after else "none", str(unordered), str(torn),
            str(regressed), str(blank), str(old_counted)] + [
            f"{max(values):.0f} ms" if values else "none" for values in old_after_marks]


PRESS_ROWS = ["frames in the 250 ms after each press", "latest shown still showing the page "
              "before the press, after the press's ack", "earliest shown showing the press, "
              "after the click began", "shown before a frame that came before them",
              "showing fewer squares than a frame that came before them",
              "taken in the order shown: fewer squares than the one before",
              "the canvas not drawn at all",
              "most frames of one press shown after its ack still showing the page before it "
              "(webbot.stream.SHOWN_AFTER_INPUT counts on at most 3)"] + [
    f"latest shown still showing the page before the press, after the start of the page's "
    f"{nth} animation frame after the ack" for nth in ("first", "second", "third", "fourth")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--save-torn", metavar="DIR",
                        help="save the windows of frames with fewer squares than one before")
    args = parser.parse_args()
    lines = ["| pictures of | a second | reach Python after shown (median) | p95 | decode "
             "| a frame (mean) |", "|---|---|---|---|---|---|"]
    with FixtureServer() as server, sync_playwright() as playwright:
        browser = open_browser(playwright, BrowserOptions())
        def title() -> Page:  # a page of its own for each way of taking pictures
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(server.url + "burrito-bison/index.html")
            page.wait_for_selector("canvas")
            return page

        for image_format, quality in (("png", 0), ("jpeg", 90), ("jpeg", JPEG_QUALITY)):
            lines += stream_rows(title(), "Burrito Bison title (1280x800 window)",
                                 args.seconds, image_format, quality)
        lines.append(pulled_row(title(), "canvas", "Burrito Bison title (1173x660 canvas)"))
        alone = press_figures(browser, args.presses, False, args.save_torn)
        pulled = press_figures(browser, args.presses, True, args.save_torn)
        lines += ["", f"| {args.presses} presses on a page that never holds still | screencast "
                  "alone | a pulled picture after each press |", "|---|---|---|"]
        lines += [f"| {row} | {a} | {b} |" for row, a, b in zip(PRESS_ROWS, alone, pulled,
                                                                 strict=True)]
        browser.close()
    print("\n".join(lines))
    print(f"\nMeasured {time.strftime('%Y-%m-%d %H:%M')}; {math.floor(args.seconds)} s of frames "
          "a row.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
