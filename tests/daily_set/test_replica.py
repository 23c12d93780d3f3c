"""The Daily SET replica (fixtures/daily-set/): its two page layouts played with real clicks in
headless Chromium, its messages, panel, score and completion page, ?seed= puzzles, and the real
saved page of the old site running unchanged against the replica's scripts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Dialog, Page, Response, Route, expect

from tests.daily_set.conftest import (
    REAL_CARDS,
    REAL_PAGE,
    REAL_SETS,
    attributes,
    is_set,
    needs_reference,
    real_site,
    sets_among,
)
from webbot.server import FixtureServer

OLD = "daily-set/puzzle/set.htm"
NEW = "daily-set/set/puzzle/index.html"
COMPLETED = re.compile(r".*/daily-set/you_completed_todays_puzzle\.htm\?time=\d+$")

OLD_CARDS = [32, 33, 18, 29, 34, 64, 41, 24, 26, 59, 31, 68]
NEW_CARDS = [60, 15, 38, 78, 51, 1, 73, 44, 75, 58, 53, 71]

REAL_DONE = re.compile(r"http://www\.setgame\.com/you_completed_todays_puzzle\?time=\d+$")

READY = """() => {
  const hook = window.__dailySetTest, state = hook && hook.state();
  return !!state && state.cards.length === 12;
}"""


def great(k: int) -> str:
    return "GREAT! \n" + ("1 Set Found" if k == 1 else f"{k} Sets Found")


GREATS = [great(k) for k in range(1, 7)]


@dataclass
class Watch:
    """What a page raised while the test ran: dialogs (accepted), JS errors, HTTP errors."""

    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def watch(page: Page) -> Watch:
    seen = Watch()

    def on_dialog(dialog: Dialog) -> None:
        seen.dialogs.append(dialog.message)
        dialog.accept()

    def on_response(response: Response) -> None:
        if response.status >= 400:
            seen.missing.append(response.url)

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    page.on("response", on_response)
    return seen


def open_game(page: Page, url: str) -> Watch:
    seen = watch(page)
    page.goto(url)
    page.wait_for_function(READY)
    return seen


def state(page: Page) -> dict:
    return page.evaluate("() => window.__dailySetTest.state()")


def card(page: Page, position: int):
    return page.locator(f'a[href="javascript:board.cardClicked({position})"] img')


def check(page: Page, position: int) -> None:
    """Clicks a card and waits until its checkbox is ticked."""
    card(page, position).click()
    page.wait_for_function("n => window.__dailySetTest.state().checked.includes(n)", arg=position)


def pick(page: Page, triple: list[int]) -> str:
    """Clicks three cards and returns the message the page gave, once the boxes are cleared."""
    for position in triple[:2]:
        check(page, position)
    before = len(state(page)["messages"])
    card(page, triple[2]).click()
    page.wait_for_function("""n => {
      const s = window.__dailySetTest.state();
      return s.messages.length > n && s.checked.length === 0;
    }""", arg=before)
    return state(page)["messages"][-1]


def finish(page: Page, triple: list[int], done: re.Pattern) -> None:
    """Clicks the last set's cards and waits for the completion page."""
    for position in triple[:2]:
        check(page, position)
    card(page, triple[2]).click()
    page.wait_for_url(done)


def not_a_set(cards: list[int]) -> list[int]:
    return next(list(t) for t in combinations(range(1, 13), 3)
                if not is_set(tuple(cards[p - 1] for p in t)))


def card_srcs(page: Page) -> list[str]:
    return [card(page, n).evaluate("img => img.src") for n in range(1, 13)]


def numbers_shown(page: Page, pattern: str) -> list[int]:
    return [int(re.fullmatch(pattern, src.rsplit("/", 1)[1]).group(1)) for src in card_srcs(page)]


def assert_images_loaded(page: Page) -> None:
    broken = page.evaluate("""() => Array.from(document.images)
        .filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.src)""")
    assert broken == []


# --- the old layout (puzzle/set.htm) ---------------------------------------------------------

