"""What a run was asked for on the command line: its browser and its session, as plain data.

Kept apart from the modules that act on them (webbot.browser, webbot.session) so that the
command line can build them without loading Playwright: a command's help and its usage errors
come at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webbot.report import RunReport

FIND_TIMEOUT_S = 45.0  # a preroll may run 15-30 s before the game shows
MAX_RECOVERIES = 3  # lost pages a run gets back (webbot.recovery)


@dataclass(frozen=True)
class BrowserOptions:
    headed: bool = False
    slow_mo: float = 0
    connect: str | None = None
    viewport: tuple[int, int] = (1280, 800)
    device_scale_factor: float = 1
    # A profile kept between runs (webbot.profile); None: a throwaway context, gone at the end.
    profile: Path | None = None
    # What asked for the window, as a missing display's error names it to the user.
    window_for: str = "--headed"


@dataclass(frozen=True)
class RunOptions:
    url: str | None = None
    browser: BrowserOptions = field(default_factory=BrowserOptions)
    debug_dir: Path | None = None
    game_selector: str | None = None  # see webbot.finder.frame_selector
    find_timeout_s: float = FIND_TIMEOUT_S
    max_recoveries: int = MAX_RECOVERIES
    report: RunReport | None = None  # --report: the run's page, gathered as it runs
    keep_frames: int | None = None  # --keep: the latest frames kept in debug_dir
