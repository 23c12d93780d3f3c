"""The `webbot` command line."""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from webbot import __version__
from webbot.browser import BrowserOptions
from webbot.errors import WebbotError, first_line
from webbot.finder import FIND_TIMEOUT_S
from webbot.params import (
    BROWSER_ENDPOINT,
    GAME_SELECTOR,
    PAGE_URL,
    SCHEDULER,
    VIEWPORT,
    Finite,
    Rect,
    Url,
)
from webbot.puzlogic.solvers import DEFAULT_TIMEOUT
from webbot.puzlogic.solvers import NAMES as SOLVERS
from webbot.session import RunOptions

console = Console()


def run_options(command: Callable) -> Callable:
    """The options every command that drives a browser takes, folded into `options`."""

    @click.option("--url", type=PAGE_URL, metavar="URL",
                  help="Play at this URL instead of the bundled replica on 127.0.0.1.")
    @click.option("--headed", is_flag=True, help="Show the browser window (needs a display).")
    @click.option("--slow-mo", type=Finite(0, 10_000), default=0, metavar="MS",
                  help="Slow every browser action down by MS milliseconds.")
    @click.option("--connect", type=BROWSER_ENDPOINT, metavar="WS_URL",
                  help="Use a remote browser: a `playwright run-server` endpoint (ws://...) or "
                       "a Chromium DevTools endpoint (http://host:port).")
    @click.option("--debug-dir", type=click.Path(file_okay=False, path_type=Path),
                  help="Save the frames seen, annotated copies and a Playwright trace here.")
    @click.option("--game-selector", type=GAME_SELECTOR, metavar="SELECTOR",
                  help="The game's element, when finding it is not enough: CSS selectors, one "
                       "per frame, joined by '>>>' (iframe#gameiframe >>> iframe >>> canvas), "
                       "or a Playwright selector.")
    @click.option("--viewport", type=VIEWPORT, default="1280x800", show_default=True,
                  metavar="WxH", help="The browser window's size in CSS pixels.")
    @click.option("--find-timeout", type=Finite(1, 600), default=FIND_TIMEOUT_S,
                  show_default=True, metavar="S",
                  help="Give up looking for the game on the page after S seconds (a loading "
                       "screen or a preroll ad may hold it back that long).")
    @functools.wraps(command)
    def wrapper(url, headed, slow_mo, connect, debug_dir, game_selector, viewport,
                find_timeout, **kwargs):
        browser = BrowserOptions(headed=headed, slow_mo=slow_mo, connect=connect,
                                 viewport=viewport)
        return command(RunOptions(url=url, browser=browser, debug_dir=debug_dir,
                                  game_selector=game_selector, find_timeout_s=find_timeout),
                       **kwargs)

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="webbot")
def cli() -> None:
    """Plays web games through a real browser: it looks at the pixels, thinks, and moves the
    mouse inside the page. Without --url each game runs against its bundled replica."""


@cli.group(invoke_without_command=True)
@run_options
@click.option("--levels", "level_spec", default="1-15", show_default=True, metavar="SPEC",
              help="Which levels to play: 1-15, 3, 2,5-7 ...")
@click.option("--solver", type=click.Choice(SOLVERS), default="auto", show_default=True,
              help="Which solver backend decides.")
@click.pass_context
def puzlogic(ctx: click.Context, options: RunOptions, level_spec: str, solver: str) -> None:
    """Play Puzlogic levels through the screen and the mouse (from the title screen on).

    `webbot puzlogic read IMAGE` reads a screenshot; `webbot puzlogic solve FILE` solves a
    puzzle file."""
    if ctx.invoked_subcommand is not None:
        return
    from webbot.puzlogic.cli import levels_from_spec, play_command

    try:
        levels = levels_from_spec(level_spec)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--levels") from None
    raise click.exceptions.Exit(play_command(options, levels, solver, console))


@puzlogic.command("read")
@click.argument("image", metavar="IMAGE", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="Print the puzzle as JSON in the schema of levels.json.")
@click.option("--annotated", type=click.Path(dir_okay=False), metavar="OUT.png",
              help="Also save the picture with what was recognised drawn on it.")
