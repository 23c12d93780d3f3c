"""Act: the bot's hands on the Burrito Bison canvas. Points are in the pixels of the frame the
bot matched (at the template pack's scale), turned into page points through the frame's box as
it is now."""

from __future__ import annotations

from webbot.burrito_bison.model import Point
from webbot.mouse import Mouse
from webbot.screen import Grab

DRAG_STEP_PX = 25    # the game follows a launch drag, so it gets a hand-like path


def page_point(grab: Grab, point: Point) -> Point:
    return grab.to_page(*point)  # through where the canvas is now, not when it was grabbed


class Hands:
    def __init__(self, mouse: Mouse) -> None:
        self.mouse = mouse

    def click(self, grab: Grab, point: Point) -> None:
        # A flick: one move (a frame) to the point, the game only needs where the click ends.
        self.mouse.click(*page_point(grab, point), steps=1)

    def click_soon(self, grab: Grab, point: Point) -> None:
        """As `click`, the bot looking on meanwhile (`busy` until the page has taken it)."""
        self.mouse.click_soon(*page_point(grab, point), steps=1)

    def launch(self, grab: Grab, start: Point, end: Point) -> None:
        """Flick onto the ring post, press, pull the ropes back, let go: the bot looking on
        meanwhile (`busy` until the page has taken the release)."""
        start_at, end_at = grab.to_page_all(start, end)  # (one measure of the canvas)
        self.mouse.drag_soon(start_at, end_at, step_px=DRAG_STEP_PX, steps=(1, None))

    @property
    def busy(self) -> bool:
        """Inputs of a launch or a click are still going out: any picture may show them
        half done."""
        return self.mouse.busy

    def check(self) -> None:
        """Raises what the inputs sent met, if they failed (a page gone, one not answering)."""
        self.mouse.check()

    def finish(self) -> None:
        """Waits for the inputs still going out (and raises what they met)."""
        self.mouse.finish()

    def escape(self) -> None:
        """Escape on the keyboard (a popup the bot does not know may close on it)."""
        self.mouse.press_key("Escape")
