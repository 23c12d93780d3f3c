"""The tests' own process handling: a child that ignores SIGTERM, and what it started, are
still stopped and reaped (a dask worker once outlived its test by an hour)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import pytest

from tests import processes

# Ignores SIGTERM, starts a grandchild (tagged by argv[1]) that ignores it too, prints the
# grandchild's pid, then waits.
STUBBORN = """
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c",
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)",
    sys.argv[1]])
print(child.pid, flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(") ", 1)[1][0] != "Z"  # a zombie has ended
    except (FileNotFoundError, ProcessLookupError):
        return False


def tagged(tag: str) -> list[int]:
    """Live processes whose command line holds `tag`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if tag.encode() in f.read() and alive(int(pid)):
                    found.append(int(pid))
        except OSError:
            continue
    return found


def gone(tag: str, timeout_s: float = 10) -> bool:
    """Whether every process tagged `tag` has ended within `timeout_s` (a SIGKILLed process
    takes a moment to die, and its reaper, init, a moment more)."""
    deadline = time.monotonic() + timeout_s
    while tagged(tag):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)  # polling a condition, not waiting on a guess
    return True


def test_a_child_that_ignores_sigterm_is_killed_with_what_it_started():
    tag = uuid.uuid4().hex
    process = processes.start([sys.executable, "-c", STUBBORN, tag], stdout=subprocess.PIPE,
                              text=True)
    grandchild = int(process.stdout.readline())
    assert alive(process.pid) and alive(grandchild)
    assert processes.stop(process, grace_s=0.5) == -9  # SIGTERM ignored; SIGKILL ended it
    assert not alive(process.pid)  # reaped
    assert gone(tag)  # and the grandchild went with its group
    process.stdout.close()


def test_run_past_its_timeout_stops_the_whole_group():
    tag = uuid.uuid4().hex
    with pytest.raises(subprocess.TimeoutExpired):
        processes.run([sys.executable, "-c", STUBBORN, tag], timeout=1)
    assert gone(tag)


def test_a_forked_webbot_is_a_process_of_its_own_with_the_test_s_environment():
    """tests/forkserver.py: a run has its own pid and group, the streams and the environment
    it was given (not the server's at its start), and its exit code."""
    from tests.conftest import FORKS

    narrow, wide = (processes.run(["--help"], timeout=60, env={**os.environ, "COLUMNS": width},
                                  spawn=lambda args, **kw: FORKS.popen(list(args), **kw))
                    for width in ("40", "200"))
    assert narrow.returncode == wide.returncode == 0
    # (click wraps the help to COLUMNS, 80 at most)
    assert max(map(len, narrow.stdout.splitlines())) < max(map(len, wide.stdout.splitlines()))
    usage = processes.run(["puzlogic", "--levels", "20"], timeout=60, env=dict(os.environ),
                          spawn=lambda args, **kw: FORKS.popen(list(args), **kw))
    assert usage.returncode == 2 and usage.stdout == ""
    assert usage.stderr.startswith("webbot: error: Invalid value for '--levels'")
    reader, writer = os.pipe()  # a standard input that never ends: `read -` waits on it
    try:
        process = FORKS.popen(["daily-set", "read", "-"], stdin=reader,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert process.pid != FORKS.process.pid and os.getpgid(process.pid) == process.pid
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(timeout=0.5)
        assert processes.stop(process, grace_s=5) == -15  # SIGTERM to its group ended it
        assert not alive(process.pid)  # and the server reaped it
    finally:
        os.close(reader)
        os.close(writer)
