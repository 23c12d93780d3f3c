"""`webbot burrito-bison` (play rounds), `classify` and `read` (screenshots) and `pack cut`
(packs)."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from webbot import folders
from webbot.burrito_bison import REGISTRATION
from webbot.burrito_bison.layout import MANIFEST, SHOTS, Box
from webbot.burrito_bison.model import DEFAULT_ROUNDS, SCREENS, Round
from webbot.commands import console, run_options, summed_up
from webbot.errors import WebbotError
from webbot.params import INPUT_FILE, Finite, OwnFolder, Rect, WordsDefault
from webbot.progress import remember
from webbot.recovery import recovered
from webbot.shown import Table, shown_name
from webbot.words import counted

if TYPE_CHECKING:  # (the vision and the browser are loaded by the commands that use them)
    from rich.console import Console

    from webbot.burrito_bison.matching import TemplatePack
    from webbot.options import RunOptions


def play_command(options: RunOptions, templates: Path | None, rounds: int | None,
                 minutes: float | None, shop: bool, stuck_after: float,
                 console: Console) -> int:
    from webbot.burrito_bison.bot import player
    from webbot.burrito_bison.matching import TemplatePack
    from webbot.play import play
    from webbot.session import game_session

    pack = TemplatePack(templates)
    started = time.perf_counter()
    with game_session(options, REGISTRATION.page) as session, \
            console.status("starting", spinner="dots") as status:
        playable = player(session, rounds, minutes, pack=pack, shop=shop, stuck_after=stuck_after,
                       report=console.print, status=lambda line: status.update(line))
        bot = playable.bot
        under_way = None
        try:
            play(playable)
        except BaseException:  # stopped (Ctrl-C, a failure): the round it was in is shown too
            under_way = bot.tally.under_way(bot.screen_seen)
            raise
        finally:
            status.stop()
            console.print(summed_up(rounds_table(
                [*bot.rounds, *([under_way] if under_way else [])],
                time.perf_counter() - started, bot.stats.per_second,
                statistics.median(bot.stats.look_ms or [0]), session.recoveries),
                options.report))
            if (coins := bot.tally.coins_line()) is not None:
                console.print(coins)
            if (now := bot.tally.coins_now()) is not None:
                remember(options, REGISTRATION.name, lambda last: {"coins": now})
    if not bot.rounds:
        raise WebbotError("no round was finished")
    return 0


def rounds_table(rounds: list[Round], seconds: float, per_second: float,
                 look_ms: float, recoveries: list[str] = ()) -> Table:
    def number(value: int | None) -> str:
        return "?" if value is None else f"{value:,}"

    played = counted(sum(one.finished for one in rounds), "round")
    under_way = next((one for one in rounds if not one.finished), None)
    if under_way is not None:  # a run stopped in the middle of a round
        played += f" finished, round {under_way.number} unfinished,"
    table = Table("round", "distance m", "coins", "total", "rocket slams", "seconds", "events",
                  title=f"Burrito Bison: {played} in {seconds:.1f} s "
                        f"({per_second:.1f} decisions/s, {look_ms:.0f} ms from a picture to "
                        "a decision)"
                        f"{recovered(len(recoveries))}")
    for one in rounds:
        stopped = [] if one.finished else [f"unfinished: stopped on the {one.stopped_on} screen"]
        table.add_row(str(one.number), number(one.distance), number(one.coins),
                      number(one.total), one.rocket_slams, f"{one.seconds:.1f}",
                      ", ".join([*stopped, *one.events]))
    return table


def classify_command(paths: Sequence[str], templates: Path | None, as_json: bool) -> None:
    from webbot.burrito_bison.matching import TemplatePack
    from webbot.burrito_bison.perceive import classify_picture, read_image

    pack = TemplatePack(templates)
    for path in paths:
        sighting = classify_picture(pack, read_image(path))
        if as_json:
            click.echo(json.dumps({"file": path, "screen": sighting.screen}))
            continue
        evidence = sighting.evidence
        why = f" ({evidence.name} {evidence.score:.2f})" if evidence else ""
        targets = "; ".join(f"{role} at ({x:.0f}, {y:.0f})"
                            for role, (x, y) in sighting.targets.items())
        click.echo(f"{shown_name(path)}: {sighting.screen}{why}"
                   + (f"; {targets}" if targets else ""))


def numbers_of(pack: TemplatePack, path: str) -> dict[str, object]:
    """What a screenshot's numbers say: the results' distance, coins and total, or the shop's
    coins and the selected upgrade's name, level and price (None: unreadable)."""
    from webbot.burrito_bison import readout, shop
    from webbot.burrito_bison.perceive import classify, game_of, placed_game, read_image

    picture = read_image(path)
    found = game_of(picture, whole=False) or placed_game(pack, picture) or game_of(picture)
    if found is None:
        raise WebbotError(f"{path}: no game found in it (a page grab with the game framed by "
                          "black or showing a screen the pack knows where the pack has it, "
                          "or a grab of the game alone)")
    game, _ = found
    sighting = classify(pack, game, framed=True)
    if sighting.screen == "results":
        reading = readout.read_results(game, sighting, pack.digits)
        return _with_reasons({"file": path, "screen": "results", "distance": reading.distance,
                              "coins": reading.coins, "total": reading.total},
                             reading.unreadable)
    if sighting.screen == "shop":
        detail = shop.read_detail(game, pack.digits)
        coins = shop.coins_read(game, pack.digits)
        return _with_reasons({"file": path, "screen": "shop", "coins": coins.value,
                              "name": detail.name, "level": detail.level,
                              "price": detail.price},
                             {"coins": coins.why, "price": detail.price_unreadable})
    return {"file": path, "screen": sighting.screen}


