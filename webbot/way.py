"""Clearing the way to a game on a real page: cookie-consent dialogs, preroll ads, and anything
else that covers the game.

Consent dialogs are answered by the consent chain (webbot.consent: DuckDuckGo's autoconsent,
then the bot's own vendors and words), declining where there is a way to decline. Whatever
still covers the game (a preroll with its countdown, say) is closed by its skip or close
button once it has one, or waited out.
All of it is found through the DOM, as a person's eyes would find a button; the game's own
state is never read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field

from playwright.sync_api import ElementHandle, Error, Frame, Page

from webbot import answer
from webbot.answer import NoAnswer
from webbot.consent import Consent, ShowPress
from webbot.consent.buttons import CONSENT_CONTEXT
from webbot.deadline import Deadline
from webbot.errors import WebbotError
from webbot.page_scripts import page_script
from webbot.screen import Box
from webbot.shown import shown

# What closes or gets past a cover that is not a consent dialog: a preroll's skip, a splash's
# play button, an ad-blocker notice's way on, a newsletter or sign-up popup's no or close.
CLOSE_WORDS = (
    r"^(skip|skip ad|skip ads|skip this ad|close|close ad|close this|dismiss|[x×✕]|"
    r"play|play now|play game|play the game|click to play|tap to play|start|start game|"
    r"continue|continue to (the )?game|continue without disabling|continue anyway|"
    r"no,? thanks|no thank you|not now|maybe later|later|remind me later|i understand|"
    r"passer|passer la pub|fermer|ignorer|jouer|non merci|plus tard|"
    r"überspringen|werbung überspringen|schließen|spielen|jetzt spielen|nein,? danke|später|"
    r"saltar|cerrar|jugar|no,? gracias|más tarde|salta|chiudi|gioca|no,? grazie|più tardi)$")


# Where, as fractions of the game's box, a cover is looked for: the centre and four inner points.
PROBES = ((0.5, 0.5), (0.15, 0.15), (0.85, 0.15), (0.15, 0.85), (0.85, 0.85))
COVER_PATIENCE_S = 45.0  # a preroll runs 15-30 s; waiting longer is waiting for nothing
GUARD_EVERY_S = 0.5


@dataclass(frozen=True)
class Cover:
    """Something on top of the game: what it is, and the button that closes it or gets past
    it (skip, close, play, no thanks), if it has one."""

    what: str
    button: ElementHandle | None = None


@dataclass(frozen=True)
class Clearance:
    """What clearing the way to a game works with: the consent chain of the page's context
    (webbot.consent), where each thing done is said as it is done (a dialog answered, an ad
    skipped: a line each), and what is shown each button before it is pressed (the run's
    annotated frames), if anything."""

    consent: Consent
    report: Callable[[str], None] = field(default=lambda line: None)
    show_press: ShowPress | None = None

    def tell(self, lines: list[str]) -> list[str]:
        """Each line of what was done said through `report`; the lines."""
        for line in lines:
            self.report(line)
        return lines


def answer_consent(page: Page, clearance: Clearance) -> list[str]:
    """One pass of the consent chain over every frame; what was done, a line each (said
    through clearance.report too). A dialog that something else covers (a game page's own
    dialog under the portal's preroll) is left for a later pass, once the cover is gone."""
    return clearance.tell(clearance.consent.answer(
        page, covered=lambda button: _covered(page, button.element, clearance),
        show_press=clearance.show_press))


def _covered(page: Page, button: ElementHandle, clearance: Clearance) -> bool:
    def box() -> Box:
        found = answer.box(button)
        if not found:
            raise WebbotError("the button is not displayed")
        return Box.of(found)

    try:
        way = Way(page, button, box, clearance)
        cover = way.cover(((0.5, 0.5),))
        if cover is not None and cover.what == "outside":
            answer.scroll_into_view(button, 3)
            cover = way.cover(((0.5, 0.5),))
    except (Error, WebbotError):
        return False  # let the click say what is wrong
    return cover is not None and cover.what != "outside"


class Way:
    """The path from the top page to the game element: frames and the iframe elements that
    hold them. It tells what covers the game and clears it, with what `clearance` gives;
    `box` measures the game on the page. What it does is added to `cleared` (the lines of what
    was done on the way to the game, when it is handed one)."""

    def __init__(self, page: Page, element: ElementHandle, box: Callable[[], Box],
                 clearance: Clearance, cleared: list[str] | None = None,
                 frame: Frame | None = None) -> None:
        self.page = page
        self.element = element
        self.box = box
        self.clearance = clearance
        # (`frame`: the element's own, when known: not asked of the browser again)
        self.holders = self._holders(frame or answer.owner_frame(element))
        self._checked = 0.0
        self._asked: asyncio.Task | None = None  # a check asked without waiting (watch)
        self.cleared = [] if cleared is None else cleared
        self._shown: set[str] = set()  # the presses drawn on a frame, each once
        # Called before the way clears anything (a press, a consent answer's click, a scroll):
        # the game's mouse ends what it has under way first (a launch's drag, which a press
        # elsewhere would break).
        self.before_press: Callable[[], None] = lambda: None

    def settle(self) -> None:
        """At the game's end: what the consent library finished since the last look, said (a
        dialog it declined as the last move was made would otherwise go unsaid)."""
        with suppress(Error, WebbotError):  # (the page gone: nothing more to see of it)
            self._record(self.clearance.consent.settle(self.page))

    def _record(self, lines: list[str]) -> None:
        """Lines of what was cleared, kept in `cleared` and said."""
        self.cleared += self.clearance.tell(lines)

    @staticmethod
    def _holders(frame: Frame | None) -> list[ElementHandle]:
        """The iframe elements from the top page down to the game's frame."""
        chain: list[ElementHandle] = []
        while frame is not None and frame.parent_frame is not None:
            chain.insert(0, answer.frame_element(frame))
            frame = frame.parent_frame
        return chain

    def cover(self, points: tuple[tuple[float, float], ...] = PROBES,
              element: ElementHandle | None = None, box: Box | None = None) -> Cover | None:
        """What is on top of the game (or of `element`, an element of the game's frame whose
        box is `box`) at the probe points (fractions of its box), if anything; looked at in
        every frame on the way down."""
        target = element or self.element
        game = box or self.box()
        page_points = [(game.x + fx * game.width, game.y + fy * game.height) for fx, fy in points]
        for holder in [*self.holders, target]:
            if holder is target:
                places = list(points)
            else:
                outer = answer.box(holder)
                if not outer or not outer["width"] or not outer["height"]:
                    return Cover(f"{_name(holder)}, not displayed")
                places = [((x - outer["x"]) / outer["width"], (y - outer["y"]) / outer["height"])
                          for x, y in page_points]
            args = [places, CLOSE_WORDS, CONSENT_CONTEXT]
            # the usual answer: one round trip
            if answer.evaluate(holder, page_script("cover_name"), args) is None:
                continue
            found = answer.properties(answer.evaluate_handle(holder, page_script("cover"), args))
            if found:
                what = answer.value(found["0"])
                return Cover(shown(what), found["1"].as_element() if what != "outside" else None)
        return None

    def watch(self, every_s: float = GUARD_EVERY_S, *, beside: bool = False) -> None:
        """Before a picture of the game: clear anything that has come over it since the last
        look (a newsletter popup in the middle of a level would otherwise hide the game from
        the bot's eyes). Checked at most every half second. `beside`: the check is asked of
        the page without waiting for its answer, which a later call takes (a look on the
        screencast, while the page is busy drawing: a question waits on it)."""
        if beside and every_s:
            self._watch_beside(every_s)
            return
        if time.monotonic() - self._checked < every_s:
            return
        self._record(self.clearance.consent.news())
        try:
            covered = self.cover() is not None
        except Error:
            covered = False  # the frame is changing; the picture will tell
        if covered:
            self.clear()
        self._checked = time.monotonic()

    def _watch_beside(self, every_s: float) -> None:
        asked = self._asked
        if asked is None:
            if time.monotonic() - self._checked >= every_s:
                self._asked = answer.background(self.page, self._covered_name())
            return
        if not asked.done():
            return
        self._asked = None
        self._record(self.clearance.consent.news())
        try:
            covered = not asked.cancelled() and asked.result() is not None
        except Error:
            covered = False  # the frame is changing; the picture will tell
        except TimeoutError:
            raise NoAnswer(f"the page stopped answering: a script got no answer within "
                           f"{answer.ANSWER_S:g} s") from None
        if covered:
            self.clear()  # (something covers the game: cleared as a look at once would)
        self._checked = time.monotonic()

    async def _covered_name(self) -> str | None:
        """What covers the game at the probe points, by name only (cover's usual answer),
        asked through Playwright's own objects for a caller that does not wait for it."""
        game = await answer.box_soon(self.element)
        if not game:
            return "the game, not displayed"
        page_points = [(game["x"] + fx * game["width"], game["y"] + fy * game["height"])
                       for fx, fy in PROBES]
        for holder in [*self.holders, self.element]:
            places = list(PROBES)
            if holder is not self.element:
                outer = await answer.box_soon(holder)
                if not outer or not outer["width"] or not outer["height"]:
                    return "a frame on the way, not displayed"
                places = [((x - outer["x"]) / outer["width"], (y - outer["y"]) / outer["height"])
                          for x, y in page_points]
            name = await answer.evaluated_soon(holder, page_script("cover_name"),
                                               [places, CLOSE_WORDS, CONSENT_CONTEXT])
            if name is not None:
                return str(name)
        return None

    def clear(self, patience_s: float = COVER_PATIENCE_S) -> None:
        """Answer consent, scroll the game into view, skip or wait out what covers it."""
        self.before_press()  # (a consent button's click, a scroll: after the mouse's inputs)
        deadline = Deadline(patience_s)
        while True:
            self.cleared += answer_consent(self.page, self.clearance)
            cover = self.cover()
            if cover is None:
                self._checked = time.monotonic()
                return
            if cover.what == "outside":
                answer.scroll_into_view(self.element, 5)
                if self.cover() is None:
                    continue
            elif cover.button is not None:
                try:
                    self._record([self.press(cover)])
                    continue
                except Error:
                    pass  # not clickable yet: wait on
            if deadline.passed():
                tried = self.clearance.consent.tried()
                raise WebbotError(f"the game is covered by {cover.what} and nothing closed it "
                                  f"within {patience_s:g} s; tried {tried}")
            answer.pause(self.page, 250)

    def press(self, cover: Cover) -> str:
        """Press the cover's close button, shown on a frame first (--debug-dir, --report);
        the line that says so."""
        label = _label(cover.button)
        what = f"pressing '{label}' on {cover.what}"
        if (show := self.clearance.show_press) is not None and what not in self._shown:
            self._shown.add(what)  # (a button not clickable yet is tried again and again)
            show(cover.button, what)
        self.before_press()
        answer.click(cover.button, 3)
        return f"pressed '{label}' on {cover.what}"

    def guard(self, x: float, y: float, element: ElementHandle | None = None,
              box: Box | None = None, every_s: float = GUARD_EVERY_S) -> None:
        """Before a press at page point (x, y) on the game (or on `element` of its frame, whose
        box is `box`): clear anything that has come over it since the last look (a late
        consent popup, say). Checked at most every half second."""
        if time.monotonic() - self._checked < every_s:
            return
        game = box or self.box()
        point = ((x - game.x) / max(1e-6, game.width), (y - game.y) / max(1e-6, game.height))
        if self.cover((point,), element, game) is not None:
            self.clear()
        self._checked = time.monotonic()


def _name(element: ElementHandle) -> str:
    try:
        return shown(answer.evaluate(element, page_script("element_name")))
    except Error:
        return "an element"


def _label(element: ElementHandle) -> str:
    try:
        return shown(answer.inner_text(element)) or _name(element)
    except Error:
        return _name(element)
