"""Puzlogic solvers behind one interface.

Backends: `bruteforce` (the seed's depth-first search, made correct), `z3` (the seed's Z3
approach, made correct) and `fast` (the fastest exact search here); `auto` picks for the
puzzle. Each yields every solution in turn, so one interface answers "a solution", "is it
unique" and "all of them".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice

from webbot.puzlogic.model import NoSolution, Puzzle, Solution
from webbot.puzlogic.rules import givens_repeat
from webbot.puzlogic.solvers import bruteforce, fast
from webbot.puzlogic.solvers import z3 as z3_solver

BACKENDS: dict[str, Callable[[Puzzle], Iterator[Solution]]] = {
    "fast": fast.solutions,
    "z3": z3_solver.solutions,
    "bruteforce": bruteforce.solutions,
}
NAMES = ("auto", *BACKENDS)


def pick_backend(puzzle: Puzzle) -> str:
    """`fast` wins on every puzzle measured (scripts/bench_solvers.py)."""
    return "fast"


def solutions(puzzle: Puzzle, backend: str = "auto", limit: int | None = None
              ) -> list[Solution]:
    """Up to `limit` solutions (all when None), each sorted by cell."""
    name = pick_backend(puzzle) if backend == "auto" else backend
    if name not in BACKENDS:
        raise ValueError(f"unknown solver {backend!r}; choose from {', '.join(NAMES)}")
    if givens_repeat(puzzle):
        return []
    return [tuple(sorted(s)) for s in islice(BACKENDS[name](puzzle), limit)]


def solve(puzzle: Puzzle, backend: str = "auto") -> Solution:
    """The solution, or NoSolution."""
    found = solutions(puzzle, backend, limit=1)
    if not found:
        raise NoSolution("the puzzle has no solution")
    return found[0]


def is_unique(puzzle: Puzzle, backend: str = "auto") -> bool:
    return len(solutions(puzzle, backend, limit=2)) == 1
