"""`webbot puzlogic` (play), `webbot puzlogic read` (a screenshot) and `webbot puzlogic solve`
(a puzzle file)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from webbot.bounded import OutOfBounds, whole_number
from webbot.commands import console, run_options, summed_up
from webbot.errors import WebbotError
from webbot.params import INPUT_FILE, OUTPUT_FILE, Finite, WordsDefault
from webbot.progress import levels_done, remember
from webbot.puzlogic import REGISTRATION, SOLVE_TIMEOUT_S, SOLVER_BACKENDS
from webbot.recovery import recovered
from webbot.shown import Table, shown_name
from webbot.words import counted

if TYPE_CHECKING:  # (the vision and the solvers are loaded by the commands that use them)
    from rich.console import Console

    from webbot.options import RunOptions
    from webbot.puzlogic.model import Puzzle, Solution

SOLVERS = ("auto", *SOLVER_BACKENDS)

LEVEL_COUNT = 15


def levels_from_spec(spec: str) -> list[int]:
    """"1-15", "3", "2,5-7" -> sorted level numbers; ValueError when malformed."""
    levels: set[int] = set()
    for part in spec.split(","):
        match = re.fullmatch(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?", part)
        if not match:
            raise ValueError(f"{shown_name(repr(spec))} is not a list of levels like 1-15 or 2,5-7")
        low, high = _level(match[1]), _level(match[2] or match[1])
        if low is None or high is None or low > high:
            raise ValueError(f"{shown_name(repr(part.strip()))}: levels go from 1 to {LEVEL_COUNT}")
        levels.update(range(low, high + 1))
    return sorted(levels)


def _level(digits: str) -> int | None:
    try:
        return whole_number(digits, 1, LEVEL_COUNT, "a level")
    except OutOfBounds:
        return None


def play_command(options: RunOptions, levels: list[int] | None, solver: str,
                 console: Console) -> int:
    """Play `levels`; None: those the level select does not show as finished (all of them
    again when every one is)."""
    from webbot.play import play
    from webbot.puzlogic.bot import player
    from webbot.session import game_session

    started = time.perf_counter()
    with game_session(options, REGISTRATION.page) as session:
        playable = player(session, levels, solver=solver, report=console.print)
        bot, policy = playable.bot, playable.policy
        try:
            play(playable)
        finally:
            before = policy.before  # levels the game showed as done before (without --levels)
            wanted = policy.wanted or []
            console.print(summed_up(results_table(
                bot.results, time.perf_counter() - started, session.recoveries, len(before),
                bool(wanted) and set(wanted) <= before, asked=len(wanted)),
                options.report))
            done = before | {r.level for r in bot.results if r.completed}
            remember(options, REGISTRATION.name,
                     lambda last: {"levels done": sorted(done | levels_done(last))})
    missing = [n for n in wanted if not any(r.level == n and r.completed for r in bot.results)]
    if missing:
        raise WebbotError(f"levels {missing} were not completed")
    return 0


def results_table(results: list, seconds: float, recoveries: list[str] = (),
                  before: int = 0, replayed: bool = False, asked: int = 0) -> Table:
    """The levels played; `before`: levels the game showed as finished before the run, which
    count among those completed as the game counts them (unless they were all `replayed`);
    `asked`: the levels this run set out to play (a run stopped early played fewer)."""
    completed = sum(r.completed for r in results)
    played = len(results)
    unplayed = max(asked - sum(not r.unlocking for r in results), 0)
    if before and not replayed:
        completed, played = completed + before, played + before
    earlier = f" ({before} before this run)" if before else ""
    left = f" ({unplayed} of the {asked} this run set out to play not reached)" \
        if unplayed else ""
    table = Table("level", "pieces", "perception ms", "solve ms", "level s", "result",
                  title=f"Puzlogic: {completed} of {counted(played, 'level')} completed{earlier} "
                        f"in {seconds:.1f} s{left}"
                        f"{recovered(len(recoveries))}")
    for r in results:
        table.add_row(f"{r.level:02d}" + (" (unlock)" if r.unlocking else ""), str(r.pieces),
                      f"{r.median_perception_ms:.1f}", f"{r.solve_ms:.1f}", f"{r.seconds:.1f}",
                      r.result + (f" ({r.restarts} restarts)" if r.restarts else "")
                      + (f" ({r.recoveries} recovered)" if r.recoveries else ""))
    return table


def read_command(path: str, as_json: bool, annotate_to: Path | None) -> None:
    from webbot.inputs import read_image
    from webbot.puzlogic.model import Placement, UnreadableScreen
    from webbot.puzlogic.perceive import READ_LEGEND, Reader, classify, marks, normalise
    from webbot.screen import Box, Grab
    from webbot.vision.marks import annotate, save_picture

    image = read_image(path)
    started = time.perf_counter()
    picture = normalise(image)
    screen = classify(picture)
    if screen != "level":
        raise UnreadableScreen(f"{path} shows the {screen} screen, not a level"
                               if screen != "unknown" else f"{path} shows no Puzlogic level")
    view = Reader().read_level(picture)
    if annotate_to:
        grab = Grab(image, Box(0, 0, image.shape[1], image.shape[0]))
        save_picture(annotate_to, annotate(grab, marks(view, picture), READ_LEGEND))
    puzzle = view.puzzle()
    ms = (time.perf_counter() - started) * 1000
    if as_json:
        click.echo(json.dumps(puzzle.to_json()))
        return
    level = f"level {view.level:02d}" if view.level else "a level"
    click.echo(f"{shown_name(path)}: {level}, {len(puzzle.cells)} cells, "
               f"{len(puzzle.pieces)} pieces ({len(view.placed)} on the board), "
               f"{len(puzzle.sums)} sums"
               + (", numbers in red (an error)" if view.red else "") + f"; read in {ms:.0f} ms")
    on_board = tuple(Placement(r, c, p.value, p.color) for (r, c), p in view.placed.items())
    click.echo(render(puzzle, on_board))
    click.echo("pieces: " + " ".join(f"{p.value}{p.color[0]}" for p in puzzle.pieces))
    for s in puzzle.sums:
        click.echo(f"sum: {s.line} {s.index} = {s.target} ({s.counts}, {s.side})")


def render(puzzle: Puzzle, solution: Solution) -> str:
    """The board as text: given numbers plain, placed pieces marked b/w, free cells _, gaps ."""
    placed = {p.cell: f"{p.value}{p.color[0]}" for p in solution}
    rows = range(min(r for r, _ in puzzle.cells), max(r for r, _ in puzzle.cells) + 1)
    cols = range(min(c for _, c in puzzle.cells), max(c for _, c in puzzle.cells) + 1)
    shown = [*puzzle.cells.values(), *placed.values()]
    width = max((len(str(v)) for v in shown if v is not None), default=1) + 1
    lines = []
    for r in rows:
        marks = []
        for c in cols:
            given = puzzle.cells.get((r, c), ".")
            marks.append(placed.get((r, c), "_" if given is None else str(given)).rjust(width))
        lines.append("".join(marks))
    return "\n".join(lines)


def solve_command(path: str, solver: str, as_json: bool, all_solutions: bool, unique: bool,
                  limit: int = 100, timeout_s: float | None = SOLVE_TIMEOUT_S) -> None:
    from webbot.puzlogic.model import NoSolution, Puzzle, placements_json
    from webbot.puzlogic.solvers import solutions

    puzzle = Puzzle.load(path)
    started = time.perf_counter()
    wanted = limit + 1 if all_solutions else 2 if unique else 1  # one more tells "there are more"
    found = solutions(puzzle, solver, limit=wanted, timeout_s=timeout_s)
    seconds = time.perf_counter() - started
    if not found:
        raise NoSolution(f"{path}: the puzzle has no solution ({solver} solver)")
    shown = found[:limit] if all_solutions else found[:1]
    complete = len(found) <= limit
    if all_solutions and not complete:
        click.echo(f"note: stopped at the limit of {limit} solutions (--limit); there are more",
                   err=True)
    if as_json:
        if all_solutions:
            out: dict = {"solutions": [placements_json(s)["placements"] for s in shown],
                         "complete": complete}
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
        summary += f"; {len(shown)} solution{'s' if len(shown) != 1 else ''}"
        summary += "" if complete else f" (stopped at --limit {limit}; there are more)"
    elif unique:
        summary += "; the solution is unique" if len(found) == 1 else "; NOT unique"
    click.echo(summary)


# ---- the command line -------------------------------------------------------------------------

@click.group("puzlogic", invoke_without_command=True)
@run_options
@click.option("--levels", "level_spec", cls=WordsDefault, metavar="SPEC",
              show_default="the levels not done",
              help="Which levels to play: 1-15, 3, 2,5-7 ... (played again when done before). "
                   "Without it, those the level select does not show as done (all again when "
                   "every one is).")
@click.option("--solver", type=click.Choice(SOLVERS), default="auto", show_default=True,
              help="Which solver backend decides.")
@click.pass_context
def command(ctx: click.Context, options: RunOptions, level_spec: str, solver: str) -> None:
    """Play Puzlogic levels through the screen and the mouse (from the title screen on).

    `webbot puzlogic read IMAGE` reads a screenshot; `webbot puzlogic solve FILE` solves a
    puzzle file.

    Example: webbot puzlogic --levels 3-5 --headed"""
    if ctx.invoked_subcommand is not None:
        return

    try:
        levels = None if level_spec is None else levels_from_spec(level_spec)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--levels'") from None
    from webbot.driver import started_early

    with started_early("webbot.puzlogic.bot"):
        code = play_command(options, levels, solver, console)
    raise click.exceptions.Exit(code)


@command.command("read")
@click.argument("image", metavar="IMAGE", type=INPUT_FILE)
@click.option("--json", "as_json", is_flag=True,
              help="Print the puzzle as JSON in the schema of levels.json.")
@click.option("--annotate", "annotate_to", type=OUTPUT_FILE, metavar="OUT.png",
              help="Also save the picture with what was recognised drawn on it.")
# --annotated: a hidden alias of --annotate, so that existing scripts still work
@click.option("--annotated", "annotated", type=OUTPUT_FILE, hidden=True)
def read(image: str, as_json: bool, annotate_to: Path | None, annotated: Path | None) -> None:
    """Read the puzzle in a screenshot (a canvas grab, or a page with the game inside black;
    - reads it from standard input).

    Example: webbot puzlogic read level.png --json"""
    read_command(image, as_json, annotate_to or annotated)


@command.command("solve")
@click.argument("puzzle_file", metavar="PUZZLE.json", type=INPUT_FILE)
@click.option("--solver", type=click.Choice(SOLVERS), default="auto", show_default=True,
              help="Which backend searches.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {\"placements\": [...]}.")
@click.option("--all", "all_solutions", is_flag=True,
              help="Print every solution (up to --limit), not one.")
@click.option("--limit", type=click.IntRange(1, 100_000), default=100, show_default=True,
              metavar="N", help="With --all: stop after N solutions (and say so).")
@click.option("--unique", is_flag=True, help="Also say whether the solution is the only one.")
@click.option("--timeout", type=Finite(0, 86_400, min_open=True),
              default=SOLVE_TIMEOUT_S, show_default=True, metavar="S",
              help="Stop the search after S seconds, with a one-line error.")
def solve(puzzle_file: str, solver: str, as_json: bool, all_solutions: bool,
                   limit: int, unique: bool, timeout: float) -> None:
    """Solve a puzzle given as JSON (the schema of the reference levels file; - reads it from
    standard input: webbot puzlogic read shot.png --json | webbot puzlogic solve -).

    Example: webbot puzlogic solve level.json --unique"""
    solve_command(puzzle_file, solver, as_json, all_solutions, unique, limit, timeout)
