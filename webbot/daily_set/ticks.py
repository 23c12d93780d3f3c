"""A clicked card's checkbox, as the page shows it: whether the click reached the card."""

from __future__ import annotations

from enum import Enum

from playwright.sync_api import Error, Frame

from webbot.answer import evaluate, pause
from webbot.daily_set.page import CardSlot
from webbot.deadline import Deadline
from webbot.page_scripts import page_script

CHECK_TIMEOUT_S = 0.5  # a clicked card's checkbox ticks within a frame or two


class Tick(Enum):
    """A clicked card's box: ticked (or a page without boxes), unticked, or unticked with
    something else over the card's middle (the click went to that, not to the card)."""

    TICKED = "ticked"
    UNTICKED = "unticked"
    COVERED = "covered"


class Ticks:
    """Reads the cards' boxes in `frame`, one round trip a look. It remembers whether the page
    ticks its boxes at all (`page_ticks`: until it has, an unticked box says nothing, since a
    saved page's scripts may be missing) and whether a card was seen covered since
    `forget_covers` (`cover_seen`)."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.page_ticks = False
        self.cover_seen = False

    def now(self, slot: CardSlot) -> Tick:
        """The card's box as the page shows it now; TICKED on a page without boxes, or one
        that could not be asked (it moved on)."""
        try:
            state = evaluate(self.frame, page_script("tick_state"),
                             [f"A{slot.position}", slot.target])
        except Error:
            return Tick.TICKED
        if state == Tick.TICKED.value:
            self.page_ticks = True
        elif state == Tick.COVERED.value:
            self.cover_seen = True
        return Tick.UNTICKED if state == Tick.UNTICKED.value else \
            Tick.COVERED if state == Tick.COVERED.value else Tick.TICKED

    def after_click(self, slot: CardSlot) -> Tick:
        """The card's box once the page has had CHECK_TIMEOUT_S to tick it; COVERED at once
        when something has come over the card."""
        deadline = Deadline(CHECK_TIMEOUT_S)
        while True:
            state = self.now(slot)
            if state is not Tick.UNTICKED or deadline.passed():
                return state
            pause(self.frame.page, 15)

    def saw_cover(self) -> None:
        """A card was seen covered by another look (a wait for the page's answer)."""
        self.cover_seen = True

    def forget_covers(self) -> None:
        """The covers seen so far are dealt with."""
        self.cover_seen = False
