"""`webbot soak GAME`: one command per registered game (the common options and the game's
own), the progress bar, a line per failure, the final tables, `--jsonl`."""

from __future__ import annotations

import io
import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from webbot.commands import LazyGroup
from webbot.commands import console as terminal
from webbot.errors import say_error
from webbot.params import BROWSER_ENDPOINT, OUTPUT_FILE, SCHEDULER, Finite, WordsDefault
from webbot.registry import Registration, games
from webbot.shown import Table, TextConsole
from webbot.words import counted

if TYPE_CHECKING:  # (the soak's machinery is loaded when a soak runs: help comes at once)
    from webbot.soak.pages import SoakPages
    from webbot.soak.runner import GameRecord, Plan, SoakResult, Try


def common_options() -> list[click.Option]:
    """The options of every game's soak."""
    return [
        click.Option(["--count"], type=click.IntRange(1, 1_000_000), metavar="N",
                     help="Play N games."),
        click.Option(["--minutes"], type=Finite(0, 10_080, min_open=True), metavar="M",
                     help="Start new games for M minutes (the games under way are finished)."),
        WordsDefault(["--workers"], type=click.IntRange(1, 256), metavar="K",
                     show_default="one per core",
                     help="Local Dask worker processes, one game at a time each."),
        click.Option(["--seed"], type=click.IntRange(0, 2**31 - 1), default=0,
                     show_default=True, metavar="S",
                     help="The seed the games are drawn from: the same seed, the same games."),
        click.Option(["--scheduler"], type=SCHEDULER, metavar="tcp://HOST:PORT",
                     help="Run on an existing Dask cluster (its workers need webbot installed) "
                          "instead of local worker processes."),
        click.Option(["--connect"], type=BROWSER_ENDPOINT, metavar="WS_URL", multiple=True,
                     help="Drive remote browsers instead of launching one per game: a "
                          "Playwright server or DevTools endpoint; give several to use them "
                          "in turn."),
        click.Option(["--jsonl"], type=OUTPUT_FILE,
                     metavar="FILE",
                     help="Write one JSON object per game: game, case, number, outcome, "
                          "attempts, seconds, reason, worker, recoveries (and each try)."),
        click.Option(["--report"], type=OUTPUT_FILE, metavar="FILE.html",
                     help="Write the soak's page: its tables and a row per game, linked to "
                          "each try's own report page (its annotated frames, where the time "
                          "went, a failure's reason and page), kept in FILE-games/."),
        click.Option(["--resume"], is_flag=True,
                     help="With --jsonl: play only the games of this seed and count that the "
                          "file does not record as passed (a soak killed or stopped goes on "
                          "where it was; each game is recorded once)."),
        click.Option(["--query"], default="", metavar="PARAMS",
                     help="Extra replica parameters for every game (flight=0.5, "
                          "stall=results, ...)."),
    ]


def game_command(game: Registration) -> click.Command:
    """`webbot soak <game>`: the common options, then the game's own (its replica's)."""

    def play(count: int | None, minutes: float | None, workers: int | None, seed: int,
             scheduler: str | None, connect: tuple[str, ...], jsonl: Path | None,
             report: Path | None, resume: bool, query: str, **options: object) -> None:
        if count is None and minutes is None:
            raise click.UsageError("give --count N or --minutes M")
        if count is not None and minutes is not None:
            raise click.UsageError("give --count N or --minutes M, not both")
        if scheduler and workers:
            raise click.UsageError("--workers starts local workers; an existing cluster "
                                   "(--scheduler) has its own")
        if resume and jsonl is None:
            raise click.UsageError("--resume goes on from the records of --jsonl FILE")
        dask_installed()
        from webbot.soak.pages import SoakPages
        from webbot.soak.resume import recorded
        from webbot.soak.runner import Plan

        plan = Plan(game.name, count, minutes, workers, seed, scheduler, connect,
                    query.lstrip("?&"), options, report=report is not None)
        before = recorded(jsonl, plan) if resume and jsonl else []
        plan = replace(plan, passed_before=frozenset(r.case.number for r in before))
        pages = SoakPages(report, " ".join(["webbot", *sys.argv[1:]])) if report else None
        raise click.exceptions.Exit(soak_command(plan, jsonl, terminal, before, pages))

    return click.Command(
        game.name, callback=play,
        params=[*common_options(), *game.replica_module().SOAK_OPTIONS],
        help=f"Play many {game.title} games on its bundled replica, spread over Dask workers, "
             f"each checked against the replica's own record. One game: {game.soak}. A failed "
             "game is tried once more on another worker. Exit 0 only when every game passed."
             f"\n\nExample: webbot soak {game.name} --count 200 --jsonl games.jsonl")


