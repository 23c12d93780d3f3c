"""Where a bot's time goes: nested phases charge the innermost, and add up; whose time each
part is; and a run's parts written for the benchmarks (WEBBOT_PHASES), by a real command."""

from __future__ import annotations

import json
import os
import time

import pytest

from tests.conftest import run_webbot
from webbot.breakdown import write_if_asked
from webbot.phases import Phases, whose


def busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_nested_phases_charge_the_innermost_and_add_up():
    phases = Phases()
    started = time.perf_counter()
    with phases("outer"):
        busy(0.02)
        inner_started = time.perf_counter()
        with phases("inner"):
            busy(0.03)
        inner_wall = time.perf_counter() - inner_started
        busy(0.01)
    wall = time.perf_counter() - started
    assert 0.03 <= phases.seconds["inner"] <= inner_wall
    assert phases.seconds["outer"] >= 0.03  # before and after the inner phase, not during
    assert phases.seconds["outer"] <= wall - phases.seconds["inner"]
    assert phases.total() <= wall


def test_time_outside_every_phase_is_not_counted():
    phases = Phases()
    busy(0.02)
    started = time.perf_counter()
    with phases("only"):
        pass
    assert phases.total() <= time.perf_counter() - started  # not the 20 ms before it


def test_an_error_inside_a_phase_still_closes_it():
    phases = Phases()
    started = time.perf_counter()
    with pytest.raises(ValueError), phases("failing"):
        raise ValueError
    failing_wall = time.perf_counter() - started
    with phases("after"):
        busy(0.01)
    # closed at the error: the 10 ms after it went to the next phase, not to this one
    assert phases.seconds["failing"] <= failing_wall and phases.seconds["after"] >= 0.01


def test_a_phase_begun_without_a_with_ends_only_when_it_is_the_one_under_way():
    phases = Phases()
    phases.end("closing")  # not begun (the run failed before): nothing
    phases.begin("closing")
    busy(0.01)
    phases.end("closing")
    assert phases.seconds["closing"] >= 0.01 and phases._stack == []


def test_the_game_s_parts_are_what_anyone_playing_waits_for():
    assert [whose(part) for part in ("page load", "waiting", "waiting on the game",
                                     "the page's answers")] == ["the game's"] * 4
    assert {whose(part) for part in ("process start", "browser start", "finding the game",
                                     "perception", "deciding", "acting", "dragging")} == {"ours"}


def test_a_run_s_parts_are_written_where_asked_never_through_a_link(tmp_path, monkeypatch,
                                                                      capsys):
    phases = Phases()
    with phases("perception"):
        busy(0.01)
    target, link = tmp_path / "elsewhere.json", tmp_path / "phases.json"
    target.write_text("mine")
    link.symlink_to(target)
    monkeypatch.setenv("WEBBOT_PHASES", str(link))
    write_if_asked(phases)
    record = json.loads(link.read_text())
    assert target.read_text() == "mine" and not link.is_symlink()  # replaced, not written through
    assert record["run_started"] <= record["run_ended"]
    assert record["seconds"]["perception"] >= 0.01
    monkeypatch.setenv("WEBBOT_PHASES", str(tmp_path / "no such folder" / "phases.json"))
    write_if_asked(phases)
    assert capsys.readouterr().err.startswith("webbot: WEBBOT_PHASES: cannot write ")


def test_a_command_writes_its_parts_from_the_browser_s_start_to_the_page_s_answers(tmp_path):
    path = tmp_path / "phases.json"
    done = run_webbot("daily-set", "--fresh", env={"WEBBOT_PHASES": str(path)}, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    record = json.loads(path.read_text())
    seconds = record["seconds"]
    for part in ("replica server", "browser start", "page load", "finding the game",
                 "fetching the cards", "deciding", "acting",
                 "the page's answers", "waiting on the game", "closing"):
        assert seconds.get(part, 0) > 0, (part, seconds)
    # The cards are read on a thread while the game is looked for (inside that part), and
    # the command says so; read after it, they are a part of their own.
    assert ("while the game was looked for" in done.stdout) == (seconds.get("perception", 0) == 0)
    assert sum(seconds.values()) <= record["run_ended"] - record["run_started"]
    assert record["run_started"] <= record["run_ended"]
    assert os.stat(path).st_mode & 0o077 == 0  # private, as webbot's files are
