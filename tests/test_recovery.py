"""Keeping on through a lost page, with real processes: the renderers of the bot's own
browser are killed (as an out-of-memory kill does to a tab) by their pids mid-game, and the
run goes on after one recovery."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time

import pytest

from tests import processes


def webbot_until(args: list[str], line_seen: str, timeout_s: float = 240
                 ) -> tuple[subprocess.CompletedProcess, list[int]]:
    """Run `webbot ARGS`; once `line_seen` shows in its output, kill its renderers. The
    finished run, and the pids killed. Past `timeout_s` the child and all it started are
    stopped, whatever it is doing."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    process = processes.start([sys.executable, "-m", "webbot.cli", *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env)
    lines: queue.Queue[str | None] = queue.Queue()

    def read(stream) -> None:  # the child's lines as they come, then None at its end
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, args=(process.stdout,), daemon=True).start()
    killed: list[int] = []
    out: list[str] = []
    deadline = time.monotonic() + timeout_s
    try:
        while (line := lines.get(timeout=max(0.1, deadline - time.monotonic()))) is not None:
            out.append(line)
            if not killed and line_seen in line:
                killed = processes.kill_renderers(process)
        process.wait(timeout=max(1.0, deadline - time.monotonic()))
    except (queue.Empty, subprocess.TimeoutExpired):
        out.append(f"\n(no end within {timeout_s:g} s)")
    finally:
        code = processes.stop(process, grace_s=2)
        err = process.stderr.read() if process.stderr else ""
    return subprocess.CompletedProcess(args, code, "".join(out), err), killed


@pytest.mark.parametrize(("args", "page", "when", "finished"), [
    (["puzlogic", "--levels", "1-2"], "puzlogic/index.html", "level 01", "level 02"),
    (["burrito-bison", "--rounds", "2", "--no-shop"],
     "burrito-bison/index.html?seed=3&flight=0.25&pinata=never&sale=never", "round 1:",
     "round 2:"),
    (["daily-set"], "daily-set/puzzle/set.htm", "set 2:", "Done: the page went on to"),
], ids=["puzlogic", "burrito-bison", "daily-set"])
def test_a_renderer_killed_mid_game_costs_one_recovery(fixtures_url, args, page, when,
                                                       finished):
    """Killed as level 2 opens, as round 2 starts, after the second set."""
    done, killed = webbot_until([*args, "--url", fixtures_url + page], when)
    assert killed, "no renderer of the bot's browser was found to kill"
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert ("the page crashed (its renderer process ended): reopening the page and finding the "
            "game again (recovery 1 of at most 3)") in said
    assert finished in said.split("reopening the page")[1]
