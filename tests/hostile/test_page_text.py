"""Page text is data, never markup: every place that shows a string a page chose (a cover's id,
classes and words, a button's label, the page's address, a frame's label, a failure's reason)
prints it as text, with its control codes shown and not obeyed, and cut to a bounded length;
the report escapes all it embeds and runs no script."""

from __future__ import annotations

import io
import re
import shutil
import threading
from html.parser import HTMLParser
from urllib.parse import quote

import numpy as np
import pytest
from rich.table import Table

from tests.conftest import run_webbot
from tests.hostile.conftest import OBEYED
from webbot import folders
from webbot.debug import Recorder
from webbot.report import RunReport
from webbot.screen import Box, Grab
from webbot.shown import MAX_SHOWN, TextConsole, shown

ESC, BEL = "\x1b", "\x07"
HOSTILE = [
    "[/x]",
    '[link="javascript:alert(1)"]click[/link]',
    "div.data-[state=open]:animate-in",
    "div.[mask-type:luminance]",
    ":smile: [bold red]loud[/]",
    "<img/src=x/onerror=alert(1)>",
    f"{ESC}]0;PWNED{BEL}{ESC}[2J",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_page_string_is_shown_as_it_is_but_its_control_codes(text):
    safe = shown(text)
    assert not OBEYED.search(safe)
    assert safe == text.replace(ESC, "␛").replace(BEL, "␇")


def test_a_page_string_is_one_bounded_line():
    assert shown("a\n\twebbot: error: forged\r\n") == "a webbot: error: forged"
    long = shown("T" * 200_000)
    assert len(long) == MAX_SHOWN and long.endswith("…")
    assert shown("\x9b2J\u202edesrever\x7f") == "\ufffd2J\ufffddesrever\u2421"
    assert shown("two\nlines\tand a tab\r", limit=None) == "two\nlines\tand a tab␍"


def test_the_console_prints_markup_and_control_codes_as_text():
    console = TextConsole(file=io.StringIO(), width=400, color_system=None)
    for text in HOSTILE:
        console.print(f"pressed 'Close' on {text}")
    table = Table("what", "page said")
    table.add_row("1", "[/x] [link=x]y[/link] " + ESC + "[2J")
    console.print(table)
    printed = console.file.getvalue()
    assert not OBEYED.search(printed)
    for text in HOSTILE:
        assert f"pressed 'Close' on {shown(text)}" in printed
    assert "[/x] [link=x]y[/link] ␛[2J" in printed
    assert "😄" not in printed  # an emoji code stays words


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_the_report_escapes_what_it_embeds_and_allows_no_script(tmp_path):
    report = RunReport(tmp_path / "r.html")
    image = np.zeros((20, 20, 3), np.uint8)
    report.frame("<img src=x onerror=alert(1)>" + ESC + "[2J", image)
    report.write('webbot puzlogic --url "http://x/<script>alert(1)</script>"',
                 "\n".join(HOSTILE), "covered by <img/src=x/onerror=alert(1)>")
    page = report.path.read_text()
    parser = _Tags()
    parser.feed(page)
    assert not [t for t, _ in parser.tags if t in ("script", "a", "iframe", "object")]
    assert all(attrs["src"].startswith("data:image/png;base64,")
               for tag, attrs in parser.tags if tag == "img")
    assert not any(name.startswith("on") for _, attrs in parser.tags for name in attrs)
    [policy] = [a["content"] for t, a in parser.tags
                if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy
    assert ESC not in page and BEL not in page
    assert "&lt;img/src=x/onerror=alert(1)&gt;" in page


def test_a_frame_named_by_a_long_page_string_is_written_under_a_short_name(tmp_path):
    recorder = Recorder(tmp_path)
    grab = Grab(np.zeros((20, 20, 3), np.uint8), Box(0, 0, 20, 20))
    recorder.keep(grab, "covered by div#" + "[/x]/../" * 5000 + ESC)
    recorder.close()  # (frames are written by a thread of their own)
    [written] = tmp_path.glob("*.png")
    assert len(written.name) < 100 and re.fullmatch(r"[A-Za-z0-9_.-]+", written.name)


def test_a_frame_that_cannot_be_written_is_said_once(tmp_path):
    said: list[str] = []
    recorder = Recorder(tmp_path / "debug", warn=said.append)
    shutil.rmtree(tmp_path / "debug")  # the folder gone under the run
    grab = Grab(np.zeros((20, 20, 3), np.uint8), Box(0, 0, 20, 20))
    for label in ("one", "two", "three"):
        recorder.keep(grab, label)
    recorder.close()  # (frames are written by a thread of their own)
    assert len(said) == 1 and "cannot write the frame" in said[0] and "0001-one" in said[0]



def _clean(output: str) -> None:
    assert not OBEYED.search(output), repr(output[:2000])
    assert "Traceback" not in output and "MarkupError" not in output


def test_a_hostile_cover_is_closed_and_its_strings_printed_as_text(hostile_url, fixtures_url,
                                                                   tmp_path, page):
    game = quote(f"{fixtures_url}puzlogic/index.html", safe="")
    report = tmp_path / "report.html"
    done = run_webbot("puzlogic", "--levels", "1", "--url",
                      f"{hostile_url}text-cover.html?game={game}", "--report", str(report),
                      "--debug-dir", str(tmp_path / "debug"), timeout=240,
                      env={"COLUMNS": "2000"})  # a line each, unwrapped
    _clean(done.stdout + done.stderr)
    assert done.returncode == 0, done.stderr
    [pressed] = [line for line in done.stdout.splitlines() if line.startswith("pressed 'Close'")]
    assert "div#[/x][link=\"javascript:alert(1)\"]<img/src=x/onerror=alert(1)>␛]0;PWNED␇␛[2J" \
           ".data-[state=open]:animate-in.[mask-type:luminance]" in pressed
    assert "[bold]now[/bold] ␛[31mred webbot: error: forged line" in pressed
    assert all(len(p.name) < 120 for p in (tmp_path / "debug").iterdir())
    # The report, opened in Chromium: the line as text, nothing the page wrote runs there.
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(report.as_uri())
    assert "[/x][link=\"javascript:alert(1)\"]<img/src=x/onerror=alert(1)>" in \
        page.inner_text("body")
    assert page.locator("a, script, iframe, img:not([src^='data:'])").count() == 0
    assert not dialogs


def test_a_hostile_cover_that_stays_ends_the_run_in_one_clean_line(hostile_url, fixtures_url,
                                                                    short_tmp):
    game = quote(f"{fixtures_url}puzlogic/index.html", safe="")
    done = run_webbot("puzlogic", "--levels", "1", "--find-timeout", "3", "--url",
                      f"{hostile_url}text-cover.html?close=0&game={game}",
                      env={"TMPDIR": str(short_tmp)})
    _clean(done.stdout + done.stderr)
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("webbot: error: no frame of ") and "#[/x]" in line
    assert "covered by div#[/x][link=\"javascript:alert(1)\"]" in line
    [folder] = short_tmp.glob("webbot-failure-*")
    reason = (folder / "reason.txt").read_text()
    _clean(reason)
    assert "covered by div#[/x]" in reason


def test_frames_are_written_off_the_play_loop_and_dropped_not_waited_for(tmp_path,
                                                                           monkeypatch):
    """A disk that does not keep up: the run queues its frames and goes on; past the queue's
    room a frame is dropped and counted, the rest are written at the end, and the run says
    how many it did not keep."""
    from webbot import debug

    disk = threading.Event()  # the disk answers once this is set
    real_write = folders.write_private

    def slow_write(path, data):
        disk.wait(30)
        real_write(path, data)

    said: list[str] = []
    recorder = Recorder(tmp_path / "debug", warn=said.append)
    monkeypatch.setattr(folders, "write_private", slow_write)
    grab = Grab(np.zeros((20, 20, 3), np.uint8), Box(0, 0, 20, 20))
    frames = debug.QUEUE_FRAMES + 10
    for number in range(frames):  # (returns at once: nothing waits on the disk here)
        recorder.keep(grab, f"frame-{number}")
    assert 9 <= recorder.dropped <= 10 and not list((tmp_path / "debug").glob("*.png"))
    dropped = recorder.dropped
    disk.set()
    recorder.close()
    assert len(list((tmp_path / "debug").glob("*.png"))) == frames - dropped
    assert said == [f"{dropped} frames not kept: the folder's writing fell "
                    f"{debug.QUEUE_FRAMES} frames behind the run, which does not wait for it"]
