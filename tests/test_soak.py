"""`webbot soak`: small soaks of each game on a real Dask LocalCluster, one on a real `dask
scheduler` with two `dask worker` processes (one of them killed mid-game), a failing game
retried on another worker, Ctrl-C, a soak killed and resumed, and the cases a seed draws."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import processes
from tests.conftest import run_webbot, sweep
from tests.test_cli import closed_port, wedged_port
from webbot.burrito_bison.replica import SIZES as BURRITO_SIZES
from webbot.daily_set.replica import LAYOUTS as DAILY_SET_LAYOUTS
from webbot.soak.games import make_case
from webbot.words import counted

DASK = Path(sys.executable).parent / "dask"


def soak(*args: str, tmp: Path, timeout: float = 300) -> tuple[subprocess.CompletedProcess,
                                                                   list[dict]]:
    jsonl = tmp / "games.jsonl"
    done = run_webbot("soak", *args, "--jsonl", str(jsonl), env={"TMPDIR": str(tmp)},
                      timeout=timeout)
    lines = jsonl.read_text().splitlines() if jsonl.exists() else []
    return done, [json.loads(line) for line in lines]


# (Puzlogic's soak is the Ctrl-C test below; CI soaks the Daily SET, --full Burrito Bison too.)
@pytest.mark.parametrize(("game", "args"), sweep([
    ("daily-set", ("--count", "2")),
    ("burrito-bison", ("--count", "1", "--rounds", "1",
                       "--query", "flight=0.3&intro=0&pinata=never&sale=never&unlocked=never")),
], lambda case: case[0] == "daily-set"))
def test_a_small_soak_of_each_game_on_a_local_cluster(short_tmp, game, args, page):
    """... with --report: the soak's page, opened in Chromium, links each game to its own
    report page (made on the worker that played it), which renders with its frames."""
    report = short_tmp / "soak.html"
    done, games = soak(game, *args, "--workers", "2", "--seed", "5", "--report", str(report),
                       tmp=short_tmp)
    assert done.returncode == 0, done.stdout + done.stderr
    count = int(args[1])
    assert [g["outcome"] for g in games] == ["passed"] * count
    assert {g["game"] for g in games} == {game}
    assert all(g["attempts"] == 1 and g["seconds"] > 0 and g["reason"] == "" for g in games)
    assert len({g["case"] for g in games}) == count
    out = " ".join(done.stdout.split())
    assert f"soak of {game}: {counted(count, 'game')} in" in out and "per worker" in out
    assert "dashboard: http://127.0.0.1:" in out
    assert f"games: {count} of {count} ended in " in out  # progress, without a terminal
    assert f"report: {report}" in out
    page.goto(report.as_uri())
    assert f"soak of {game}" in " ".join(page.inner_text("body").split())
    links = page.locator("table.games a")
    assert links.count() == count
    for href in links.evaluate_all("links => links.map(link => link.href)"):
        page.goto(href)
        text = " ".join(page.inner_text("body").split())
        assert "Finished without an error" in text and "Where the time went" in text
        assert page.evaluate("[...document.images].length > 0 && "
                             "[...document.images].every(image => image.naturalWidth > 0)")


@pytest.mark.full  # (a slow drill: a game failed on purpose, then played again)
def test_a_failing_game_is_retried_on_another_worker_and_reported(short_tmp):
    # The replica told to misbehave: its results screen ignores every click.
    report = short_tmp / "soak.html"
    done, games = soak("burrito-bison", "--count", "1", "--workers", "2",
                       "--query", "scene=results&stall=results", "--stuck-after", "0.5",
                       "--report", str(report), tmp=short_tmp)
    assert done.returncode == 1
    [game] = games
    assert game["outcome"] == "failed" and game["attempts"] == 2
    first, second = game["tries"]
    assert first["worker"] != second["worker"] == game["worker"]
    assert "stuck on the results screen" in game["reason"]
    assert all(Path(t["frames"], "last-frame.png").is_file() for t in game["tries"])
    out = " ".join(done.stdout.split())
    assert "failed: seed=" in out and "after 2 tries" in out
    # Each try's folder named once, the first's too.
    folders = [t["frames"] for t in game["tries"]]
    assert f"(saved: try 1 in {folders[0]}, try 2 in {folders[1]})" in out
    assert all(out.count(folder) == 1 for folder in folders)
    tries = sorted((short_tmp / "soak-games").glob("*-try-*.html"))  # each try's own page
    assert len(tries) == 2 and report.read_text().count("-try-") == 2
    assert all("Failed: " in t.read_text() and "stuck on the results screen" in t.read_text()
               for t in tries)


def test_a_failure_line_names_each_try_s_folder_once():
    from webbot.soak.cli import failure_line
    from webbot.soak.games import SAVED_IN, Case, Played
    from webbot.soak.runner import GameRecord, Try

    def played(folder: str) -> Played:
        return Played(False, 1.0, "stuck", folder)

    record = GameRecord(Case("puzlogic", 0, "size=3", "p"),
                        [Try("w1", played("/tmp/a")), Try("w2", played("/tmp/b"))])
    assert failure_line(record) == ("failed: size=3 after 2 tries, last on worker w2: stuck "
                                    "(saved: try 1 in /tmp/a, try 2 in /tmp/b)")
    line = "stuck (last frame, page and reason saved in /tmp/webbot-failure-x)"
    assert SAVED_IN.search(line)["folder"] == "/tmp/webbot-failure-x"
    once = GameRecord(record.case, [Try("w1", Played(False, 1.0, "wrong answer"))])
    assert failure_line(once) == "failed: size=3 after 1 try, last on worker w1: wrong answer"


def test_a_temporary_failure_folder_of_a_run_that_passed_is_removed(tmp_path, monkeypatch):
    import numpy as np

    from webbot.debug import Recorder
    from webbot.screen import Box, Grab

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    recorder = Recorder()
    saved = recorder.save_grab(Grab(np.zeros((4, 4, 3), np.uint8), Box(0, 0, 4, 4)), "stuck")
    assert saved.is_file() and recorder.temporary_folder() == saved.parent
    recorder.discard_temporary()
    assert not saved.parent.exists() and recorder.temporary_folder() is None
    kept = Recorder(tmp_path / "debug")  # a debug folder given: kept
    kept.save_grab(Grab(np.zeros((4, 4, 3), np.uint8), Box(0, 0, 4, 4)), "stuck")
    kept.discard_temporary()
    assert (tmp_path / "debug" / "failure" / "stuck.png").is_file()


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} after {timeout} s")
        time.sleep(0.2)


def records(jsonl: Path) -> list[dict]:
    """The whole lines of a soak's --jsonl (one cut short by a kill is not counted)."""
    text = jsonl.read_text() if jsonl.exists() else ""
    return [json.loads(line) for line in text.splitlines(keepends=True) if line.endswith("\n")]


