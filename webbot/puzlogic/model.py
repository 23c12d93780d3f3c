"""Puzlogic puzzles and placements, read and written as JSON.

The schema is that of the reference levels file: cells `[row, col, value|null]` (null is a free
cell), pieces `{"value", "color"}`, sums `{"line": "row"|"col", "index", "target", "counts":
"all"|"blue"|"white"}` (plus an optional "side" telling where the target is drawn).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webbot.errors import WebbotError
from webbot.inputs import load_json
from webbot.puzlogic import schema
from webbot.puzlogic.schema import PuzzleError

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