def _with_reasons(numbers: dict[str, object], why: dict[str, str]) -> dict[str, object]:
    """The numbers and, under "unreadable", why each that is None could not be read with the
    pack (none when every number was read)."""
    said = {name: reason for name, reason in why.items() if reason and numbers[name] is None}
    return {**numbers, "unreadable": said} if said else numbers


def read_command(paths: Sequence[str], templates: Path | None, as_json: bool) -> None:
    from webbot.burrito_bison.matching import TemplatePack

    # Any pack will do that knows the results or the shop, one cut from those two alone too.
    pack = TemplatePack(templates, required=())
    for path in paths:
        numbers = numbers_of(pack, path)
        if as_json:
            click.echo(json.dumps(numbers))
            continue
        said = ", ".join(f"{key} {'?' if value is None else value}"
                         for key, value in numbers.items()
                         if key not in ("file", "screen", "unreadable"))
        click.echo(f"{shown_name(path)}: {numbers['screen']}" + (f": {said}" if said else
                                                      " (no numbers on this screen)"))
        for name, why in numbers.get("unreadable", {}).items():
            click.echo(f"  {name}: unreadable with this pack: {why}")


def pack_cut_command(paths: list[Path], out: Path, box: Box | None, console: Console) -> int:
    from rich.text import Text

    from webbot.burrito_bison.pack import cut_pack

    report = cut_pack(paths, out, box)
    for shot, (x, y, width, height) in report.framed.items():
        console.print(f"the game in {shot}.png: {width}x{height} at {x},{y} (framed by black)")
    if report.box is not None:
        x, y, width, height = report.box
        others = len(paths) - len(report.framed)
        where = "the whole picture" if others == 1 else \
            f"the part that changes between the {others} screenshots"
        console.print(f"the game: {width}x{height} at {x},{y} ({where})")
    console.print(f"cut {len(report.written)} templates into {shown_name(out)}")
    table = Table("screenshot", "reads as", "score", "next best",
                  title="The screenshots read back with the new pack")
    for check in report.checks:
        rival = f"{check.rival} {check.rival_score:.2f}" if check.rival else "-"
        verdict = Text(check.read_as) if check.ok else \
            Text(f"{check.read_as} (not told apart)", style="red")
        table.add_row(f"{check.shot}.png", verdict, f"{check.score:.2f}", rival)
    console.print(table)
    if report.digits:
        console.print(f"taught {len(report.glyphs)} glyphs of the game's digits into "
                      f"{shown_name(out / 'digits')} from the shop's level pips and the numbers: "
                      f"{' '.join(report.digits)}"
                      + (f"; not labelled: {', '.join(report.unlabelled)}"
                         if report.unlabelled else ""))
        console.print("the numbers read back (check them against your screenshots): "
                      + "; ".join(f"{name} {'?' if number.value is None else f'{number.value:,}'}"
                                  + (f" (unreadable with this pack: {number.why})"
                                     if number.why else "")
                                  for name, number in report.numbers))
    for shot in report.missing_shots:
        names = ", ".join(cut.name for cut in MANIFEST if cut.shot == shot) + \
            (" and the digits 1-9, from its level pips" if shot == "shop" else "")
        console.print(f"missing: {shot}.png (the {SHOTS[shot]} screen; it gives {names})")
    if report.missing_required:
        console.print("not enough to play yet: the bot needs the templates "
                      f"{', '.join(report.missing_required)}")
    bad = [check for check in report.checks if not check.ok]
    if bad:
        raise WebbotError(f"{len(bad)} screenshot(s) not told apart by the pack: "
                          + "; ".join(f"{c.shot}.png reads as {c.read_as}, {c.rival} "
                                      f"scores {c.rival_score:.2f}" for c in bad))
    return 0


# ---- the command line -------------------------------------------------------------------------

def templates_option(command: Callable) -> Callable:
    return click.option(
        "--templates", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
        help="Use this template pack (PNG crops named like the bundled pack's) instead of the "
             "bundled one; for example crops captured from the real game.")(command)


@click.group("burrito-bison", invoke_without_command=True)
@run_options
@templates_option
@click.option("--rounds", cls=WordsDefault, type=click.IntRange(1, 100_000), metavar="N",
              show_default=str(DEFAULT_ROUNDS), help="Play N rounds.")
