"""The names a user gives (files, folders, options) are shown as text: a file named with
terminal control codes (ESC ] 0 ; retitles the window, ESC [ 2J clears the screen) is printed
by every command that reads one with its codes as pictures, whole, on its own line; `--json`
keeps the real name (JSON escapes it), and the report shows it as text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2

from scripts.render_set_board import Look, daily_board, daily_puzzle
from tests.burrito_bison.conftest import sized_frames
from tests.conftest import run_webbot
from tests.hostile.conftest import OBEYED
from tests.puzlogic.replica import grab, open_game
from webbot.report import RunReport
from webbot.server import fixtures_root
from webbot.shown import shown_name

ESC, BEL = "\x1b", "\x07"
CODES = f"{ESC}]0;PWNED{BEL}{ESC}[2J\u202e\n"
PICTURED = "␛]0;PWNED␇␛[2J�␊"


def named(folder: Path, suffix: str) -> Path:
    return folder / f"{CODES}{suffix}"


def shows_it_as_text(args: list[str], path: Path, start: str, *, in_json: bool = True) -> None:
    """The command runs (exit 0); its output has the name's codes as pictures and none of
    them raw; with --json (`in_json`: where the JSON names the file) the real name."""
    done = run_webbot(*args)
    assert done.returncode == 0, done.stderr
    assert not OBEYED.search(done.stdout + done.stderr), repr(done.stdout)
    assert done.stdout.startswith(f"{shown_name(path)}: {start}"), done.stdout
    assert PICTURED in done.stdout
    if in_json:
        as_json = run_webbot(*args, "--json")
        assert as_json.returncode == 0, as_json.stderr
        assert json.loads(as_json.stdout.splitlines()[0])["file"] == str(path)


def test_a_name_is_shown_whole_with_its_control_codes_pictured():
    assert shown_name(f"a{CODES}b.png") == f"a{PICTURED}b.png"
    assert shown_name("\t\udc9b.png") == "␉�.png"  # a byte of a name that is not UTF-8
    long = "x" * 5000
    assert shown_name(long) == long


def test_the_daily_set_commands_show_a_file_s_name_as_text(tmp_path):
    card = named(tmp_path, "card.png")
    shutil.copy(fixtures_root() / "daily-set/images/setcards/new/1.png", card)
    shows_it_as_text(["daily-set", "classify", str(card)], card, "1 ")
    board = named(tmp_path, "board.png")
    cv2.imwrite(str(board), daily_board(daily_puzzle(2), Look("current", None, 0.5)))
    shows_it_as_text(["daily-set", "read", str(board)], board, "12 cards read in ")


def test_puzlogic_read_shows_a_file_s_name_as_text(tmp_path, page, fixtures_url):
    open_game(page, fixtures_url, "level=1")
    shot = named(tmp_path, "level.png")
    cv2.imwrite(str(shot), grab(page))
    shows_it_as_text(["puzlogic", "read", str(shot)], shot, "level 01, ", in_json=False)


def test_burrito_bison_commands_show_a_file_s_name_as_text(tmp_path, browser, fixtures_url):
    [(_, _, results)] = sized_frames(browser, fixtures_url, (1173, 660), 1, ["results"])
    shot = named(tmp_path, "results.png")
    cv2.imwrite(str(shot), results.image)
    shows_it_as_text(["burrito-bison", "classify", str(shot)], shot, "results")
    shows_it_as_text(["burrito-bison", "read", str(shot)], shot, "results: distance ")


def test_a_folder_s_name_is_shown_as_text(tmp_path):
    done = run_webbot("profile", "--profile", str(named(tmp_path, "profile")))
    assert done.returncode == 0, done.stderr
    assert not OBEYED.search(done.stdout)
    assert done.stdout == f"profile: {shown_name(named(tmp_path, 'profile'))} (not made yet)\n"


def test_the_report_shows_the_command_s_names_as_text(tmp_path):
    report = RunReport(tmp_path / "r.html")
    report.write(f"webbot daily-set classify {CODES}card.png \udc9b", "", None)
    page = report.path.read_text()
    assert not OBEYED.search(page)
    assert f"webbot daily-set classify {PICTURED}card.png �" in page



def test_an_error_naming_a_file_is_one_line_with_the_name_as_text(tmp_path):
    """A bad file (not a picture) and a bad folder (a file where a profile goes), each named
    with a newline and codes: the error is the one line, the name in it whole, as text."""
    picture, profile = named(tmp_path, ".png"), named(tmp_path, "profile")
    picture.write_text("not a picture")
    profile.write_text("a file")
    for args, says in ((["daily-set", "classify", str(picture)], "is not an image"),
                       (["puzlogic", "--profile", str(profile)], "not a folder")):
        done = run_webbot(*args)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and not OBEYED.search(done.stderr), done.stderr
        assert done.stderr.startswith("webbot: error: ") and says in done.stderr
        assert PICTURED in done.stderr
