"""What every game's command line shares: the console, and the options of every command that
drives a browser (folded into one RunOptions)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click
from rich.console import Console

from webbot.browser import BrowserOptions
from webbot.finder import FIND_TIMEOUT_S
from webbot.params import BROWSER_ENDPOINT, GAME_SELECTOR, OUTPUT_DIR, PAGE_URL, VIEWPORT, Finite
from webbot.session import MAX_RECOVERIES, RunOptions

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
    @click.option("--debug-dir", type=OUTPUT_DIR,
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
    @click.option("--max-recoveries", type=click.IntRange(0, 100), default=MAX_RECOVERIES,
                  show_default=True, metavar="N",
                  help="Reopen a lost page (a crashed tab, a closed page or browser) and go on, "
                       "at most N times a run.")
    @functools.wraps(command)
    def wrapper(url, headed, slow_mo, connect, debug_dir, game_selector, viewport,
                find_timeout, max_recoveries, **kwargs):
        browser = BrowserOptions(headed=headed, slow_mo=slow_mo, connect=connect,
                                 viewport=viewport)
        return command(RunOptions(url=url, browser=browser, debug_dir=debug_dir,
                                  game_selector=game_selector, find_timeout_s=find_timeout,
                                  max_recoveries=max_recoveries),
                       **kwargs)

    return wrapper
