"""Puzlogic solvers behind one interface.

Backends: `bruteforce` (a bounded depth-first search), `z3` (a pseudo-boolean Z3 model) and
`fast` (the fastest exact search here); `auto` picks for the puzzle. Each yields every
solution in turn, so one interface answers "a solution", "is it unique" and "all of them".
Every search is bounded: by a count of solutions and by a time limit that each backend checks
as it goes (SolverTimeout past it).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from itertools import islice

from webbot.puzlogic import SOLVE_TIMEOUT_S as DEFAULT_TIMEOUT
from webbot.puzlogic import SOLVER_BACKENDS
from webbot.puzlogic.model import NoSolution, Puzzle, Solution
from webbot.puzlogic.rules import givens_repeat
from webbot.puzlogic.solvers.deadline import SolverDeadline, SolverTimeout

BACKENDS: dict[str, Callable[[Puzzle, SolverDeadline], Iterator[Solution]]] = {
    name: importlib.import_module(f"{__name__}.{name}").solutions for name in SOLVER_BACKENDS}
NAMES = ("auto", *BACKENDS)


def pick_backend(puzzle: Puzzle) -> str:
    """The backend `auto` uses for `puzzle`: always `fast`, the quickest on every kind of
    puzzle."""
    return "fast"


def solutions(puzzle: Puzzle, backend: str = "auto", limit: int | None = None,
              timeout_s: float | None = DEFAULT_TIMEOUT) -> list[Solution]:
    """Up to `limit` solutions (all when None), each sorted by cell; SolverTimeout when the
    search takes longer than `timeout_s` (None: no limit)."""
    name = pick_backend(puzzle) if backend == "auto" else backend
    if name not in BACKENDS:
        raise ValueError(f"unknown solver {backend!r}; choose from {', '.join(NAMES)}")
    if givens_repeat(puzzle):
        return []
    try:
        found = islice(BACKENDS[name](puzzle, SolverDeadline(timeout_s)), limit)
        return [tuple(sorted(s)) for s in found]
    except SolverTimeout as exc:
        raise SolverTimeout(f"{name} solver: {exc} (--timeout S to allow longer)") from None


def solve(puzzle: Puzzle, backend: str = "auto") -> Solution:
    """The solution, or NoSolution."""
    found = solutions(puzzle, backend, limit=1)
    if not found:
        raise NoSolution("the puzzle has no solution")
    return found[0]


def is_unique(puzzle: Puzzle, backend: str = "auto") -> bool:
    return len(solutions(puzzle, backend, limit=2)) == 1