def dask_installed() -> None:
    """Dask is the soak's own extra (`pip install '.[soak]'`): playing a game needs none."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "the soak spreads its games over Dask, which is not installed: run "
            "pip install '.[soak]' in webbot's checkout (scripts/setup.sh does)") from None


class SoakGroup(LazyGroup):
    """One soak command per registered game, made when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(games())

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        game = games().get(name)
        return game_command(game) if game else None


@click.group(cls=SoakGroup)
def soak() -> None:
    """Play many games of GAME on the bundled replicas, spread over Dask workers, each checked
    against the replica's own record (`webbot soak GAME --help` tells what one game is).
    A failed game is tried once more on another worker. Exit 0 only when every game passed.

    Example: webbot soak GAME --count 100 --workers 2  (`webbot games` lists the games)"""


def soak_command(plan: Plan, jsonl: Path | None, console: Console,
                 before: list[GameRecord] = (), pages: SoakPages | None = None) -> int:
    """`before`: the games recorded as passed by the run resumed; the file keeps them, once
    each, and the tables count them. `pages`: the soak's report, written as games end."""
    from webbot.soak.runner import dashboard, dask_client

    out: TextIO | None = jsonl.open("w", encoding="utf-8") if jsonl else None
    if out:
        for record in before:
            out.write(json.dumps(record.as_json()) + "\n")
        out.flush()
    if before:
        console.print(f"resuming: {counted(len(before), 'game')} recorded as passed, not "
                      "played again")
    try:
        with dask_client(plan) as client:
            link = dashboard(client)
            where = plan.scheduler or "a local Dask cluster"
            to_play = plan.count - len(plan.passed_before) if plan.count else 0
            console.print(f"soak of {plan.game}: "
                          + ((counted(plan.count, "game") + (
                              f" ({len(plan.passed_before)} passed before, {to_play} to play)"
                              if plan.passed_before else "")) if plan.count
                             else f"{plan.minutes:g} minutes")
                          + f" on {where}" + (f"; dashboard: {link}" if link else ""))
            if pages:
                for record in before:
                    pages.add(record)
            result = _with_progress(plan, client, console, out, pages)  # each record flushed
            # Said before the cluster is closed: closing workers stopped in the middle of
            # their games can take a while.
            return _report(plan, replace(result, records=[*before, *result.records]), console,
                           pages, resumable=jsonl is not None)
    finally:
        if out:
            out.close()


def _report(plan: Plan, result: SoakResult, console: Console,
            pages: SoakPages | None = None, resumable: bool = False) -> int:
    """The soak's tables and closing lines (and its report page); its exit code. An
    interrupted soak ends in the one error line every command ends in when interrupted."""
    ended = counted(len(result.records), "game")
    resume = ("; the same command with --resume goes on from its --jsonl records" if resumable
              else "; with --jsonl FILE a soak stopped can be resumed (--resume)")
    tables = [summary_table(plan.game, result), worker_table(result.records)] \
        if result.records else []
    for table in tables:
        console.print(table)
    if not result.records:
        console.print(f"soak of {plan.game}: no game ended")
    if pages:
        page = TextConsole(record=True, file=io.StringIO())  # as wide as its tables
        for table in tables:
            page.print(table)
        pages.write(page.export_text())
        console.print(f"report: {pages.path}")
    if result.lost_workers:
        lost = result.lost_workers
        console.print(f"{counted(lost, 'worker')} left the cluster during the soak "
                      "(killed or lost); Dask played the games under way there again on the "
                      "others")
    if result.interrupted:
        say_error(f"interrupted ({ended} had ended{resume})")
        return 130
    if result.scheduler_lost:
        console.print(f"stopped: {result.scheduler_lost}")
        return 1
    failed = [r for r in result.records if not r.passed]
    return 1 if failed or not result.records else 0


