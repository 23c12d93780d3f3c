"""webbot's own record of what its runs left in a profile (`webbot profile` says it): kept
for a kept profile only, merged run after run, and never trusted beyond what it can read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webbot.options import BrowserOptions, RunOptions
from webbot.progress import RECORDS, described, kept, levels_done, remember, spans


def on(profile: Path | None, url: str | None = None, connect: str | None = None) -> RunOptions:
    return RunOptions(url=url, browser=BrowserOptions(profile=profile, connect=connect))


def test_runs_on_a_profile_are_recorded_by_game_and_site(tmp_path):
    remember(on(tmp_path), "puzlogic", lambda last: {"levels done": [1, 2]})
    remember(on(tmp_path), "puzlogic",
             lambda last: {"levels done": sorted(levels_done(last) | {5})})
    remember(on(tmp_path, "https://example.org/games/puzlogic?x=1"), "puzlogic",
             lambda last: {"levels done": [1]})
    remember(on(tmp_path), "burrito-bison", lambda last: {"coins": 12345})
    records = kept(tmp_path)
    assert records["puzlogic"]["the bundled replica"]["levels done"] == [1, 2, 5]
    assert records["puzlogic"]["https://example.org"]["levels done"] == [1]
    assert re.fullmatch(r"3 levels done \(1-2, 5\); last run \d{4}-\d\d-\d\d \d\d:\d\d",
                        described("puzlogic", records["puzlogic"]["the bundled replica"]))
    assert described("burrito-bison", records["burrito-bison"]["the bundled replica"]) \
        .startswith("12,345 coins; last run ")


@pytest.mark.parametrize("options", [
    lambda folder: on(None),  # --fresh: a throwaway profile
    lambda folder: on(folder, connect="http://127.0.0.1:9222"),  # the user's own browser
    lambda folder: on(folder / "not-made"),  # no profile there (a run that never started)
], ids=["fresh", "connect", "missing"])
def test_nothing_is_recorded_where_the_progress_is_not_the_profile_s(tmp_path, options):
    remember(options(tmp_path), "daily-set", lambda last: {"puzzle done on": "2026-12-03"})
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", ["{broken", "[1, 2]", '{"puzlogic": 3}', "\xff"])
def test_a_record_that_cannot_be_read_is_as_none_and_is_replaced(tmp_path, text):
    (tmp_path / RECORDS).write_text(text, errors="surrogateescape")
    assert kept(tmp_path) == {}
    remember(on(tmp_path), "puzlogic", lambda last: {"levels done": sorted(levels_done(last))})
    assert kept(tmp_path)["puzlogic"]["the bundled replica"]["levels done"] == []


def test_what_a_record_says_is_only_what_it_can_read():
    assert levels_done({"levels done": [1, "2", True, 3.0, 4]}) == {1, 4}
    assert levels_done({"levels done": 7}) == set()
    assert described("puzlogic", {"levels done": "x", "when": "\x1b[2J"}) == \
        "no level done; last run \u241b[2J"
    assert spans([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
