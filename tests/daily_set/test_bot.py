"""The Daily SET bot end to end: a real fixture server, a real Chromium, the bot reading the
cards from their image files and clicking them with the mouse. Each run is checked against the
page's own view (the replica's test hook, read by the test before the bot starts) and against
where the page went when it was done."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import in_own_thread, run_webbot
from tests.daily_set.conftest import (
    FIXTURES,
    REAL_CARDS,
    REAL_PAGE,
    REAL_SETS,
    needs_reference,
    real_site,
    site_card,
)
from tests.test_cli import closed_port
from tests.test_cli import one_line_error as one_line
from webbot.browser import BrowserOptions
from webbot.daily_set.bot import Outcome, player
from webbot.daily_set.decide import Misread, Observation, next_set, todays_sets
from webbot.errors import WebbotError
from webbot.play import play as run_loop
from webbot.server import FixtureServer
from webbot.session import RunOptions, game_session
from webbot.set_cards.model import Card, Reading
from webbot.set_cards.perceive import CardError

OLD = "daily-set/puzzle/set.htm"
CURRENT = "daily-set/set/puzzle/index.html"
TABLE_2022 = "daily-set/set/puzzle/2022.html"
HOOK = "() => window.__dailySetTest.state()"
DONE = re.compile(r"/daily-set/you_completed_todays_puzzle\.htm\?time=\d+$")


def play(url: str | None, browser: BrowserOptions | None = None, before: str | None = None
         ) -> tuple[Outcome, dict, list[str]]:
    """Run the bot in this process; return its outcome, the page's puzzle and dialogs raised.
    `before`: a script the test runs in the page first."""
    options = RunOptions(url=url, browser=browser or BrowserOptions())

    def run():
        with game_session(options, OLD) as session:
            puzzle = session.page.evaluate(HOOK)
            if before:
                session.page.evaluate(before)
            dialogs: list[str] = []
            session.page.on("dialog", lambda d: dialogs.append(d.message))
            outcome = run_loop(player(session))
            return outcome, puzzle, dialogs

    return in_own_thread(run)


def assert_all_found(outcome: Outcome, puzzle: dict, done: re.Pattern = DONE) -> None:
    assert sorted(list(f.positions) for f in outcome.found) == sorted(puzzle["sets"])
    assert outcome.complete
    assert outcome.completion and done.search(outcome.completion)


def test_the_bundled_page_from_the_command_line():
    done = run_webbot("daily-set")
    assert done.returncode == 0, done.stderr
    assert "6 of 6 sets confirmed" in done.stdout
    assert "GREAT! 6 Sets Found" in done.stdout
    assert re.search(r"Done: the page went on to \S*you_completed_todays_puzzle\.htm\?time=\d+",
                     done.stdout)


def test_the_bundled_page(fixtures_url, monkeypatch):
    # The cards are read from the browser's copy of the images the page loaded (asked of the
    # browser as the game is looked for): none is downloaded a second time.
    from webbot.daily_set.page import ImageFetcher

    downloads: list[str] = []
    fetch = ImageFetcher.fetch_picture
    monkeypatch.setattr(ImageFetcher, "fetch_picture",
                        lambda fetcher, url: downloads.append(url) or fetch(fetcher, url))
    outcome, puzzle, dialogs = play(None)
    assert downloads == []
    assert_all_found(outcome, puzzle)
    assert dialogs == ["GREAT! \n1 Set Found"] + [f"GREAT! \n{k} Sets Found" for k in range(2, 7)]
    assert outcome.layout == "old" and len(outcome.readings) == 12
    assert outcome.read_ahead  # the top page's cards read while the game was looked for
    for found in outcome.found:  # what the bot says it clicked is what the cards show
        assert [str(c) for c in found.cards] == [str(outcome.readings[p - 1].card)
                                                  for p in found.positions]


@pytest.mark.parametrize("seed", [11, 2026])
def test_generated_puzzles(fixtures_url, seed):
    outcome, puzzle, _ = play(f"{fixtures_url}{OLD}?seed={seed}")
    assert_all_found(outcome, puzzle)


def test_the_current_layout_with_its_consent_popup(fixtures_url):
    # "GREAT!" for each set (the same words six times, each cleared a moment later), the
    # eu_cookie_compliance popup a second after load, the title saying the puzzle is done.
    outcome, puzzle, dialogs = play(f"{fixtures_url}{CURRENT}?seed=5")
    assert_all_found(outcome, puzzle, re.compile(r"title became 'You completed today's puzzle'"))
    assert outcome.layout == "current" and dialogs == [] and outcome.read_ahead
    assert [f.message for f in outcome.found] == ["GREAT!"] * 6


# The test's own doing: the consent popup opens on the bot's n-th press of a card, between the
# press and its release, so the click is lost; the consent engine then declines the popup.
POPUP_ON_PRESS = """n => {
  let presses = 0;
  document.addEventListener('mousedown', event => {
    if (event.target.closest('.set-board') && ++presses === n)
      Consent.show('eu', 0, window.__consentTest);
  }, true);
}"""


@pytest.mark.parametrize("press", [1, 3])
def test_a_click_a_popup_took_is_clicked_again(fixtures_url, press):
    outcome, puzzle, _ = play(f"{fixtures_url}{CURRENT}?seed=5&consent=none",
                              before=f"({POPUP_ON_PRESS})({press})")
    assert_all_found(outcome, puzzle, re.compile(r"title became 'You completed today's puzzle'"))


def test_the_2022_layout(fixtures_url):
    # 258x167 GIF cards shown at 95x62 in a table; messages in alert boxes.
    outcome, puzzle, dialogs = play(f"{fixtures_url}{TABLE_2022}?seed=12")
    assert_all_found(outcome, puzzle)
    assert outcome.layout == "2022" and len(dialogs) == 6


def test_a_small_window_scrolls_to_the_cards(fixtures_url):
    outcome, puzzle, _ = play(f"{fixtures_url}{OLD}?seed=8", BrowserOptions(viewport=(420, 260)))
    assert_all_found(outcome, puzzle)


@needs_reference
def test_the_real_saved_page_with_the_real_cards(tmp_path):
    with FixtureServer(real_site(tmp_path)) as server:
        done = run_webbot("daily-set", "--url", f"{server.url}puzzle/{REAL_PAGE}")
    assert done.returncode == 0, done.stderr
    assert "6 of 6 sets confirmed" in done.stdout
    clicked = re.findall(r"set \d: cards (\d+), (\d+), (\d+) -> GREAT!", done.stdout)
    assert sorted([int(p) for p in triple] for triple in clicked) == REAL_SETS
    # the real page's gameOver() sends the player to setgame.com, unreachable here
    assert "http://www.setgame.com/you_completed_todays_puzzle?time=" in done.stdout


# --- pages the bot must not play on a guess ----------------------------------------------------

def site_with(tmp_path: Path, change, file: str = "puzzle/set.htm") -> str:
    """A copy of the replica with one file changed by `change(text) -> text`."""
    site = tmp_path / "site"
    shutil.copytree(FIXTURES, site / "daily-set")
    changed = site / "daily-set" / file
    text = changed.read_text()
    assert change(text) != text
    changed.write_text(change(text))
    return str(site)


def shown_card(html: str, position: int, number: int) -> str:
    """The page with another card's picture at `position` (its JS still knows the old one)."""
    link = f'<a href="javascript:board.cardClicked({position})"'
    start = html.index(link)
    return html[:start] + re.sub(r"small/\d\d\.gif", f"small/{number:02d}.gif",
                                 html[start:], count=1)


