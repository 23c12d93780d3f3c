"""Clicking cards like a player: a set's three cards, each click checked by its card's box, a
click lost to something that came over the page clicked again, and the page's answer heard."""

from __future__ import annotations

import math

from playwright.sync_api import Frame

from webbot.daily_set.answers import Answer, PageAnswers, Woken
from webbot.daily_set.page import CardSlot
from webbot.daily_set.places import CardPlaces
from webbot.daily_set.ticks import CHECK_TIMEOUT_S, Tick, Ticks
from webbot.errors import WebbotError
from webbot.mouse import Mouse
from webbot.phases import Phases
from webbot.way import Way

ANSWER_TIMEOUT_S = 5.0
LOOK_S = 0.05  # one more look
# Chromium takes an in-page mouse move once a frame, so each move on the way is a frame more:
# a flick, one move from card to card however far (a stride, to move in steps instead).
CLICK_STEP_PX = math.inf
CLICK_MIN_STEPS = 1


class Hands:
    """Clicks a set's cards with the mouse and makes sure each click reached its card; what
    the cards' boxes show, where the cards are and what the page answers are each read by
    their own piece (Ticks, CardPlaces, PageAnswers). `way` clears what comes over the game
    (None: a bare page, nothing to clear)."""

    def __init__(self, frame: Frame, mouse: Mouse, way: Way | None = None,
                 phases: Phases | None = None) -> None:
        self.mouse = mouse
        self.way = way
        self.phases = phases or Phases()  # the run's, where a run has them
        self.ticks = Ticks(frame)
        self.places = CardPlaces(frame, way)
        self.answers = PageAnswers(frame)

    def click_set(self, slots: list[CardSlot], then: CardSlot | None = None) -> Answer:
        """Clicks the three cards and returns the page's answer. Whether a card's box ticked
        is looked at while the mouse is on its way to the next card, by when the page has had
        a frame or two to tick it. The mouse moves on to `then` (the next set's first card,
        if known) while the page answers: the page runs a card's link a frame after the click,
        and a move costs a frame."""
        mark = self.answers.mark()
        self.ticks.forget_covers()
        found = self.places.middles([*slots, then] if then else slots)
        middles, onward = found[:len(slots)], found[len(slots)] if then else None
        for before, slot, middle in zip([None, *slots[:-1]], slots, middles, strict=True):
            x, y = middle or self.places.middle(slot)
            self.mouse.hover(x, y, steps=self._steps(x, y))  # (there already when it moved on)
            if before is not None and not self._make_sure_ticked(before):
                # The way was cleared or the card before clicked again: the mouse is elsewhere.
                self.mouse.click(x, y, steps=self._steps(x, y))
            else:
                self.mouse.press()
        if onward is not None:
            self.mouse.move_to(*onward, steps=self._steps(*onward))
        # A click lost to something that came over the page (a consent popup, which the
        # consent engine may have answered since) is clicked again: on a page that ticks its
        # boxes a lost click shows at once; on others, only when the page gives no answer.
        answer = self._answer(mark, CHECK_TIMEOUT_S, slots[-1])
        if answer is None and self._lost(slots):
            answer = self._click_lost(slots, mark)
        if answer is None:
            answer = self._answer(mark, ANSWER_TIMEOUT_S)
        if answer is None:
            answer = self._click_lost(slots, mark)
        if answer is None:
            raise WebbotError(f"the page gave no answer within {ANSWER_TIMEOUT_S:g} s "
                              "after three cards were clicked")
        return answer

    def wait_done(self, timeout_s: float) -> str | None:
        """How the page said the puzzle is done, waiting up to `timeout_s`; None if it said
        nothing (PageAnswers.completion)."""
        with self.phases("waiting on the game"):
            return self.answers.completion(timeout_s)

    def _answer(self, mark: int, wait_s: float, last: CardSlot | None = None) -> Answer | None:
        """The page's answer within `wait_s`, else None; None at once when the `last` card
        clicked, on a page that ticks its boxes, is unticked under something come over it."""
        watched = last if last is not None and self.ticks.page_ticks else None
        with self.phases("the page's answers"):
            heard = self.answers.wait(mark, wait_s, watched)
        if heard is Woken.COVERED:
            self.ticks.saw_cover()
            return None
        return heard if isinstance(heard, Answer) else None

    def _click_lost(self, slots: list[CardSlot], mark: int) -> Answer | None:
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
        covered = self.ticks.cover_seen or self.way.cover() is not None
        if not lost and not covered:
            return None
        self.way.clear()
        self.ticks.forget_covers()
        # A slow page's late answer, the clearing past.
        answer = self._answer(mark, LOOK_S if covered else CHECK_TIMEOUT_S)
        if answer is not None:
            return answer
        again = self._lost(slots) if lost else slots[-1:]  # a late tick is not clicked off
        for slot in again:
            self._click(slot)
        return self._answer(mark, ANSWER_TIMEOUT_S) if again else None

    def _make_sure_ticked(self, slot: CardSlot) -> bool:
        """If a clicked card's box has not ticked because something came over the card (a
        late popup), clear the way and click it again; False when it did. Until the page has
        ticked a box, a box that does not tick on an uncovered card says nothing: the page's
        answer after the third card is what counts."""
        with self.phases("checking clicks"):
            state = self.ticks.after_click(slot)
        if state is Tick.TICKED or self.way is None:
            return True
        covered = state is Tick.COVERED or self.places.covered(slot)
        # On a page whose boxes tick, an unticked box is a lost click even when nothing covers
        # the card any more: a popup may have come and gone (the consent engine answers it).
        if not covered and not self.ticks.page_ticks:
            return True
        self.way.clear()
        # A second look, the clearing past: a slow page's late tick must not be clicked off.
        # A covered card's click hit the cover: one look. Else the click may only be late: it
        # gets the wait of a click again.
        late = (self.ticks.now(slot) if covered else self.ticks.after_click(slot)) is Tick.TICKED
        if not late:
            self._click(slot)
        self.ticks.forget_covers()  # that cover is dealt with
        return False

    def _lost(self, slots: list[CardSlot]) -> list[CardSlot]:
        """The cards whose clicks went astray, on a page that ticks its boxes: those left
        unticked while another is ticked (all three unticked: the page judged them)."""
        if not self.ticks.page_ticks:
            return []
        unticked = [s for s in slots if self.ticks.now(s) is not Tick.TICKED]
        return unticked if len(unticked) < len(slots) else []

    def _click(self, slot: CardSlot) -> None:
        x, y = self.places.middle(slot)
        self.mouse.click(x, y, steps=self._steps(x, y))

    def _steps(self, x: float, y: float) -> int:
        """Mouse moves to reach (x, y): one per CLICK_STEP_PX, at least CLICK_MIN_STEPS."""
        start = self.mouse.position or (x, y)
        return max(CLICK_MIN_STEPS, math.ceil(math.dist(start, (x, y)) / CLICK_STEP_PX))
