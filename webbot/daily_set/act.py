"""Clicking cards like a player, and hearing what the page answers: an alert() in the old
layout, the text of div.set-messages in the new one, or the page moving on to its completion
URL after the last set."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from playwright.sync_api import Dialog, Error, Page, Request

from webbot.errors import WebbotError
from webbot.mouse import Mouse

MESSAGES = "div.set-messages"
FOUND = re.compile(r"(\d+)\s+Sets?\s+Found", re.IGNORECASE)
ALREADY = re.compile(r"already found", re.IGNORECASE)
NOT_A_SET = re.compile(r"NOT A SET", re.IGNORECASE)
ANSWER_TIMEOUT_S = 5.0
CLICK_STEP_PX = 150  # each in-page mouse move costs about a frame; cards are ~100 px apart


@dataclass(frozen=True)
class Answer:
    """What the page said after three cards were clicked."""

    text: str  # the message, one line ("" when the page just moved on)
    found: int | None = None  # sets found so far, when the page says so
    left_page: str | None = None  # the URL the page went to, if it navigated away

    @property
    def already(self) -> bool:
        return bool(ALREADY.search(self.text))

    @property
    def rejected(self) -> bool:
        return bool(NOT_A_SET.search(self.text))

    @property
    def is_verdict(self) -> bool:
        """Says something about the three cards (not some other text in the message box)."""
        return self.found is not None or self.already or self.rejected


class Hands:
    """Clicks cards with the mouse and waits for the page's answer."""

    def __init__(self, page: Page, mouse: Mouse) -> None:
        self.page = page
        self.mouse = mouse
        self.start_url = page.url
        self._dialogs: list[str] = []
        self._navigated: str | None = None
        page.on("dialog", self._on_dialog)
        page.on("request", self._on_request)

    def _on_dialog(self, dialog: Dialog) -> None:
        self._dialogs.append(dialog.message)
        dialog.accept()

    def _on_request(self, request: Request) -> None:
        # The request, not where the frame lands: a completion page on an unreachable site
        # still shows where the game sent the player.
        if (request.is_navigation_request() and request.frame == self.page.main_frame
                and request.url.split("#")[0] != self.start_url.split("#")[0]):
            self._navigated = request.url

    def click_set(self, targets: list[str]) -> Answer:
        """Clicks the three card targets (CSS selectors) and returns the page's answer."""
        before = self._message_text()
        seen = len(self._dialogs)
        for target in targets:
            self._click(target)
        return self._wait_answer(before, seen)

    def wait_left_page(self, timeout_s: float) -> str | None:
        """The URL the page went to, waiting up to `timeout_s` for it to go."""
        deadline = time.monotonic() + timeout_s
        while self._navigated is None and time.monotonic() < deadline:
            self.page.wait_for_timeout(20)
        return self._navigated

    def _click(self, target: str) -> None:
        element = self.page.locator(target).first
        try:
            box = element.bounding_box(timeout=ANSWER_TIMEOUT_S * 1000)
            if box and not self._in_view(box):  # scrolling costs a few frames: only if needed
                element.scroll_into_view_if_needed(timeout=ANSWER_TIMEOUT_S * 1000)
                box = element.bounding_box(timeout=ANSWER_TIMEOUT_S * 1000)
        except Error:
            box = None
        if box is None:
            raise WebbotError(f"the card {target} is not on the page to click")
        self.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2,
                         step_px=CLICK_STEP_PX)

    def _in_view(self, box: dict) -> bool:
        size = self.page.viewport_size or {"width": 0, "height": 0}
        return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"]
                and box["y"] + box["height"] <= size["height"])

    def _message_text(self) -> str | None:
        """The new layout's message text; None when the page has no message box (or is gone)."""
        try:
            box = self.page.locator(MESSAGES)
            return box.first.inner_text(timeout=500) if box.count() else None
        except Error:
            return None

    def _wait_answer(self, before: str | None, seen: int) -> Answer:
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while time.monotonic() < deadline:
            if len(self._dialogs) > seen:
                return _answer(self._dialogs[seen])
            if before is not None:
                now = self._message_text()
                if now and now != before and _answer(now).is_verdict:
                    return _answer(now)
            if self._navigated:
                return Answer("", left_page=self._navigated)
            self.page.wait_for_timeout(15)
        raise WebbotError(f"the page gave no answer within {ANSWER_TIMEOUT_S:g} s "
                          "after three cards were clicked")


def _answer(text: str) -> Answer:
    line = " ".join(text.split())
    found = FOUND.search(line)
    return Answer(line, int(found.group(1)) if found else None)
