"""Act: the bot's hands on the Puzlogic canvas. Points are in the game's 800x600 coordinates,
turned into page points through the frame they were seen in, so any scale or zoom works."""

from __future__ import annotations

from dataclasses import dataclass

from webbot.mouse import Mouse
from webbot.puzlogic.vision import Picture
from webbot.screen import Frame

Point = tuple[float, float]


@dataclass(frozen=True)
class Seen:
    """A frame and the game cut out of it."""

    frame: Frame
    picture: Picture

    def page_point(self, point: Point) -> Point:
        return self.frame.to_page(*self.picture.to_image(*point))


class Hands:
    def __init__(self, mouse: Mouse) -> None:
        self.mouse = mouse

    def click(self, seen: Seen, point: Point) -> None:
        self.mouse.click(*seen.page_point(point))

    def drag(self, seen: Seen, start: Point, end: Point) -> None:
        """A quick hand: about a step per 80 game pixels (a piece follows the pointer)."""
        page_px_per_game_px = seen.picture.region.width / seen.frame.scale / 800
        self.mouse.drag(seen.page_point(start), seen.page_point(end),
                        step_px=80 * page_px_per_game_px)