def puzlogic_read(image: str, as_json: bool, annotated: str | None) -> None:
    """Read the puzzle in a screenshot (a canvas grab, or a page with the game inside black)."""
    from webbot.puzlogic.cli import read_command

    read_command(image, as_json, annotated)


@puzlogic.command("solve")
@click.argument("puzzle_file", metavar="PUZZLE.json", type=click.Path(dir_okay=False))
@click.option("--solver", type=click.Choice(SOLVERS), default="auto", show_default=True,
              help="Which backend searches.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {\"placements\": [...]}.")
@click.option("--all", "all_solutions", is_flag=True,
              help="Print every solution (up to --limit), not one.")
@click.option("--limit", type=click.IntRange(1, 100_000), default=100, show_default=True,
              metavar="N", help="With --all: stop after N solutions (and say so).")
@click.option("--unique", is_flag=True, help="Also say whether the solution is the only one.")
@click.option("--timeout", type=Finite(0, 86_400, min_open=True),
              default=DEFAULT_TIMEOUT, show_default=True, metavar="S",
              help="Stop the search after S seconds, with a one-line error.")
def puzlogic_solve(puzzle_file: str, solver: str, as_json: bool, all_solutions: bool,
                   limit: int, unique: bool, timeout: float) -> None:
    """Solve a puzzle given as JSON (the schema of the reference levels file)."""
    from webbot.puzlogic.cli import solve_command

    solve_command(puzzle_file, solver, as_json, all_solutions, unique, limit, timeout)


@cli.group("daily-set", invoke_without_command=True)
@run_options
@click.pass_context
def daily_set(ctx: click.Context, options: RunOptions) -> None:
    """Find and click the 6 sets of the Daily SET puzzle: the cards are read from their image
    files' pixels, each set's three cards are clicked, and the page's answer is checked.

    `webbot daily-set classify IMAGE...` reads card pictures; `webbot daily-set read URL`
    reads a page's cards and sets without a browser."""
    if ctx.invoked_subcommand is not None:
        return
    from webbot.daily_set.cli import play_command

    raise click.exceptions.Exit(play_command(options, console))


