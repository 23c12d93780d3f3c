"""Puzlogic puzzles and placements, read and written as JSON; and what the bot sees of the
game: the picture cut to the game, its grid, a level as read, the level buttons, and the
observation its policy gets.

The schema is that of the reference levels file: cells `[row, col, value|null]` (null is a free
cell), pieces `{"value", "color"}`, sums `{"line": "row"|"col", "index", "target", "counts":
"all"|"blue"|"white"}` (plus an optional "side" telling where the target is drawn).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from webbot.errors import WebbotError
from webbot.files import load_json
from webbot.puzlogic import schema
from webbot.puzlogic.schema import PuzzleError
from webbot.screen import Grab
from webbot.vision.region import Region

COLORS = ("blue", "white")
KINDS = ("all", "blue", "white")
LINES = ("row", "col")
SIDES = ("left", "right", "top", "bottom")
MAX_VALUE = schema.MAX_VALUE

Cell = tuple[int, int]


class NoSolution(WebbotError):
    """The puzzle, as described, has no solution."""


@dataclass(frozen=True, order=True)
class Piece:
    value: int
    color: str


@dataclass(frozen=True)
class Sum:
    line: str  # "row" or "col"
    index: int
    target: int
    counts: str = "all"  # which numbers of the line it adds up: all, blue or white pieces
    side: str | None = None

    def __str__(self) -> str:
        return f"{self.counts} sum {self.target} on {self.line} {self.index}"


@dataclass(frozen=True, order=True)
class Placement:
    row: int
    col: int
    value: int
    color: str

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)

    @property
    def piece(self) -> Piece:
        return Piece(self.value, self.color)


Solution = tuple[Placement, ...]


@dataclass(frozen=True)
class Puzzle:
    cells: dict[Cell, int | None]
    pieces: tuple[Piece, ...]
    sums: tuple[Sum, ...] = ()
    free: tuple[Cell, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "free", tuple(c for c, v in self.cells.items() if v is None))
        problem = _problem(self)
        if problem:
            raise PuzzleError(problem)

    def line_cells(self, line: str, index: int) -> list[Cell]:
        axis = 0 if line == "row" else 1
        return [cell for cell in self.cells if cell[axis] == index]

    @property
    def piece_counts(self) -> Counter[Piece]:
        return Counter(self.pieces)

    @classmethod
    def from_json(cls, data: Any, name: str = "the puzzle") -> Puzzle:
        """A puzzle from parsed JSON, or a PuzzleError naming the bad field."""
        return _parse(data, name)

    @classmethod
    def load(cls, path: str | Path) -> Puzzle:
        """A puzzle file (regular, UTF-8, at most 1 MB), or an InputError saying what is wrong."""
        return cls.from_json(load_json(path), str(path))

    def to_json(self) -> dict:
        def sum_json(s: Sum) -> dict:
            out = {"line": s.line, "index": s.index, "target": s.target, "counts": s.counts}
            return out | ({"side": s.side} if s.side else {})

        return {
            "cells": [[r, c, v] for (r, c), v in self.cells.items()],
            "pieces": [{"value": p.value, "color": p.color} for p in self.pieces],
            "sums": [sum_json(s) for s in self.sums],
        }


def placements_json(solution: Solution) -> dict:
    return {"placements": [[p.row, p.col, p.value, p.color] for p in sorted(solution)]}


def _parse(data: Any, name: str) -> Puzzle:
    fields = schema.check(data, name)
    cells: dict[Cell, int | None] = {}
    for n, (row, col, value) in enumerate(fields.cells):
        if (row, col) in cells:
            raise PuzzleError(f"{name}: cells[{n}]: cell ({row}, {col}) is listed twice")
        cells[(row, col)] = value
    pieces = tuple(Piece(p.value, p.color) for p in fields.pieces)
    sums = tuple(Sum(s.line, s.index, s.target, s.counts, s.side) for s in fields.sums)
    try:
        return Puzzle(cells, pieces, sums)
    except PuzzleError as exc:
        raise PuzzleError(f"{name}: {exc}") from None


def _problem(puzzle: Puzzle) -> str | None:
    """What makes the puzzle impossible to pose, beyond its fields' types and bounds."""
    if not puzzle.cells:
        return "the puzzle has no cells"
    if len(puzzle.free) != len(puzzle.pieces):
        return (f"{len(puzzle.free)} free cells but {len(puzzle.pieces)} pieces: "
                "every piece must fill exactly one free cell")
    for s in puzzle.sums:
        if not puzzle.line_cells(s.line, s.index):
            return f"the {s} is on a line without cells"
    return None


# ---- what the bot sees ---------------------------------------------------------------------
WIDTH, HEIGHT = 800, 600
GRID, BOX, GRID_X, GRID_Y = 48, 44, 18, 38


