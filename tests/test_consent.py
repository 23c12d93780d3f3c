"""Past every consent dialog and cover the portal replica draws from real vendors' markup: the
library (DuckDuckGo's autoconsent) first, the bot's own vendors and words after it, or alone
when the library is absent. The three games take turns behind the variants; outcomes are read
from the portal's test hook, which the bot never reads."""

from __future__ import annotations

import re

import pytest

import webbot.consent
from tests.conftest import in_own_thread, run_webbot, sweep
from tests.test_portal import PORTAL, hooked, portal
from webbot.browser import BrowserOptions
from webbot.burrito_bison.bot import BurritoBot
from webbot.burrito_bison.matching import TemplatePack
from webbot.consent import Consent
from webbot.consent.engine import Engine, FrameState, find_library, knows_the_page, rules_for
from webbot.daily_set.bot import player as daily_set_player
from webbot.play import play as run_loop
from webbot.puzlogic.bot import GAME as PUZLOGIC
from webbot.puzlogic.bot import player as puzlogic_player
from webbot.report import RunReport
from webbot.session import RunOptions, game_session

LIBRARY = find_library()
needs_library = pytest.mark.skipif(LIBRARY is None, reason="autoconsent is not installed "
                                                           "(bash scripts/setup.sh)")
# Vendors the library has rules for, with the name it gives them.
BRANDED = {"eu": "eu-cookie-compliance-banner", "onetrust": "Onetrust",
           "cookiebot": "Cybotcookiebot", "didomi": "didomi", "quantcast": "quantcast",
           "funding-choices": "funding-choices", "trustarc": "TrustArc-top",
           "osano": "osano", "klaro": "Klaro", "complianz": "Complianz banner",
           "cookieyes": "cookieyes", "iubenda": "iubenda", "usercentrics": "usercentrics-api",
           "axeptio": "axeptio", "sourcepoint": "Sourcepoint-frame"}
UNBRANDED = ["words-en", "words-fr", "words-de", "words-es", "words-it", "words-nl"]
VARIANTS = [*BRANDED, *UNBRANDED, "accept-only"]
# The games take turns behind the variants. The Daily SET page answers a popup of its own in
# its frame, where the library's rules do not run, so it stands behind unbranded dialogs: a
# vendor's dialog there would wait for the library longer than the test lets it.
DAILY_SET = ("words-en", "words-fr")  # (its frame's popup costs each ~10 s: two suffice)
BURRITO = ("eu", "cookiebot", "quantcast", "osano", "complianz", "iubenda", "axeptio",
           "words-de")


# CI plays one variant of each way in: the library's rules on the page, in a shadow root and in
# a cross-site frame; the bot's own words (German, on Burrito Bison). --full plays every
# variant (French on the Daily SET, a dialog that only accepts, ...).
IN_CI = {"onetrust", "usercentrics", "sourcepoint", "words-de"}


def game_for(kind: str) -> str:
    return ("daily-set" if kind in DAILY_SET else "burrito-bison" if kind in BURRITO
            else "puzlogic")
FAST_BURRITO = "scene=results"


def play(url: str, game: str, reader, viewport=(1280, 900), levels: tuple[int, ...] = (1,),
         report: RunReport | None = None) -> tuple[list[str], dict, bool]:
    """A short game behind the portal at `url`: what the bot said, the portal's hook, and
    whether the game saw the bot's move. What the portal holds back (`consent_delay=held`,
    `cover_at=held`) opens as the first level ends: in the middle of the game."""
    said: list[str] = []
    options = RunOptions(url=url, browser=BrowserOptions(viewport=viewport),
                         find_timeout_s=40, report=report)

    def go():
        with game_session(options, PORTAL) as session:
            if game == "puzlogic":
                def report(line: str) -> None:
                    said.append(line)
                    if line.startswith("level 01:"):  # (the bot's own thread: the page is free)
                        session.page.evaluate("window.__portalTestOpen()")

                results = run_loop(puzlogic_player(session, list(levels), reader=reader,
                                               report=report))
                played = [r.result for r in results] == ["completed"] * len(levels)
            elif game == "daily-set":
                outcome = run_loop(daily_set_player(session, report=said.append))
                played = len(outcome.found) == 6
            else:  # the results screen's shop button pressed: a move the game answers
                bot = BurritoBot(session, TemplatePack(), report=said.append)
                look = bot.reset()
                bot.hands.click(look.grab, look.sighting.targets["shop"])
                hooked(session.page, "__burritoTest").wait_for_function(
                    "__burritoTest.state().screen === 'shop'", timeout=15_000)
                played = True
            return said, portal(session.page), played

    return in_own_thread(go)


def url_for(base: str, game: str, query: str) -> str:
    extra = f"&{FAST_BURRITO}" if game == "burrito-bison" else "&seed=4"
    return f"{base}{PORTAL}?game={game}&banner=0&{query}{extra}"


