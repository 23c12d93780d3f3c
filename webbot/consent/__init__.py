"""Past any consent dialog: a chain of links, each tried when the one before it has not closed
the dialog, and a failure only when every link has been tried.

1. DuckDuckGo's autoconsent (`engine.py`), in every frame: the vendors its rules know, and
   unbranded dialogs by its own word lists; it declines, and accepts only where it cannot.
   What it says comes through the page's own world, where any script can say it too: it is
   asked to answer only a dialog the bot sees there itself, and its answer is told only once
   the bot sees that dialog gone (`look.py`).
2. The bot's own known vendors, then any button by its words (`buttons.py`), in every frame
   and open shadow root: for a dialog the library does not know or could not close. These
   wait a moment for the library first, so that what it knows it does.

A press counts only when the frame shows no consent button afterwards; a press that opened
another page of the dialog (a vendor's settings) goes on from there; a button that changed
nothing is not pressed again, and the next one is tried.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext, ElementHandle, Error, Frame, Page

from webbot import answer
from webbot.consent.buttons import Button, consent_buttons
from webbot.consent.engine import Engine, Library, find_library
from webbot.consent.look import still_there

# Shown a button the bot is about to press outside the game, and what pressing it means.
ShowPress = Callable[[ElementHandle, str], None]

# How long the library has to act on a dialog the bot sees before the bot's own links do.
LIBRARY_FIRST_S = 2.5
LIBRARY_IN_FRAME_S = 0.5  # ... in a frame it has no rules written for (engine.knows_the_page)
CLOSE_S = 3.0  # a pressed dialog closes within this, or the press did nothing
LAYER_S = 0.5  # the pressed button gone this long while others show: another page of it


@dataclass
class Consent:
    """The consent chain of one browser context."""

    engine: Engine | None
    seen_at: dict[Frame, float] = field(default_factory=dict)
    steps: dict[Frame, list[str]] = field(default_factory=dict)
    failed: dict[tuple[str, str, str], str] = field(default_factory=dict)

    @property
    def library(self) -> Library | None:
        return self.engine.library if self.engine else None

    def answer(self, page: Page, covered: Callable[[Button], bool] = lambda b: False,
               show_press: ShowPress | None = None) -> list[str]:
        """One pass of the chain over every frame; what was done, a line each. A button that
        something else covers (the game page's own dialog under the portal's preroll) is
        left for a later pass. `show_press` is shown each button before it is pressed, with
        what pressing it means (the run's annotated frames)."""
        closed = self._library_closed()
        if self.engine and self.engine.busy():
            return closed
        now = time.monotonic()
        for frame in list(page.frames):
            try:
                buttons = [b for b in consent_buttons(frame) if b.key not in self.failed]
            except answer.NoAnswer:
                # A frame too busy to answer now (a flooding page, a busy machine) shows no
                # dialog this pass; the next pass looks again. A page that never answers
                # ends the run through the next call that needs an answer from it.
                continue
            if not buttons:
                self.seen_at.pop(frame, None)
                continue
            first = self.seen_at.setdefault(frame, now)
            # The library first, where it has rules for the page; in a frame that only its
            # generic frame rules reach (a game's own page in a portal) it gets a moment, for
            # its few rules coded to know a frame by its address to say they found it.
            if self.engine and now - first < (LIBRARY_FIRST_S if self.engine.knows(frame)
                                              else LIBRARY_IN_FRAME_S):
                continue
            for button in buttons:
                if covered(button):
                    break
                line = self._press(page, frame, button, show_press)
                if line is not None:
                    closed.append(line)
                    break
        return closed

    def settle(self, page: Page) -> list[str]:
        """Let the library finish what it is doing (its last message may still be on its way
        when the game shows uncovered); what it finished, in words."""
        if not self.engine or self.engine.quiet():
            return []  # (a popup it finds later is heard as news in the middle of the game)
        answer.pause(page, 20)  # a Playwright call: messages sent meanwhile arrive
        while self.engine.busy():
            answer.pause(page, 50)
        return self._library_closed()

    def news(self) -> list[str]:
        """What the library finished on its own since the last look (a dialog that came in
        the middle of a game), in words; cheap when there is nothing."""
        return self._library_closed()

    def _library_closed(self) -> list[str]:
        """What the library finished, in words. It was asked to answer only a dialog the bot saw
        itself (engine.py); it is believed only when the bot sees that dialog gone: while the
        frame still shows it, or a consent button, the library's next reply is waited for (the
        one told may have come from another script), and after its time the frame is left to
        the next links, which say so when all fails."""
        if not self.engine:
            return []
        closed = []
        for frame, state in self.engine.step():
            if still_there(frame, state.dialog, self.engine.own_popup(state)):
                self.engine.not_yet(state)
            else:
                closed.append(self.engine.line(state))
        return closed

    def _press(self, page: Page, frame: Frame, button: Button, show_press: ShowPress | None
               ) -> str | None:
        """Press one button; the line to report when the dialog closed, else None."""
        steps = self.steps.setdefault(frame, [])
        if show_press is not None:
            show_press(button.element, f"pressing '{button.label}' ({button.vendor}, "
                                       f"{button.answer})")
        try:
            answer.click(button.element, CLOSE_S)
        except Error as exc:
            # A press may land and close the dialog while Playwright still waits on it (a
            # cross-site frame that goes with its dialog, a busy machine): the dialog tells.
            if not frame.is_detached() and consent_buttons(frame):
                self.failed[button.key] = f"could not be pressed ({str(exc).splitlines()[0]})"
                return None
        pressed = time.monotonic()
        while True:
            answer.pause(page, 100)  # a Playwright wait: the library's messages go on
            left = consent_buttons(frame)
            if not left or frame.is_detached():
                self.steps.pop(frame, None)
                self.seen_at.pop(frame, None)
                if self.engine is not None:
                    self.engine.closed_by_others(frame)
                how = " (no way to decline)" if button.answer == "accepted" else ""
                path = ", then ".join(f"'{s}'" for s in [*steps, button.label])
                by = ("its words" if button.vendor == "a consent dialog"
                      else "the bot's own vendor list")
                if self.engine is None:
                    by += "; autoconsent not installed"
                return f"consent: {button.vendor}, {button.answer}{how} ({path}; by {by})"
            still = _showing(button)
            waited = time.monotonic() - pressed
            if frame.is_detached():
                continue  # the frame went with its dialog since the look: closed
            if not still and waited >= LAYER_S:
                steps.append(button.label)  # another page of the dialog: go on from there
                self.failed[button.key] = "opened another page of the dialog"
                return None
            if waited >= CLOSE_S:
                self.failed[button.key] = "did not close"
                return None

    def tried(self) -> str:
        """What the chain tried, for a failure line."""
        parts = [self.engine.summary() if self.engine
                 else "autoconsent: not installed (bash scripts/setup.sh installs it)"]
        own = [f"'{label}' on {vendor} ({why})" for (vendor, _, label), why in self.failed.items()
               if why != "opened another page of the dialog"]
        parts.append("the bot's own buttons: " + ("; ".join(own) if own else "none pressed"))
        return "; ".join(parts)


def _showing(button: Button) -> bool:
    try:
        return answer.visible(button.element)
    except Error:
        return False


def install(target: BrowserContext | Page) -> Consent:
    """The chain of a fresh browser context, or of one page of a context that is not the
    bot's (a tab of the user's own browser), put on it before it opens anything: the library,
    when it is installed, runs in every frame from then on. Whoever made the context keeps the
    chain (webbot.browser.Tab)."""
    library = find_library()
    engine = Engine(library) if library else None
    if engine:
        engine.install(target)
    return Consent(engine)
