"""`webbot daily-set classify FILE...` and `read IMAGE|URL...` answer every target: one refused
is one error line naming it on stderr (and with --json an object in its place on stdout), the
others are still read; exit 2 when any was bad input, else 1 when any was refused, else 0.
The real command line, in this process."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scripts.render_set_board import Look, daily_board, daily_puzzle
from tests.conftest import in_own_thread
from tests.daily_set.conftest import IMAGES, site_card
from tests.test_cli import closed_port
from webbot.cli import main

GOOD = [IMAGES / "small" / "05.gif", IMAGES / "new" / "77.png"]
REFUSED = "webbot: error: {}: "  # the reason is the reader's to give


@pytest.fixture
def blank(tmp_path) -> Path:
    """A picture of no card: refused, not bad input."""
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), np.full((120, 80, 3), 255, np.uint8))
    return path


def webbot(capfd, *args: object) -> tuple[int, list[str], list[str]]:
    """The exit code, the lines on stdout and those on stderr."""
    code = in_own_thread(main, [str(arg) for arg in args])
    out, err = capfd.readouterr()
    assert "Traceback" not in err
    return code, out.splitlines(), err.splitlines()


def test_classify_reads_the_others_past_a_refused_card(capfd, blank):
    code, out, err = webbot(capfd, "daily-set", "classify", GOOD[0], blank, GOOD[1])
    assert code == 1
    assert [line.split(" (")[0] for line in out] == [f"{GOOD[0]}: {site_card(5)}",
                                                    f"{GOOD[1]}: {site_card(77)}"]
    assert len(err) == 1 and err[0].startswith(REFUSED.format(blank)), err


def test_classify_json_has_an_object_per_file_in_order(capfd, blank):
    code, out, err = webbot(capfd, "daily-set", "classify", "--json", blank, *GOOD)
    assert code == 1 and len(err) == 1
    assert [json.loads(line) for line in out] == [
        {"file": str(blank), "refused": err[0].removeprefix("webbot: error: ")},
        {"file": str(GOOD[0]), **site_card(5).as_dict()},
        {"file": str(GOOD[1]), **site_card(77).as_dict()}]


def test_a_file_that_is_no_picture_is_bad_input_and_the_others_are_read(capfd, blank,
                                                                          tmp_path):
    notes = tmp_path / "notes.png"
    notes.write_text("not a picture")
    code, out, err = webbot(capfd, "daily-set", "classify", GOOD[0], notes, blank, GOOD[1])
    assert code == 2  # bad input outranks a refusal
    assert len(out) == 2 and out[1].startswith(f"{GOOD[1]}: {site_card(77)}")
    assert err[0] == (f"webbot: error: {notes} is not an image that can be decoded (PNG, JPEG, "
                      "GIF, BMP, WebP)")
    assert err[1].startswith(REFUSED.format(blank)) and len(err) == 2


def test_a_missing_file_is_found_before_any_is_read(capfd, blank, tmp_path):
    code, out, err = webbot(capfd, "daily-set", "classify", GOOD[0], blank,
                            tmp_path / "missing.png")
    assert (code, out, err) == (2, [], [f"webbot: error: {tmp_path}/missing.png: no such file"])


def test_all_read_is_exit_0(capfd):
    code, out, err = webbot(capfd, "daily-set", "classify", *GOOD)
    assert (code, len(out), err) == (0, 2, [])


def test_read_goes_on_past_a_refused_picture_and_numbers_the_drawings_by_place(capfd, blank,
                                                                                tmp_path):
    numbers = daily_puzzle(3)
    board = tmp_path / "board.png"
    cv2.imwrite(str(board), daily_board(numbers, Look("current")))
    out_png = tmp_path / "seen.png"
    code, out, err = webbot(capfd, "daily-set", "read", board, blank, board, "--json",
                            "--annotate", out_png)
    assert code == 1
    assert len(err) == 1 and err[0].startswith(REFUSED.format(blank)), err
    first, refused, third = map(json.loads, out)
    assert first["file"] == third["file"] == str(board) and len(first["cards"]) == 12
    assert refused == {"file": str(blank), "refused": err[0].removeprefix("webbot: error: ")}
    assert [p.name for p in sorted(tmp_path.glob("seen*.png"))] == ["seen-3.png", "seen.png"]


def test_a_page_that_cannot_be_loaded_is_named_and_the_picture_still_read(capfd, blank):
    dead = f"http://127.0.0.1:{closed_port()}/set.htm"
    code, out, err = webbot(capfd, "daily-set", "read", "--json", dead, blank)
    assert code == 1 and len(err) == 2, err
    assert "cannot load (connection refused)" in err[0] and dead in err[0]
    assert err[1].startswith(REFUSED.format(blank))
    assert [json.loads(line) for line in out] == [
        {"url": dead, "refused": err[0].removeprefix("webbot: error: ")},
        {"file": str(blank), "refused": err[1].removeprefix("webbot: error: ")}]


def test_a_url_of_another_kind_is_found_before_any_is_read(capfd, blank):
    code, out, err = webbot(capfd, "daily-set", "read", blank, "ftp://example.org/set.htm")
    assert code == 2 and out == [] and len(err) == 1 and "Invalid value for 'URL'" in err[0]
