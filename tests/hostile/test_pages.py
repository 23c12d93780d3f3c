"""Pages that misbehave around the bundled games: each is played, or the run ends with one
clean line, within a bounded time, the bot's processes under 1 GB; neither the output nor the
report carries what the page injected."""

from __future__ import annotations

import resource
from urllib.parse import quote

import pytest

from tests.conftest import run_webbot
from tests.hostile.conftest import OBEYED
from webbot.server import FixtureServer

GIB = 1 << 30



def _ran_clean(done, *, played: bool | None) -> None:
    """`played`: the run ended well (True), in one clean line (False), or either (None)."""
    output = done.stdout + done.stderr
    assert not OBEYED.search(output), repr(output[-2000:])
    assert "Traceback" not in output
    if played is None:
        played = done.returncode == 0
    if played:
        assert done.returncode == 0, done.stderr
    else:
        assert done.returncode == 1
        [line] = done.stderr.strip().splitlines()
        assert line.startswith("webbot: error: ")
    # The largest process the run started (the bot's own, or a browser's) stayed under 1 GB
    # (a fresh process's: a forked one is reaped by the fork server).
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 < GIB


@pytest.mark.parametrize("page, played, find_timeout", [
    # Alerts, confirms and prompts every 20 ms and a beforeunload: played, or on a starved
    # machine (the top page's renderer blocked in its dialogs most of the time) one line.
    ("storm.html", None, "10"),
    # 200,000 elements, 20,000 canvases, a title of a million characters: its load alone took
    # over 10 s on a busy CI machine, and --find-timeout bounds the load too.
    ("huge.html", True, "60"),
    # elementFromPoint, getComputedStyle, querySelector... redefined: where the game is not to
    # be found, the search is not waited out for long.
    ("dom.html", False, "4"),
])
def test_a_misbehaving_page_around_puzlogic(hostile_url, fixtures_url, page, played,
                                            find_timeout):
    game = quote(f"{fixtures_url}puzlogic/index.html", safe="")
    done = run_webbot("puzlogic", "--levels", "1", "--find-timeout", find_timeout,
                      "--url", f"{hostile_url}{page}?game={game}", timeout=240, fresh=True)
    _ran_clean(done, played=played)
    if done.returncode == 0:
        assert "1 of 1 level completed" in done.stdout


def test_daily_set_messages_are_shown_as_text(daily_set_copy):
    page = daily_set_copy / "daily-set" / "set" / "puzzle" / "index.html"
    hostile = ("<script>const say = SetBoard.prototype.say; SetBoard.prototype.say = "
               "function (m) { say.call(this, m + ' [/x] [link=javascript:alert(1)]x[/link] "
               "\\x1b]0;PWNED\\x07\\x1b[2J'); };</script>")
    page.write_text(page.read_text().replace('<script src="../../javascript/PuzzleGenerator.js">',
                                             hostile + '<script src="../../javascript/'
                                             'PuzzleGenerator.js">'))
    with FixtureServer(daily_set_copy) as server:
        done = run_webbot("daily-set", "--url", f"{server.url}daily-set/set/puzzle/index.html",
                          timeout=240, env={"COLUMNS": "2000"}, fresh=True)
    _ran_clean(done, played=True)
    assert "[/x] [link=javascript:alert(1)]x[/link] ␛]0;PWNED␇␛[2J" in done.stdout


@pytest.mark.parametrize("source", ["file:///etc/passwd", "http://127.0.0.2:9/60.png"])
def test_a_card_image_elsewhere_than_the_page_s_site_is_refused(daily_set_copy, source):
    page = daily_set_copy / "daily-set" / "set" / "puzzle" / "index.html"
    text = page.read_text()
    assert 'name="card5" src="../../images/setcards/new/51.png"' in text
    page.write_text(text.replace('name="card5" src="../../images/setcards/new/51.png"',
                                 f'name="card5" src="{source}"'))
    with FixtureServer(daily_set_copy) as server:
        done = run_webbot("daily-set", "--url", f"{server.url}daily-set/set/puzzle/index.html",
                          "--find-timeout", "10", timeout=240, fresh=True)
    _ran_clean(done, played=False)
    assert source in done.stderr
