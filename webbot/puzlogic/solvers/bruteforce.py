"""Depth-first search over the free cells, pruned by bounds.

Free cells are filled in reading order with each kind of piece left; after every placement the
cell's row and column are checked: no repeated number, and every sum on them still reachable
(not above its target, not unreachable with the cells left open, exact once the line is full).
A full line must hit its target exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from webbot.errors import WebbotError
from webbot.puzlogic.model import Cell, Placement, Puzzle, Solution
from webbot.puzlogic.solvers.deadline import UNLIMITED, SolverDeadline

# The search grows steeply with the free cells, past about 30 beyond any sensible wait, so a
# board with more is refused rather than tried.
MAX_FREE = 30


class SearchTooBig(WebbotError):
    """The brute-force search could not finish on a board this large."""


def solutions(puzzle: Puzzle, deadline: SolverDeadline = UNLIMITED) -> Iterator[Solution]:
    if len(puzzle.free) > MAX_FREE:
        raise SearchTooBig(f"the bruteforce solver cannot finish a search of {len(puzzle.free)} "
                           f"free cells (it takes at most {MAX_FREE}); use --solver fast")
    board: dict[Cell, int | None] = dict(puzzle.cells)
    colors: dict[Cell, str] = {}
    left = Counter(puzzle.pieces)
    lines = {("row", i): puzzle.line_cells("row", i) for i in {r for r, _ in board}}
    lines |= {("col", i): puzzle.line_cells("col", i) for i in {c for _, c in board}}
    sums_on = {key: [s for s in puzzle.sums if (s.line, s.index) == key] for key in lines}

    def reachable(key: tuple[str, int]) -> bool:
        cells = lines[key]
        values = [board[c] for c in cells if board[c] is not None]
        if len(values) != len(set(values)):
            return False
        open_cells = sum(1 for c in cells if board[c] is None)
        for s in sums_on[key]:
            counted = [c for c in cells if board[c] is not None
                       and (s.counts == "all" or colors.get(c) == s.counts)]
            total = sum(board[c] for c in counted)
            room = [p.value for p, n in left.items() if n and s.counts in ("all", p.color)]
            most = open_cells * max(room, default=0)
            if total > s.target or total + most < s.target or (not open_cells and
                                                                total != s.target):
                return False
        return True

    if not all(reachable(key) for key in lines):  # lines with no free cell are checked here
        return
    free = list(puzzle.free)
    placed: list[Placement] = []

    def search(i: int) -> Iterator[Solution]:
        if i == len(free):
            yield tuple(placed)
            return
        deadline.check()
        cell = free[i]
        for piece in sorted(p for p, n in left.items() if n):
            board[cell], colors[cell] = piece.value, piece.color
            left[piece] -= 1
            if reachable(("row", cell[0])) and reachable(("col", cell[1])):
                placed.append(Placement(*cell, piece.value, piece.color))
                yield from search(i + 1)
                placed.pop()
            left[piece] += 1
            board[cell] = None
            del colors[cell]

    yield from search(0)

