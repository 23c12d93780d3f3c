"""In-page mouse input with smooth, person-like movement (Playwright's page.mouse)."""

from __future__ import annotations

import asyncio
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
    point before each press: it clears what may have come over the game (webbot.way.Way.guard,
    whose `every_s=0` checks now, however recently it last did).
    """

    def __init__(self, page: Page, *, step_px: float = 12, pause_ms: float = 0,
                 guard: Callable[..., None] | None = None,
                 others: Callable[[], int] = lambda: 0) -> None:
        self.page = page
        self.step_px = step_px
        self.pause_ms = pause_ms
        self.position: Point | None = None
        # When the last input was taken by the page (time.monotonic()): a picture meant to
        # show what an input did must be drawn after it (webbot.screen). Not moved by a hover
        # sent soon (hover_soon), which is no input a picture must show.
        self.acted_at = -math.inf
        self.pressed_at = -math.inf  # when the last click's press was sent (time.monotonic())
        self.guard = guard
        # How many things have been done to the page by others (the Way's consent answers and
        # cover presses, which may move the mouse): while unchanged, the mouse rests where it
        # was last moved.
        self.others = others
        self._others_seen = others()
        self._gesture: asyncio.Task | None = None  # inputs under way (the *_soon calls)

    def move_to(self, x: float, y: float, step_px: float | None = None,
                steps: int | None = None) -> None:
        self.finish()
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
        self.finish()
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
        self.finish()
        self._down(button)
        self._up(button)
        self.acted_at = time.monotonic()

    def drag(self, start: Point, end: Point, step_px: float | None = None,
             steps: tuple[int | None, int | None] = (None, None)) -> None:
        """Move to `start` and press, move smoothly to `end`, release there.

        Each intermediate move costs a frame of the page (~16 ms headless), so a game that
        only needs the path's ends can take longer steps, or fewer (`steps`: moves to reach
        the start, moves to drag; None: one per `step_px`)."""
        self.finish()
        if self.guard:
            self.guard(*start)
        self.hover(*start, step_px, steps[0])  # (no moves on the spot when it rests there)
        self._down()
        self.move_to(*end, step_px, steps[1])
        self._up()
        self.acted_at = time.monotonic()

    def press_key(self, key: str) -> None:
        """A key pressed and released on the page (Escape, say)."""
        self.finish()
        answer.key(self.page, key)
        self.acted_at = time.monotonic()

    # -- inputs that go out while the caller goes on ---------------------------------------
    # A drag takes a page frame for each of its inputs: done in one call, the bot sees none of
    # the frames drawn meanwhile (a Burrito Bison launch: 30-45 of them, the most a round lost).
    def drag_soon(self, start: Point, end: Point, step_px: float | None = None,
                  steps: tuple[int | None, int | None] = (None, None)) -> None:
        """As `drag`, but after the guard's check the moves onto `start`, the press, the moves
        to `end` and the release go out one after another on Playwright's loop, each once the
        page has taken the one before, while the caller goes on: its calls into the page (a
        look's wait for a frame) let them out. `busy` until the page has taken the release;
        any other input waits for it (`finish`). No pacing (`pause_ms`)."""
        self.finish()
        if self.guard:
            self.guard(*start)
        dragged = path(start, end, step_px or self.step_px, steps=steps[1])
        self._send([*self._moves_onto(start, step_px, steps[0]), ("down", *start),
                    *(("move", x, y) for x, y in dragged), ("up", *end)], end)

    def click_soon(self, x: float, y: float, step_px: float | None = None,
                   steps: int | None = None) -> None:
        """As `click` (the left button), the moves, the press and the release going out as
        `drag_soon`'s do."""
        self.finish()
        if self.guard:
            self.guard(x, y)
        self.pressed_at = time.monotonic()
        self._send([*self._moves_onto((x, y), step_px, steps), ("down", x, y), ("up", x, y)],
                   (x, y))

    def hover_soon(self, x: float, y: float, step_px: float | None = None,
                   steps: int | None = None) -> None:
        """As `hover`, the moves going out as `drag_soon`'s do while the caller goes on. Not
        an input a look must show (`acted_at` stays): a hand made ready over what a game takes
        on a press, whose press comes next (a picture asked before the moves still shows the
        game as it is)."""
        self.finish()
        moves = self._moves_onto((x, y), step_px, steps)
        if moves:
            self._send(moves, (x, y), acts=False)

    @property
    def busy(self) -> bool:
        """Inputs sent by drag_soon, click_soon or hover_soon are not all taken by the page
        yet."""
        return self._gesture is not None and not self._gesture.done()

    def finish(self, seconds: float = answer.ANSWER_S) -> None:
        """The inputs under way waited for, and their error raised (once) if they failed
        (NoAnswer: the page took none within `seconds`)."""
        gesture = self._gesture
        if gesture is None:
            return
        if not gesture.done():
            try:
                answer.settled(self.page, gesture, "the mouse", seconds)
            except answer.NoAnswer:
                if gesture.done():  # (its own input ran out of time: said once, here)
                    self._gesture = None
                raise
        self.check()

    def check(self) -> None:
        """The error of the inputs sent, raised (once) if they have failed: a later look
        tells what the bot's inputs met."""
        gesture = self._gesture
        if gesture is None or not gesture.done():
            return
        self._gesture = None
        error = None if gesture.cancelled() else gesture.exception()
        if isinstance(error, TimeoutError):
            raise answer.NoAnswer("the page stopped answering: the mouse got no answer within "
                                  f"{answer.ANSWER_S:g} s")
        if error is not None:
            raise error

    def _moves_onto(self, point: Point, step_px: float | None, steps: int | None
                    ) -> list[tuple[str, float, float]]:
        if self.rests_at(*point):
            return []
        if self.position is None:
            return [("move", *point)]
        return [("move", x, y) for x, y in path(self.position, point,
                                                 step_px or self.step_px, steps=steps)]

    def _send(self, inputs: list[tuple[str, float, float]], ends_at: Point,
              acts: bool = True) -> None:
        async def sent() -> None:
            await answer.mouse_soon(self.page, inputs)
            if acts:
                self.acted_at = time.monotonic()

        self.position = ends_at
        self._others_seen = self.others()
        self._gesture = answer.background(self.page, sent())

    def _move(self, x: float, y: float) -> None:
        answer.mouse_move(self.page, x, y)

    def _down(self, button: str = "left") -> None:
        answer.mouse_button(self.page, button, down=True)

    def _up(self, button: str = "left") -> None:
        answer.mouse_button(self.page, button, down=False)
