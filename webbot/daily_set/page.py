"""The Daily SET page: its 12 cards and their click targets (bs4), and the card images
(requests), in the old layout (a table of `<a href="javascript:board.cardClicked(n)"><img>`)
and the current one (`div.set-card-td` holding `img.An[name=cardN]`)."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import cv2
import numpy as np
import requests
from bs4 import BeautifulSoup
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from webbot.bounded import SHOWN_DIGITS, OutOfBounds, whole_number
from webbot.cache import default_cache_dir
from webbot.errors import WebbotError
from webbot.files import InputError, read_bytes
from webbot.inputs import decode_image
from webbot.shown import shown

CARDS = 12
CLICK_LINK = re.compile(r"^\s*javascript:\s*board\.cardClicked\(\s*(\d+)\s*\)\s*;?\s*$")
CARD_NAME = re.compile(r"^card(\d+)$")
TIMEOUT = (3.05, 10.0)  # seconds to connect, seconds between bytes
RETRIES = 2  # on connection errors and 5xx answers, with a short back-off
MAX_IMAGE_BYTES = 2_000_000  # a card is a few kB; anything this big is not a card
MAX_PAGE_BYTES = 5_000_000
MAX_REDIRECTS = 5


class PageError(WebbotError):
    """The page, or one of its card images, is not what a Daily SET page serves."""


@dataclass(frozen=True)
class CardSlot:
    position: int  # as the page numbers it: board.cardClicked(position), 1..12
    image_url: str
    target: str  # CSS selector of what to click


@dataclass(frozen=True)
class Board:
    url: str
    layout: str  # "old" (a table of linked images; the 2022 page too) or "current"
    slots: tuple[CardSlot, ...]


@functools.lru_cache(maxsize=4)
def parse_board(html: str | bytes, url: str) -> Board:
    """Finds the 12 cards of a Daily SET page, in page order 1..12. The same page is parsed
    once (the bot recognises the game by its board, then plays that board)."""
    soup = BeautifulSoup(html, "html.parser")
    layout = "current" if soup.find("div", class_="set-card-td") else "old"
    found: dict[int, CardSlot] = {}
    for link in soup.find_all("a", href=CLICK_LINK):
        image = link.find("img", src=True)
        if image is None:
            continue
        position = _position(CLICK_LINK.match(link["href"]).group(1), url, "a card's link")
        target = f'a[href="{link["href"]}"]'
        found.setdefault(position, CardSlot(position, urljoin(url, image["src"]), target))
    for image in soup.find_all("img", attrs={"name": CARD_NAME}, src=True):
        position = _position(CARD_NAME.match(image["name"]).group(1), url, "a card's name")
        found.setdefault(position, CardSlot(position, urljoin(url, image["src"]),
                                            f'img[name="{image["name"]}"]'))
    if sorted(found) != list(range(1, CARDS + 1)):
        count = len(found)
        raise PageError(f"{shown(url)}: found {count} card{'s' * (count != 1)} "
                        f"(a Daily SET page has {CARDS}, numbered 1 to {CARDS})")
    return Board(url, layout, tuple(found[p] for p in range(1, CARDS + 1)))


def _position(digits: str, url: str, where: str) -> int:
    """A card's number as the page writes it (cardClicked(n), name="cardN"): 1 to CARDS."""
    try:
        return whole_number(digits, 1, CARDS, f"{shown(url)}: the number in {where}")
    except OutOfBounds as exc:
        raise PageError(str(exc)) from None


@dataclass(frozen=True)
class Download:
    url: str  # where the bytes came from, after any redirects
    body: bytes
    content_type: str


def fetch_page(url: str, session: requests.Session | None = None,
               timeout: tuple[float, float] = TIMEOUT) -> Download:
    """The page as served (requests; no scripts run). Parse `body` against `url`: bs4 finds
    its encoding, and relative links count from where a redirect led."""
    page = _get(session or new_session(), url, MAX_PAGE_BYTES, "page", timeout)
    if page.content_type and "html" not in page.content_type.lower():
        raise PageError(f"page {shown(page.url)}: {page.content_type}, not an HTML page")
    return page


def new_session() -> requests.Session:
    session = requests.Session()
    retry = Retry(total=RETRIES, connect=RETRIES, read=RETRIES, backoff_factor=0.2,
                  status_forcelist=(500, 502, 503, 504), allowed_methods=("GET",))
    adapter = HTTPAdapter(max_retries=retry, pool_maxsize=CARDS)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    session.headers["User-Agent"] = "webbot (Daily SET)"
    return session


def _read_environment_once(session: requests.Session, url: str) -> requests.Session:
    """`session` with what the environment says for `url`'s site (its proxy, a CA bundle) read
    now: requests reads the environment again at every request, a third of a local download's
    time. (The images are all on the page's site.)"""
    settings = session.merge_environment_settings(url, {}, None, None, None)
    session.trust_env = False
    session.proxies, session.verify = settings["proxies"], settings["verify"]
    return session


