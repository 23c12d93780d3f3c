"""The `webbot` command line."""

from __future__ import annotations

import gc
import logging
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import click

from webbot import __version__
from webbot.commands import LazyGroup, check_options, console
from webbot.errors import (
    WebbotError,
    ctrl_c_heard,
    first_line,
    hear_ctrl_c,
    quiet_driver_pipes_at_exit,
    say_error,
)
from webbot.options import RunOptions
from webbot.output import READER_GONE, Guarded, OutputClosed
from webbot.params import PAGE_URL, OwnFolder
from webbot.profile import PROFILE
from webbot.registry import check as registry_check
from webbot.registry import games
from webbot.shown import Table, shown, shown_name
from webbot.soak.cli import soak
from webbot.words import unknown as unknown_name


class WithGames(LazyGroup):
    """The built-in commands, then one group per registered game, loaded when it is used (so
    one game's command does not load the other games' vision)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*games(), *super().list_commands(ctx)]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands:
            return self.commands[name]
        game = games().get(name)
        return game.command() if game else None


@click.group(cls=WithGames, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="webbot")
def cli() -> None:
    """Plays web games through a real browser: it looks at the pixels, thinks, and moves the
    mouse inside the page. Without --url each game runs against its bundled replica.

    Example: webbot GAME --headed  (`webbot games` lists the games)"""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM heard as Ctrl-C while a server serves: stopped either way on purpose, it stops
    what it started (Python's own SIGTERM ends the process at once, leaving the trace viewer's
    processes serving) and exits 0."""
    if threading.current_thread() is not threading.main_thread():  # (in-process tests)
        yield
        return
    before = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 for every interface).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free one).")
def serve(host: str, port: int) -> None:
    """Serve the bundled games so a person can play them in a browser, until Ctrl-C.

    Example: webbot serve --port 8080"""
    from webbot.server import FixtureServer

    server = FixtureServer(host=host, port=port)
    click.echo(f"Serving {server.root} at {server.url} (Ctrl-C to stop)")
    for game in games().values():
        click.echo(f"  {game.title}: {server.url}{game.page}")
    click.echo(f"  a game portal: {server.url}portal/index.html?game={next(iter(games()))}"
               "&consent=onetrust"
               "&preroll=5 (the game's frame comes from the other host name, localhost or "
               "127.0.0.1)")
    try:
        with sigterm_as_ctrl_c():
            server.serve_forever()
    except KeyboardInterrupt:  # the documented way to stop it: not an error
        click.echo("stopped")
    finally:
        server.stop()


@cli.command()
@click.argument("where", type=click.Path(path_type=Path), metavar="DIR")
@click.option("--port", type=click.IntRange(0, 65535), default=9323, show_default=True,
              help="Port to serve the viewer on (0: any free one).")
def trace(where: Path, port: int) -> int:
    """Open a run's Playwright trace: serves Playwright's trace viewer for DIR/trace.zip (a
    --debug-dir folder, or a trace's .zip) on 127.0.0.1, for any browser, until Ctrl-C.

    Example: webbot trace debug/  (then open the address it prints)"""
    from webbot.trace_viewer import show_trace, trace_file

    with sigterm_as_ctrl_c():
        return show_trace(trace_file(where), port, click.echo,
                          lambda line: click.echo(line, err=True))



@cli.command()
@check_options
def check(options: RunOptions) -> None:
    """Check that server, Chromium, screenshots and Tesseract all work here (in a throwaway
    profile unless given --profile DIR: the bot's own is left as it is).

    Example: webbot check --debug-dir debug/"""
    from webbot.check import run_check

    table = Table("check", "result", title="webbot check: all good")
    for name, value in run_check(options):
        table.add_row(name, value)
    console.print(table)


@cli.group(invoke_without_command=True)
@click.option("--profile", "folder", type=OwnFolder(PROFILE), metavar="DIR",
              help="Another profile than the bot's own (as the games' --profile DIR); a folder "
                   "that is not a webbot profile is refused.")
@click.pass_context
def profile(ctx: click.Context, folder: Path | None) -> None:
    """The browser profile the games play in, kept between runs as a person's browser keeps a
    game's progress: where it is, the size of the browser's data, and what each game kept
    there as the bot's runs saw it (levels done, coins, a puzzle done).

    Example: webbot profile"""
    from webbot.folders import check
    from webbot.profile import default_profile, size_of
    from webbot.progress import described, kept
    from webbot.words import in_bytes

    ctx.obj = folder or default_profile()
    check(ctx.obj, PROFILE)  # (the bot's own too: a link there is refused)
    if ctx.invoked_subcommand is not None:
        return
    if not ctx.obj.is_dir():
        click.echo(f"profile: {shown_name(ctx.obj)} (not made yet)")
        return
    click.echo(f"profile: {shown_name(ctx.obj)} ({in_bytes(size_of(ctx.obj))} of browser data)")
    records = kept(ctx.obj)
    for game, sites in records.items():
        for site, record in sites.items():
            click.echo(f"  {shown(game, 40)} on {shown(site, 100)}: {described(game, record)}")
    if not records:
        click.echo("  no game played in it yet (by a run that kept it)")


@profile.command("clear")
@click.pass_obj
def clear_profile(folder: Path) -> None:
    """Empty the profile: every game's progress, consent answers and logins are gone.

    Example: webbot profile clear"""
    from webbot.profile import clear, size_of
    from webbot.words import in_bytes

    if not folder.is_dir():
        click.echo(f"profile: {shown_name(folder)} (not made yet: nothing to clear)")
        return
    before = size_of(folder)
    clear(folder)
    gone = before - size_of(folder)
    click.echo(f"cleared the profile {shown_name(folder)} ({in_bytes(gone)} gone)" if gone > 0
               else f"profile: {shown_name(folder)} (nothing to clear)")