@pytest.fixture
def library_first(monkeypatch):
    """The bot's own links wait long enough that a dialog the library knows is the library's
    to answer, however busy the machine."""
    monkeypatch.setattr(webbot.consent, "LIBRARY_FIRST_S", 8.0)


@pytest.mark.parametrize("kind", sweep(VARIANTS, IN_CI.__contains__))
def test_every_consent_variant_is_got_past_and_the_game_played(fixtures_url, reader, kind,
                                                               request):
    game = game_for(kind)
    if kind in BRANDED and LIBRARY is not None:
        request.getfixturevalue("library_first")
    said, hook, played = play(url_for(fixtures_url, game, f"consent={kind}"), game, reader)
    answer = "accepted" if kind == "accept-only" else "declined"
    assert played, said
    assert hook["consent"] == answer and hook["consentVendor"] == kind
    assert hook["swallowedClicks"] == 0
    # (The Daily SET page answers its own eu_cookie_compliance popup too.)
    consent = [line for line in said if line.startswith("consent: ")
               and not (game == "daily-set" and "eu_cookie_compliance" in line)]
    assert game != "daily-set" or len(consent) < len([x for x in said if "consent: " in x])
    assert len(consent) == 1 and f", {answer}" in consent[0], said
    if kind in BRANDED and LIBRARY is not None:  # the library's own rules did it
        assert consent[0] == f"consent: {BRANDED[kind]}, declined ({LIBRARY.name})"


@pytest.mark.parametrize(("kind", "pressed"), sweep([
    ("quantcast", "'DISAGREE'"),  # after MORE OPTIONS, the same "secondary" kind of button
    ("usercentrics", "'Deny'"),  # in an open shadow root
    ("axeptio", "'No thanks'"),  # in an open shadow root
    ("funding-choices", "'Do not consent'"),
    ("trustarc", "'Required Only'"),
    ("sourcepoint", "'Reject All'"),  # in a cross-site frame
    ("words-es", "'Rechazar todo'"),
    ("words-nl", "'Alles weigeren'"),
], lambda case: case[0] in {"quantcast", "usercentrics", "sourcepoint"}))
def test_without_the_library_the_bot_s_own_links_decline_and_say_so(fixtures_url, reader,
                                                                   monkeypatch, kind, pressed,
                                                                   tmp_path):
    """... and the button pressed is boxed and named on a frame of the page as it was about
    to be pressed, before the game was found behind it (--debug-dir, --report)."""
    monkeypatch.setenv("WEBBOT_AUTOCONSENT", "off")
    report = RunReport(tmp_path / "report.html")
    said, hook, played = play(url_for(fixtures_url, "puzlogic", f"consent={kind}"), "puzlogic",
                              reader, report=report)
    assert played and hook["consent"] == "declined" and hook["consentVendor"] == kind
    lines = [line for line in said if line.startswith("consent: ")]
    assert len(lines) == 1, said
    [line] = lines
    assert ", declined (" in line and pressed in line and "autoconsent not installed" in line
    frames = [label for label, _ in report.frames]
    pressing = [i for i, label in enumerate(frames)
                if label.startswith(f"pressing {pressed} (") and label.endswith(", declined)")]
    assert pressing and pressing[-1] < frames.index("found-the-game"), frames


@needs_library
def test_a_dialog_that_opens_mid_game_is_declined(fixtures_url, reader):
    said, hook, played = play(url_for(fixtures_url, "puzlogic",
                                      "consent=quantcast&consent_delay=held"), "puzlogic",
                              reader, levels=(1, 2))
    assert played and hook["consent"] == "declined" and hook["swallowedClicks"] == 0
    assert any(line.startswith("consent: quantcast, declined") for line in said), said


def test_other_covers_are_closed_at_the_start_and_in_the_middle_of_a_game(fixtures_url,
                                                                          reader, tmp_path):
    # A click-to-play splash from the start; an ad-blocker notice and a newsletter popup as
    # the first level ends, in the middle of the game.
    url = url_for(fixtures_url, "puzlogic",
                  "consent=none&cover=splash,adblock,newsletter&cover_at=held")
    report = RunReport(tmp_path / "report.html")
    said, hook, played = play(url, "puzlogic", reader, levels=(1, 2), report=report)
    assert played, said
    assert hook["covers"] == {"splash": "played", "adblock": "continued",
                              "newsletter": "closed"}
    assert any(re.match(r"pressed '▶ Play now' on div\.cover-splash", line) for line in said)
    assert any("on div.cover-newsletter" in line for line in said)
    # Each press boxed on a frame first (--debug-dir, --report), mid-game ones too.
    frames = [label for label, _ in report.frames if label.startswith("pressing '")]
    assert any(" on div.cover-splash" in label for label in frames), frames
    assert any(" on div.cover-newsletter" in label for label in frames), frames


