"""Clicking cards like a player, and hearing what the page answers: an alert() in the old and
2022 layouts, the text of div.set-messages in the current one (which may be cleared again a
moment later), the page moving on to its completion URL, or its title saying the puzzle is
done. The page may sit in a frame of another page (a portal's)."""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass

from playwright.sync_api import Dialog, ElementHandle, Error, Frame, Request

from webbot.answer import box, evaluate, query
from webbot.daily_set.page import CardSlot
from webbot.deadline import Deadline
from webbot.errors import WebbotError
from webbot.events import in_background, told, wait_until_told
from webbot.mouse import Mouse
from webbot.page_scripts import page_script
from webbot.playwright_inside import own
from webbot.screen import Box
from webbot.shown import shown
from webbot.way import Way

MESSAGES = "div.set-messages"
FOUND = re.compile(r"(\d+)\s+Sets?\s+Found", re.IGNORECASE)
ALREADY = re.compile(r"already found", re.IGNORECASE)
LEFT = re.compile(r"still have\s+(\d+)\s+to find", re.IGNORECASE)
NOT_A_SET = re.compile(r"NOT A SET", re.IGNORECASE)
GREAT = re.compile(r"^\s*GREAT\b", re.IGNORECASE)
COMPLETED_TITLE = re.compile(r"completed today", re.IGNORECASE)
CHECK_TIMEOUT_S = 0.5  # a clicked card's checkbox ticks within a frame or two
ANSWER_TIMEOUT_S = 5.0
LOOK_S = 0.05  # one more look
ANSWER_RETRY_MS = 5  # before looking again when the page could not be asked (it moves on)
# Chromium delivers in-page mouse moves once a frame (measured), and cards lie
# 100-330 px apart (the old page's table, the current page's 214 px pitch): one move to most.
CLICK_STEP_PX = 250
CLICK_MIN_STEPS = 1  # a flick from card to card: one move to a card near by, more when far
TICKED, UNTICKED, COVERED = "ticked", "unticked", "covered"  # a clicked card's box


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
    def all_found_before(self) -> bool:
        """The three cards were found before, and so was every other set ("You already found
        that one! Still have 0 to find"): today's puzzle was done before this run."""
        left = LEFT.search(self.text)
        return self.already and left is not None and int(left.group(1)) == 0

    @property
    def rejected(self) -> bool:
        return bool(NOT_A_SET.search(self.text))

    @property
    def great(self) -> bool:
        """A set found (the current page says only "GREAT!", without a count)."""
        return self.found is not None or bool(GREAT.search(self.text))

    @property
    def is_verdict(self) -> bool:
        """Says something about the three cards (not some other text in the message box)."""
        return self.great or self.already or self.rejected


