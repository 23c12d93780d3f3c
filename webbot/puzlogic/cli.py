"""`webbot puzlogic solve`: the solver on a puzzle file."""

from __future__ import annotations

import json
import time

import click

from webbot.puzlogic.model import NoSolution, Puzzle, Solution, placements_json
from webbot.puzlogic.solvers import solutions


def render(puzzle: Puzzle, solution: Solution) -> str:
    """The solved board as text: given numbers plain, placed pieces marked b/w, gaps '.'."""
    placed = {p.cell: f"{p.value}{p.color[0]}" for p in solution}
    rows = range(min(r for r, _ in puzzle.cells), max(r for r, _ in puzzle.cells) + 1)
    cols = range(min(c for _, c in puzzle.cells), max(c for _, c in puzzle.cells) + 1)
    width = max(len(str(v)) for v in [*puzzle.cells.values(), *placed.values()] if v) + 1
    lines = []
    for r in rows:
        marks = []
        for c in cols:
            given = puzzle.cells.get((r, c), ".")
            marks.append(placed.get((r, c), "." if given is None else str(given)).rjust(width))
        lines.append("".join(marks))
    return "\n".join(lines)


def solve_command(path: str, solver: str, as_json: bool, all_solutions: bool,
                  unique: bool) -> None:
    puzzle = Puzzle.load(path)
    started = time.perf_counter()
    found = solutions(puzzle, solver, limit=None if all_solutions else 2 if unique else 1)
    seconds = time.perf_counter() - started
    if not found:
        raise NoSolution(f"{path}: the puzzle has no solution ({solver} solver)")
    shown = found if all_solutions else found[:1]
    if as_json:
        if all_solutions:
            out: dict = {"solutions": [placements_json(s)["placements"] for s in shown]}
        else:
            out = placements_json(shown[0])
        if unique or all_solutions:
            out["unique"] = len(found) == 1
        click.echo(json.dumps(out))
        return
    for n, solution in enumerate(shown, 1):
        if all_solutions:
            click.echo(f"solution {n}:")
        click.echo(render(puzzle, solution))
    ms = seconds * 1000
    summary = f"{len(puzzle.pieces)} pieces placed by the {solver} solver in {ms:.1f} ms"
    if all_solutions:
        summary += f"; {len(found)} solution{'s' if len(found) != 1 else ''}"
    elif unique:
        summary += "; the solution is unique" if len(found) == 1 else "; NOT unique"
    click.echo(summary)
