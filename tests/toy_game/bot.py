"""The Lights bot: look at the board, click the lit square, until the board is green."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from webbot.errors import WebbotError
from webbot.game import GameSpec
from webbot.play import Playable
from webbot.play import play as run
from webbot.session import Session

SQUARES = [(15 + (k % 3) * 75 + 30, 15 + (k // 3) * 75 + 30) for k in range(9)]  # centres


def read(image: np.ndarray) -> str | int | None:
    """"done", the lit square's number, or None when the picture is not the board."""
    if image.shape[0] < 200 or image.shape[1] < 200:
        return None
    scale = image.shape[1] / 240
    colours = [image[int(y * scale), int(x * scale)].astype(int) for x, y in SQUARES]
    red = [k for k, (b, g, r) in enumerate(colours) if r > 200 and g < 100 and b < 100]
    if all(g > 150 and r < 100 and b < 100 for b, g, r in colours):
        return "done"
    return red[0] if len(red) == 1 else None


GAME = GameSpec("Lights", "canvas", lambda c: read(c.grab().image) is not None,
                appears_within_s=10)


def next_light(seen: str | int) -> int | None:
    """The policy: the lit square, or None when the board is green."""
    return None if seen == "done" else int(seen)


class Lights:
    """Lights as a game of the play loop: observe the board, click one square a step."""

    def __init__(self, session: Session, report: Callable[[str], None]) -> None:
        self.session, self.report, self.clicks = session, report, 0

    def reset(self) -> str | int:
        self.screen = self.session.game_screen(GAME, report=self.report)
        return self._look()

    def step(self, square: int) -> str | int:
        x, y = SQUARES[square]
        self.session.mouse.click(*self.grab.to_page(x * self.grab.scale, y * self.grab.scale))
        self.clicks += 1
        self.screen.wait_until(lambda f: read(f.image) != square, what="the next light")
        return self._look()

    def result(self) -> int:
        self.report(f"lights: {self.clicks} clicks, the board is green")
        return self.clicks

    def _look(self) -> str | int:
        self.grab = self.screen.grab("board")
        seen = read(self.grab.image)
        if seen is None:
            raise WebbotError("the Lights board is not readable")
        return seen


def player(session: Session, report: Callable[[str], None] = lambda line: None
           ) -> Playable[str | int, int, int]:
    """Lights' one factory (its registration's player): the game on `session` and its
    policy."""
    return Playable.on(session, Lights(session, report), next_light, report)


def play(session: Session, report: Callable[[str], None] = print) -> int:
    """Click lit squares until the board is green; the number of clicks."""
    return run(player(session, report))
