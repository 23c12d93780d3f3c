"""Z3 models of the puzzle.

`solutions`: every free cell takes exactly one kind of piece (value and colour), every kind is
used exactly as often as it is given, no number repeats in a line, and each sum adds up what
its kind counts. It is stated with pseudo-boolean constraints over one Boolean per (cell, kind
of piece), which Z3 handles far better than integer arithmetic.

`naive_solutions` is the textbook model (an Int per cell, Distinct per line, counts by If), kept
as the benchmark's baseline.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import z3

from webbot.errors import WebbotError
from webbot.puzlogic.model import Placement, Puzzle, Solution
from webbot.puzlogic.solvers.deadline import UNLIMITED, SolverDeadline


def _check(solver: z3.Solver, deadline: SolverDeadline) -> bool:
    deadline.check()
    left = deadline.left()
    if left is not None:
        solver.set("timeout", max(1, int(left * 1000)))
    try:
        result = solver.check()
    except z3.Z3Exception as exc:  # e.g. numbers beyond what it can represent
        raise WebbotError(f"z3 failed: {exc}") from None
    if result == z3.unknown:
        deadline.check()
        raise WebbotError(f"z3 gave up ({solver.reason_unknown()})")
    return result == z3.sat


def _givens_in_line(puzzle: Puzzle, line: str, index: int) -> list[int]:
    return [v for c in puzzle.line_cells(line, index) if (v := puzzle.cells[c]) is not None]


def solutions(puzzle: Puzzle, deadline: SolverDeadline = UNLIMITED) -> Iterator[Solution]:
    kinds = sorted(Counter(puzzle.pieces).items())
    choice: dict[tuple[int, int], z3.BoolRef] = {}  # (free cell index, kind index) -> placed?
    for i, (r, c) in enumerate(puzzle.free):
        deadline.check()  # building the model of a large board takes seconds too
        taken = set(_givens_in_line(puzzle, "row", r) + _givens_in_line(puzzle, "col", c))
        for k, (piece, _) in enumerate(kinds):
            if piece.value not in taken:
                choice[i, k] = z3.Bool(f"x_{r}_{c}_{piece.value}_{piece.color}")
    solver = z3.Solver()
    for i in range(len(puzzle.free)):
        options = [x for (ci, _), x in choice.items() if ci == i]
        if not options:
            return
        solver.add(z3.PbEq([(x, 1) for x in options], 1))
    for k, (_, n) in enumerate(kinds):
        uses = [(x, 1) for (_, ck), x in choice.items() if ck == k]
        if len(uses) < n:
            return
        solver.add(z3.PbEq(uses, n))
    for axis in (0, 1):
        for index in {cell[axis] for cell in puzzle.cells}:
            members = {i for i, cell in enumerate(puzzle.free) if cell[axis] == index}
            for value in {p.value for p, _ in kinds}:
                deadline.check()
                same = [x for (i, k), x in choice.items()
                        if i in members and kinds[k][0].value == value]
                if len(same) > 1:
                    solver.add(z3.AtMost(*same, 1))
    for s in puzzle.sums:
        deadline.check()
        axis = 0 if s.line == "row" else 1
        given = sum(_givens_in_line(puzzle, s.line, s.index)) if s.counts == "all" else 0
        terms = [(x, kinds[k][0].value) for (i, k), x in choice.items()
                 if puzzle.free[i][axis] == s.index and kinds[k][0].value
                 and s.counts in ("all", kinds[k][0].color)]
        if s.target - given < 0 or (not terms and s.target != given):
            return
        if terms:
            solver.add(z3.PbEq(terms, s.target - given))
    while _check(solver, deadline):
        model = solver.model()
        picked = [(i, k) for (i, k), x in choice.items() if z3.is_true(model.eval(x))]
        yield tuple(sorted(Placement(*puzzle.free[i], kinds[k][0].value, kinds[k][0].color)
                           for i, k in picked))
        solver.add(z3.Or([z3.Not(choice[key]) for key in picked]))


def naive_solutions(puzzle: Puzzle, deadline: SolverDeadline = UNLIMITED) -> Iterator[Solution]:
    counts = Counter(puzzle.pieces)
    value = {cell: z3.Int(f"v_{cell[0]}_{cell[1]}") for cell in puzzle.free}
    blue = {cell: z3.Bool(f"b_{cell[0]}_{cell[1]}") for cell in puzzle.free}
    solver = z3.Solver()
    term = {cell: value[cell] if v is None else z3.IntVal(v) for cell, v in puzzle.cells.items()}
    for cell in puzzle.free:
        solver.add(z3.Or([value[cell] == p.value for p in counts]))
    for line, axis in (("row", 0), ("col", 1)):
        for index in {cell[axis] for cell in puzzle.cells}:
            members = [term[c] for c in puzzle.line_cells(line, index)]
            if len(members) > 1:
                solver.add(z3.Distinct(*members))
    for piece, n in counts.items():
        is_blue = piece.color == "blue"
        solver.add(z3.Sum([z3.If(z3.And(value[c] == piece.value, blue[c] == is_blue), 1, 0)
                           for c in puzzle.free]) == n)
    for s in puzzle.sums:
        cells = puzzle.line_cells(s.line, s.index)
        if s.counts == "all":
            parts = [term[c] for c in cells]
        else:
            want = s.counts == "blue"
            parts = [z3.If(blue[c] == want, value[c], 0) for c in cells if c in value]
        solver.add(z3.Sum(parts or [z3.IntVal(0)]) == s.target)
    while _check(solver, deadline):
        model = solver.model()
        found = tuple(sorted(
            Placement(*cell, model.eval(value[cell]).as_long(),
                      "blue" if z3.is_true(model.eval(blue[cell])) else "white")
            for cell in puzzle.free))
        yield found
        solver.add(z3.Or([z3.Or(value[p.cell] != p.value, blue[p.cell] != (p.color == "blue"))
                          for p in found]))
