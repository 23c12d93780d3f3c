"""What every game's command line shares: the console, the options of every command that
drives a browser (folded into one RunOptions), and the way a command answers many files."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from webbot import folders
from webbot.errors import WebbotError, ctrl_c_heard, first_line, say_error, stop_if_ctrl_c
from webbot.options import FIND_TIMEOUT_S, MAX_RECOVERIES, BrowserOptions, RunOptions
from webbot.output import OutputClosed
from webbot.params import (
    BROWSER_ENDPOINT,
    GAME_SELECTOR,
    OUTPUT_FILE,
    PAGE_URL,
    VIEWPORT,
    Finite,
    OwnFolder,
    WordsDefault,
)
from webbot.profile import PROFILE, default_profile
from webbot.shown import Table, TextConsole, shown_name

if TYPE_CHECKING:
    from webbot.report import RunReport

console = TextConsole()  # page text in its lines is shown as text


class LazyGroup(click.Group):
    """A group whose commands are made when asked for (its `list_commands` names them all): a
    mistyped one is answered with the closest of them, as click does for commands it holds."""

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = args[0]
        if self.get_command(ctx, name) is None and not name.startswith("-") \
                and not ctx.resilient_parsing:
            raise click.exceptions.NoSuchCommand(name, possibilities=self.list_commands(ctx),
                                                 ctx=ctx)
        return super().resolve_command(ctx, args)


def run_options(command: Callable) -> Callable:
    """The options every command that drives a browser takes, folded into `options`; a game's
    command plays in the bot's own profile, kept between runs, unless told another
    (`kept_profile`)."""
    return browser_options(kept_profile(command))


def check_options(command: Callable) -> Callable:
    """What `webbot check` takes: the same options, its browser in a throwaway profile unless
    given --profile DIR (the bot's own profile is left as it is)."""
    return browser_options(kept_profile(command, by_default=lambda: None))


def kept_profile(command: Callable,
                 by_default: Callable[[], Path | None] = default_profile) -> Callable:
    """--profile DIR and --fresh, folded into `options.browser.profile` (without either, the
    bot's own profile, webbot.profile.default_profile)."""

    @click.option("--profile", type=OwnFolder(PROFILE), metavar="DIR",
                  help="Play in the browser profile kept in DIR (made when missing; a folder "
                       "that holds anything else is refused) instead of the bot's own, kept "
                       "between runs (`webbot profile` says where).")
    @click.option("--fresh", is_flag=True,
                  help="Play in a throwaway profile: nothing from earlier runs, nothing kept.")
    @functools.wraps(command)
    def wrapper(options: RunOptions, profile: Path | None, fresh: bool, **kwargs):
        if fresh and profile is not None:
            raise click.UsageError("--fresh plays in a throwaway profile, --profile DIR in a "
                                   "kept one: give one of them")
        kept = None if fresh else profile or by_default()
        if kept is not None:
            folders.check(kept, PROFILE)  # (the bot's own too: a link there is refused)
        return command(replace(options, browser=replace(options.browser, profile=kept)),
                       **kwargs)

    return wrapper


def browser_options(command: Callable) -> Callable:
    """The options every command that drives a browser takes, folded into `options` (its
    browser in a throwaway profile)."""

    @click.option("--url", type=PAGE_URL, metavar="URL",
                  help="Play at this URL instead of the bundled replica on 127.0.0.1.")
    @click.option("--headed", is_flag=True, help="Show the browser window (needs a display).")
    @click.option("--slow-mo", type=Finite(0, 10_000), default=0, show_default=True,
                  metavar="MS", help="Slow every browser action down by MS milliseconds.")
    @click.option("--connect", type=BROWSER_ENDPOINT, metavar="WS_URL",
                  help="Use a remote browser: a `playwright run-server` endpoint (ws://...) or "
                       "a Chromium DevTools endpoint (http://host:port).")
    @click.option("--debug-dir", type=OwnFolder(folders.DEBUG),
                  help="Save the frames seen, annotated copies and a Playwright trace here (a "
                       "new or empty folder, or one webbot wrote before).")
    @click.option("--game-selector", type=GAME_SELECTOR, metavar="SELECTOR",
                  help="The game's element, when finding it is not enough: CSS selectors, one "
                       "per frame, joined by '>>>' (iframe#gameiframe >>> iframe >>> canvas), "
                       "or a Playwright selector.")
    @click.option("--viewport", type=VIEWPORT, default="1280x800", show_default=True,
                  metavar="WxH", help="The browser window's size in CSS pixels.")
    @click.option("--find-timeout", type=Finite(1, 600), default=FIND_TIMEOUT_S,
                  show_default=True, metavar="S",
                  help="Give up looking for the game on the page after S seconds (a loading "
                       "screen or a preroll ad may hold it back that long); a page that does "
                       "not load is given up after S seconds or 30, the sooner.")
    @click.option("--max-recoveries", type=click.IntRange(0, 100), default=MAX_RECOVERIES,
                  show_default=True, metavar="N",
                  help="Reopen a lost page (a crashed tab, a closed page or browser) and go on, "
                       "at most N times a run.")
    @click.option("--keep", cls=WordsDefault, type=click.IntRange(1, 1_000_000), metavar="N",
                  show_default="all",
                  help="With --debug-dir: keep only the latest N frames there (a long run's "
                       "folder stays bounded).")
    @click.option("--report", type=OUTPUT_FILE, metavar="FILE.html",
                  help="Write one self-contained HTML page of the run: what it printed, the "
                       "annotated frames, and for a failure the reason, the last frame and the "
                       "page.")
    @functools.wraps(command)
    def wrapper(url, headed, slow_mo, connect, debug_dir, game_selector, viewport,
                find_timeout, max_recoveries, keep, report, **kwargs):
        if keep is not None and debug_dir is None:
            raise click.UsageError("--keep N keeps the latest frames of --debug-dir DIR; "
                                   "give the folder too")
        browser = BrowserOptions(headed=headed, slow_mo=slow_mo, connect=connect,
                                 viewport=viewport)
        if report:
            from webbot.report import RunReport
        options = RunOptions(url=url, browser=browser, debug_dir=debug_dir,
                             game_selector=game_selector, find_timeout_s=find_timeout,
                             max_recoveries=max_recoveries, keep_frames=keep,
                             report=RunReport(report) if report else None)
        if options.report is None:
            return command(options, **kwargs)
        return reported(options.report, lambda: command(options, **kwargs))

    return wrapper


def answer_each(targets: Sequence[str], answer: Callable[[int, str], None], *,
                as_json: bool, key: Callable[[str], str] = lambda target: "file") -> int:
    """Answer each of a command's files (or URLs) on its own, `answer(index, target)` printing
    its answer. One that is refused (a WebbotError, which names it) is its error line on
    stderr, and with `as_json` also `{key: target, "refused": the line}` on stdout in its
    place, and the next is still answered. The exit status: 2 when any was bad input (an
    InputError: its bytes are no picture, say), else 1 when any was refused, else 0. A Ctrl-C
    ends it, and so does a bug."""
    status = 0
    for index, target in enumerate(targets):
        try:
            answer(index, target)
        except WebbotError as exc:
            stop_if_ctrl_c(exc)  # (the browser went with the user's Ctrl-C)
            line = first_line(exc)
            say_error(line)
            if as_json:
                click.echo(json.dumps({key(target): target, "refused": line}))
            status = max(status, exc.exit_code)
    return status


def summed_up(table: Table, report: RunReport | None) -> Table:
    """A game's table of what it did, its title kept as the run's line in the report (an
    interrupted run's report says it)."""
    if report is not None:
        report.summary = str(table.title or "")
    return table


def reported(report: RunReport, run: Callable[[], object]) -> object:
    """Run a command, then write its report, whatever the end (an error's line is in it)."""
    console.record = True
    failure = None
    interrupted = False
    try:
        return run()
    except click.exceptions.Exit as exc:  # a command's own way to end with its code
        failure = None if exc.exit_code == 0 else f"exit code {exc.exit_code}"
        raise
    except (KeyboardInterrupt, click.Abort):  # Ctrl-C: the user's stop, not a failure
        interrupted = True
        raise
    except WebbotError as exc:
        interrupted = ctrl_c_heard()  # the browser went with the user's Ctrl-C
        failure = None if interrupted else first_line(exc)
        raise
    except OutputClosed:
        failure = "the reader of its output went away (`| head`, say): the run stopped there"
        raise
    except BaseException as exc:
        failure = f"{type(exc).__name__}: {first_line(exc)}" if str(exc) else \
            type(exc).__name__
        raise
    finally:
        report.write(" ".join(["webbot", *sys.argv[1:]]), console.export_text(), failure,
                     interrupted)
        console.print(f"report: {shown_name(report.path)}")