def play_fails(site: str, error: type[Exception]) -> tuple[str, dict]:
    def run():
        with FixtureServer(Path(site)) as server, \
                game_session(RunOptions(url=server.url + OLD), OLD) as session:
            with pytest.raises(error) as failure:
                run_loop(player(session))
            return str(failure.value), session.page.evaluate(HOOK)

    return in_own_thread(run)


def test_a_picture_that_breaks_the_six_sets_stops_the_bot_before_any_click(tmp_path):
    # Card 12 of the bundled puzzle shown as another card: the sets no longer number 6.
    message, page = play_fails(site_with(tmp_path, lambda h: shown_card(h, 12, 81)), Misread)
    assert re.match(r"found \d+ sets where the puzzle has 6; least certain: card \d+ as ", message)
    assert message.endswith("nothing clicked")
    assert page["messages"] == [] and page["checked"] == []


def test_two_cards_read_alike_stop_the_bot(tmp_path):
    message, page = play_fails(site_with(tmp_path, lambda h: shown_card(h, 2, 32)), Misread)
    assert message.startswith("cards 1 and 2 both read as 2 purple striped squiggles")
    assert page["messages"] == []


def test_the_page_saying_not_a_set_stops_the_bot(tmp_path):
    # The pictures are the bundled puzzle's but the page judges another one's sets.
    def other_answers(html: str) -> str:
        return re.sub(r"board\.initSets\([^)]*\)",
                      "board.initSets(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 5, 9, 2, 6, 10)",
                      html, count=1)

    message, page = play_fails(site_with(tmp_path, other_answers), Misread)
    assert message.startswith("the page says cards 1, 2, 11 are not a set (NOT A SET!")
    assert "least certain: card" in message
    assert len(page["messages"]) == 1 and page["found"] == []


