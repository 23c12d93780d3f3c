"""The run's report page (`--report FILE`): a run stopped with Ctrl-C says so and what it did
until then (a real child process sent SIGINT in the middle of its run), and every frame shows at
full size when clicked, in the real Chromium, with no script."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from tests import processes
from webbot.report import RunReport

WAIT_S = 120  # a bound on a hang, not a speed: a slow machine passes


def interrupted_run(args: list[str], after: str) -> tuple[int, str, str]:
    """`webbot ARGS` in a child process, sent SIGINT to its group (as a terminal's Ctrl-C)
    once a line holding `after` is printed: its exit code, stdout and stderr."""
    # (SIGINT heard as in a terminal: a suite started in the background has it ignored.)
    with processes.started([sys.executable, "-m", "webbot.cli", *args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
                           ) as process:
        said = []
        deadline = time.monotonic() + WAIT_S
        while not any(after in line for line in said):
            assert time.monotonic() < deadline and process.poll() is None, said
            if select.select([process.stdout], [], [], 1)[0]:
                said.append(process.stdout.readline())
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=WAIT_S)
    return process.returncode, "".join(said) + out, err


def test_a_run_stopped_with_ctrl_c_reports_it_and_what_it_did_until_then(page, tmp_path):
    report = tmp_path / "report.html"
    code, out, err = interrupted_run(["puzlogic", "--fresh", "--levels", "1-15", "--report",
                                      str(report)], after="level 01:")
    assert code == 130 and err.strip().endswith("webbot: error: interrupted"), err
    assert "Puzlogic: 1 of 1 level completed" in out  # its table, as it stopped
    page.goto(report.as_uri())
    text = " ".join(page.inner_text("body").split())
    assert "Failed" not in text and "KeyboardInterrupt" not in text
    assert "Interrupted (Ctrl-C) after " in text
    until_then = text.split("Until then: ", 1)[1]
    assert until_then.startswith("Puzlogic: 1 of 1 level completed in ")
    assert " pictures of the game looked at; " in until_then
    assert "level-01-drops-1-2-pieces" in text  # the frames of what it did
    assert page.get_by_text("the last frame the bot saw").count() == 1
    assert page.evaluate("[...document.images].every(image => image.naturalWidth > 0)")


def test_burrito_bison_stopped_mid_round_lists_the_round_it_was_in(page, tmp_path):
    report = tmp_path / "report.html"
    code, out, err = interrupted_run(["burrito-bison", "--fresh", "--rounds", "3", "--report",
                                      str(report)], after="round 1 launched")
    assert code == 130, err
    flat = " ".join(out.replace("│", " ").split())
    assert "Burrito Bison: 0 rounds finished, round 1 unfinished, in " in flat
    assert "unfinished: stopped on the " in flat  # its row in the table
    page.goto(report.as_uri())
    text = " ".join(page.inner_text("body").replace("│", " ").split())
    assert "Until then: Burrito Bison: 0 rounds finished, round 1 unfinished, in " in text
    assert "unfinished: stopped on the " in text


def test_a_frame_is_shown_at_full_size_when_clicked(page, tmp_path):
    report = RunReport(Path(tmp_path) / "r.html")
    report.frame("a wide frame", np.full((500, 1600, 3), 200, np.uint8))
    report.write("webbot puzlogic", "", None)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(report.path.as_uri())
    frame = page.get_by_alt_text("a wide frame")
    assert frame.bounding_box()["width"] <= 622  # shrunk beside the others (and a border)
    frame.click()
    assert frame.evaluate("image => [image.clientWidth, image.naturalWidth]") == [1600, 1600]
    assert page.evaluate("document.scripts.length") == 0
    frame.click(position={"x": 10, "y": 10})  # a second click puts it back
    assert frame.bounding_box()["width"] <= 622
