"""`webbot daily-set` (play), `webbot daily-set classify` (card pictures) and `webbot daily-set
read` (a board in a picture, or a page without a browser)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import click

from webbot.commands import answer_each, console, run_options, summed_up
from webbot.errors import WebbotError
from webbot.params import INPUT_FILE, OUTPUT_FILE, Url
from webbot.progress import remember
from webbot.recovery import recovered
from webbot.shown import Table, shown_name
from webbot.words import counted

if TYPE_CHECKING:  # (the reading of cards and the browser are loaded by the commands that use
    from rich.console import Console  # them)

    from webbot.daily_set.bot import Outcome
    from webbot.options import RunOptions
    from webbot.set_cards.picture import Kind

BUNDLED_PAGE = "daily-set/puzzle/set.htm"
WEB_URL = Url(("http", "https"))  # fetched with requests: no file:// pages


def play_command(options: RunOptions, console: Console) -> int:
    from webbot.daily_set.bot import player
    from webbot.play import play
    from webbot.session import game_session
    from webbot.set_cards.model import DAILY_SETS

    started = time.perf_counter()
    with game_session(options, BUNDLED_PAGE) as session:
        playable = player(session, report=console.print)
        bot = playable.bot
        try:
            outcome = play(playable)
        finally:
            console.print(summed_up(sets_table(bot.outcome, time.perf_counter() - started),
                                    options.report))
            if bot.outcome.completion:  # a URL is one line, however long
                console.print(f"Done: {bot.outcome.completion}", soft_wrap=True)
            if bot.outcome.complete:
                remember(options, "daily-set",
                         lambda last: {"puzzle done on": time.strftime("%Y-%m-%d")})
    if not outcome.complete:
        raise WebbotError(f"only {len(outcome.found)} of {DAILY_SETS} sets were confirmed")
    return 0


def sets_table(outcome: Outcome, seconds: float) -> Table:
    from webbot.set_cards.model import DAILY_SETS

    confirmed = DAILY_SETS if outcome.done_before else len(outcome.found)
    before = " (found before this run)" if outcome.done_before else ""
    table = Table("set", "cards", "what they show", "page said",
                  title=f"Daily SET: {confirmed} of {DAILY_SETS} sets confirmed{before} in "
                        f"{seconds:.1f} s "
                        f"(cards read in {outcome.read_ms:.0f} ms)"
                        f"{recovered(outcome.recoveries)}")
    for number, found in enumerate(outcome.found, 1):
        table.add_row(str(number), " ".join(map(str, found.positions)),
                      "; ".join(map(str, found.cards)), found.message or "(moved on)")
    return table


def classify_command(paths: Sequence[str], as_json: bool) -> int:
    """Read each card picture on its own (see answer_each); the exit status."""
    return answer_each(paths, lambda _, path: classify_one(path, as_json), as_json=as_json)


def classify_one(path: str, as_json: bool) -> None:
    from webbot.set_cards.perceive import CardError, NotAPicture
    from webbot.set_cards.single import read_file

    try:
        reading = read_file(path)
    except NotAPicture:
        raise  # (it names the file already)
    except CardError as exc:  # which of the files it was
        raise type(exc)(f"{path}: {exc}") from None
    if as_json:
        click.echo(json.dumps({"file": path, **reading.card.as_dict()}))
    else:
        click.echo(f"{shown_name(path)}: {reading.card} (sure)")


def read_command(url: str, as_json: bool) -> None:
    """Scrape a page with requests (no scripts run), read its cards and list its sets."""
    from webbot.daily_set.bot import fetch_images, layout_name, read_cards
    from webbot.daily_set.decide import todays_sets
    from webbot.daily_set.page import fetch_page, parse_board
    from webbot.set_cards.perceive import CardError

    page = fetch_page(url)
    # The replica makes the puzzle of its ?seed= in its scripts: read without them, the page is
    # another board than the browser plays. Said in the result, where it is read.
    note = (f"this page's scripts read its address's query ({urlsplit(url).query}) and were "
            "not run here: the board read is the one in its HTML, which the browser's may not "
            "be (webbot daily-set --url plays the browser's)") \
        if urlsplit(url).query and b"location.search" in page.body else None
    board = parse_board(page.body, page.url)
    started = time.perf_counter()
    images = fetch_images(board)
    try:
        readings = read_cards(board, images)
    except CardError as exc:  # which of the pages it was
        raise CardError(f"{url}: {exc}") from None
    layout = layout_name(board, images)
    ms = (time.perf_counter() - started) * 1000
    sets = todays_sets(readings)
    positions = [[board.slots[i].position for i in triple] for triple in sets]
    if as_json:
        cards = [{"position": s.position, "image": s.image_url, **r.card.as_dict()}
                 for s, r in zip(board.slots, readings, strict=True)]
        click.echo(json.dumps({"url": url, "layout": layout, "cards": cards,
                               "sets": positions, **({"note": note} if note else {})}))
        return
    click.echo(f"{shown_name(url)}: {layout} layout, 12 cards read in {ms:.0f} ms")
    if note:
        click.echo(f"note: {shown_name(note)}")
    for slot, reading in zip(board.slots, readings, strict=True):
        click.echo(f"  {slot.position:2d}: {reading.card} (sure)")
    for number, triple in enumerate(positions, 1):
        click.echo(f"set {number}: cards {' '.join(map(str, triple))}")


def read_picture_command(path: str, as_json: bool, annotate_to: Path | None,
                         kind: Kind | None = None) -> None:
    """Find and read the board in a picture file; list its cards and sets."""
    from webbot.files import read_bytes
    from webbot.inputs import MAX_IMAGE_BYTES, decode_image, is_lossy
    from webbot.set_cards.draw import annotated
    from webbot.set_cards.picture import read_picture
    from webbot.vision.marks import save_picture

    data = read_bytes(path, MAX_IMAGE_BYTES)
    image = decode_image(data, path)
    started = time.perf_counter()
    try:
        board = read_picture(image, lossy=is_lossy(data), kind=kind)
    except WebbotError as exc:
        raise WebbotError(f"{path}: {exc}") from None
    ms = (time.perf_counter() - started) * 1000
    if annotate_to is not None:
        save_picture(annotate_to, annotated(image, board))
    if as_json:
        cards = [{"position": c.position, **c.reading.card.as_dict(), "box": list(c.box)}
                 for c in board.cards]
        click.echo(json.dumps({"file": path, "kind": board.kind, "cards": cards,
                               "sets": [list(s) for s in board.sets]}))
        return
    turned = f", turned {board.tilt:+.1f} degrees" if board.tilt else ""
    what = "the Daily SET puzzle" if board.kind == "puzzle" else "a table of the card game"
    click.echo(f"{shown_name(path)}: {counted(len(board.cards), 'card')} read in {ms:.0f} ms"
               f"{turned}, as {what}")
    for card in board.cards:
        click.echo(f"  {card.position:2d}: {card.reading.card} (sure)")
    for number, triple in enumerate(board.sets, 1):
        click.echo(f"set {number}: cards {' '.join(map(str, triple))}")
    if not board.sets:
        click.echo("no set among these cards")


# ---- the command line -------------------------------------------------------------------------

@click.group("daily-set", invoke_without_command=True)
@run_options
@click.pass_context
def command(ctx: click.Context, options: RunOptions) -> None:
    """Find and click the 6 sets of the Daily SET puzzle: the cards are read from their image
    files' pixels, each set's three cards are clicked, and the page's answer is checked.

    `webbot daily-set classify IMAGE...` reads card pictures; `webbot daily-set read IMAGE|URL`
    reads the cards and sets of a board in a picture, or of a page without a browser.

    Example: webbot daily-set --url https://www.setgame.com/set/puzzle"""
    if ctx.invoked_subcommand is not None:
        return

    from webbot.driver import started_early

    with started_early("webbot.daily_set.bot"):
        code = play_command(options, console)
    raise click.exceptions.Exit(code)