class Hands:
    """Clicks cards with the mouse and waits for the page's answer."""

    def __init__(self, frame: Frame, mouse: Mouse, way: Way | None = None) -> None:
        self.frame = frame
        self.page = frame.page
        self.mouse = mouse
        self.way = way
        self.start_url = frame.url
        self._dialogs: list[str] = []
        self._navigated: str | None = None
        self._ticks_seen = False  # the page ticks a clicked card's checkbox
        self._hit_cover = False  # a clicked card seen unticked under a cover, this set
        self._elements: dict[str, ElementHandle | None] = {}  # each card's, once found
        self._woken: asyncio.Future | None = None  # ends _until_said's wait (see there)
        self.page.on("dialog", self._on_dialog)
        self.page.on("request", self._on_request)
        self._watching = self._watch_messages()

    def _on_dialog(self, dialog: Dialog) -> None:
        self._dialogs.append(shown(dialog.message))
        self._wake("dialog")
        dialog.accept()

    def _on_request(self, request: Request) -> None:
        # The request, not where the frame lands: a completion page on an unreachable site
        # still shows where the game sent the player.
        if (request.is_navigation_request() and request.frame == self.frame
                and request.url.split("#")[0] != self.start_url.split("#")[0]):
            self._navigated = shown(request.url)
            self._wake("navigated")

    def _watch_messages(self) -> bool:
        """Note every text the message box shows, as a player watching it would: a message
        may be cleared before the next look, and the same "GREAT!" may come twice."""
        try:
            return evaluate(self.frame, page_script("watch_messages"), MESSAGES)
        except Error:
            return False

    def _messages(self) -> list[str]:
        if not self._watching:
            return []
        try:
            return evaluate(self.frame, page_script("take_messages")) or []
        except Error:
            return []

    def click_set(self, slots: list[CardSlot]) -> Answer:
        """Clicks the three cards and returns the page's answer. Whether a card's box ticked
        is looked at while the mouse is on its way to the next card, by when the page has had
        a frame or two to tick it."""
        self._messages()  # forget anything said before
        self._hit_cover = False
        seen = len(self._dialogs)
        aims = self._aims(slots)
        for before, slot, aim in zip([None, *slots[:-1]], slots, aims, strict=True):
            x, y = aim or self._aim(slot)
            self.mouse.move_to(x, y, steps=self._steps(x, y))
            if before is not None and not self._make_sure_ticked(before):
                # The way was cleared or the card before clicked again: the mouse is elsewhere.
                self.mouse.click(x, y, steps=self._steps(x, y))
            else:
                self.mouse.press()
        # A click lost to something that came over the page (a consent popup, which the
        # consent engine may have answered since) is clicked again: on a page that ticks its
        # boxes a lost click shows at once; on others, only when the page gives no answer.
        answer = self._wait_answer(seen, CHECK_TIMEOUT_S, slots[-1])
        if answer is None and self._lost(slots):
            answer = self._click_lost(slots, seen)
        if answer is None:
            answer = self._wait_answer(seen, ANSWER_TIMEOUT_S)
        if answer is None:
            answer = self._click_lost(slots, seen)
        if answer is None:
            raise WebbotError(f"the page gave no answer within {ANSWER_TIMEOUT_S:g} s "
                              "after three cards were clicked")
        return answer

    def _click_lost(self, slots: list[CardSlot], seen: int) -> Answer | None:
        """Clears the way and clicks again the cards whose clicks went astray (when none shows
        as lost but something covers the game, the last card): after one look when a cover
        was seen over a card since the clicks (they hit it), else after the wait of a click
        (they may only be late). The page's answer, None when nothing was lost or the page
        still does not answer."""
        if self.way is None:
            return None
        lost = self._lost(slots)
        # Seen under a cover since the clicks: the clicks hit it, even if the consent engine
        # has closed it since.
        covered = self._hit_cover or self.way.cover() is not None
        if not lost and not covered:
            return None
        self.way.clear()
        self._hit_cover = False
        # A slow page's late answer, the clearing past.
        answer = self._wait_answer(seen, LOOK_S if covered else CHECK_TIMEOUT_S)
        if answer is not None:
            return answer
        again = self._lost(slots) if lost else slots[-1:]  # a late tick is not clicked off
        for slot in again:
            self._click(slot)
        return self._wait_answer(seen, ANSWER_TIMEOUT_S) if again else None

    def wait_done(self, timeout_s: float) -> str | None:
        """How the page said the puzzle is done (it went to a completion URL, or its title
        says so), waiting up to `timeout_s`; None if it said nothing."""
        deadline = Deadline(timeout_s)
        while not deadline.passed():
            try:
                title, url = self.frame.title(), self.frame.url
            except Error:
                title, url = "", ""
            if url and url.split("#")[0] != self.start_url.split("#")[0]:
                self._navigated = self._navigated or shown(url)
            if self._navigated is not None:
                return f"the page went on to {self._navigated}"
            if COMPLETED_TITLE.search(title):
                return f"the page's title became '{shown(title)}'"
            self.page.wait_for_timeout(20)
        return None

    def _make_sure_ticked(self, slot: CardSlot) -> bool:
        """If a clicked card's checkbox has not ticked because something came over the card
        (a late popup), clear the way and click it again; False when it did. Until the page
        has ticked a box, a box that does not tick on an uncovered card says nothing (a saved
        page's scripts may be missing): the page's answer after the third card is what
        counts."""
        state = self._checked(slot)
        if state == TICKED or self.way is None:
            return True
        covered = state == COVERED or self._covered(slot)
        # On a page whose boxes tick, an unticked box is a lost click even when nothing covers
        # the card any more: a popup may have come and gone (the consent engine answers it).
        if not covered and not self._ticks_seen:
            return True
        self.way.clear()
        # A second look, the clearing past: a slow page's late tick must not be clicked off.
        # A covered card's click hit the cover: one look. Else the click may only be late: it
        # gets the wait of a click again.
        late = self._ticked(slot) is not False if covered else self._checked(slot) == TICKED
        if not late:
            self._click(slot)
        self._hit_cover = False  # that cover is dealt with
        return False

    def _covered(self, slot: CardSlot) -> bool:
        """Whether something covers the card's middle, looked at through every frame."""
        assert self.way is not None
        element = query(self.frame, slot.target)
        box = self._box(element)
        return element is not None and box is not None and self.way.cover(
            ((0.5, 0.5),), element, box) is not None

    def _lost(self, slots: list[CardSlot]) -> list[CardSlot]:
        """The cards whose clicks went astray, on a page that ticks its boxes: those left
        unticked while another is ticked (all three unticked: the page judged them)."""
        if not self._ticks_seen:
            return []
        unticked = [s for s in slots if self._ticked(s) is False]
        return unticked if len(unticked) < len(slots) else []

    def _ticked(self, slot: CardSlot) -> bool | None:
        """Whether the card's checkbox is ticked; None on a page without one (or one that
        moved on)."""
        try:
            return evaluate(self.frame, page_script("is_ticked"), f"A{slot.position}")
        except Error:
            return None

    def _checked(self, slot: CardSlot) -> str:
        """TICKED when the card's box ticks within CHECK_TIMEOUT_S (so on a page without one,
        or one that moved on), else UNTICKED; COVERED at once when something has come over
        the card's middle (the click went to it, not to the card)."""
        deadline = Deadline(CHECK_TIMEOUT_S)
        while True:
            state = self._tick_state(slot)
            if state != UNTICKED or deadline.passed():
                return state
            self.page.wait_for_timeout(15)

    def _tick_state(self, slot: CardSlot) -> str:
        """TICKED, UNTICKED or COVERED (unticked, something else over the card's middle in
        its frame), in one round trip; TICKED on a page without boxes."""
        try:
            state = evaluate(self.frame, page_script("tick_state"),
                             [f"A{slot.position}", slot.target])
        except Error:
            return TICKED
        if state == TICKED:
            self._ticks_seen = True
        self._hit_cover = self._hit_cover or state == COVERED
        return TICKED if state in (TICKED, "none") else COVERED if state == COVERED else UNTICKED

    def _aims(self, slots: list[CardSlot]) -> list[tuple[float, float] | None]:
        """The middles of the cards, looked up in one round trip where that is enough: on a
        top-level page, each card in view with nothing over its middle. None for a card that
        needs `_aim`'s longer way (a page in a frame, a card out of view or covered)."""
        if self.frame.parent_frame is not None:
            return [None] * len(slots)
        try:
            found = evaluate(self.frame, page_script("middles"), [slot.target for slot in slots])
        except Error:
            return [None] * len(slots)
        return [(middle[0], middle[1]) if middle else None for middle in found]

    def _aim(self, slot: CardSlot) -> tuple[float, float]:
        """The middle of the card on the page (scrolled into view), the way to it cleared."""
        element = self._elements.get(slot.target)
        box = self._box(element)
        if box is None:  # not looked for yet, or gone (the page drew its cards again)
            element = self._elements[slot.target] = query(self.frame, slot.target)
            box = self._box(element)
        if element is not None and box is not None and not self._in_view(box):
            element.scroll_into_view_if_needed(timeout=ANSWER_TIMEOUT_S * 1000)
            box = self._box(element)
        if element is None or box is None:
            raise WebbotError(f"card {slot.position} ({slot.target}) is not on the page to click")
        x, y = box.x + box.width / 2, box.y + box.height / 2
        if self.way is not None:
            self.way.guard(x, y, element, box, every_s=0)
        return x, y

    def _click(self, slot: CardSlot) -> None:
        x, y = self._aim(slot)
        self.mouse.click(x, y, steps=self._steps(x, y))

    def _steps(self, x: float, y: float) -> int:
        """Mouse moves to reach (x, y): one per CLICK_STEP_PX, at least CLICK_MIN_STEPS."""
        start = self.mouse.position or (x, y)
        return max(CLICK_MIN_STEPS, math.ceil(math.dist(start, (x, y)) / CLICK_STEP_PX))

    @staticmethod
    def _box(element: ElementHandle | None) -> Box | None:
        try:
            found = box(element) if element is not None else None
        except Error:
            return None
        return Box.of(found) if found else None

    def _in_view(self, box: Box) -> bool:
        size = self.page.viewport_size or {"width": 0, "height": 0}
        return (box.x >= 0 and box.y >= 0 and box.x + box.width <= size["width"]
                and box.y + box.height <= size["height"])

    def _wait_answer(self, seen: int, wait_s: float, last: CardSlot | None = None
                     ) -> Answer | None:
        """The page's answer within `wait_s`, else None; None when the `last` card clicked, on
        a page that ticks its boxes, is unticked under something come over it (once what the
        page said meanwhile has been looked at). Not polled: the wait ends when the page
        speaks (an alert, a new text in the message box, a navigation) or covers the card
        (_until_said)."""
        deadline = Deadline(wait_s)
        covered = False
        while True:
            texts = self._messages()  # (events that came during this call are in by now)
            if len(self._dialogs) > seen:
                return _answer(self._dialogs[seen])
            for text in texts:
                if _answer(text).is_verdict:
                    return _answer(text)
            if self._navigated:
                return Answer("", left_page=self._navigated)
            if covered or deadline.passed():
                return None
            cover = last if last is not None and self._ticks_seen else None
            if self._until_said(deadline.left(), cover) == COVERED:
                self._hit_cover = covered = True  # one more look at what the page said

    def _until_said(self, seconds: float, cover: CardSlot | None) -> str | None:
        """Waits, in one call, until the page says something (a new text in the message box:
        "said"; an alert: "dialog"; a navigation: "navigated"), until something comes over
        the `cover` card's middle with its box unticked (COVERED), or `seconds` pass (None);
        "failed" when the page could not be asked (it moved on, say).

        The page is not asked again and again: a script in it (said_or_covered.js) answers when
        its message box changes or, every 16 ms, when the card is covered, and the page's
        dialog and navigation events end the wait from here: one call ended by whichever comes
        first (webbot.events)."""
        woken = self._woken = told(self.page)
        arg = [f"A{cover.position}" if cover else None, cover.target if cover else None,
               round(seconds * 1000), self._watching]
        script = page_script("said_or_covered")
        asked = in_background(self.page, own(self.frame).evaluate(script, arg))

        def answered(task: asyncio.Task) -> None:
            if not woken.done():  # (a page that could not be asked: looked at again)
                failed = task.cancelled() or task.exception() is not None
                woken.set_result("failed" if failed else task.result())

        asked.add_done_callback(answered)
        try:
            why = wait_until_told(self.page, woken, seconds)
        finally:
            self._woken = None
        if why == "failed":  # looked at again after a moment, not at once
            self.page.wait_for_timeout(ANSWER_RETRY_MS)
        return why

    def _wake(self, why: str) -> None:
        if self._woken is not None and not self._woken.done():
            self._woken.set_result(why)


def _answer(text: str) -> Answer:
    line = shown(text)
    found = FOUND.search(line)
    return Answer(line, int(found.group(1)) if found else None)
