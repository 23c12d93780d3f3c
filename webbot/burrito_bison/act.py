"""Act: the bot's hands on the Burrito Bison canvas. Points are in the pixels of the frame the
bot matched (at the template pack's scale), turned into page points through the frame's box as
it is now."""

from __future__ import annotations

from webbot.burrito_bison.model import Point
from webbot.mouse import Mouse
from webbot.screen import Frame

CLICK_STEP_PX = 150  # each in-page move costs about a frame; a click only needs its end
DRAG_STEP_PX = 25    # the game follows a launch drag, so it gets a hand-like path


def page_point(frame: Frame, point: Point) -> Point:
    return frame.to_page(*point)  # through where the canvas is now, not when it was grabbed


class Hands:
    def __init__(self, mouse: Mouse) -> None:
        self.mouse = mouse

    def click(self, frame: Frame, point: Point) -> None:
        self.mouse.click(*page_point(frame, point), step_px=CLICK_STEP_PX)

    def launch(self, frame: Frame, start: Point, end: Point) -> None:
        """Press on the ring post, pull the ropes back, let go."""
        self.mouse.move_to(*page_point(frame, start), step_px=CLICK_STEP_PX)
        self.mouse.drag(page_point(frame, start), page_point(frame, end), step_px=DRAG_STEP_PX)
