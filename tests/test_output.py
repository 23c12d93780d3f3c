"""A run whose output's reader goes away (`webbot puzlogic | head -3`) ends there quietly, as a
filter killed by SIGPIPE would: status 141, nothing on stderr (no traceback, no "Exception
ignored" from Python at exit), its browser closed with every process under it."""

from __future__ import annotations

import subprocess
import sys

import psutil

from tests import processes
from webbot.output import READER_GONE

WEBBOT = [sys.executable, "-m", "webbot.cli"]
END_S = 60  # a bound on the unwinding (the browser's close), not a measure of it


def test_a_game_whose_reader_closes_after_the_first_level_ends_quietly(tmp_path):
    report = tmp_path / "run.html"
    command = [*WEBBOT, "puzlogic", "--fresh", "--levels", "1-4", "--report", str(report)]
    with processes.started(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True) as process:
        line = process.stdout.readline()
        while line and not line.startswith("level "):  # ("learning the digits", first)
            line = process.stdout.readline()
        assert line.startswith("level 01"), process.stderr.read()
        tree = psutil.Process(process.pid).children(recursive=True)
        assert any("--remote-debugging-pipe" in p.cmdline() for p in tree)  # a browser runs
        process.stdout.close()  # as `head -1` goes once it has its line
        assert process.wait(timeout=END_S) == READER_GONE
        assert process.stderr.read() == ""
        _, alive = psutil.wait_procs(tree, timeout=10)  # (inside: the group is killed after)
        assert alive == []
    assert "the reader of its output went away" in report.read_text()  # why it stopped


def test_a_command_whose_output_nobody_reads_ends_quietly():
    with processes.started([*WEBBOT, "games"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True) as process:
        process.stdout.close()  # gone before the first line is written
        assert process.wait(timeout=END_S) == READER_GONE
        assert process.stderr.read() == ""


def test_a_failure_said_on_a_closed_stderr_ends_quietly():
    with processes.started([*WEBBOT, "puzlogic", "--levels", "99"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True) as process:
        process.stderr.close()  # `webbot ... 2>&1 | head -0`: its one line has no reader
        assert process.wait(timeout=END_S) == READER_GONE
        assert process.stdout.read() == ""