def test_a_consent_dialog_back_after_a_reload_is_answered_again(fixtures_url, reader,
                                                                library_first):
    # The portal remembers no answer: each load shows its dialog again. The chain (the library
    # included) runs in every new document, so the second dialog is answered like the first.
    options = RunOptions(url=url_for(fixtures_url, "puzlogic", "consent=onetrust"),
                         browser=BrowserOptions(viewport=(1280, 900)), find_timeout_s=40)

    def go():
        said: list[str] = []
        with game_session(options, PORTAL) as session:
            hooks = []
            for _ in range(2):
                results = run_loop(puzlogic_player(session, [1], reader=reader,
                                               report=said.append))
                hooks.append((portal(session.page), [r.result for r in results]))
                session.page.reload()
        return said, hooks

    said, hooks = in_own_thread(go)
    for hook, results in hooks:
        assert results == ["completed"] and hook["consent"] == "declined", said
    consent = [line for line in said if line.startswith("consent: ")]
    assert len(consent) == 2 and all(", declined (" in line for line in consent), said


@needs_library
def test_check_names_the_consent_engine():
    done = run_webbot("check")
    assert done.returncode == 0, done.stderr
    assert f"autoconsent {LIBRARY.version}" in " ".join(done.stdout.split())


def test_check_says_when_the_library_is_absent(tmp_path):
    done = run_webbot("check", env={"WEBBOT_AUTOCONSENT": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "autoconsent not installed" in " ".join(done.stdout.split())


@needs_library
def test_rules_are_the_ones_that_may_run_in_the_frame():
    top = rules_for(LIBRARY.root, "https://example.org/", top=True)
    frame = rules_for(LIBRARY.root, "https://example.org/", top=False)
    names = {rule["name"] for rule in top}
    assert "quantcast" in names and "Sourcepoint-frame" not in names
    assert all((r.get("runContext") or {}).get("frame") for r in frame)
    # A site's own rule only on its site.
    assert "abc" not in names
    on_abc = {rule["name"] for rule in rules_for(LIBRARY.root, "https://www.abc.net.au/news",
                                                 top=True)}
    assert "abc" in on_abc and "quantcast" in on_abc


@needs_library
def test_the_library_goes_first_only_where_it_has_rules_for_the_page(fixtures_url):
    """A game's page in a portal's frame is beyond the library's written rules (the bot's own
    links press there after a moment); a frame a rule names by its address is not, nor is any
    top page. (Sourcepoint's frame is known by the library's code, which says so as it starts:
    the sourcepoint variant above is answered by the library.)"""
    def knows(url: str, top: bool) -> bool:
        return knows_the_page(rules_for(LIBRARY.root, url, top), top)

    game = fixtures_url + "daily-set/set/puzzle/index.html"
    assert knows(game, top=True) and not knows(game, top=False)
    assert knows("https://cmp-consent-tool.privacymanager.io/x.html", top=False)


def test_the_library_is_found_or_reported_absent(monkeypatch, tmp_path):
    monkeypatch.setenv("WEBBOT_AUTOCONSENT", "off")
    assert find_library() is None
    monkeypatch.setenv("WEBBOT_AUTOCONSENT", str(tmp_path))
    assert find_library() is None
    root = tmp_path / "node_modules" / "@duckduckgo" / "autoconsent"
    (root / "dist").mkdir(parents=True)
    (root / "package.json").write_text('{"version": "14.1.0"}')
    assert find_library() is None  # no bundle
    (root / "dist" / "autoconsent.playwright.js").write_text("")
    assert find_library().name == "autoconsent 14.1.0"
    (root / "package.json").write_text("{not json")
    assert find_library() is None


def test_a_finder_on_a_page_without_consent_says_nothing_of_it(fixtures_url):
    options = RunOptions(url=f"{fixtures_url}{PORTAL}?game=puzlogic&consent=none&banner=0")

    def go():
        with game_session(options, PORTAL) as session:
            return session.find_game(PUZLOGIC).cleared

    assert in_own_thread(go) == []


@needs_library
def test_the_library_is_waited_for_only_when_it_found_or_was_asked_about_a_popup(monkeypatch):
    """It acts only on a popup the bot saw: with nothing found or asked in any frame, it has
    nothing of its own to finish, and the game's start does not wait on it."""
    engine = Engine(LIBRARY)
    chain = Consent(engine)
    pauses = []
    monkeypatch.setattr(webbot.consent.answer, "pause", lambda page, ms: pauses.append(ms))
    engine.frames["top"] = FrameState("https://example.org/")
    assert engine.quiet() and chain.settle(page=None) == [] and pauses == []
    engine.frames["top"].found = 1.0  # it said it found one
    assert not engine.quiet()
    engine.frames["top"].found, engine.frames["top"].popup_at = None, 2.0  # it was asked
    assert not engine.quiet()