def test_old_page_shows_its_fixed_puzzle(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + OLD)
    s = state(page)
    assert s["cards"] == OLD_CARDS and s["cards"] != REAL_CARDS
    assert s["sets"] == sets_among(OLD_CARDS) and len(s["sets"]) == 6
    assert numbers_shown(page, r"(\d\d)\.gif") == OLD_CARDS
    assert s["found"] == s["messages"] == s["checked"] == [] and s["score"] == 0
    assert page.locator("body").get_attribute("bgcolor") == "#eceeee"
    assert page.locator('font[size="6"][face="Verdana"]').count() == 1
    assert page.locator("#setsFound img[src$='empty_card.gif']").count() == 18
    assert page.locator("img[alt]").count() == 0, "the answer must not hide in alt texts"
    assert_images_loaded(page)
    for position in range(1, 13):
        box = card(page, position).bounding_box()
        assert box is not None and (box["width"], box["height"]) == (95, 62)
    assert seen.errors == seen.dialogs == seen.missing == []


def test_old_page_messages_panel_and_score(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + OLD)
    first = state(page)["sets"][0]
    assert pick(page, first) == great(1)
    assert page.locator("input[name=score]").input_value() == "1"
    panel = page.locator("#setsFound img").evaluate_all("imgs => imgs.map((img) => img.src)")
    srcs = card_srcs(page)
    assert panel[:3] == [srcs[p - 1] for p in first]
    assert all(src.endswith("/empty_card.gif") for src in panel[3:])
    assert page.locator("#setsFound img").first.evaluate("img => img.complete && img.width") == 32

    assert pick(page, first[::-1]) == "You already found that one!\nStill have 5 to find"
    wrong = not_a_set(OLD_CARDS)
    message = pick(page, wrong)
    assert message.startswith("NOT A SET!\n")
    reason = message.split("\n", 1)[1]
    assert reason.endswith(".") and "\n" not in reason and len(reason) > 10
    assert page.locator("input[name=score]").input_value() == "1"
    s = state(page)
    assert s["found"] == [first] and s["score"] == 1 and s["checked"] == []
    assert seen.dialogs == s["messages"] == [
        great(1), "You already found that one!\nStill have 5 to find", message]
    assert page.locator("input[type=checkbox]:checked").count() == 0
    assert seen.errors == []


def first_broken(cards: list[int]) -> Iterator[tuple[str, list[int]]]:
    """A wrong triple and the first feature it breaks (count, colour, fill, shape in turn)."""
    order = {"count": 0, "colour": 1, "fill": 3, "shape": 2}  # indexes into attributes()
    for triple in combinations(range(1, 13), 3):
        values = [attributes(cards[p - 1]) for p in triple]
        broken = [name for name, i in order.items() if len({v[i] for v in values}) == 2]
        if broken:
            yield broken[0], list(triple)


def test_old_page_explains_the_first_wrong_feature(page: Page, fixtures_url: str):
    open_game(page, fixtures_url + OLD)
    _, triple = next(t for t in first_broken(OLD_CARDS) if t[0] == "colour")
    colours = Counter(attributes(OLD_CARDS[p - 1])[1] for p in triple)
    (pair, _), (odd, _) = colours.most_common()
    assert pick(page, triple) == f"NOT A SET!\nTwo are {pair} and one is {odd}."
    _, triple = next(t for t in first_broken(OLD_CARDS) if t[0] == "count")
    counts = Counter(attributes(OLD_CARDS[p - 1])[0] for p in triple)
    words = {1: "one shape", 2: "two shapes", 3: "three shapes"}
    (pair, _), (odd, _) = counts.most_common()
    assert pick(page, triple) == f"NOT A SET!\nTwo have {words[pair]} and one has {words[odd]}."


def test_ticking_the_checkboxes_counts_too(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + OLD)
    first = state(page)["sets"][0]
    card(page, 5).click()
    page.wait_for_function("() => window.__dailySetTest.state().checked.length === 1")
    card(page, 5).click()  # a second click puts the card back
    page.wait_for_function("() => window.__dailySetTest.state().checked.length === 0")
    for position in first:
        page.locator(f"input[name=A{position}]").click()
    page.wait_for_function("() => window.__dailySetTest.state().messages.length === 1")
    assert seen.dialogs == [great(1)]
    expect(page.locator("input[type=checkbox]:checked")).to_have_count(0)


def test_the_sets_found_panel_hides_and_shows(page: Page, fixtures_url: str):
    open_game(page, fixtures_url + OLD)
    tab = page.locator("#setsFoundTab")
    expect(tab).to_be_visible()
    page.locator("img[src$='x_button.gif']").click()
    expect(tab).to_be_hidden()
    page.locator("img[name=setsFoundImage]").click()
    expect(tab).to_be_visible()


