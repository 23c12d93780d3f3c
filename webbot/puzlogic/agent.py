"""The Puzlogic bot as an agent over pixels: given what webbot/Puzlogic-v0 observes (the game's
800x600 picture, RGB), the next piece to drop and where. Its perception and decision are the
bot's (perceive, the solvers); nothing of the page."""

from __future__ import annotations

import numpy as np

from webbot.errors import WebbotError
from webbot.puzlogic.decide import is_placed, misplaced
from webbot.puzlogic.model import (
    LevelView,
    Picture,
    Placement,
    Puzzle,
    Solution,
    UnreadableScreen,
)
from webbot.puzlogic.perceive import Reader, classify, normalise
from webbot.puzlogic.solvers import solutions

LOOKS = 20  # second looks in a row at a board with something unread (a leaf crosses in ~2 s)
SIDE = 8  # the rows and columns an action may name (webbot/Puzlogic-v0)


class PuzlogicAgent:
    """Reads the board on every look, solves a puzzle once (again only when the board reads as
    another), and drops the first piece of the solution not yet on its cell. A board with a
    number unread (a leaf over it), or a picture of no level (a piece still moving), is looked
    at again, by an action that changes nothing; one that stays so, reads as no puzzle or has
    no solution is refused (UnreadableScreen) rather than played on a guess."""

    def __init__(self, solver: str = "auto") -> None:
        self.solver = solver
        self.reader = Reader()
        self._puzzle: Puzzle | None = None
        self._solution: Solution = []
        self._looks = 0  # second looks in a row

    def __call__(self, observation: np.ndarray) -> np.ndarray:
        picture = normalise(np.ascontiguousarray(observation[..., ::-1]))
        screen = classify(picture)
        view = self._read(picture) if screen == "level" else None
        if view is None or view.doubts:  # a leaf over a number, a piece still moving: a
            self._looks += 1  # second look, a few at most
            if self._looks > LOOKS:
                if view is None:
                    raise UnreadableScreen(f"the picture shows no level to play ({screen})")
                view.puzzle()  # (says what could not be read)
            return _look_again(view)
        self._looks = 0
        puzzle = view.puzzle()
        if puzzle != self._puzzle:
            found = solutions(puzzle, self.solver, limit=1)
            if not found:
                raise UnreadableScreen("the board as read has no solution, so something was "
                                       "misread; least certain: " + "; ".join(view.weakest()))
            self._puzzle, self._solution = puzzle, found[0]
        if misplaced(view, self._solution):
            raise WebbotError("a piece sits where the solution does not put it, and no action "
                              "takes a piece back")
        left = [p for p in self._solution if not is_placed(view, p)]
        if not left:
            raise WebbotError("every piece is on its cell, yet the level did not end")
        return np.array([_slot(view, left[0]), left[0].row, left[0].col])


    def _read(self, picture: Picture) -> LevelView | None:
        """The board, or None where the picture shows none yet (a level fading in)."""
        try:
            return self.reader.read_level(picture)
        except UnreadableScreen:
            return None


def _look_again(view: LevelView | None) -> np.ndarray:
    """An action that changes nothing, so the environment looks again: a cell off the board or
    holding a given number (Puzlogic-v0 names no piece there)."""
    if view is None:  # (no board seen: the cell that boards of the game never reach)
        return np.array([0, SIDE - 1, SIDE - 1])
    cells = [(r, c) for r in range(SIDE) for c in range(SIDE)
             if view.cells.get((r, c), 0) is not None]
    return np.array([0, *cells[0]])


def _slot(view: LevelView, placement: Placement) -> int:
    """The tray slot (left to right) of a piece like the placement's."""
    for slot, piece in enumerate(view.tray):
        if (piece.value, piece.color) == (placement.value, placement.color):
            return slot
    raise WebbotError(f"no {placement.value} ({placement.color}) left in the tray")
