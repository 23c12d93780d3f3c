"""What the bot's runs left in a profile, as it saw them: the Puzlogic levels done, the Burrito
Bison coins, the day of the Daily SET puzzle last done, by game and by site.

The games keep their progress in the browser's storage; webbot never reads that storage (it
sees the games only through their pixels). It keeps its own record instead, of what each run
on the profile saw at its end, in the profile's folder (`webbot-progress.json`, beside
Chromium's own files), so `webbot profile` can say what the profile keeps and `profile clear`
clears the record with the progress. A record that cannot be read is as none (and is
replaced at the next run's end): it is only ever what the bot said before.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from webbot import folders
from webbot.files import InputError, parse_json, read_text
from webbot.shown import shown
from webbot.words import counted

if TYPE_CHECKING:
    from webbot.options import RunOptions

RECORDS = "webbot-progress.json"
BUNDLED = "the bundled replica"
MAX_RECORDS_BYTES = 1 << 20


def site_of(url: str | None) -> str:
    """The site a run played on, as the record names it: the bundled replica (url None), or
    the page's origin (its progress belongs to it)."""
    if url is None:
        return BUNDLED
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else url


def kept(profile: Path) -> dict[str, dict[str, dict]]:
    """Game -> site -> what the last run there saw (and `when`); {} when there is no record
    (or none that can be read)."""
    try:
        data = parse_json(read_text(profile / RECORDS, MAX_RECORDS_BYTES), RECORDS)
    except InputError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {game: sites for game, sites in data.items()
            if isinstance(sites, dict) and all(isinstance(s, dict) for s in sites.values())}


def remember(options: RunOptions, game: str, change: Callable[[dict], dict]) -> None:
    """Record what a run left in its profile: `change` turns the site's last record ({} when
    none) into this run's. Nothing is kept for a throwaway profile, nor for a browser of the
    user's (--connect: the progress is kept there, not in a profile of webbot's)."""
    profile = options.browser.profile
    if profile is None or options.browser.connect or not profile.is_dir():
        return
    records = kept(profile)
    site = site_of(options.url)
    record = change(dict(records.get(game, {}).get(site, {})))
    records.setdefault(game, {})[site] = {**record, "when": time.strftime("%Y-%m-%d %H:%M")}
    with suppress(OSError):  # (a full disk: the run's own end matters more than its record)
        folders.write_private(profile / RECORDS, json.dumps(records, indent=1).encode())


def levels_done(record: dict) -> set[int]:
    """The level numbers a record keeps as done (none it cannot read)."""
    levels = record.get("levels done")
    return {n for n in levels if type(n) is int} if isinstance(levels, list) else set()


def described(game: str, record: dict) -> str:
    """One game's record on a site in words."""
    parts = []
    if "levels done" in record:
        numbers = sorted(levels_done(record))
        parts.append(f"{counted(len(numbers), 'level')} done ({spans(numbers)})" if numbers
                     else "no level done")
    if type(coins := record.get("coins")) is int:
        parts.append(f"{coins:,} coins")
    if isinstance(day := record.get("puzzle done on"), str):
        parts.append(f"the puzzle of {shown(day, 20)} done")
    when = shown(record.get("when", "?"), 20)
    return (", ".join(parts) or "played") + f"; last run {when}"


def spans(numbers: list[int]) -> str:
    """[1, 2, 3, 5] -> "1-3, 5"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)
