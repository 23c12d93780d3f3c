"""In-page mouse input with smooth, person-like movement (Playwright's page.mouse)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from playwright.sync_api import Page

from webbot import answer

Point = tuple[float, float]


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)  # smoothstep: slow start, slow finish, like a hand


def path(start: Point, end: Point, step_px: float = 12, max_steps: int = 40,
         steps: int | None = None) -> list[Point]:
    """Points from `start` (excluded) to `end` (included), closer together near both ends:
    `steps` of them, or one per `step_px` (3 to `max_steps`)."""
    distance = math.dist(start, end)
    steps = steps or max(3, min(max_steps, math.ceil(distance / step_px)))
    (x0, y0), (x1, y1) = start, end
    return [
        (x0 + (x1 - x0) * _ease(i / steps), y0 + (y1 - y0) * _ease(i / steps))
        for i in range(1, steps + 1)
    ]


class Mouse:
    """Moves, clicks and drags at page (CSS pixel) coordinates.

    `pause_ms` is pacing between intermediate moves, for games that poll input once per
    animation frame; it is not a way of waiting for the game. `guard` is called with the page
    point before each press: it clears what may have come over the game (webbot.way.Way.guard).
    """

    def __init__(self, page: Page, *, step_px: float = 12, pause_ms: float = 0,
                 guard: Callable[[float, float], None] | None = None,
                 others: Callable[[], int] = lambda: 0) -> None:
        self.page = page
        self.step_px = step_px
        self.pause_ms = pause_ms
        self.position: Point | None = None
        # When the last input was taken by the page (time.monotonic()): a picture meant to
        # show what an input did must be drawn after it (webbot.screen).
        self.acted_at = -math.inf
        self.pressed_at = -math.inf  # when the last click's press was sent (time.monotonic())
        self.guard = guard
        # How many things have been done to the page by others (the Way's consent answers and
        # cover presses, which may move the mouse): while unchanged, the mouse rests where it
        # was last moved.
        self.others = others
        self._others_seen = others()

    def move_to(self, x: float, y: float, step_px: float | None = None,
                steps: int | None = None) -> None:
        if self.position is None:
            self._move(x, y)
        else:
            for px, py in path(self.position, (x, y), step_px or self.step_px, steps=steps):
                self._move(px, py)
                if self.pause_ms:
                    answer.pause(self.page, self.pause_ms)
        self.position = (x, y)
        self._others_seen = self.others()
        self.acted_at = time.monotonic()

    def rests_at(self, x: float, y: float) -> bool:
        """Whether the mouse is still where it was last moved, at (x, y): nothing else has
        moved it since."""
        return self.position is not None and math.dist(self.position, (x, y)) < 0.5 \
            and self.others() == self._others_seen

    def hover(self, x: float, y: float, step_px: float | None = None,
              steps: int | None = None) -> None:
        """The mouse onto (x, y), unless it rests there already (a move waits for a page
        frame; a still mouse sends none, as a hand's does not)."""
        if not self.rests_at(x, y):
            self.move_to(x, y, step_px, steps)

    def click(self, x: float, y: float, button: str = "left",
              step_px: float | None = None, steps: int | None = None) -> None:
        if self.guard:
            self.guard(x, y)
        self.hover(x, y, step_px, steps)  # (a press again on a button that did not take)
        self.pressed_at = time.monotonic()
        self._down(button)
        self._up(button)
        self.acted_at = time.monotonic()

    def press(self, button: str = "left") -> None:
        """Press and release where the mouse is (it was moved there by move_to, and nothing
        else has clicked since: a Playwright click elsewhere moves the mouse)."""
        self._down(button)
        self._up(button)
        self.acted_at = time.monotonic()

    def drag(self, start: Point, end: Point, step_px: float | None = None,
             steps: tuple[int | None, int | None] = (None, None)) -> None:
        """Move to `start` and press, move smoothly to `end`, release there.

        Each intermediate move costs a frame of the page (~16 ms headless), so a game that
        only needs the path's ends can take longer steps, or fewer (`steps`: moves to reach
        the start, moves to drag; None: one per `step_px`)."""
        if self.guard:
            self.guard(*start)
        self.hover(*start, step_px, steps[0])  # (no moves on the spot when it rests there)
        self._down()
        self.move_to(*end, step_px, steps[1])
        self._up()
        self.acted_at = time.monotonic()

    def press_key(self, key: str) -> None:
        """A key pressed and released on the page (Escape, say)."""
        answer.key(self.page, key)
        self.acted_at = time.monotonic()

    def _move(self, x: float, y: float) -> None:
        answer.mouse_move(self.page, x, y)

    def _down(self, button: str = "left") -> None:
        answer.mouse_button(self.page, button, down=True)

    def _up(self, button: str = "left") -> None:
        answer.mouse_button(self.page, button, down=False)
