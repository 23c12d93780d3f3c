"""The Daily SET scraper: cards and click targets in both layouts and the real saved page, broken
pages, and image downloads against real local HTTP servers (timeouts, retries, size cap,
same-origin rule, cache)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.daily_set.conftest import FIXTURES, IMAGES, REAL, REAL_CARDS, REAL_PAGE, needs_reference
from tests.test_bad_input import png_header, radiance
from tests.test_cli import closed_port
from webbot.answer import content
from webbot.daily_set.page import (
    MAX_IMAGE_BYTES,
    ImageFetcher,
    PageError,
    fetch_page,
    parse_board,
)
from webbot.server import FixtureServer

BASE = "http://127.0.0.1:8000/daily-set/"
OLD_CARDS = [32, 33, 18, 29, 34, 64, 41, 24, 26, 59, 31, 68]
OLD_SETS = [[1, 2, 11], [2, 4, 5], [2, 6, 9], [3, 6, 7], [4, 9, 12], [8, 11, 12]]
NEW_CARDS = [60, 15, 38, 78, 51, 1, 73, 44, 75, 58, 53, 71]


def test_old_layout():
    html = (FIXTURES / "puzzle" / "set.htm").read_text()
    board = parse_board(html, BASE + "puzzle/set.htm")
    assert board.layout == "old"
    assert [s.position for s in board.slots] == list(range(1, 13))
    assert [s.image_url for s in board.slots] == [
        f"{BASE}images/setcards/small/{n:02d}.gif" for n in OLD_CARDS]
    assert board.slots[6].target == 'a[href="javascript:board.cardClicked(7)"]'


def test_new_layout():
    html = (FIXTURES / "set" / "puzzle" / "index.html").read_text()
    board = parse_board(html, BASE + "set/puzzle/index.html")
    assert board.layout == "current"
    assert [s.image_url for s in board.slots] == [
        f"{BASE}images/setcards/new/{n}.png" for n in NEW_CARDS]


def test_new_layout_without_links_is_clicked_on_the_images():
    cards = "".join(f'<div class="set-card-td"><img class="A{n}" name="card{n}" '
                    f'src="/c/{n}.png"></div>' for n in (3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12))
    board = parse_board(f"<html><body>{cards}</body></html>", "http://example.org/set/puzzle")
    assert [s.position for s in board.slots] == list(range(1, 13))
    assert board.slots[0].image_url == "http://example.org/c/1.png"
    assert board.slots[0].target == 'img[name="card1"]'


@needs_reference
def test_the_real_saved_page():
    html = (REAL / REAL_PAGE).read_text(errors="replace")
    board = parse_board(html, "http://www.setgame.com/puzzle/set.htm")
    assert board.layout == "old"
    assert [s.image_url for s in board.slots] == [
        f"http://www.setgame.com/images/setcards/small/{n:02d}.gif" for n in REAL_CARDS]


def card_links(positions, src: str = "c.gif") -> str:
    return "".join(f'<a href="javascript:board.cardClicked({p})"><img src="{src}"></a>'
                   for p in positions)


@pytest.mark.parametrize(("html", "reason"), [
    ("<html><body><p>Nothing here</p></body></html>", "found 0 cards"),
    (card_links(range(1, 12)), "found 11 cards"),
    (card_links(range(2, 14)), "the number in a card's link: expected a whole number from 1 to "
                               "12, got 13"),
    (card_links(range(1, 12)) + '<a href="javascript:board.cardClicked(12)">x</a>',
     "found 11 cards"),
    ("<html><body><img name=card1></body></html>", "found 0 cards"),
    # a card's number as the page writes it: parsed with bounds, never int() of any length
    (card_links(range(1, 13)) + '<img name="card99" src="c.gif">',
     "the number in a card's name: expected a whole number from 1 to 12, got 99$"),
    (card_links(range(1, 13)) + f'<img name="card{"9" * 5000}" src="c.gif">',
     "the number in a card's name: expected a whole number from 1 to 12, got 9{23}…$"),
    (card_links(range(1, 12)) + f'<a href="javascript:board.cardClicked({"0" * 5000}12)">'
     '<img src="c.gif"></a>', "the number in a card's link: expected a whole number from 1 to "
                              "12, got 0{23}…$"),
])
def test_a_page_without_its_twelve_cards_is_refused(html, reason):
    with pytest.raises(PageError, match=reason):
        parse_board(html, BASE)


# --- downloads ---------------------------------------------------------------------------------

class Behaviour:
    """What the test server does: a status per path (a list is answered in turn), or hanging."""

    def __init__(self) -> None:
        self.answers: dict[str, list[tuple]] = {}  # (status, body[, headers])
        self.hang = threading.Event()
        self.release = threading.Event()
        self.requests: list[str] = []


@contextmanager
def scripted_server(behaviour: Behaviour) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            behaviour.requests.append(self.path)
            if behaviour.hang.is_set():
                behaviour.release.wait(10)
                return
            queue = behaviour.answers.get(self.path, [(404, b"missing")])
            status, body, *more = queue.pop(0) if len(queue) > 1 else queue[0]
            headers = {"Content-Length": str(len(body)), **(more[0] if more else {})}
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        behaviour.release.set()
        server.shutdown()
        server.server_close()


GIF = (FIXTURES / "images" / "setcards" / "small" / "05.gif").read_bytes()


def test_images_are_fetched_once_then_read_from_the_cache(tmp_path):
    behaviour = Behaviour()
    behaviour.answers["/c/5.gif"] = [(200, GIF)]
    with scripted_server(behaviour) as url:
        fetcher = ImageFetcher(url + "puzzle", cache_dir=tmp_path, use_cache=True)
        assert fetcher.fetch(url + "c/5.gif") == GIF
        assert fetcher.fetch(url + "c/5.gif") == GIF
    assert behaviour.requests == ["/c/5.gif"]
    [kept] = tmp_path.iterdir()
    assert len(kept.name) == 64 and kept.read_bytes() == GIF  # a hash, never a page's name


def test_a_cached_image_passes_the_gate_too(tmp_path):
    """A file in the cache that is no card picture (damaged, or another kind of picture put
    there) is downloaded again, and replaced."""
    behaviour = Behaviour()
    behaviour.answers["/c/5.gif"] = [(200, GIF)]
    with scripted_server(behaviour) as url:
        fetcher = ImageFetcher(url + "puzzle", cache_dir=tmp_path, use_cache=True)
        kept = fetcher._cache_path(url + "c/5.gif")
        kept.write_bytes(radiance(3000, 3000))
        assert fetcher.fetch(url + "c/5.gif") == GIF
        assert fetcher.fetch(url + "c/5.gif") == GIF
    assert behaviour.requests == ["/c/5.gif"] and kept.read_bytes() == GIF


def test_a_local_server_is_not_cached_by_default(tmp_path):
    behaviour = Behaviour()
    behaviour.answers["/c/5.gif"] = [(200, GIF)]
    with scripted_server(behaviour) as url:
        fetcher = ImageFetcher(url + "puzzle", cache_dir=tmp_path)
        fetcher.fetch_all([url + "c/5.gif"] * 2)
    assert behaviour.requests == ["/c/5.gif"] * 2 and list(tmp_path.iterdir()) == []


def test_server_errors_are_retried(tmp_path):
    behaviour = Behaviour()
    behaviour.answers["/c/5.gif"] = [(503, b"busy"), (500, b"oops"), (200, GIF)]
    with scripted_server(behaviour) as url:
        assert ImageFetcher(url, cache_dir=tmp_path).fetch(url + "c/5.gif") == GIF
    assert behaviour.requests == ["/c/5.gif"] * 3


def test_a_server_that_keeps_failing_gives_up(tmp_path):
    behaviour = Behaviour()
    behaviour.answers["/c/5.gif"] = [(503, b"busy")]
    with (scripted_server(behaviour) as url,
          pytest.raises(PageError, match="server errors on all 3 tries")):
        ImageFetcher(url, cache_dir=tmp_path).fetch(url + "c/5.gif")
    assert len(behaviour.requests) == 3  # the first try and 2 retries


def test_a_missing_image(tmp_path):
    with scripted_server(Behaviour()) as url, pytest.raises(PageError, match="HTTP 404"):
        ImageFetcher(url, cache_dir=tmp_path).fetch(url + "c/404.gif")


def test_a_silent_server_times_out(tmp_path):
    behaviour = Behaviour()
    behaviour.hang.set()
    with scripted_server(behaviour) as url:
        fetcher = ImageFetcher(url, cache_dir=tmp_path, timeout=(1, 0.3))
        with pytest.raises(PageError, match=r"cannot load \(timed out\)"):
            fetcher.fetch(url + "c/5.gif")


def test_an_oversized_or_foreign_file_is_refused(tmp_path):
    behaviour = Behaviour()
    behaviour.answers["/big.gif"] = [(200, GIF + bytes(MAX_IMAGE_BYTES))]
    behaviour.answers["/page.gif"] = [(200, b"<html>sorry</html>")]
    behaviour.answers["/bomb.png"] = [(200, png_header(30_000, 30_000))]  # 2.7 GB if decoded
    behaviour.answers["/hdr.png"] = [(200, radiance(3000, 3000))]  # 600 kB, 27 MB decoded
    behaviour.answers["/claims.gif"] = [(200, GIF, {"Content-Length": "9" * 5000})]
    with scripted_server(behaviour) as url:
        fetcher = ImageFetcher(url, cache_dir=tmp_path, use_cache=True)
        with pytest.raises(PageError, match="more than 2000000"):
            fetcher.fetch(url + "big.gif")
        with pytest.raises(PageError, match=r"claims.gif: 9{23}… bytes, more than 2000000$"):
            fetcher.fetch(url + "claims.gif")
        with pytest.raises(PageError, match=r"hdr.png is not an image that can be decoded"):
            fetcher.fetch(url + "hdr.png")
        with pytest.raises(PageError, match="page.gif is not an image that can be decoded"):
            fetcher.fetch(url + "page.gif")
        with pytest.raises(PageError, match=r"bomb.png is too large a picture \(30000x30000\)"):
            fetcher.fetch(url + "bomb.png")
    assert list(tmp_path.iterdir()) == []  # nothing bad is kept


def test_redirects_are_followed_only_on_the_pages_site(tmp_path):
    behaviour = Behaviour()
    behaviour.answers["/old/5.gif"] = [(302, b"", {"Location": "/c/5.gif"})]
    behaviour.answers["/c/5.gif"] = [(200, GIF)]
    with scripted_server(behaviour) as url:
        port = url.rsplit(":", 1)[1].strip("/")
        behaviour.answers["/away.gif"] = [(302, b"", {"Location":
                                                      f"http://127.0.0.2:{port}/c/5.gif"})]
        behaviour.answers["/loop.gif"] = [(302, b"", {"Location": "/loop.gif"})]
        fetcher = ImageFetcher(url, cache_dir=tmp_path)
        assert fetcher.fetch(url + "old/5.gif") == GIF
        with pytest.raises(PageError, match="is not on the page's site"):
            fetcher.fetch(url + "away.gif")
        with pytest.raises(PageError, match="more than 5 redirects"):
            fetcher.fetch(url + "loop.gif")
    assert "/c/5.gif" in behaviour.requests and behaviour.requests.count("/loop.gif") == 6


def test_an_empty_answer_or_a_garbled_length(tmp_path):
    behaviour = Behaviour()
    behaviour.answers["/empty.gif"] = [(200, b"")]
    behaviour.answers["/c.gif"] = [(200, GIF, {"Content-Length": "lots"})]
    with scripted_server(behaviour) as url:
        fetcher = ImageFetcher(url, cache_dir=tmp_path)
        with pytest.raises(PageError, match=r"not an image that can be decoded .*\(0 bytes\)"):
            fetcher.fetch(url + "empty.gif")
        assert fetcher.fetch(url + "c.gif") == GIF  # the length is only a hint


@pytest.mark.parametrize("image", [
    "http://127.0.0.2:{port}/c/5.gif",  # another host
    "http://127.0.0.1:1/c/5.gif",  # another port
    "https://127.0.0.1:{port}/c/5.gif",  # another scheme
    "file:///etc/passwd",
    "data:image/gif;base64,R0lGODlh",
])
def test_images_come_only_from_the_pages_own_site(tmp_path, image):
    with scripted_server(Behaviour()) as url:
        port = url.rsplit(":", 1)[1].strip("/")
        fetcher = ImageFetcher(url + "puzzle/set.htm", cache_dir=tmp_path)
        with pytest.raises(PageError, match="not on the page's site|only http"):
            fetcher.fetch(image.format(port=port))


def test_fetch_page_reads_html(fixtures_url):
    page = fetch_page(fixtures_url + "daily-set/puzzle/set.htm")
    assert b"board.cardClicked(12)" in page.body and page.content_type == "text/html"
    moved = fetch_page(fixtures_url + "daily-set/set/puzzle")  # the server adds a slash
    assert moved.url == fixtures_url + "daily-set/set/puzzle/"
    assert parse_board(moved.body, moved.url).slots[0].image_url == (
        fixtures_url + "daily-set/images/setcards/new/60.png")
    with pytest.raises(PageError, match="HTTP 404"):
        fetch_page(fixtures_url + "daily-set/none.htm")
    with pytest.raises(PageError, match="image/gif, not an HTML page"):
        fetch_page(fixtures_url + "daily-set/images/setcards/small/05.gif")
    with pytest.raises(PageError, match="not a valid URL"):
        fetch_page("http://127.0.0.1:99999/set.htm")


# --- `webbot daily-set read URL` ---------------------------------------------------------------

def test_read_command_lists_the_sets(webbot_here, fixtures_url):
    done = webbot_here("daily-set", "read", fixtures_url + "daily-set/puzzle/set.htm", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["url"] == fixtures_url + "daily-set/puzzle/set.htm"
    assert result["layout"] == "old" and result["sets"] == OLD_SETS
    assert [c["position"] for c in result["cards"]] == list(range(1, 13))
    done = webbot_here("daily-set", "read", fixtures_url + "daily-set/set/puzzle/index.html")
    assert done.returncode == 0, done.stderr
    assert "current layout, 12 cards read" in done.stdout and "set 6: cards" in done.stdout


def test_read_says_in_its_result_when_the_browser_would_play_another_board(webbot_here,
                                                                           fixtures_url):
    """The replica makes its ?seed= puzzle in its scripts, which `read` does not run."""
    url = fixtures_url + "daily-set/set/puzzle/index.html?seed=7"
    done = webbot_here("daily-set", "read", url, "--json")
    assert done.returncode == 0, done.stderr
    assert "were not run here" in json.loads(done.stdout)["note"] and not done.stderr
    done = webbot_here("daily-set", "read", url)
    assert done.stdout.splitlines()[1].startswith("note: this page's scripts read its "
                                                  "address's query (seed=7)")
    plain = webbot_here("daily-set", "read", url.removesuffix("?seed=7"), "--json")
    assert "note" not in json.loads(plain.stdout)


@needs_reference
def test_read_command_on_the_real_page_and_cards(webbot_here, tmp_path):
    from tests.daily_set.conftest import REAL_SETS, real_site

    with FixtureServer(real_site(tmp_path)) as server:
        done = webbot_here("daily-set", "read", f"{server.url}puzzle/{REAL_PAGE}", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sets"] == REAL_SETS


def test_read_command_errors_are_one_line(webbot_here, fixtures_url, tmp_path):
    site = Path(tmp_path)
    (site / "cards.htm").write_text(card_links(range(1, 13), "missing.gif"))
    with FixtureServer(site) as server:
        cases = {
            fixtures_url + "index.html": "found 0 cards",
            server.url + "cards.htm": "HTTP 404",
            f"http://127.0.0.1:{closed_port()}/set.htm": "cannot load (connection refused)",
            "ftp://example.org/set.htm": "expected a URL starting with one of http://, https://",
        }
        for url, reason in cases.items():
            done = webbot_here("daily-set", "read", url)
            assert done.returncode == (2 if url.startswith("ftp") else 1), url
            assert done.stderr.startswith("webbot: error: ") and reason in done.stderr, url
            assert len(done.stderr.splitlines()) == 1


def test_a_frame_s_html_is_its_document_s_and_a_page_that_breaks_the_serialising_is_not_believed(
        page):
    page.set_content("<body><a href='javascript:board.cardClicked(1)'>one</a></body>")
    assert "board.cardClicked(1)" in content(page.main_frame)
    # The page's own world answers; one whose scripts make outerHTML a number gets
    # Playwright's serialising, in a world of its own, instead.
    page.evaluate("Object.defineProperty(Element.prototype, 'outerHTML', {get: () => 42})")
    assert "board.cardClicked(1)" in content(page.main_frame)


def test_the_card_images_go_through_the_proxy_the_environment_names(tmp_path, monkeypatch):
    """The environment is read once for the page's site (not at each request), and still
    obeyed: a remote site's images come through the user's proxy."""
    behaviour = Behaviour()
    behaviour.answers["http://cards.example/c/5.gif"] = [(200, GIF)]
    with scripted_server(behaviour) as proxy:
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        for name in ("HTTP_PROXY", "http_proxy"):
            monkeypatch.setenv(name, proxy)
        fetcher = ImageFetcher("http://cards.example/puzzle", cache_dir=tmp_path)
        assert fetcher.fetch_all(["http://cards.example/c/5.gif"]) == [GIF]
    assert behaviour.requests == ["http://cards.example/c/5.gif"]


def test_card_images_the_browser_gave_pass_the_same_gate_and_only_from_the_page_s_site():
    site = f"http://127.0.0.1:{closed_port()}/daily-set/"  # (a download would fail here)
    fetcher = ImageFetcher(site + "puzzle/set.htm", use_cache=False)
    card, data = site + "images/setcards/small/32.gif", (IMAGES / "small" / "32.gif").read_bytes()
    [(got, pixels)] = fetcher.fetch_pictures([card], {card: data})
    assert got == data and pixels.shape[:2] == (62, 95)  # taken as given, not downloaded
    with pytest.raises(PageError, match="can be decoded"):  # bytes that are no picture
        fetcher.fetch_pictures([card], {card: b"GIF89a" + b"\0" * 40})
    elsewhere = "http://127.0.0.1:9/images/32.gif"  # another site's: not taken, so downloaded
    with pytest.raises(PageError, match="not on the page's site"):  # (which refuses it)
        fetcher.fetch_pictures([elsewhere], {elsewhere: data})
    too_big = data + b"\0" * MAX_IMAGE_BYTES
    with pytest.raises(PageError, match="cannot load"):  # over the limit: downloaded instead
        fetcher.fetch_pictures([card], {card: too_big})


def test_the_browser_gives_its_copy_of_what_the_top_page_loaded_and_only_that(page,
                                                                              fixtures_url):
    from webbot.answer import page_resources

    page.goto(f"{fixtures_url}daily-set/puzzle/set.htm")
    board = parse_board(content(page.main_frame), page.url)
    cards = [slot.image_url for slot in board.slots]
    never = f"{fixtures_url}daily-set/images/setcards/small/99.gif"  # (not on the page)
    given = page_resources(page, [*cards, never], MAX_IMAGE_BYTES)
    given.settle(5)
    found = given.wait(0)
    assert found is not None and set(found) == set(cards)
    assert all(found[url] == (IMAGES / "small" / url.rsplit("/", 1)[-1]).read_bytes()
               for url in cards)
    small = page_resources(page, cards, 100)  # (each card is over 100 bytes: none given)
    small.settle(5)
    assert small.wait(0) == {}
    lost = page_resources(page, cards, MAX_IMAGE_BYTES)
    lost.cancel()  # given up before it came (no call of the bot's since): a wait says nothing
    assert lost.wait(60) is None and not lost.task.done()
    lost.settle(5)