def test_old_page_played_to_the_end(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + OLD)
    sets = state(page)["sets"]
    for k, triple in enumerate(sets[:5], start=1):
        assert pick(page, triple) == great(k)
        assert page.locator("input[name=score]").input_value() == str(k)
    finish(page, sets[5], COMPLETED)
    assert seen.dialogs == GREATS
    expect(page.locator("h1")).to_have_text("You completed today's puzzle")
    expect(page.locator("#time")).to_have_text(re.compile(r"^\d+\.\d seconds$"))
    assert seen.errors == seen.missing == []


def test_a_seed_gives_another_puzzle_to_the_end(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + OLD + "?seed=7")
    s = state(page)
    assert s["cards"] != OLD_CARDS and len(set(s["cards"])) == 12
    assert s["sets"] == sets_among(s["cards"]) and len(s["sets"]) == 6
    assert numbers_shown(page, r"(\d\d)\.gif") == s["cards"]
    assert_images_loaded(page)
    for k, triple in enumerate(s["sets"][:5], start=1):
        assert pick(page, triple) == great(k)
    finish(page, s["sets"][5], COMPLETED)
    assert seen.dialogs == GREATS
    assert seen.errors == seen.missing == []


def test_seeds_are_the_same_puzzle_on_both_layouts(page: Page, fixtures_url: str):
    open_game(page, fixtures_url + OLD + "?seed=7")
    old = state(page)
    open_game(page, fixtures_url + NEW + "?seed=7")
    assert state(page)["cards"] == old["cards"]
    assert numbers_shown(page, r"(\d+)\.png") == old["cards"]


def test_a_random_seed(page: Page, fixtures_url: str):
    open_game(page, fixtures_url + OLD + "?seed=random")
    s = state(page)
    assert s["sets"] == sets_among(s["cards"]) and len(s["sets"]) == 6
    assert numbers_shown(page, r"(\d\d)\.gif") == s["cards"]


# --- the current layout (set/puzzle/index.html) ------------------------------------------------

def test_current_page_markup(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + NEW + "?consent=none")
    s = state(page)
    assert s["cards"] == NEW_CARDS and s["sets"] == sets_among(NEW_CARDS)
    expect(page.locator(".set-game-wrapper > h1")).to_have_count(1)
    expect(page.locator("div.set-card-td")).to_have_count(12)
    for position, number in enumerate(NEW_CARDS, start=1):
        image = page.locator(f"div.set-card-td > a > img.A{position}[name=card{position}]")
        expect(image).to_have_attribute("src", f"../../images/setcards/new/{number}.png")
        expect(page.locator(f"div.set-card-td > p.set-inputs > input[type=checkbox]"
                            f"[name=A{position}]")).to_have_count(1)
    expect(page.locator("div.set-messages")).to_have_count(1)
    expect(page.locator("form.raffle")).to_be_hidden()
    assert_images_loaded(page)
    assert seen.errors == seen.dialogs == seen.missing == []


def test_current_page_says_great_and_clears_it(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + NEW + "?consent=none")
    messages = page.locator("div.set-messages")
    first = state(page)["sets"][0]
    check(page, first[0])
    expect(page.locator("div.set-card-td.selected")).to_have_count(1)
    check(page, first[1])
    card(page, first[2]).click()
    expect(messages).to_have_js_property("textContent", "GREAT!")
    expect(page.locator("div.set-card-td.selected")).to_have_count(0)
    expect(messages).to_have_js_property("textContent", "")  # gone again
    assert pick(page, first) == "You already found that one!\nStill have 5 to find"
    message = pick(page, not_a_set(NEW_CARDS))
    assert message.startswith("NOT A SET!\n")
    assert seen.dialogs == [] and seen.errors == []


def test_current_page_played_to_the_end(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + NEW + "?seed=11&consent=none")
    sets = state(page)["sets"]
    for triple in sets:
        assert pick(page, triple) == "GREAT!"
    # No new page: the title says it, and a raffle form appears.
    expect(page).to_have_title("You completed today's puzzle")
    expect(page.locator("form.raffle input[name=uid]")).to_be_visible()
    expect(page.locator("form.raffle button[type=submit]")).to_be_visible()
    assert page.url.startswith(fixtures_url + NEW)
    assert seen.dialogs == [] and seen.errors == seen.missing == []


