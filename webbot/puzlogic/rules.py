"""The rules, checked plainly: the independent referee for every solver's answer."""

from __future__ import annotations

from collections import Counter

from webbot.puzlogic.model import Placement, Puzzle


def broken_rules(puzzle: Puzzle, placements: tuple[Placement, ...] | list[Placement]) -> list[str]:
    """Every rule a complete set of placements breaks; empty when it solves the puzzle."""
    problems = []
    board: dict = dict(puzzle.cells)
    colors: dict = {}
    for p in placements:
        if p.cell not in board:
            problems.append(f"({p.row}, {p.col}) is not a cell of the board")
        elif board[p.cell] is not None:
            problems.append(f"({p.row}, {p.col}) is not free")
        board[p.cell] = p.value
        colors[p.cell] = p.color
    empty = [cell for cell, value in board.items() if value is None]
    if empty:
        problems.append(f"{len(empty)} free cells left empty, e.g. {empty[0]}")
    if Counter(p.piece for p in placements) != puzzle.piece_counts:
        problems.append("the pieces placed are not exactly the pieces given")
    for line, axis in (("row", 0), ("col", 1)):
        for index in sorted({cell[axis] for cell in board}):
            values = [board[c] for c in puzzle.line_cells(line, index) if board[c] is not None]
            repeated = sorted(v for v, n in Counter(values).items() if n > 1)
            if repeated:
                problems.append(f"{line} {index} repeats {repeated}")
    for s in puzzle.sums:
        cells = puzzle.line_cells(s.line, s.index)
        if s.counts == "all":
            total = sum(board[c] or 0 for c in cells)
        else:
            total = sum(board[c] for c in cells if colors.get(c) == s.counts)
        if total != s.target:
            problems.append(f"the {s} adds up to {total}")
    return problems


def givens_repeat(puzzle: Puzzle) -> bool:
    """True when the given numbers already repeat in some row or column (no solution then)."""
    for axis in (0, 1):
        seen = set()
        for cell, value in puzzle.cells.items():
            if value is not None:
                if (cell[axis], value) in seen:
                    return True
                seen.add((cell[axis], value))
    return False