@profile.command("open")
@click.argument("url", type=PAGE_URL, required=False)
@click.pass_obj
def open_profile(folder: Path, url: str | None) -> None:
    """Open a browser window on the profile (to sign in to a game's portal once, say), until
    you close it. Needs a display (xvfb-run on a server).

    Example: webbot profile open https://www.kongregate.com/"""
    from webbot.browser import window_on_profile

    window_on_profile(folder, url, click.echo)


@cli.command("games")
@click.option("--check", is_flag=True,
              help="Check each game's contract: its registration, then a few steps of it "
                   "played on its replica (a browser each); exit 1 when one does not keep it.")
@click.argument("names", nargs=-1, metavar="[GAME]...")
def list_games(check: bool, names: tuple[str, ...]) -> None:
    """List the games webbot plays, one name a line (for scripts: `webbot NAME` plays it);
    with GAMEs, those alone.

    Example: webbot games --check GAME"""
    from webbot.contract import STEPS, plays

    known = games()
    if unknown := [name for name in names if name not in known]:
        raise click.UsageError(unknown_name("game", unknown[0], list(known)))
    broken = []
    for name, registration in known.items():
        if names and name not in names:
            continue
        if not check:
            click.echo(name)
            continue
        problems = registry_check(registration) or plays(registration)
        if problems:
            broken.append(name)
        click.echo(f"{name}: " + ("; ".join(shown(p) for p in problems) if problems else
                                  f"keeps the contract (reset, {STEPS} steps and result "
                                  "played on its replica)"))
    if broken:
        raise click.ClickException(f"the contract is not kept by {', '.join(broken)} (see above)")


cli.add_command(soak)


def _fail(message: str, code: int) -> int:
    """The run's error line: one line, its newlines shown as pictures (a file's name given may
    hold one)."""
    say_error(message)
    return code


STACKS_END = "webbot: end of the stacks"


def show_stacks(signum: int = 0, frame: FrameType | None = None) -> None:
    """Where the run is, on stderr: `kill -USR1 PID` on a run that seems stuck. The bot
    waits on the browser inside greenlets (Playwright's sync API), which a plain dump of the
    threads (faulthandler) does not show: each one waiting is printed too. Written straight
    to the file descriptor: the signal may come while the run itself writes to stderr."""
    from greenlet import greenlet

    lines = ["webbot: where the run is (SIGUSR1)\n"]
    for ident, top in sys._current_frames().items():
        lines.append(f"-- thread {ident}{' (main)' * (ident == threading.main_thread().ident)}:\n")
        lines += traceback.format_stack(top)
    for waiting in (g for g in gc.get_objects() if isinstance(g, greenlet)):
        if waiting.gr_frame is not None:
            lines.append("-- a greenlet waiting:\n")
            lines += traceback.format_stack(waiting.gr_frame)
    lines.append(STACKS_END + "\n")
    os.write(sys.stderr.fileno(), "".join(lines).encode(errors="replace"))


def main(argv: list[str] | None = None) -> int:
    if hasattr(signal, "SIGUSR1") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGUSR1, show_stacks)
    # Libraries' log records (urllib3's retries, say) are not for the user: without a handler
    # of ours Python would print their warnings on stderr beside our one line.
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.NullHandler())
    if argv is not None:  # a caller's, in its own process: its streams are its own
        return _run(argv)
    # The command itself, not a caller's: the filter lasts to its exit.
    hear_ctrl_c()
    # A Ctrl-C may cut a Playwright call short between making its coroutine and running
    # it: Python would say so on stderr at exit, after our one line.
    warnings.filterwarnings("ignore", r"coroutine .* was never awaited", RuntimeWarning)
    quiet_driver_pipes_at_exit()
    streams = {name: Guarded(getattr(sys, name)) for name in ("stdout", "stderr")
               if getattr(sys, name) is not None}
    for name, stream in streams.items():
        setattr(sys, name, stream)
    try:
        code = _run(None)
        for stream in streams.values():  # what is still buffered meets a gone reader here,
            stream.flush()  # not at exit
    except OutputClosed:
        return READER_GONE
    finally:
        # The run is over: what is left goes with the process. Python's exit would first walk
        # every object the run made looking for cycles (numpy's, OpenCV's, Playwright's, the
        # consent library's models): 75 ms of a command's end. Frozen, they are let go of
        # without that walk (modules are still torn down, files still closed).
        gc.freeze()
    return READER_GONE if any(stream.gone for stream in streams.values()) else code


def _run(argv: list[str] | None) -> int:
    """The command's exit status, its errors said in one line on stderr."""
    try:
        result = cli.main(args=argv, prog_name="webbot", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # a bare `webbot`: its help, as asked
        click.echo(exc.ctx.get_help())
        return 0
    except click.UsageError as exc:
        path = exc.ctx.command_path if exc.ctx else "webbot"
        return _fail(f"{exc.format_message()} (see '{path} --help')", exc.exit_code)
    except click.ClickException as exc:
        return _fail(exc.format_message(), exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        return _fail("interrupted", 130)
    except WebbotError as exc:
        if ctrl_c_heard():  # the browser went with the Ctrl-C: not a failure of its own
            return _fail("interrupted", 130)
        return _fail(first_line(exc), exc.exit_code)
    except Exception as exc:  # a bug; still one line, never a traceback
        return _fail(f"unexpected {type(exc).__name__}: {first_line(exc)}", 1)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