def test_current_page_consent_popup_blocks_clicks_until_answered(page: Page, fixtures_url: str):
    open_game(page, fixtures_url + NEW)
    decline = page.locator("#sliding-popup .decline-button")
    expect(decline).to_be_visible()  # about a second after load
    expect(page.locator("#sliding-popup .agree-button")).to_have_text("OK, I agree")
    box = card(page, 1).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert state(page)["checked"] == []
    assert page.evaluate("window.__consentTest.swallowedClicks") == 1
    decline.click()
    expect(decline).to_have_count(0)
    assert page.evaluate("window.__consentTest.consent") == "declined"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("input[name=A1]")).to_be_checked()


# --- the 2022 layout (set/puzzle/2022.html) --------------------------------------------------

def test_2022_page_shows_large_gif_cards_small(page: Page, fixtures_url: str):
    seen = open_game(page, fixtures_url + "daily-set/set/puzzle/2022.html?seed=7")
    s = state(page)
    assert s["sets"] == sets_among(s["cards"]) and len(s["sets"]) == 6
    assert numbers_shown(page, r"(\d+)\.gif") == s["cards"]
    assert all("/setcards/large/" in src for src in card_srcs(page))
    sizes = page.locator("img[name^=card]").evaluate_all(
        "images => images.map(i => [i.width, i.height, i.naturalWidth, i.naturalHeight])")
    assert sizes == [[95, 62, 258, 167]] * 12
    assert pick(page, s["sets"][0]) == "GREAT! \n1 Set Found"
    assert seen.errors == seen.missing == []


# --- the landing and completion pages --------------------------------------------------------

def test_landing_page_links(page: Page, fixtures_url: str):
    seen = watch(page)
    page.goto(fixtures_url + "daily-set/index.html")
    links = page.locator("a[href]").evaluate_all("links => links.map((a) => a.href)")
    assert any(link.endswith("/puzzle/set.htm") for link in links)
    assert any(link.endswith("/set/puzzle/index.html") for link in links)
    for link in links:
        if "#" not in link:
            assert page.request.get(link).ok, link
    assert seen.errors == []


def test_completion_page_shows_seconds(page: Page, fixtures_url: str):
    page.goto(fixtures_url + "daily-set/you_completed_todays_puzzle.htm?time=42500")
    expect(page.locator("body")).to_contain_text("You completed today's puzzle")
    expect(page.locator("#time")).to_have_text("42.5 seconds")


# --- the real saved page against the replica's scripts ---------------------------------------

ALT = re.compile(r"([123]) (Red|Green|Purple) (Diamond|Oval|Squiggle)s (Solid|Striped|Empty) s?")


@needs_reference
def test_the_real_page_runs_on_our_scripts(page: Page, tmp_path: Path):
    outside: list[str] = []
    setgame: list[str] = []

    def route(route: Route) -> None:
        host = urlsplit(route.request.url).hostname or ""
        if host == "127.0.0.1":
            route.continue_()
        elif host == "www.setgame.com":
            setgame.append(route.request.url)
            route.fulfill(status=200, content_type="text/html", body="<p>done</p>")
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", route)
    with FixtureServer(real_site(tmp_path)) as server:
        seen = open_game(page, server.url + "puzzle/" + REAL_PAGE)
        s = state(page)
        assert s["cards"] == REAL_CARDS and s["sets"] == REAL_SETS == sets_among(REAL_CARDS)
        # Its own alt texts (setAltText, never called by the page) agree with the numbering.
        page.evaluate("() => setAltText(true)")
        offset = page.evaluate("() => board.imageOffset")
        assert page.evaluate("i => document.images[i].name", offset) == "card1"
        for position, number in enumerate(REAL_CARDS, start=1):
            alt = card(page, position).get_attribute("alt") or ""
            count, colour, shape, fill = ALT.fullmatch(alt).groups()
            assert (int(count), colour.lower(), shape.lower(), fill.lower()) == \
                attributes(number), position
        for k, triple in enumerate(REAL_SETS[:5], start=1):
            assert pick(page, triple) == great(k)
        panel = page.locator("#setsFound img").evaluate_all("imgs => imgs.map((i) => i.src)")
        assert [src.rsplit("/", 1)[1] for src in panel[:3]] == ["16.gif", "43.gif", "70.gif"]
        assert page.locator("input[name=score]").input_value() == "5"
        finish(page, REAL_SETS[5], REAL_DONE)
    assert seen.dialogs == GREATS
    assert setgame == [page.url]
    assert any("google-analytics.com" in url for url in outside)
    # Only the blocked google-analytics snippet fails: `_gat` is then undefined.
    assert [error for error in seen.errors if "_gat" not in error] == []
