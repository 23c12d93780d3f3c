"""What the Daily SET page answers after three cards are clicked: an alert() in the old and 2022
layouts, the text of div.set-messages in the current one (which may be cleared again a moment
later), the page moving on to its completion URL, or its title saying the puzzle is done. The
page may sit in a frame of another page (a portal's)."""

from __future__ import annotations

import asyncio
import re
from contextlib import suppress
from dataclasses import dataclass
from enum import Enum

from playwright.sync_api import Dialog, Error, Frame, Request

from webbot.answer import NoAnswer, accept, asked_in_background, evaluate, pause
from webbot.answer import title as frame_title
from webbot.bounded import whole_number
from webbot.daily_set.page import CardSlot
from webbot.deadline import Deadline
from webbot.events import wait_for_wake, wake_future
from webbot.page_scripts import page_script
from webbot.set_cards.model import DAILY_SETS
from webbot.shown import shown

MESSAGES = "div.set-messages"
FOUND = re.compile(r"(\d+)\s+Sets?\s+Found", re.IGNORECASE)
ALREADY = re.compile(r"already found", re.IGNORECASE)
LEFT = re.compile(r"still have\s+(\d+)\s+to find", re.IGNORECASE)
NOT_A_SET = re.compile(r"NOT A SET", re.IGNORECASE)
GREAT = re.compile(r"^\s*GREAT\b", re.IGNORECASE)
COMPLETED_TITLE = re.compile(r"completed today", re.IGNORECASE)
RETRY_MS = 5  # before looking again when the page could not be asked (it moves on)


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
        return self.already and left is not None and whole_number(
            left.group(1), 0, DAILY_SETS, "the page says how many sets are left to find") == 0

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


class Woken(Enum):
    """What ended a wait for the page to say something."""

    SAID = "said"  # a new text in the message box
    DIALOG = "dialog"  # an alert
    NAVIGATED = "navigated"  # the frame is going to another page
    COVERED = "covered"  # the watched card is unticked with something over it
    FAILED = "failed"  # the page could not be asked (it moved on, say)


class PageAnswers:
    """Hears what the page in `frame` answers: every alert (accepted), every text its message
    box shows (as a player watching it would: a message may be cleared before the next look,
    and the same "GREAT!" may come twice), its navigation away from the puzzle, and its title.
    `mark()` starts hearing a set's answer; `wait` waits for it."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.page = frame.page
        self.start_url = frame.url
        self._dialogs: list[str] = []
        self._navigated: str | None = None
        self._wake: asyncio.Future | None = None  # ends _until_said's wait (see there)
        self.page.on("dialog", self._on_dialog)
        self.page.on("request", self._on_request)
        self._watching = self._watch_messages()

    def mark(self) -> int:
        """Forgets what the message box said so far; the mark `wait` hears from."""
        self._messages()
        return len(self._dialogs)

    def wait(self, mark: int, wait_s: float, watched: CardSlot | None = None
             ) -> Answer | Woken | None:
        """The page's answer since `mark`, within `wait_s`, else None; Woken.COVERED when the
        `watched` card is unticked under something come over it (once what the page said
        meanwhile has been looked at). Not polled: the wait ends when the page speaks (an
        alert, a new text in the message box, a navigation) or covers the card."""
        deadline = Deadline(wait_s)
        covered = False
        while True:
            texts = self._messages()  # (events that came during this call are in by now)
            if len(self._dialogs) > mark:
                return heard(self._dialogs[mark])
            for text in texts:
                if heard(text).is_verdict:
                    return heard(text)
            if self._navigated:
                return Answer("", left_page=self._navigated)
            if covered:
                return Woken.COVERED
            if deadline.passed():
                return None
            if self._until_said(deadline.left(), watched) is Woken.COVERED:
                covered = True  # one more look at what the page said

    def completion(self, timeout_s: float) -> str | None:
        """How the page said the puzzle is done (it went to a completion URL, or its title
        says so), waiting up to `timeout_s`; None if it said nothing."""
        deadline = Deadline(timeout_s)
        while not deadline.passed():
            try:
                title, url = frame_title(self.frame), self.frame.url
            except Error:
                title, url = "", ""
            if url and url.split("#")[0] != self.start_url.split("#")[0]:
                self._navigated = self._navigated or shown(url)
            if self._navigated is not None:
                return f"the page went on to {self._navigated}"
            if COMPLETED_TITLE.search(title):
                return f"the page's title became '{shown(title)}'"
            pause(self.page, 20)
        return None

    def _on_dialog(self, dialog: Dialog) -> None:
        self._dialogs.append(shown(dialog.message))
        self._woken(Woken.DIALOG)
        # (an error out of an event handler would end the bot's next call: a page that does
        # not answer is found out by that call)
        with suppress(Error, NoAnswer):
            accept(dialog)

    def _on_request(self, request: Request) -> None:
        # The request, not where the frame lands: a completion page on an unreachable site
        # still shows where the game sent the player.
        if (request.is_navigation_request() and request.frame == self.frame
                and request.url.split("#")[0] != self.start_url.split("#")[0]):
            self._navigated = shown(request.url)
            self._woken(Woken.NAVIGATED)

    def _watch_messages(self) -> bool:
        """Has the page note every text its message box shows; False when it has none."""
        try:
            return evaluate(self.frame, page_script("watch_messages"), MESSAGES)
        except Error:
            return False

    def _messages(self) -> list[str]:
        """The texts the message box showed since the last call."""
        if not self._watching:
            return []
        try:
            said = evaluate(self.frame, page_script("take_messages"))
        except Error:
            return []
        # (the page's own scripts can make the script answer anything: a list of texts is used)
        return [str(text) for text in said] if isinstance(said, list) else []

    def _until_said(self, seconds: float, watched: CardSlot | None) -> Woken | None:
        """Waits, in one call, until the page says something, until something comes over the
        `watched` card's middle with its box unticked, or `seconds` pass (None).

        The page is not asked again and again: a script in it (said_or_covered.js) answers when
        its message box changes or, every 16 ms, when the card is covered, and the page's
        dialog and navigation events end the wait from here: one call ended by whichever comes
        first (webbot.events)."""
        wake = self._wake = wake_future(self.page)
        arg = [f"A{watched.position}" if watched else None, watched.target if watched else None,
               round(seconds * 1000), self._watching]
        script = page_script("said_or_covered")
        asked = asked_in_background(self.frame, script, arg)

        def answered(task: asyncio.Task) -> None:
            if not wake.done():  # (a page that could not be asked: looked at again)
                failed = task.cancelled() or task.exception() is not None
                wake.set_result(Woken.FAILED if failed else _woken_by(task.result()))

        asked.add_done_callback(answered)
        try:
            why = wait_for_wake(self.page, wake, seconds)
        finally:
            self._wake = None
        if why is Woken.FAILED:  # looked at again after a moment, not at once
            pause(self.page, RETRY_MS)
        return why

    def _woken(self, why: Woken) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(why)


def _woken_by(result: object) -> Woken | None:
    """said_or_covered.js's answer: "said", "covered" or null (anything else: FAILED)."""
    if result is None:
        return None
    return Woken.SAID if result == "said" else Woken.COVERED if result == "covered" \
        else Woken.FAILED


def heard(text: str) -> Answer:
    """A text the page said, read as an answer."""
    line = shown(text)
    found = FOUND.search(line)
    return Answer(line, None if found is None else whole_number(
        found.group(1), 0, DAILY_SETS, "the page says how many sets are found"))
