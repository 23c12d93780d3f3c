"""Numbers a page writes (its cards' names and links, its messages and alerts) are parsed with
bounds: a card numbered 99 or with 5,000 digits, a count of sets found hundreds of digits long,
end the run in one clean line, exit 1, never in Python's own ValueError ("Exceeds the limit
(4300 digits)")."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import run_webbot
from tests.hostile.conftest import OBEYED
from webbot.bounded import OutOfBounds, whole_number
from webbot.daily_set.answers import PageAnswers
from webbot.daily_set.places import _in_window
from webbot.server import FixtureServer
from webbot.stream import frames_begun

CURRENT = Path("daily-set/set/puzzle/index.html")
OLD = Path("daily-set/puzzle/set.htm")
HUGE = "9" * 5000


def one_clean_line(done) -> str:
    """The run's one line, after "webbot: error: "; exit 1, nothing else on stderr."""
    output = done.stdout + done.stderr
    assert not OBEYED.search(output) and "Traceback" not in output, output[-2000:]
    assert "ValueError" not in output and "Exceeds the limit" not in output
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("webbot: error: ")
    return line.removeprefix("webbot: error: ")


def changed(copy: Path, page: Path, old: str, new: str) -> None:
    text = (copy / page).read_text()
    assert text.count(old) == 1
    (copy / page).write_text(text.replace(old, new))


@pytest.mark.parametrize("name, shown", [("card99", "99"), (f"card{HUGE}", "9" * 23 + "…")],
                         ids=["card99", "card+5000-digits"])
def test_a_card_numbered_out_of_bounds_is_one_line(daily_set_copy, name, shown):
    changed(daily_set_copy, CURRENT, 'name="card5"', f'name="{name}"')
    with FixtureServer(daily_set_copy) as server:
        done = run_webbot("daily-set", "read", f"{server.url}{CURRENT}")
    line = one_clean_line(done)
    assert line == (f"{server.url}{CURRENT}: the number in a card's name: expected a whole "
                    f"number from 1 to 12, got {shown}")


def test_a_page_whose_card_is_numbered_with_5000_digits_is_not_played(daily_set_copy):
    """In the browser the page is not taken for a Daily SET: the run ends as for a page
    without the game."""
    changed(daily_set_copy, CURRENT, 'name="card5"', f'name="card{HUGE}"')
    with FixtureServer(daily_set_copy) as server:
        done = run_webbot("daily-set", "--url", f"{server.url}{CURRENT}", "--find-timeout", "4",
                          timeout=240)
    assert "the Daily SET puzzle" in one_clean_line(done)


def test_a_count_of_sets_hundreds_of_digits_long_is_one_line(daily_set_copy):
    """The page's message box says a set was found, with a count of 250 digits."""
    script = ("<script>SetBoard.prototype.say = (function (say) { return function () { "
              "say.call(this, 'GREAT! ' + '9'.repeat(250) + ' Sets Found'); }; })"
              "(SetBoard.prototype.say);</script>")
    changed(daily_set_copy, CURRENT, '<script src="../../javascript/PuzzleGenerator.js">',
            script + '<script src="../../javascript/PuzzleGenerator.js">')
    with FixtureServer(daily_set_copy) as server:
        done = run_webbot("daily-set", "--url", f"{server.url}{CURRENT}", timeout=240)
    assert one_clean_line(done).startswith("the page says how many sets are found: expected a "
                                           f"whole number from 0 to 6, got {'9' * 23}… (")


def test_an_alert_of_sets_left_hundreds_of_digits_long_is_one_line(daily_set_copy):
    """The old layout's alert says every set was found before, with a count of 250 digits of
    sets still to find; the page's title becomes 5,000 digits (it is not read as a number)."""
    script = ("<SCRIPT>SetBoard.prototype.say = function () { document.title = '9'.repeat(5000);"
              " alert('You already found that one!\\nStill have ' + '9'.repeat(250) + "
              "' to find'); };</SCRIPT>")
    changed(daily_set_copy, OLD, '<SCRIPT language="JavaScript" src="../javascript/SetBoard.js">'
            ' </SCRIPT>', '<SCRIPT language="JavaScript" src="../javascript/SetBoard.js">'
            ' </SCRIPT>' + script)
    with FixtureServer(daily_set_copy) as server:
        done = run_webbot("daily-set", "--url", f"{server.url}{OLD}", timeout=240)
    assert one_clean_line(done).startswith("the page says how many sets are left to find: "
                                           "expected a whole number from 0 to 6, got "
                                           f"{'9' * 23}… (")


@pytest.mark.parametrize("text, low, high, got", [
    ("12", 1, 12, 12), ("012", 1, 12, 12), ("0", 0, 6, 0),
    ("13", 1, 12, "got 13"), ("0", 1, 12, "got 0"), ("", 0, 6, "got ''"),
    (HUGE, 0, 6, "got " + "9" * 23 + "…"), ("0" * 19 + "1", 0, 6, "got " + "0" * 19 + "1"),
    ("\u0663", 0, 6, "got '\u0663'"),  # an Arabic-Indic 3, which int() would take
    ("-1", -5, 6, "got '-1'"), (" 3", 0, 6, "got ' 3'"), ("3\x1b[2J", 0, 6, "got '3\\x1b[2J'"),
])
def test_a_number_is_a_few_digits_within_bounds(text, low, high, got):
    if isinstance(got, int):
        assert whole_number(text, low, high, "x") == got
        return
    with pytest.raises(OutOfBounds) as refused:
        whole_number(text, low, high, "the page's count")
    assert str(refused.value) == (f"the page's count: expected a whole number from {low} to "
                                  f"{high}, {got}")


def test_what_a_page_s_script_answers_is_taken_only_when_it_is_what_was_asked(page):
    """The bot's scripts run in the page's world, whose functions the page can redefine: a
    time that is not a number, a card's middle that is not a point in the window, are not
    used (the bot falls back on its own clock, on finding the card its longer way)."""
    page.set_content("<div id=game style='width:200px;height:100px'></div>")
    page.evaluate("Date.now = () => 'soon'")
    before = time.time()
    assert before <= frames_begun(page.locator("#game")) <= time.time()
    window = {"width": 1280, "height": 720}
    assert _in_window([10, 20.5], window) == (10, 20.5)
    for middle in ([1e308, 5], [float("nan"), 5], ["10", 20], [True, 1], [10], None, {"x": 1},
                   [-1, 5], [10, 721]):
        assert _in_window(middle, window) is None, middle


def test_what_the_page_said_is_taken_only_as_a_list_of_texts(page):
    """take_messages.js runs in the page's world: a page that makes it answer something else
    than a list of texts (here a number, then a list of other things) is heard saying nothing,
    or saying those things as text."""
    page.set_content("<div class=set-messages></div>")
    answers = PageAnswers(page.main_frame)
    fake = "answer => { Array.isArray = () => true; window.__webbotSaid = {splice: () => " \
           "({slice: () => ({map: () => answer})})}; }"
    page.evaluate(fake, 5)
    assert answers._messages() == []
    page.evaluate(fake, [7, None, True])
    assert answers._messages() == ["7", "None", "True"]