PROGRESS_LINE_S = 10.0  # without a terminal, a progress line at most this often


def _with_progress(plan: Plan, client, console: Console, out: TextIO | None,
                   pages: SoakPages | None = None) -> SoakResult:
    """The soak played, its progress shown as it goes: a bar on a terminal, else a line as
    games end (at most one every PROGRESS_LINE_S, the first at once)."""
    from webbot.soak.runner import run_soak as run

    counts = {"passed": 0, "failed": 0}
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, transient=True)
    lined = [-PROGRESS_LINE_S]  # when the last progress line was printed (no terminal)
    with progress:
        left = None if plan.count is None else plan.count - len(plan.passed_before)
        task = progress.add_task("games", total=left)

        def on_record(record: GameRecord) -> None:
            counts["passed" if record.passed else "failed"] += 1
            if out:
                out.write(json.dumps(record.as_json()) + "\n")
                out.flush()
            if pages:
                pages.add(record)
            if not record.passed:
                progress.console.print(failure_line(record))
            elapsed = progress.tasks[0].elapsed or 0.0
            said = (f"{counts['passed']} passed, {counts['failed']} failed, "
                    f"{sum(counts.values()) / max(elapsed, 1e-9) * 60:.1f} games/min")
            progress.update(task, advance=1, description=said)
            ended = sum(counts.values())
            if not console.is_terminal and (elapsed - lined[0] >= PROGRESS_LINE_S
                                            or ended == left):
                lined[0] = elapsed
                console.print(f"games: {ended}" + (f" of {left}" if left else "")
                              + f" ended in {elapsed:.0f} s: {said}")

        return run(plan, client, on_record)


def failure_line(record: GameRecord) -> str:
    """A failed game: its last try's reason, and each try's folder, named once."""
    last = record.tries[-1]
    folders = [f"try {number} in {t.played.frames}"
               for number, t in enumerate(record.tries, 1) if t.played.frames]
    saved = f" (saved: {', '.join(folders)})" if folders else ""
    return (f"failed: {record.case.name} after {counted(len(record.tries), 'try', 'tries')}, "
            f"last on worker {last.worker}: {last.played.reason}{saved}")


def summary_table(game: str, result: SoakResult) -> Table:
    from webbot.soak.runner import percentile

    records = result.records
    seconds = [r.seconds for r in records]
    passed = sum(r.passed for r in records)
    retried = sum(len(r.tries) > 1 for r in records)
    table = Table("games", "passed", "failed", "retried", "pages recovered", "s/game p50",
                  "s/game p95", "games/min", "workers", "workers lost",
                  title=f"soak of {game}: {counted(len(records), 'game')} in "
                        f"{result.seconds:.0f} s")
    table.add_row(str(len(records)), str(passed), str(len(records) - passed), str(retried),
                  str(sum(r.recoveries for r in records)),
                  f"{percentile(seconds, 0.5):.1f}", f"{percentile(seconds, 0.95):.1f}",
                  f"{len(records) / max(result.seconds, 1e-9) * 60:.1f}", str(result.workers),
                  str(result.lost_workers))
    return table


def worker_table(records: list[GameRecord]) -> Table:
    from webbot.soak.runner import percentile

    tries: dict[str, list[Try]] = defaultdict(list)
    for record in records:
        for attempt in record.tries:
            tries[attempt.worker].append(attempt)
    table = Table("worker", "tries", "passed", "failed", "s/try p50", title="per worker")
    for worker in sorted(tries):
        good = sum(t.played.passed for t in tries[worker])
        table.add_row(worker, str(len(tries[worker])), str(good),
                      str(len(tries[worker]) - good),
                      f"{percentile([t.played.seconds for t in tries[worker]], 0.5):.1f}")
    return table