def start_soak(*args: str, tmp: Path) -> subprocess.Popen:
    # Ctrl-C as in a terminal: a suite started in the background (`cmd &` in a script) has
    # SIGINT ignored, and a child would inherit that and never hear it.
    return processes.start([sys.executable, "-m", "webbot.cli", "soak", *args],
                           env={**os.environ, "TMPDIR": str(tmp), "COLUMNS": "200"},
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=_hear_ctrl_c)


def _hear_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def kill_tree(pid: int) -> None:
    """SIGKILL a process and everything under it, found by parentage (the browsers a worker
    starts are in sessions of their own)."""
    for each in [pid, *processes.descendants(pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(each, signal.SIGKILL)


@pytest.mark.full  # (a slow drill; scripts/soak_faults.py kills workers too)
def test_a_worker_then_the_scheduler_killed_mid_soak_lose_no_game(short_tmp):
    """A real `dask scheduler` and two `dask worker` processes. One worker is killed (SIGKILL,
    with the browser it drives) while it plays: Dask hands its game to the other worker, and
    the soak counts the worker lost. Then the scheduler is killed: the soak stops within its
    deadline, saying so, and --resume (on local workers) plays what was left: every game
    recorded once and passed."""
    port = closed_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "TMPDIR": str(short_tmp)}
    quiet = {"env": env, "cwd": short_tmp, "stdout": subprocess.DEVNULL,
             "stderr": subprocess.DEVNULL}
    started = [processes.start([str(DASK), "scheduler", "--host", "127.0.0.1", "--port",
                                str(port), "--no-dashboard"], **quiet)]
    jsonl = short_tmp / "games.jsonl"
    try:
        for _ in range(2):
            started.append(processes.start(
                [str(DASK), "worker", address, "--nthreads", "1", "--no-dashboard",
                 "--no-nanny"], **quiet))
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
            workers = {str(info["name"]) for info in client.scheduler_info()["workers"].values()}
        child = start_soak("puzlogic", "--count", "6", "--scheduler", address, "--jsonl",
                           str(jsonl), tmp=short_tmp)
        try:
            # Both workers take a game at once; when the first ends, the third is handed out:
            # both are playing when one is killed.
            wait_for(lambda: len(records(jsonl)) >= 1, 120, "finished game")
            kill_tree(started[1].pid)
            wait_for(lambda: len(records(jsonl)) >= 3, 120, "games after the worker's loss")
            kill_tree(started[0].pid)  # the scheduler
            out, err = child.communicate(timeout=120)
        finally:
            processes.stop(child)
    finally:  # the workers first, while their scheduler is still there to say goodbye to
        for process in reversed(started):
            processes.stop(process)
    said = " ".join(out.split())
    assert child.returncode == 1, said + err
    assert address in said and "1 worker left the cluster during the soak" in said
    assert f"stopped: lost the Dask scheduler at {address}" in said and "--resume" in said
    before = records(jsonl)
    assert 3 <= len(before) < 6 and {g["worker"] for g in before} <= workers
    done = run_webbot("soak", "puzlogic", "--count", "6", "--workers", "1", "--jsonl",
                      str(jsonl), "--resume", env={"TMPDIR": str(short_tmp)}, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    after = records(jsonl)
    assert sorted(g["number"] for g in after) == list(range(6))
    assert all(g["outcome"] == "passed" for g in after)


@pytest.mark.long
def test_ctrl_c_stops_the_soak_and_a_killed_soak_resumes_each_game_once(short_tmp):
    jsonl = short_tmp / "games.jsonl"
    child = start_soak("puzlogic", "--count", "200", "--workers", "1", "--jsonl", str(jsonl),
                       tmp=short_tmp)
    try:
        wait_for(lambda: len(records(jsonl)) >= 1, 120, "finished game")
        os.killpg(child.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        out, err = child.communicate(timeout=60)
    finally:
        processes.stop(child)  # at once when it has exited
    assert child.returncode == 130
    assert "per worker" in out
    # the one line an interrupted command ends in, and no worker's traceback
    assert re.fullmatch(r"webbot: error: interrupted \(\d+ games? had ended; the same command "
                        r"with --resume goes on from its --jsonl records\)\n", err), err
    before = records(jsonl)
    assert 1 <= len(before) < 200
    passed = [r for r in before if r["outcome"] == "passed"]
    total = len(before) + 3
    # Resumed, then killed outright (SIGKILL to it and all under it) after one more game.
    child = start_soak("puzlogic", "--count", str(total), "--workers", "1", "--jsonl",
                       str(jsonl), "--resume", tmp=short_tmp)
    try:
        wait_for(lambda: len(records(jsonl)) > len(passed), 120, "game after resuming")
        kill_tree(child.pid)
    finally:
        processes.stop(child)
    assert len(records(jsonl)) < total
    # Resumed again: only the games not recorded yet are played, each recorded once.
    passed_now = sum(r["outcome"] == "passed" for r in records(jsonl))
    done = run_webbot("soak", "puzlogic", "--count", str(total), "--workers", "1",
                      "--jsonl", str(jsonl), "--resume", env={"TMPDIR": str(short_tmp)},
                      timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "resuming:" in done.stdout
    assert (f"soak of puzlogic: {total} games ({passed_now} passed before, {total - passed_now} "
            "to play)") in done.stdout
    after = records(jsonl)
    assert sorted(r["number"] for r in after) == list(range(total))
    assert all(r["outcome"] == "passed" for r in after)
    assert all(r in after for r in passed)  # kept as they were


def test_a_record_cut_short_by_a_kill_is_resumed_and_another_soaks_is_refused(tmp_path):
    from webbot.files import InputError
    from webbot.soak.games import Played
    from webbot.soak.resume import recorded
    from webbot.soak.runner import GameRecord, Plan, Try

    plan = Plan("puzlogic", count=3, seed=7)

    def line(number: int, passed: bool = True, seed: int = 7) -> str:
        record = GameRecord(make_case("puzlogic", seed, number),
                            [Try("w1", Played(passed, 1.5, "" if passed else "misread"))])
        return json.dumps(record.as_json()) + "\n"

    jsonl = tmp_path / "games.jsonl"
    jsonl.write_text(line(0) + line(1, passed=False) + line(0) + line(2)[:40])  # killed
    assert [r.case.number for r in recorded(jsonl, plan)] == [0]  # 1 failed, 2 cut short
    jsonl.write_text(line(0, seed=8))
    with pytest.raises(InputError, match="another soak's record"):
        recorded(jsonl, plan)
    jsonl.write_text(line(0) + "{not json\n")
    with pytest.raises(InputError, match="line 2 is not a soak record"):
        recorded(jsonl, plan)
    assert recorded(tmp_path / "none.jsonl", plan) == []


def test_usage_errors_and_a_dead_scheduler(short_tmp):
    done = run_webbot("soak", "puzlogic")
    assert done.returncode == 2 and "give --count N or --minutes M" in done.stderr
    done = run_webbot("soak", "puzlogic", "--count", "2", "--minutes", "1")
    assert done.returncode == 2 and "give --count N or --minutes M, not both" in done.stderr
    done = run_webbot("soak", "chess", "--count", "1")
    assert done.returncode == 2
    done = run_webbot("soak", "puzlogic", "--count", "1", "--scheduler",
                      f"tcp://127.0.0.1:{closed_port()}", env={"TMPDIR": str(short_tmp)})
    assert done.returncode == 1
    assert done.stderr.startswith("webbot: error: cannot reach the Dask scheduler at tcp://")
    assert done.stderr.count("\n") == 1


def test_a_soak_without_dask_says_in_one_line_what_to_install(tmp_path):
    """Dask is the soak's extra: where it cannot be imported, the soak says so; the games'
    own commands do not need it."""
    hidden = tmp_path / "distributed"
    hidden.mkdir()
    (hidden / "__init__.py").write_text("raise ImportError(\"No module named 'distributed'\")\n")
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = run_webbot("soak", "puzlogic", "--count", "1", env=env)
    assert done.returncode == 1
    assert done.stderr == ("webbot: error: the soak spreads its games over Dask, which is not "
                           "installed: run pip install '.[soak]' in webbot's checkout "
                           "(scripts/setup.sh does)\n")
    done = run_webbot("puzlogic", "--help", env=env)
    assert done.returncode == 0 and "--headed" in done.stdout


@pytest.mark.full  # (it waits out the 15 s deadline; CI: a dead scheduler is one line above)
def test_a_wedged_scheduler_is_one_line_within_its_deadline(short_tmp):
    with wedged_port() as port:  # takes the connection, never answers: Dask waits for good
        done = run_webbot("soak", "puzlogic", "--count", "1", "--scheduler",
                          f"tcp://127.0.0.1:{port}", env={"TMPDIR": str(short_tmp)}, timeout=90)
    assert done.returncode == 1
    assert done.stderr == (f"webbot: error: the Dask scheduler at tcp://127.0.0.1:{port} took "
                           "the connection but did not answer within 15 s\n")


def test_a_seed_draws_the_same_varied_cases():
    cases = [make_case("puzlogic", 3, n) for n in range(40)]
    assert cases == [make_case("puzlogic", 3, n) for n in range(40)]
    assert cases != [make_case("puzlogic", 4, n) for n in range(40)]
    assert len({case.path.split("size=")[1].split("&")[0] for case in cases}) >= 6
    layouts = {make_case("daily-set", 3, n).name.split()[0] for n in range(40)}
    assert layouts == set(DAILY_SET_LAYOUTS)
    sizes = {make_case("burrito-bison", 3, n).name.split()[1] for n in range(40)}
    assert sizes == {f"{w}x{h}" for w, h in BURRITO_SIZES}
    assert make_case("puzlogic", 3, 0, "leaves=0").path.endswith("&leaves=0")
    assert make_case("burrito-bison", 3, 0, options={"rounds": 5}).name.endswith("5 rounds")


@pytest.mark.parametrize("resumable", [False, True])
def test_a_soak_stopped_before_any_game_ended_says_so_and_how_to_go_on(capsys, resumable):
    from webbot.shown import TextConsole
    from webbot.soak.cli import _report
    from webbot.soak.runner import Plan, SoakResult

    console = TextConsole()
    code = _report(Plan("puzlogic", count=5), SoakResult([], 3.0, interrupted=True, workers=2),
                   console, resumable=resumable)
    out, err = capsys.readouterr()
    assert code == 130
    assert out == "soak of puzlogic: no game ended\n"  # no table of zeros
    assert err == "webbot: error: interrupted (0 games had ended; " + (
        "the same command with --resume goes on from its --jsonl records)\n" if resumable else
        "with --jsonl FILE a soak stopped can be resumed (--resume))\n")
