"""Puzlogic puzzles and placements, read and written as JSON.

The schema is that of the reference levels file: cells `[row, col, value|null]` (null is a free
cell), pieces `{"value", "color"}`, sums `{"line": "row"|"col", "index", "target", "counts":
"all"|"blue"|"white"}` (plus an optional "side" telling where the target is drawn).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webbot.errors import WebbotError

COLORS = ("blue", "white")
KINDS = ("all", "blue", "white")
LINES = ("row", "col")
SIDES = ("left", "right", "top", "bottom")
MAX_VALUE = 99  # the game shows single digits; generated puzzles may use larger numbers

Cell = tuple[int, int]


class PuzzleError(WebbotError):
    """The puzzle description is malformed."""


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
        _validate(self)

    def line_cells(self, line: str, index: int) -> list[Cell]:
        axis = 0 if line == "row" else 1
        return [cell for cell in self.cells if cell[axis] == index]

    @property
    def piece_counts(self) -> Counter[Piece]:
        return Counter(self.pieces)

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        return _parse(data)

    @classmethod
    def load(cls, path: str | Path) -> Puzzle:
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            raise PuzzleError(f"cannot read {path}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise PuzzleError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
        return cls.from_json(data)

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


def _int(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{what} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise PuzzleError(f"{what} is {value}, out of range ({bound})")
    return value


def _choice(value: Any, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise PuzzleError(f"{what} is {value!r}; it must be one of {', '.join(allowed)}")
    return value


def _parse(data: Any) -> Puzzle:
    if not isinstance(data, dict) or "cells" not in data or "pieces" not in data:
        raise PuzzleError("a puzzle is a JSON object with 'cells' and 'pieces' (and 'sums')")
    cells: dict[Cell, int | None] = {}
    for item in data["cells"]:
        if not isinstance(item, list) or len(item) != 3:
            raise PuzzleError(f"cell {item!r} is not [row, col, value or null]")
        row, col = _int(item[0], "a cell's row"), _int(item[1], "a cell's column")
        if (row, col) in cells:
            raise PuzzleError(f"cell ({row}, {col}) is listed twice")
        value = item[2]
        cells[(row, col)] = None if value is None else _int(
            value, f"the value of cell ({row}, {col})", 0, MAX_VALUE)
    pieces = []
    for item in data["pieces"]:
        if not isinstance(item, dict):
            raise PuzzleError(f"piece {item!r} is not {{'value', 'color'}}")
        pieces.append(Piece(_int(item.get("value"), "a piece's value", 0, MAX_VALUE),
                            _choice(item.get("color", "blue"), COLORS, "a piece's color")))
    sums = []
    for item in data.get("sums", []):
        if not isinstance(item, dict):
            raise PuzzleError(f"sum {item!r} is not {{'line', 'index', 'target', 'counts'}}")
        side = item.get("side")
        sums.append(Sum(
            _choice(item.get("line"), LINES, "a sum's line"),
            _int(item.get("index"), "a sum's index"),
            _int(item.get("target"), "a sum's target"),
            _choice(item.get("counts", "all"), KINDS, "a sum's kind ('counts')"),
            None if side is None else _choice(side, SIDES, "a sum's side"),
        ))
    return Puzzle(cells, tuple(pieces), tuple(sums))


def _validate(puzzle: Puzzle) -> None:
    if not puzzle.cells:
        raise PuzzleError("the puzzle has no cells")
    if len(puzzle.free) != len(puzzle.pieces):
        raise PuzzleError(f"{len(puzzle.free)} free cells but {len(puzzle.pieces)} pieces: "
                          "every piece must fill exactly one free cell")
    for s in puzzle.sums:
        if not puzzle.line_cells(s.line, s.index):
            raise PuzzleError(f"the {s} is on a line without cells")
