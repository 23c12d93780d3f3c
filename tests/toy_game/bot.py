"""The Lights bot: look at the board, click the lit square, until the board is green."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from webbot.errors import WebbotError
from webbot.game import GameSpec
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


def play(session: Session, report: Callable[[str], None] = print) -> int:
    """Click lit squares until the board is green; the number of clicks."""
    screen = session.game_screen(GAME, report=report)
    clicks = 0
    while (seen := read((frame := screen.grab("board")).image)) != "done":
        if seen is None:
            raise WebbotError("the Lights board is not readable")
        session.mouse.click(*frame.to_page(*(v * frame.scale for v in SQUARES[seen])))
        clicks += 1
        screen.wait_until(lambda f, before=seen: read(f.image) != before,
                          what="the next light")
    report(f"lights: {clicks} clicks, the board is green")
    return clicks
