"""`webbot daily-set` (play), `webbot daily-set classify` (card pictures) and `webbot daily-set
read` (a page, without a browser)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from urllib.parse import urlsplit

import click
from rich.console import Console
from rich.table import Table

from webbot.commands import console, run_options
from webbot.daily_set.bot import (
    DailySetBot,
    Outcome,
    fetch_images,
    layout_name,
    read_cards,
)
from webbot.daily_set.decide import DAILY_SETS, todays_sets
from webbot.daily_set.model import Reading
from webbot.daily_set.page import fetch_page, parse_board
from webbot.daily_set.perceive import read_file
from webbot.errors import WebbotError
from webbot.params import Url
from webbot.recovery import recovered
from webbot.session import RunOptions, game_session

BUNDLED_PAGE = "daily-set/puzzle/set.htm"


def play_command(options: RunOptions, console: Console) -> int:
    started = time.perf_counter()
    with game_session(options, BUNDLED_PAGE) as session:
        bot = DailySetBot(session, report=console.print)
        try:
            outcome = bot.play()
        finally:
            console.print(sets_table(bot.outcome, time.perf_counter() - started))
            if bot.outcome.completion:  # a URL is one line, however long
                console.print(f"Done: {bot.outcome.completion}", soft_wrap=True)
    if not outcome.complete:
        raise WebbotError(f"only {len(outcome.found)} of {DAILY_SETS} sets were confirmed")
    return 0


def sets_table(outcome: Outcome, seconds: float) -> Table:
    done = len(outcome.found)
    table = Table("set", "cards", "what they show", "page said",
                  title=f"Daily SET: {done} of {DAILY_SETS} sets confirmed in {seconds:.1f} s "
                        f"(cards read in {outcome.read_ms:.0f} ms)"
                        f"{recovered(outcome.recoveries)}")
    for number, found in enumerate(outcome.found, 1):
        table.add_row(str(number), " ".join(map(str, found.positions)),
                      "; ".join(map(str, found.cards)), found.message or "(moved on)")
    return table


def classify_command(paths: Sequence[str], as_json: bool) -> None:
    for path in paths:
        reading = read_file(path)
        if as_json:
            click.echo(json.dumps({"file": path, **reading.card.as_dict()}))
        else:
            click.echo(f"{path}: {reading.card} ({_doubt(reading)})")


def read_command(url: str, as_json: bool) -> None:
    """Scrape a page with requests (no scripts run), read its cards and list its sets."""
    if urlsplit(url).query:
        click.echo("note: the page's scripts do not run here, so a puzzle they would make "
                   "(such as the replica's ?seed=) is not what is read", err=True)
    page = fetch_page(url)
    board = parse_board(page.body, page.url)
    started = time.perf_counter()
    images = fetch_images(board)
    readings = read_cards(board, images)
    layout = layout_name(board, images)
    ms = (time.perf_counter() - started) * 1000
    sets = todays_sets(readings)
    positions = [[board.slots[i].position for i in triple] for triple in sets]
    if as_json:
        cards = [{"position": s.position, "image": s.image_url, **r.card.as_dict()}
                 for s, r in zip(board.slots, readings, strict=True)]
        click.echo(json.dumps({"layout": layout, "cards": cards, "sets": positions}))
        return
    click.echo(f"{url}: {layout} layout, 12 cards read in {ms:.0f} ms")
    for slot, reading in zip(board.slots, readings, strict=True):
        click.echo(f"  {slot.position:2d}: {reading.card} ({_doubt(reading)})")
    for number, triple in enumerate(positions, 1):
        click.echo(f"set {number}: cards {' '.join(map(str, triple))}")


def _doubt(reading: Reading) -> str:
    return f"least certain: {reading.doubtful}, doubt {reading.doubt:.2f}"


# ---- the command line -------------------------------------------------------------------------

@click.group("daily-set", invoke_without_command=True)
@run_options
@click.pass_context
def command(ctx: click.Context, options: RunOptions) -> None:
    """Find and click the 6 sets of the Daily SET puzzle: the cards are read from their image
    files' pixels, each set's three cards are clicked, and the page's answer is checked.

    `webbot daily-set classify IMAGE...` reads card pictures; `webbot daily-set read URL`
    reads a page's cards and sets without a browser."""
    if ctx.invoked_subcommand is not None:
        return

    raise click.exceptions.Exit(play_command(options, console))


@command.command("classify")
@click.argument("images", metavar="IMAGE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON object per image: {"file", "count", "shape", "color", "fill"}.')
def classify(images: tuple[str, ...], as_json: bool) -> None:
    """Read the count, shape, colour and fill of card pictures (GIF, PNG, JPEG)."""
    classify_command(images, as_json)


@command.command("read")
@click.argument("url", metavar="URL", type=Url(("http", "https")))
@click.option("--json", "as_json", is_flag=True,
              help='Print {"layout", "cards": [...], "sets": [[p, p, p], ...]}.')
def read(url: str, as_json: bool) -> None:
    """Fetch a Daily SET page with requests (its scripts are not run), read its 12 cards and
    list its sets. Nothing is clicked."""
    read_command(url, as_json)
