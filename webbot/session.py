"""One game run: the fixture server (unless --url), a browser page, a recorder, and a mouse.

Every game command runs inside `game_session`, so they all get the same behaviour: the bundled
replica by default, `--debug-dir` output, and a saved last frame plus a one-line reason when
anything fails.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

from playwright.sync_api import Page

from webbot.browser import BrowserOptions, open_page, open_url
from webbot.debug import Recorder
from webbot.errors import WebbotError, first_line
from webbot.mouse import Mouse
from webbot.screen import Screen
from webbot.server import FixtureServer


@dataclass(frozen=True)
class RunOptions:
    url: str | None = None
    browser: BrowserOptions = field(default_factory=BrowserOptions)
    debug_dir: Path | None = None


@dataclass
class Session:
    page: Page
    url: str
    recorder: Recorder
    mouse: Mouse

    def screen(self, selector: str, timeout_s: float = 10, *, fast: bool = False) -> Screen:
        return Screen(self.page, selector, self.recorder, timeout_s, fast=fast)


@contextmanager
def game_session(options: RunOptions, fixture_path: str) -> Iterator[Session]:
    """Open `options.url`, or `fixture_path` on a freshly started fixture server."""
    recorder = Recorder(options.debug_dir)
    try:
        with ExitStack() as stack:
            url = options.url
            if url is None:
                server = stack.enter_context(FixtureServer())
                url = urljoin(server.url, fixture_path)
            page = stack.enter_context(open_page(options.browser))
            recorder.start_trace(page.context)
            stack.callback(recorder.stop_trace)
            open_url(page, url)
            yield Session(page, url, recorder, Mouse(page))
    except WebbotError as exc:
        # Without a frame or a debug folder there is nothing worth a folder: the line says it all.
        if recorder.last_frame is not None or options.debug_dir:
            where = recorder.save_failure(str(exc))
            kept = "last frame and reason" if recorder.last_frame is not None else "reason"
            exc.args = (f"{exc} ({kept} saved in {where})",)
        raise
    except Exception as exc:
        reason = f"unexpected {type(exc).__name__}: {first_line(exc)}"
        where = recorder.save_failure(reason, traceback.format_exc())
        raise WebbotError(f"{reason} (details saved in {where})") from exc
