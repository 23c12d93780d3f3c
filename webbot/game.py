"""The one contract every game offers the code that looks for it on a page.

A game names the kind of element it may live in (`candidates`, a CSS selector) and answers
"is this my game?" for one such element found anywhere in the page (`recognises`), from what
its own perception sees there: a grab of the element for the canvas games, the frame's HTML for
the Daily SET. The search (webbot.finder) knows no game in particular.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import ElementHandle, Error, Frame

from webbot import answer
from webbot.inputs import decode_page_picture
from webbot.page_scripts import page_script
from webbot.screen import Box, Camera, Grab
from webbot.shown import shown


@dataclass
class Candidate:
    """An element of some frame of the page that may hold the game."""

    frame: Frame
    element: ElementHandle
    box: Box  # in the page's viewport, CSS pixels
    camera: Camera = field(repr=False)
    _grab: Grab | None = field(default=None, repr=False)
    _html: str | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return describe(self.element)

    @property
    def where(self) -> str:
        return (f"{self.name} {self.box.width:.0f}x{self.box.height:.0f} in "
                f"{frame_name(self.frame)}")

    def grab(self) -> Grab:
        """A picture of the element (scrolled into view first when it is not in the window),
        taken once."""
        if self._grab is None:
            box = answer.box(self.element) or {}
            view = self.frame.page.viewport_size
            if not box or view is None or not Box.of(box).within(view["width"], view["height"],
                                                                 slack=0.5):
                answer.scroll_into_view(self.element, 5)  # (a scroll waits for frames)
                box = answer.box(self.element) or {}
            if not box.get("width") or not box.get("height"):
                raise Error("not displayed")
            png = self.camera.shoot(box)
            image = decode_page_picture(png, "a screenshot of the element")
            self._grab = Grab(image, Box.of(box))
        return self._grab

    @property
    def grabbed(self) -> Grab | None:
        """The picture taken of the element, if one was (as the game was recognised)."""
        return self._grab

    def html(self) -> str:
        """The frame's HTML, read once (as the game was recognised by it)."""
        if self._html is None:
            self._html = answer.content(self.frame)
        return self._html


@dataclass(frozen=True)
class GameSpec:
    name: str  # as the user knows it: "Puzlogic"
    candidates: str  # CSS selector of the elements the game may be drawn in
    recognises: Callable[[Candidate], bool]
    min_size: tuple[int, int] = (160, 120)  # smaller elements are not looked at
    needs_focus: bool = False  # give its frame the keyboard focus before playing
    # When no frame has even one candidate element after this long, the search stops (a
    # canvas may still be loading or covered for longer: that is waited out to the end).
    appears_within_s: float = 45.0


def frame_name(frame: Frame) -> str:
    return "the top page" if frame.parent_frame is None else f"frame {shown(frame.url, 80)}"


def describe(element: ElementHandle) -> str:
    """tag#id.class, the way a reader would name the element."""
    try:
        return shown(answer.evaluate(element, page_script("element_name")))
    except Error:
        return "a detached element"
