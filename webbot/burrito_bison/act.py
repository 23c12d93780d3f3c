"""Act: the bot's hands on the Burrito Bison canvas. Points are in the pixels of the frame the
bot matched (at the template pack's scale), turned into page points through the frame's box as
it is now."""

from __future__ import annotations

from webbot.burrito_bison.model import Point
from webbot.mouse import Mouse
from webbot.screen import Grab

CLICK_STEP_PX = 150  # each in-page move costs about a frame; a click only needs its end
DRAG_STEP_PX = 25    # the game follows a launch drag, so it gets a hand-like path


def page_point(grab: Grab, point: Point) -> Point:
    return grab.to_page(*point)  # through where the canvas is now, not when it was grabbed


class Hands:
    def __init__(self, mouse: Mouse) -> None:
        self.mouse = mouse

    def click(self, grab: Grab, point: Point) -> None:
        # A flick: one move (a frame) to the point, the game only needs where the click ends.
        self.mouse.click(*page_point(grab, point), steps=1)

    def launch(self, grab: Grab, start: Point, end: Point) -> None:
        """Press on the ring post, pull the ropes back, let go."""
        self.mouse.hover(*page_point(grab, start), step_px=CLICK_STEP_PX)
        self.mouse.drag(page_point(grab, start), page_point(grab, end), step_px=DRAG_STEP_PX)

    def escape(self) -> None:
        """Escape on the keyboard (a popup the bot does not know may close on it)."""
        self.mouse.press_key("Escape")