class ImageFetcher:
    """Downloads card images from the page's own site. Images from a remote site are kept in a
    disk cache keyed by a hash of the URL (no name taken from a page ever becomes a path);
    a local server's are not, as its port, and so every URL, changes from run to run."""

    def __init__(self, page_url: str, cache_dir: Path | None = None,
                 session: requests.Session | None = None,
                 timeout: tuple[float, float] = TIMEOUT, use_cache: bool | None = None) -> None:
        self.origin = _origin(page_url)
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir() / "daily-set"
        self.session = session or _read_environment_once(new_session(), page_url)
        self.timeout = timeout
        self.local = urlsplit(page_url).hostname in ("127.0.0.1", "localhost", "::1")
        self.use_cache = not self.local if use_cache is None else use_cache

    def fetch(self, url: str) -> bytes:
        return self.fetch_picture(url)[0]

    def fetch_picture(self, url: str) -> tuple[bytes, np.ndarray]:
        """The image's bytes and its pixels as the gate decoded them (OpenCV's
        IMREAD_UNCHANGED: alpha and 16 bits kept), decoded once."""
        cached = self._cache_path(url)
        if self.use_cache and _origin(url) == self.origin and cached.is_file():
            try:  # the gate, as a download's: a file damaged or put there is fetched again
                data = read_bytes(cached, MAX_IMAGE_BYTES)
                return data, decode_image(data, str(cached), cv2.IMREAD_UNCHANGED)
            except InputError:
                pass
        data = _get(self.session, url, MAX_IMAGE_BYTES, "card image", self.timeout,
                    self.origin).body
        pixels = picture_of(data, url)
        if self.use_cache:
            self._store(cached, data)
        return data, pixels

    def fetch_all(self, urls: list[str]) -> list[bytes]:
        return [data for data, _ in self.fetch_pictures(urls)]

    def fetch_pictures(self, urls: list[str], given: dict[str, bytes] | None = None
                       ) -> list[tuple[bytes, np.ndarray]]:
        """The images, in order: those `given` (the browser's copy of what the page loaded)
        through the same gate as a download, on the page's own site only; the others
        downloaded, a remote site's side by side, a local server's one after another (it
        answers at once; threads only take turns at the interpreter, the replica's server
        running in this process too)."""
        given = {url: data for url, data in (given or {}).items()
                 if _same_origin(url, self.origin) and len(data) <= MAX_IMAGE_BYTES}

        def picture(url: str) -> tuple[bytes, np.ndarray]:
            return (given[url], picture_of(given[url], url)) if url in given \
                else self.fetch_picture(url)

        if self.local or all(url in given for url in urls):
            return [picture(url) for url in urls]
        with ThreadPoolExecutor(max_workers=6) as pool:
            return list(pool.map(picture, urls))

    def _cache_path(self, url: str) -> Path:
        return self.cache_dir / hashlib.sha256(url.encode()).hexdigest()

    def _store(self, path: Path, data: bytes) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent)
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except OSError:
            pass  # a read-only cache only costs a download next time


def picture_of(data: bytes, url: str) -> np.ndarray:
    """The one picture gate: a card image's pixels (OpenCV's IMREAD_UNCHANGED: alpha and 16
    bits kept); a picture declaring absurd dimensions is never decoded."""
    try:
        return decode_image(data, f"card image {shown(url)}", cv2.IMREAD_UNCHANGED)
    except InputError as exc:
        raise PageError(f"{exc} ({len(data)} bytes)") from None


def _same_origin(url: str, origin: str) -> bool:
    try:
        return _origin(url) == origin
    except PageError:
        return False


def _origin(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PageError(f"{shown(url)}: only http(s) URLs are fetched")
    try:
        port = parts.port or {"http": 80, "https": 443}[parts.scheme]
    except ValueError:
        raise PageError(f"{shown(url)}: not a valid URL") from None
    return f"{parts.scheme}://{parts.hostname}:{port}"


def _get(session: requests.Session, url: str, limit: int, what: str,
         timeout: tuple[float, float], origin: str | None = None) -> Download:
    """GET, following redirects by hand so that, with `origin`, every hop stays on that site."""
    for _ in range(MAX_REDIRECTS + 1):
        here = _origin(url)  # refuses anything but http(s)
        if origin is not None and here != origin:
            raise PageError(f"{what} {shown(url)} is not on the page's site ({origin})")
        try:
            with session.get(url, timeout=timeout, stream=True,
                             allow_redirects=False) as response:
                if response.is_redirect:
                    url = urljoin(url, response.headers["Location"])
                    continue
                if response.status_code != 200:
                    raise PageError(f"{what} {shown(url)}: HTTP {response.status_code}")
                declared = response.headers.get("Content-Length", "")
                # (a header that is not digits is no length: what comes is counted)
                if declared.isascii() and declared.isdigit():
                    try:
                        whole_number(declared, 0, limit, "Content-Length")
                    except OutOfBounds:
                        raise PageError(f"{what} {shown(url)}: {shown(declared, SHOWN_DIGITS)} "
                                        f"bytes, more than {limit}") from None
                body = bytearray()
                for chunk in response.iter_content(64 * 1024):
                    body += chunk
                    if len(body) > limit:
                        raise PageError(f"{what} {shown(url)}: more than {limit} bytes")
                return Download(url, bytes(body), response.headers.get("Content-Type", ""))
        except requests.RequestException as exc:
            raise PageError(f"{what} {shown(url)}: cannot load ({_reason(exc)})") from None
    raise PageError(f"{what} {shown(url)}: more than {MAX_REDIRECTS} redirects")


def _reason(error: requests.RequestException) -> str:
    """In words, what went wrong; retries wrap the cause, so the text is searched."""
    text = str(error)
    if isinstance(error, requests.Timeout) or "timed out" in text:
        return "timed out"
    if isinstance(error, requests.exceptions.RetryError):
        return f"server errors on all {RETRIES + 1} tries"
    if "refused" in text.lower():
        return "connection refused"
    return type(error).__name__