def test_a_page_whose_count_does_not_go_up_is_not_believed(tmp_path):
    def stuck_count(script: str) -> str:
        return script.replace('(k == 1 ? "1 Set Found" : k + " Sets Found")', '"1 Set Found"')

    message, page = play_fails(site_with(tmp_path, stuck_count, "javascript/SetBoard.js"),
                               WebbotError)
    assert re.fullmatch(r"after cards \d+, \d+, \d+, set 2 for the bot, the page says: "
                        r"'GREAT! 1 Set Found'", message)
    assert len(page["found"]) == 2


def test_the_policy_clicks_todays_sets_in_turn_then_stops():
    # REAL_CARDS (the real page's puzzle, in positions 1-12) as the bot would read them, sure
    readings = tuple(Reading(site_card(n), 0.1, "fill") for n in REAL_CARDS)
    seen, clicked = Observation(readings), []
    while (triple := next_set(seen)) is not None:  # no browser: the policy is pure
        clicked.append(triple)
        seen = Observation(readings, (*seen.clicked, triple))
    assert [[i + 1 for i in t] for t in clicked] == REAL_SETS
    with pytest.raises(Misread):  # a board with a card read twice is never acted on
        next_set(Observation(readings[:11] + readings[:1]))


def test_a_card_too_doubtful_to_act_on():
    sure = Reading(Card(1, "oval", "red", "solid"), 0.1, "fill")
    unsure = Reading(Card(2, "oval", "red", "solid"), 0.93, "count")
    with pytest.raises(Misread, match="^card 2 reads as 2 red solid ovals, but unsure of its "
                                      "count; nothing clicked$"):
        todays_sets([sure, unsure] + [sure] * 10)


def test_a_card_that_is_not_a_card(tmp_path):
    def blank_card(html: str) -> str:
        return shown_card(html, 5, 1).replace("small/01.gif", "small/empty_card.gif")

    message, _ = play_fails(site_with(tmp_path, blank_card), CardError)
    assert re.fullmatch(r"card 5 \(http://.*/empty_card\.gif\): no coloured shape on the card",
                        message)


@pytest.mark.parametrize(("url", "reason"), [
    ("index.html", "shows the Daily SET puzzle after 3 s; looked in 1 frame (the top page): "
                   "no displayed"),
    ("daily-set/none.htm", "HTTP 404"),
])
def test_pages_without_a_puzzle(fixtures_url, url, reason):
    done = run_webbot("daily-set", "--url", fixtures_url + url, "--find-timeout", "3")
    assert done.returncode == 1 and reason in one_line(done)


def test_a_dead_server():
    done = run_webbot("daily-set", "--url", f"http://127.0.0.1:{closed_port()}/set.htm")
    assert done.returncode == 1 and "connection refused" in one_line(done)


def test_what_the_bot_saw_is_kept(tmp_path):
    done = run_webbot("daily-set", "--debug-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    saved = sorted(p.name for p in tmp_path.iterdir())
    assert saved == [".webbot", "0001-found-the-game-annotated.png", "0002-cards.png",
                     "0003-cards-annotated.png", "trace.zip"]  # (.webbot: the folder's mark)


def test_a_misread_leaves_the_cards_it_saw(tmp_path, short_tmp):
    site = site_with(tmp_path, lambda h: shown_card(h, 12, 81))
    with FixtureServer(Path(site)) as server:
        done = run_webbot("daily-set", "--url", server.url + OLD,
                          env={"TMPDIR": str(short_tmp)})
    line = one_line(done)
    assert done.returncode == 1 and "nothing clicked" in line
    [folder] = short_tmp.glob("webbot-failure-*")
    assert str(folder) in line and (folder / "last-frame.png").stat().st_size > 0