@command.command("classify")
@click.argument("images", metavar="IMAGE...", nargs=-1, required=True,
                type=INPUT_FILE)
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON object per image, in order: {"file", "count", "shape", '
                   '"color", "fill"}, or {"file", "refused": its error line} for one not read '
                   '(the line is on stderr too).')
def classify(images: tuple[str, ...], as_json: bool) -> int:
    """Read the count, shape, colour and fill of card pictures (GIF, PNG, JPEG; - reads one
    from standard input).

    Every picture is answered: one that is refused is an error line naming it on stderr, and
    the others are still read. Exit 2 when any was bad input (a missing file, a folder: all
    checked before any is read, and then none is; a file that is no picture, when it is
    read), else 1 when any was refused.

    Example: webbot daily-set classify card.gif --json"""
    return classify_command(images, as_json)


@command.command("read")
@click.argument("targets", metavar="IMAGE|URL...", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON object per target, in order. A picture: {"file", "kind": '
                   '"puzzle" or "table", "cards": [{"position", "count", "shape", "color", '
                   '"fill", "box": [x, y, w, h]}], "sets": [[p, p, p], ...]} (any number of '
                   'cards and sets); a page: {"url", "layout", "cards", "sets"}; one not read: '
                   '{"file" or "url", "refused": its error line} (the line is on stderr too). '
                   'Positions are 1-based, row by row.')
@click.option("--annotate", "annotate_to", metavar="OUT.png", type=OUTPUT_FILE,
              help="Also save each picture with every card's box and position and each set in "
                   "a colour of its own (OUT-2.png, ... for the second picture on: numbered "
                   "by place among those given, a refused one's number left unused).")
@click.option("--puzzle", "kind", flag_value="puzzle",
              help="Read a picture as the Daily SET puzzle: 12 cards with exactly 6 sets.")
@click.option("--table", "kind", flag_value="table",
              help="Read a picture as a table of the card game: 3 to 21 cards with edges of "
                   "their own (a photo), any number of sets.")
def read(targets: tuple[str, ...], as_json: bool, annotate_to: Path | None,
         kind: Kind | None) -> int:
    """Read the cards and list the sets of a board: in a picture (a screenshot of the Daily
    SET, a photo of the card game on a table; PNG, JPEG, WebP...; - reads one from standard
    input), or on a Daily SET page
    fetched with requests (its scripts are not run). Nothing is clicked. A picture that does
    not show every card clearly is refused, naming the positions. Whether a picture is the
    puzzle or a table is told from it (--puzzle, --table: say which).

    Every target is answered: one that is refused is an error line naming it on stderr, and
    the others are still read. Exit 2 when any was bad input (a missing file, a folder, a URL
    of another kind: all checked before any is read, and then none is; a file that is no
    picture, when it is read), else 1 when any was refused.

    Example: webbot daily-set read board.jpg --annotate board-sets.png"""
    from webbot.files import check_file

    urls = {t: _web_url(t) for t in targets if "://" in t}  # all checked before any is read
    for target in targets:
        if target not in urls:
            check_file(target)
    if annotate_to is not None and urls:
        raise click.UsageError("--annotate draws on pictures, not pages")

    def read_one(index: int, target: str) -> None:
        if target in urls:
            read_command(urls[target], as_json)
        else:  # numbered by its place among the targets, whatever was refused before it
            out = annotate_to and _numbered(annotate_to, index)
            read_picture_command(target, as_json, out, kind)

    return answer_each(targets, read_one, as_json=as_json,
                       key=lambda target: "url" if target in urls else "file")


def _web_url(text: str) -> str:
    try:
        return WEB_URL.convert(text, None, None)
    except click.BadParameter as exc:
        exc.param_hint = "'URL'"
        raise


def _numbered(path: Path, index: int) -> Path:
    return path if index == 0 else path.with_stem(f"{path.stem}-{index + 1}")
