"""Where the Daily SET's cards are on the page, to aim the mouse at: their middles, scrolled into
view, the way to them cleared."""

from __future__ import annotations

import math

from playwright.sync_api import ElementHandle, Error, Frame

from webbot.answer import box, evaluate, query, scroll_into_view
from webbot.daily_set.page import CardSlot
from webbot.errors import WebbotError
from webbot.page_scripts import page_script
from webbot.screen import Box
from webbot.way import Way

SCROLL_TIMEOUT_S = 5.0


class CardPlaces:
    """The cards of the page in `frame`; `way` (the way to the game, None for a bare page)
    clears what covers a card before it is aimed at."""

    def __init__(self, frame: Frame, way: Way | None = None) -> None:
        self.frame = frame
        self.page = frame.page
        self.way = way
        self._elements: dict[str, ElementHandle | None] = {}  # each card's, once found

    def middles(self, slots: list[CardSlot]) -> list[tuple[float, float] | None]:
        """The middles of the cards, looked up in one round trip where that is enough: on a
        top-level page, each card in view with nothing over its middle. None for a card that
        needs `middle`'s longer way (a page in a frame, a card out of view or covered)."""
        if self.frame.parent_frame is not None:
            return [None] * len(slots)
        try:
            found = evaluate(self.frame, page_script("middles"), [slot.target for slot in slots])
        except Error:
            return [None] * len(slots)
        # (the page's own scripts can make the script answer anything: only a point in the
        # window is taken; the rest goes `middle`'s longer way)
        if not isinstance(found, list) or len(found) != len(slots):
            return [None] * len(slots)
        return [_in_window(middle, self.page.viewport_size) for middle in found]

    def middle(self, slot: CardSlot) -> tuple[float, float]:
        """The middle of the card on the page (scrolled into view), the way to it cleared."""
        element = self._elements.get(slot.target)
        place = _box(element)
        if place is None:  # not looked for yet, or gone (the page drew its cards again)
            element = self._elements[slot.target] = query(self.frame, slot.target)
            place = _box(element)
        if element is not None and place is not None and not self._in_view(place):
            scroll_into_view(element, SCROLL_TIMEOUT_S)
            place = _box(element)
        if element is None or place is None:
            raise WebbotError(f"card {slot.position} ({slot.target}) is not on the page to click")
        x, y = place.x + place.width / 2, place.y + place.height / 2
        if self.way is not None:
            self.way.guard(x, y, element, place, every_s=0)
        return x, y

    def covered(self, slot: CardSlot) -> bool:
        """Whether something covers the card's middle, looked at through every frame (False
        without a way to the game)."""
        if self.way is None:
            return False
        element = query(self.frame, slot.target)
        place = _box(element)
        return element is not None and place is not None and self.way.cover(
            ((0.5, 0.5),), element, place) is not None

    def _in_view(self, place: Box) -> bool:
        size = self.page.viewport_size or {"width": 0, "height": 0}
        return place.within(size["width"], size["height"])


def _box(element: ElementHandle | None) -> Box | None:
    try:
        found = box(element) if element is not None else None
    except Error:
        return None
    return Box.of(found) if found else None


def _in_window(middle: object, window: dict | None) -> tuple[float, float] | None:
    """A point middles.js gave, when it is two numbers in the window (when its size is known);
    else None."""
    if not isinstance(middle, list) or len(middle) != 2:
        return None
    x, y = middle
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
               for v in (x, y)):
        return None
    width, height = (window["width"], window["height"]) if window else (math.inf, math.inf)
    return (x, y) if 0 <= x <= width and 0 <= y <= height else None