@daily_set.command("classify")
@click.argument("images", metavar="IMAGE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON object per image: {"file", "count", "shape", "color", "fill"}.')
def daily_set_classify(images: tuple[str, ...], as_json: bool) -> None:
    """Read the count, shape, colour and fill of card pictures (GIF, PNG, JPEG)."""
    from webbot.daily_set.cli import classify_command

    classify_command(images, as_json)


@daily_set.command("read")
@click.argument("url", metavar="URL", type=Url(("http", "https")))
@click.option("--json", "as_json", is_flag=True,
              help='Print {"layout", "cards": [...], "sets": [[p, p, p], ...]}.')
def daily_set_read(url: str, as_json: bool) -> None:
    """Fetch a Daily SET page with requests (its scripts are not run), read its 12 cards and
    list its sets. Nothing is clicked."""
    from webbot.daily_set.cli import read_command

    read_command(url, as_json)


def templates_option(command: Callable) -> Callable:
    return click.option(
        "--templates", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
        help="Use this template pack (PNG crops named like the bundled pack's) instead of the "
             "bundled one; for example crops captured from the real game.")(command)


@cli.group("burrito-bison", invoke_without_command=True)
@run_options
@templates_option
@click.option("--rounds", type=click.IntRange(1, 100_000), metavar="N",
              help="Play N rounds (default 3).")
@click.option("--minutes", type=Finite(0, 10_080, min_open=True), metavar="M",
              help="Play rounds for M minutes instead (the round under way is finished).")
@click.option("--no-shop", is_flag=True, help="Never go to the shop.")
@click.option("--stuck-after", type=Finite(0.5, 3600), default=10, show_default=True,
              metavar="S", help="Seconds a screen may last (a flight: 12 times as long) before "
                                "recovery steps start; after 3 the run stops.")
@click.pass_context
def burrito_bison(ctx: click.Context, options: RunOptions, templates: Path | None,
                  rounds: int | None, minutes: float | None, no_shop: bool,
                  stuck_after: float) -> None:
    """Grind Burrito Bison rounds: launch, rocket slams, popups, results, shop, again.

    `webbot burrito-bison classify IMAGE...` tells which screen screenshots show;
    `webbot burrito-bison read IMAGE...` reads a results or shop screenshot's numbers;
    `webbot burrito-bison pack cut SCREEN.png... --out DIR` makes a template pack from your
    own screenshots of the game."""
    if ctx.invoked_subcommand is not None:
        return
    if rounds is not None and minutes is not None:
        raise click.UsageError("give --rounds or --minutes, not both")
    from webbot.burrito_bison.cli import play_command

    raise click.exceptions.Exit(
        play_command(options, templates, rounds, minutes, not no_shop, stuck_after, console))


@burrito_bison.command("classify")
@click.argument("images", metavar="IMAGE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@templates_option
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON object per image: {"file", "screen"}.')
def burrito_bison_classify(images: tuple[str, ...], templates: Path | None,
                           as_json: bool) -> None:
    """Tell which screen each screenshot shows (a canvas grab, or a page grab at 1:1): ring,
    flight, rocket_ready, pinata, missions, results, unlocked, shop or unknown."""
    from webbot.burrito_bison.cli import classify_command

    classify_command(images, templates, as_json)


@burrito_bison.command("read")
@click.argument("images", metavar="IMAGE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@templates_option
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON object per image: {"file", "screen", ...numbers}.')
def burrito_bison_read(images: tuple[str, ...], templates: Path | None, as_json: bool) -> None:
    """Read the numbers a screenshot shows, in the game's own digits: the results' distance,
    round coins and total; the shop's coins and the selected upgrade's name, level and price
    (null when unreadable). Other screens have none."""
    from webbot.burrito_bison.cli import read_command

    read_command(images, templates, as_json)


@burrito_bison.group("pack")
def burrito_bison_pack() -> None:
    """Template packs: `pack cut` makes one from screenshots of the game you play."""


@burrito_bison_pack.command("cut")
@click.argument("screens", metavar="SCREEN.png...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              metavar="DIR", help="Write the pack's PNG crops into this folder.")
@click.option("--box", type=Rect(), metavar="X,Y,W,H",
              help="Where the game is in every screenshot (default: found as the part of the "
                   "pictures that changes from screen to screen).")
def burrito_bison_pack_cut(screens: tuple[Path, ...], out: Path,
                           box: tuple[int, int, int, int] | None) -> None:
    """Cut a template pack from screenshots named after their screens (ring.png,
    ring-pineapple.png, flight.png, rocket_ready.png, pinata.png, missions.png, unlocked.png,
    results.png, shop.png): each crop is cut where the pack's manifest says, scaled to the
    game's size, and the game's digits are taught from the shop's level pips and the numbers
    on results.png and shop.png; then every screenshot is read back with the new pack, and the
    screens still missing are listed. Exit 1 when two screens are not told apart."""
    from webbot.burrito_bison.cli import pack_cut_command

    raise click.exceptions.Exit(pack_cut_command(list(screens), out, box, console))


@cli.command()
@click.argument("game", type=click.Choice(["puzlogic", "daily-set", "burrito-bison"]))
@click.option("--count", type=click.IntRange(1, 1_000_000), metavar="N",
              help="Play N games.")
@click.option("--minutes", type=Finite(0, 10_080, min_open=True), metavar="M",
              help="Start new games for M minutes (the games under way are finished).")
@click.option("--workers", type=click.IntRange(1, 256), metavar="K",
              help="Local Dask worker processes, one game at a time each (default: one per "
                   "core).")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True,
              metavar="S",
              help="The seed the games are drawn from: the same seed, the same games.")
@click.option("--scheduler", type=SCHEDULER, metavar="tcp://HOST:PORT",
              help="Run on an existing Dask cluster (its workers need webbot installed) "
                   "instead of local worker processes.")
@click.option("--connect", type=BROWSER_ENDPOINT, metavar="WS_URL", multiple=True,
              help="Drive remote browsers instead of launching one per game: a Playwright "
                   "server or DevTools endpoint; give several to use them in turn.")
@click.option("--jsonl", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write one JSON object per game: game, case, outcome, attempts, seconds, "
                   "reason, worker (and each try).")
@click.option("--query", default="", metavar="PARAMS",
              help="Extra replica parameters for every game (flight=0.5, stall=results, ...).")
@click.option("--stuck-after", type=Finite(0.5, 3600), default=10, show_default=True,
              metavar="S", help="Burrito Bison's stuck watchdog (see webbot burrito-bison).")
@click.option("--rounds", type=click.IntRange(1, 1000), default=2, show_default=True,
              metavar="N", help="Burrito Bison's rounds a game.")
def soak(game: str, count: int | None, minutes: float | None, workers: int | None, seed: int,
         scheduler: str | None, connect: tuple[str, ...], jsonl: Path | None, query: str,
         stuck_after: float, rounds: int) -> None:
    """Play many games of GAME on the bundled replicas, spread over Dask workers, each checked
    against the replica's own record (puzlogic: a generated level; daily-set: a seeded puzzle
    in one of the three page layouts; burrito-bison: a run of --rounds at one of the real
    sizes).
    A failed game is tried once more on another worker. Exit 0 only when every game passed."""
    if (count is None) == (minutes is None):
        raise click.UsageError("give --count N or --minutes M")
    if scheduler and workers:
        raise click.UsageError("--workers starts local workers; an existing cluster "
                               "(--scheduler) has its own")
    from webbot.soak.cli import soak_command
    from webbot.soak.runner import Plan

    plan = Plan(game, count, minutes, workers, seed, scheduler, connect, query.lstrip("?&"),
                stuck_after, rounds)
    raise click.exceptions.Exit(soak_command(plan, jsonl, console))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
def serve(host: str, port: int) -> None:
    """Serve the bundled games so a person can play them in a browser."""
    from webbot.server import FixtureServer

    server = FixtureServer(host=host, port=port)
    click.echo(f"Serving {server.root} at {server.url} (Ctrl-C to stop)")
    click.echo(f"  Puzlogic: {server.url}puzlogic/index.html")
    click.echo(f"  Daily SET: {server.url}daily-set/index.html")
    click.echo(f"  Burrito Bison: {server.url}burrito-bison/index.html")
    click.echo(f"  a game portal: {server.url}portal/index.html?game=puzlogic&consent=onetrust"
               "&preroll=5 (the game's frame comes from the other host name, localhost or "
               "127.0.0.1)")
    try:
        server.serve_forever()
    finally:
        server.stop()


@cli.command()
@run_options
def check(options: RunOptions) -> None:
    """Check that server, Chromium, screenshots and Tesseract all work here."""
    from webbot.check import run_check

    table = Table("check", "result", title="webbot check: all good")
    for name, value in run_check(options):
        table.add_row(name, value)
    console.print(table)


def _fail(message: str, code: int) -> int:
    print(f"webbot: error: {message}", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    # Libraries' log records (urllib3's retries, say) are not for the user: without a handler
    # of ours Python would print their warnings on stderr beside our one line.
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.NullHandler())
    try:
        result = cli.main(args=argv, prog_name="webbot", standalone_mode=False)
    except click.UsageError as exc:
        path = exc.ctx.command_path if exc.ctx else "webbot"
        return _fail(f"{exc.format_message()} (see '{path} --help')", exc.exit_code)
    except click.ClickException as exc:
        return _fail(exc.format_message(), exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        return _fail("interrupted", 130)
    except WebbotError as exc:
        return _fail(first_line(exc), exc.exit_code)
    except Exception as exc:  # a bug; still one line, never a traceback
        return _fail(f"unexpected {type(exc).__name__}: {first_line(exc)}", 1)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
