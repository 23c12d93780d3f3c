"""The games a soak plays, one checked game each: what a case is, and how it is played and
judged, through each game's replica module (webbot.registry): this module names no game.

The soak runner is a tester: after the bot (which sees only pixels, as ever) has played, it
reads the replica's test hook to see whether the game agrees with what the bot says it did.
A game passes only when the bot finished without an error and the hook confirms it.
"""

from __future__ import annotations

import random
import re
import tempfile
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

from webbot.browser import BrowserOptions
from webbot.errors import WebbotError, first_line
from webbot.registry import game as registered
from webbot.report import RunReport
from webbot.session import RunOptions, game_session

REPORT_FRAMES = 12  # the latest annotated frames in a soak's page of one game (a bounded result)


@dataclass(frozen=True)
class Case:
    """One game to play: the replica page (path and query on the bundled fixtures) and a
    name that says what it is (`generate=41 size=7`, `current seed=12`, ...)."""

    game: str
    number: int
    name: str
    path: str


@dataclass(frozen=True)
class Played:
    """How one try of a case went."""

    passed: bool
    seconds: float
    reason: str = ""
    frames: str = ""  # the failure folder, when the bot saved one
    recoveries: int = 0  # lost pages the bot got back during the game
    report: str = ""  # the try's own report page (HTML), when the soak writes one


def game_options(game: str, given: dict | None = None) -> dict:
    """The game's soak options: their defaults, overridden by those given."""
    return {**registered(game).soak_defaults(), **(given or {})}


SAVED_IN = re.compile(r" \([^()]* saved in (?P<folder>[^()]*)\)$")  # a failed run's line ends


def make_case(game: str, seed: int, number: int, extra_query: str = "",
              options: dict | None = None) -> Case:
    """The `number`th case of a soak seeded `seed`: the same seed gives the same cases."""
    chance = random.Random(seed * 1_000_003 + number)
    extra = f"&{extra_query}" if extra_query else ""
    replica = registered(game).replica_module()
    name, path = replica.soak_case(chance, extra, game_options(game, options))
    return Case(game, number, name, path)


def play_case(case: Case, connect: str | None = None, options: dict | None = None,
              report: bool = False) -> Played:
    """Play one case in a browser of its own (launched here, or the one at `connect`) on a
    fixture server of its own, and judge it by the replica's hook; with `report`, the try's
    report page comes back with it (the worker may be another machine)."""
    if not report:
        return _play_case(case, connect, options, None)
    with tempfile.TemporaryDirectory(prefix="webbot-soak-report-") as folder:
        page = RunReport(Path(folder) / "game.html", deque(maxlen=REPORT_FRAMES))
        played = _play_case(case, connect, options, page)
        verdict = "passed" if played.passed else f"failed: {played.reason}"
        page.write(f"webbot soak {case.game}: game {case.number}, {case.name}", verdict,
                   None if played.passed else played.reason)
        return replace(played, report=page.path.read_text(encoding="utf-8"))


def _play_case(case: Case, connect: str | None, options: dict | None,
               report: RunReport | None) -> Played:
    started = time.perf_counter()
    replica = registered(case.game).replica_module()
    run = RunOptions(browser=BrowserOptions(connect=connect), report=report)
    lost: list[str] = []
    try:
        with game_session(run, case.path) as session:
            recorder = session.recorder
            lost = session.recoveries
            try:
                problem = replica.play_and_judge(session, game_options(case.game, options))
            except PlaywrightError:
                # The page lost after the bot was done, before the replica's record was read
                # (the record lives in the page): the game cannot be confirmed.
                cause = session.lost()
                if cause is None:
                    raise
                problem = f"the game's own record could not be read: {cause}"
    except WebbotError as exc:
        # The folder the run's line ends with ("... (last frame ... saved in DIR)") is kept
        # apart from the reason: the soak's line names each try's folder once.
        found = SAVED_IN.search(first_line(exc))
        reason, frames = (first_line(exc)[:found.start()], found["folder"]) if found else \
            (first_line(exc), "")
        return Played(False, time.perf_counter() - started, reason, frames, len(lost))
    seconds = time.perf_counter() - started
    if problem is None:
        recorder.discard_temporary()  # a game that passed leaves nothing behind
        return Played(True, seconds, "", "", len(lost))
    kept = recorder.temporary_folder()  # frames saved on the way (a stuck screen)
    return Played(False, seconds, problem, str(kept) if kept else "", len(lost))