@click.option("--minutes", type=Finite(0, 10_080, min_open=True), metavar="M",
              help="Play rounds for M minutes instead (the round under way is finished).")
@click.option("--no-shop", is_flag=True, help="Never go to the shop.")
@click.option("--stuck-after", type=Finite(0.5, 3600), default=10, show_default=True,
              metavar="S", help="Seconds a screen may last (a flight: 12 times as long) before "
                                "recovery steps start; after 3 the run stops.")
@click.pass_context
def command(ctx: click.Context, options: RunOptions, templates: Path | None,
                  rounds: int | None, minutes: float | None, no_shop: bool,
                  stuck_after: float) -> None:
    """Grind Burrito Bison rounds: launch, rocket slams, popups, results, shop, again.

    `webbot burrito-bison classify IMAGE...` tells which screen screenshots show;
    `webbot burrito-bison read IMAGE...` reads a results or shop screenshot's numbers;
    `webbot burrito-bison pack cut SCREEN.png... --out DIR` makes a template pack from your
    own screenshots of the game.

    Example: webbot burrito-bison --rounds 3 --headed"""
    if ctx.invoked_subcommand is not None:
        return
    if rounds is not None and minutes is not None:
        raise click.UsageError("give --rounds or --minutes, not both")
    from webbot.driver import started_early

    with started_early("webbot.burrito_bison.bot"):
        code = play_command(options, templates, rounds, minutes, not no_shop, stuck_after,
                            console)
    raise click.exceptions.Exit(code)


def screenshots_command(name: str, prints: str, help_text: str) -> Callable:
    """A subcommand over screenshots: IMAGE..., --templates and --json (printing `prints`),
    its help ending with an example."""

    def decorate(function: Callable) -> Callable:
        function = click.option("--json", "as_json", is_flag=True,
                                help=f"Print one JSON object per image: {prints}.")(function)
        function = templates_option(function)
        function = click.argument("images", metavar="IMAGE...", nargs=-1, required=True,
                                  type=INPUT_FILE)(function)
        example = f"Example: webbot burrito-bison {name} results.png shop.png --json"
        return command.command(name, help=f"{help_text}\n\n{example}")(function)

    return decorate


# The lists in the help come from the code: every screen the bot tells apart.
@screenshots_command("classify", '{"file", "screen"}',
                     "Tell which screen each screenshot shows (a canvas grab, or a page grab "
                     "at 1:1; - reads one from standard input): "
                     f"{', '.join(SCREENS[:-1])} or {SCREENS[-1]}.")
def classify_screens(images: tuple[str, ...], templates: Path | None, as_json: bool) -> None:
    classify_command(images, templates, as_json)


@screenshots_command("read", '{"file", "screen", ...numbers}, and "unreadable": why each '
                             'null number could not be read, when one could not',
                     "Read the numbers a screenshot shows, in the game's own digits: the "
                     "results' distance, round coins and total; the shop's coins and the "
                     "selected upgrade's name, level and price. A number is read only when "
                     "every digit matches the pack's glyphs clearly; else it is ? (null), and "
                     "why is said (a pack cut from screenshots that never show a 6 has no glyph "
                     "for 6). Other screens have none.")
def read(images: tuple[str, ...], templates: Path | None, as_json: bool) -> None:
    read_command(images, templates, as_json)


@command.group("pack")
def pack() -> None:
    """Template packs: `pack cut` makes one from screenshots of the game you play.

    Example: webbot burrito-bison pack cut shots/*.png --out my-pack"""


@pack.command("cut")
@click.argument("screens", metavar="SCREEN.png...", nargs=-1, required=True,
                type=INPUT_FILE)
@click.option("--out", type=OwnFolder(folders.PACK), required=True, metavar="DIR",
              help="Write the pack's PNG crops into this folder (a new or empty one, or a pack "
                   "webbot cut before: only what webbot wrote there is replaced).")
@click.option("--box", cls=WordsDefault, type=Rect(), metavar="X,Y,W,H",
              show_default="the part of the pictures that changes from screen to screen",
              help="Where the game is in every screenshot.")
def pack_cut(screens: tuple[str, ...], out: Path,
                           box: tuple[int, int, int, int] | None) -> None:
    raise click.exceptions.Exit(pack_cut_command([Path(s) for s in screens], out, box, console))


pack_cut.help = (  # the file names from the code: every screenshot a pack is cut from
    "Cut a template pack from screenshots named after their screens ("
    + ", ".join(f"{shot}.png" for shot in SHOTS) + "): each crop is cut where the pack's "
    "manifest says, scaled to the game's size, and the game's digits are taught from the "
    "shop's level pips and the numbers on results.png and shop.png; then every screenshot is "
    "read back with the new pack, and the screens still missing are listed. Exit 1 when two "
    "screens are not told apart.\n\nExample: webbot burrito-bison pack cut shots/*.png --out "
    "my-pack")
