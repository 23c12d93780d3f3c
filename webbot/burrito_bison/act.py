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

    def launch(self, grab: Grab, start: Point, end: Point) -> None:
        """Flick onto the ring post, press, pull the ropes back, let go."""
        start_at, end_at = grab.to_page_all(start, end)  # (one measure of the canvas)
        self.mouse.hover(*start_at, steps=1)
        self.mouse.drag(start_at, end_at, step_px=DRAG_STEP_PX)

    def escape(self) -> None:
        """Escape on the keyboard (a popup the bot does not know may close on it)."""
        self.mouse.press_key("Escape")
