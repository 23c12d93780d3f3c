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

from webbot.daily_set.bot import (
    DailySetBot,
    Outcome,
    fetch_images,
    layout_name,
    read_cards,
    todays_sets,
)
from webbot.daily_set.cards import Reading, read_file
from webbot.daily_set.page import fetch_page, parse_board
from webbot.daily_set.sets import DAILY_SETS
from webbot.errors import WebbotError
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
                        f"(cards read in {outcome.read_ms:.0f} ms)")
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
