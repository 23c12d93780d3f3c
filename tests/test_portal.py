"""The games where they really live: a portal page whose game sits two cross-site frames deep
(127.0.0.1 -> localhost -> 127.0.0.1), behind a consent dialog and maybe a preroll, after a
chat sidebar with a canvas of its own, pushed down by a late banner. Outcomes are checked
through the fixtures' test hooks; the bot never reads them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.conftest import PAGES, in_own_thread, run_webbot, sweep
from webbot import answer
from webbot.browser import BrowserOptions
from webbot.burrito_bison.bot import BurritoBot, game_spec
from webbot.burrito_bison.bot import player as burrito_player
from webbot.burrito_bison.matching import TemplatePack
from webbot.daily_set.bot import player as daily_set_player
from webbot.errors import WebbotError
from webbot.files import InputError
from webbot.finder import NoGameFound, frame_selector
from webbot.play import play
from webbot.puzlogic.bot import GAME as PUZLOGIC
from webbot.puzlogic.bot import player as puzlogic_player
from webbot.server import FixtureServer
from webbot.session import RunOptions, game_session
from webbot.tabs import open_page

PORTAL = "portal/index.html"


def hooked(page: Page, hook: str):
    """The frame whose page has the test hook `hook` (the game's, two frames down)."""
    for frame in page.frames:
        if frame.evaluate(f"typeof window.{hook}") != "undefined":
            return frame
    raise AssertionError(f"no frame has {hook}")


def portal(session_page: Page) -> dict:
    return session_page.evaluate("window.__portalTest")


def run(url: str, body, viewport=(1280, 800), dpr: float = 1, find_timeout_s: float = 45,
        selector: str | None = None):
    options = RunOptions(url=url, browser=BrowserOptions(viewport=viewport,
                                                         device_scale_factor=dpr),
                         game_selector=selector, find_timeout_s=find_timeout_s)

    def go():
        with game_session(options, PORTAL) as session:
            return body(session)

    return in_own_thread(go)


@pytest.mark.parametrize("dpr", [1, 2])
def test_puzlogic_plays_below_the_fold_past_preroll_banner_and_consent(fixtures_url, reader,
                                                                       dpr):
    # 1024x640: the game starts below the fold; the banner comes during the level.
    url = f"{fixtures_url}{PORTAL}?game=puzlogic&consent=onetrust&preroll=1&banner=2"

    def body(session):
        results = play(puzlogic_player(session, [1], reader=reader, report=said.append))
        game = hooked(session.page, "__puzlogicTest").evaluate("__puzlogicTest.state()")
        return [r.result for r in results], game, portal(session.page)

    said: list[str] = []
    results, game, hook = run(url, body, viewport=(1024, 640), dpr=dpr)
    # What it did on the way is told (consent by the library, or by the bot's own list after
    # it; the preroll's Skip maybe first, while the library works).
    consent = [line for line in said if line.startswith("consent: ")]
    assert len(consent) == 1 and "onetrust" in consent[0].lower() and ", declined (" in consent[0]
    steps = [line for line in said if not line.startswith("looking for ")]  # (a slow find)
    assert any(line.startswith("pressed 'Skip Ad") for line in steps[:2])
    assert results == ["completed"] and game["finished"] == [1]
    assert hook == {**hook, "consent": "declined", "preroll": "skipped", "banner": True,
                    "swallowedClicks": 0}


def test_a_fixed_button_below_the_window_two_cross_site_frames_deep_is_scrolled_into_view(
        fixtures_url):
    # The game page's own cookie popup is fixed to the bottom of its frame, which reaches
    # below the window. The headless shell carries no scroll from such an element on to the
    # page around its frame (Chromium does): the bot scrolls the frames around it itself.
    url = f"{fixtures_url}{PORTAL}?game=daily-set&consent=none&banner=0&seed=4"

    def where_the_button_is() -> tuple[dict, dict]:
        with open_page(BrowserOptions(viewport=(1024, 640))) as page:
            page.goto(url)
            game = next(frame for frame in page.frames if "/set/puzzle/" in frame.url)
            button = game.wait_for_selector("#sliding-popup .decline-button")
            before = answer.box(button)
            answer.scroll_into_view(button, 5)
            return before, answer.box(button)

    before, after = in_own_thread(where_the_button_is)
    assert before["y"] + before["height"] > 640  # below the window at first
    assert after["y"] >= 0 and after["y"] + after["height"] <= 640


def test_daily_set_completes_in_the_portal_and_answers_its_own_popup(fixtures_url):
    url = f"{fixtures_url}{PORTAL}?game=daily-set&consent=cookiebot&preroll=3&banner=1&seed=4"

    def body(session):
        outcome = play(daily_set_player(session))
        game = hooked(session.page, "__dailySetTest")
        return outcome, game.evaluate("__dailySetTest.state()"), \
            game.evaluate("window.__consentTest"), portal(session.page)

    outcome, puzzle, own, hook = run(url, body, viewport=(1024, 640))
    assert outcome.complete and sorted(puzzle["found"]) == sorted(puzzle["sets"])
    assert not outcome.read_ahead  # the portal's own page holds no board: read once found
    assert "You completed today's puzzle" in (outcome.completion or "")
    assert hook["consent"] == "declined" and hook["preroll"] == "skipped"
    assert own["consent"] == "declined"  # the game page's own eu_cookie_compliance popup


@pytest.mark.full  # (CI: Burrito Bison is seen and clicked in the portal below)
def test_burrito_bison_plays_a_round_in_the_portal(fixtures_url):
    # A whole round at the smallest real size; every real size is seen and clicked below, and
    # the soak plays whole games at all four.
    url = (f"{fixtures_url}{PORTAL}?game=burrito-bison&consent=didomi&preroll=1&banner=2"
           "&size=1120x540&seed=3&flight=0.25")

    def body(session):
        rounds = play(burrito_player(session, 1, shop=False))
        game = hooked(session.page, "__burritoTest").evaluate("__burritoTest.state()")
        return rounds, game, portal(session.page)

    rounds, game, hook = run(url, body, viewport=(1280, 900))
    assert len(rounds) == 1 and len(game["rounds"]) == 1
    assert hook["consent"] == "declined" and hook["preroll"] == "skipped"


@pytest.mark.parametrize("size", sweep(["1173x660", "1146x644", "1280x768", "1120x540"],
                                       {"1120x540"}.__contains__))  # (CI: the smallest)
def test_burrito_bison_is_seen_and_clicked_at_each_real_size(fixtures_url, size):
    url = (f"{fixtures_url}{PORTAL}?game=burrito-bison&consent=none&banner=0&size={size}"
           "&scene=results")

    def body(session):
        bot = BurritoBot(session, TemplatePack(), report=lambda line: None)
        game = hooked(session.page, "__burritoTest")
        game.wait_for_function("!__burritoTest.state().transitioning")
        look = bot.reset()
        bot.hands.click(look.grab, look.sighting.targets["shop"])  # a button, not anywhere
        game.wait_for_function("__burritoTest.state().screen === 'shop'", timeout=10_000)
        return look.sighting.screen, look.grab.box

    screen, box = run(url, body, viewport=(1400, 900))
    assert screen == "results" and f"{box.width:.0f}x{box.height:.0f}" == size


def test_the_game_selector_names_the_element_through_the_frames(fixtures_url):
    url = f"{fixtures_url}{PORTAL}?game=puzlogic&consent=eu&banner=0"

    def body(session):
        found = session.find_game(PUZLOGIC)
        return found.candidate.where, found.cleared

    where, done = run(url, body, selector="iframe#gameiframe >>> iframe >>> canvas#game")
    assert where.startswith("canvas#game 800x600 in frame ") and "/puzlogic/index.html" in where
    assert len(done) == 1 and ", declined (" in done[0]


def test_a_game_selector_that_matches_nothing_is_told(fixtures_url):
    url = f"{fixtures_url}{PORTAL}?game=puzlogic&consent=none&banner=0"
    done = run_webbot("puzlogic", "--url", url, "--find-timeout", "6",
                      "--game-selector", "iframe#gameiframe >>> canvas#game")
    assert done.returncode == 1
    assert "looked in 3 frames" in done.stderr
    assert "no displayed 'iframe#gameiframe >>> canvas#game'" in done.stderr


def test_frame_selectors():
    assert frame_selector("iframe#gameiframe >>> iframe >>> canvas") == (
        "iframe#gameiframe >> internal:control=enter-frame >> iframe >> "
        "internal:control=enter-frame >> canvas")
    assert frame_selector("canvas#game") == "canvas#game"
    with pytest.raises(InputError, match="empty step"):
        frame_selector("iframe >>> >>> canvas")
    # Malformed CSS is a usage error before anything starts; Playwright's own is let through.
    for malformed in ("canvas[[", "iframe#x >>> div >"):
        with pytest.raises(InputError, match="not a CSS selector"):
            frame_selector(malformed)
    for playwrights in ("canvas:visible", "text=Play", "div >> canvas", 'a:has-text("x")'):
        assert frame_selector(playwrights) == playwrights


def test_a_selector_only_playwright_finds_wrong_is_a_usage_error(fixtures_url):
    done = run_webbot("puzlogic", "--url", f"{fixtures_url}puzlogic/index.html",
                      "--game-selector", "foo=bar", "--find-timeout", "3")
    assert done.returncode == 2
    # (the call's name no longer heads Playwright's message: it is asked through webbot.answer)
    assert 'Playwright cannot read it (Unknown engine "foo"' in done.stderr
    assert done.stderr.strip().count("\n") == 0


# --- clear failures ----------------------------------------------------------------------------

def test_a_page_without_the_game_says_what_was_looked_at_and_keeps_the_page(fixtures_url,
                                                                           tmp_path):
    url = f"{fixtures_url}{PORTAL}?game=daily-set&banner=0"
    # Long enough for the three frames to load on a busy machine.
    options = RunOptions(url=url, debug_dir=tmp_path / "debug", find_timeout_s=8)

    def go():
        with game_session(options, PORTAL) as session:
            session.find_game(PUZLOGIC)

    with pytest.raises(NoGameFound) as failure:
        in_own_thread(go)
    message = str(failure.value)
    assert "shows Puzlogic" in message and "looked in 3 frames" in message
    assert "canvas#chat_avatars 300x240 in the top page: not Puzlogic" in message
    assert "\n" not in message
    assert (tmp_path / "debug" / "failure" / "page.png").stat().st_size > 1000


def test_a_game_larger_than_the_window_is_told(fixtures_url):
    url = f"{fixtures_url}{PORTAL}?game=burrito-bison&banner=0"

    def body(session):
        with pytest.raises(NoGameFound) as failure:
            session.find_game(game_spec(TemplatePack()))
        return str(failure.value)

    message = run(url, body, viewport=(1024, 640), find_timeout_s=8)
    assert "canvas#game 1173x660" in message
    assert "larger than the 1024x640 window (give --viewport 1213x700 or larger)" in message


def test_a_dialog_that_will_not_close_is_a_clear_failure():
    with FixtureServer(PAGES) as server:
        url = server.url + "stuck-consent.html"

        def go():
            with game_session(RunOptions(url=url, find_timeout_s=8), "") as session:
                session.find_game(PUZLOGIC)

        with pytest.raises(WebbotError) as failure:
            in_own_thread(go)
    # Every link tried, and said: what covers the game, what the library found, what the
    # bot pressed.
    message = str(failure.value)
    assert "covered by div" in message and "tried autoconsent " in message
    assert "the bot's own buttons: 'Reject All' on OneTrust (did not close)" in message
    assert "\n" not in message