class UnreadableScreen(WebbotError):
    """The picture is not a Puzlogic screen the bot can read."""


@dataclass(frozen=True)
class Spot:
    """A box of the game's grid: column i, row j."""

    i: int
    j: int

    @property
    def x(self) -> int:
        return GRID_X + GRID * self.i

    @property
    def y(self) -> int:
        return GRID_Y + GRID * self.j

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + BOX / 2, self.y + BOX / 2


@dataclass(frozen=True)
class SeenPiece:
    value: int | None  # None: the digit could not be read
    color: str
    spot: Spot


@dataclass
class LevelView:
    """A level screen as read: board cells by (row, col), tray pieces, sums, errors."""

    cells: dict[tuple[int, int], int | None]  # given digit, or None for a free cell
    spots: dict[tuple[int, int], Spot]  # where each board cell is
    placed: dict[tuple[int, int], SeenPiece]  # pieces sitting on board cells
    tray: list[SeenPiece]  # pieces waiting in tray slots
    sums: list[Sum]
    red: bool  # numbers drawn in red: the game sees an error
    level: int | None  # the number in "Level 0N"
    doubts: list[str] = field(default_factory=list)  # what could not be read, and where
    # every number read: (where, value, how well its glyphs matched their templates)
    readings: list[tuple[str, int, float]] = field(default_factory=list)

    def weakest(self, count: int = 3) -> list[str]:
        """The numbers read with the least certainty, as "where: value (score)"."""
        ranked = sorted(self.readings, key=lambda item: item[2])[:count]
        return [f"{where} read as {value} (match {score:.2f})" for where, value, score in ranked]

    def puzzle(self) -> Puzzle:
        """The puzzle in the reference schema: placed pieces count as pieces, their cells free."""
        if self.doubts:
            raise UnreadableScreen("cannot read " + "; ".join(self.doubts))
        pieces = [Piece(p.value, p.color) for p in [*self.tray, *self.placed.values()]]
        try:
            return Puzzle(dict(self.cells), tuple(pieces), tuple(self.sums))
        except PuzzleError as exc:
            raise UnreadableScreen(f"the board read does not make a puzzle: {exc}") from None


@dataclass(frozen=True)
class LevelButton:
    number: int | None
    spot_centre: tuple[float, float]
    unlocked: bool
    finished: bool


@dataclass
class SelectView:
    """The level select as read: its buttons in the game's order, and what could not be read
    (a leaf drifting over a label, say): a reading with doubts is not to be acted on."""

    buttons: list[LevelButton]
    doubts: list[str] = field(default_factory=list)


@dataclass
class Picture:
    """A picture cut to the game and scaled to 800x600, and the way back to picture pixels."""

    canvas: np.ndarray  # BGR, 800x600
    region: Region
    grab_shape: tuple[int, ...] = ()  # the grab it was cut from: height, width, channels
    known_background: np.ndarray | None = None  # from an earlier picture of the same level

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        return (self.region.x + x * self.region.width / WIDTH,
                self.region.y + y * self.region.height / HEIGHT)

    @cached_property
    def background(self) -> np.ndarray:
        """The flat background (BGR floats), worked out once per picture."""
        if self.known_background is not None:
            return self.known_background
        return background_colour(self.canvas)


def background_colour(canvas: np.ndarray) -> np.ndarray:
    """The flat background: the commonest colour (leaves and text are a small share)."""
    sample = canvas[::7, ::7].reshape(-1, 3).astype(np.int32)
    packed = (sample[:, 0] << 16) | (sample[:, 1] << 8) | sample[:, 2]
    colours, counts = np.unique(packed, return_counts=True)
    top = int(colours[int(np.argmax(counts))])
    return np.array([top >> 16, (top >> 8) & 255, top & 255], np.float32)


@dataclass(frozen=True)
class Observation:
    """What the policy gets: a grab, the game cut out of it, which screen it shows, and (on a
    level) what the board holds; and, when the level was read twice alike, its puzzle."""

    grab: Grab
    picture: Picture
    screen: str  # title, select, level, completed or unknown
    view: LevelView | None = None
    puzzle: Puzzle | None = None
    buttons: list[LevelButton] = field(default_factory=list)  # on the level select, when read

    def page_point(self, point: tuple[float, float]) -> tuple[float, float]:
        """A point of the game's 800x600 picture, on the page (for the mouse)."""
        return self.page_points(point)[0]

    def page_points(self, *points: tuple[float, float]) -> list[tuple[float, float]]:
        """Points of the game's 800x600 picture, on the page, the game's place on it measured
        once for them all."""
        return self.grab.to_page_all(*(self.picture.to_image(*point) for point in points))
