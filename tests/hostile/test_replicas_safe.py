"""The bundled replicas are safe to serve to the user's own browser (`webbot serve` opens them
there, on 127.0.0.1): every page under fixtures/ is loaded with script in every query parameter
it reads, in its hash and in messages posted to each of its frames, and none of that script
runs, no frame is sent to a javascript: (or any other) address off the fixture server.

The parameters a page reads are found by scanning the page and the scripts it loads, so a new
parameter is covered without editing this test; a page that reads its address in a way the
scan cannot name fails."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import quote, unquote, urlencode, urlsplit

import pytest
from playwright.sync_api import Page

from webbot.server import fixtures_root

FIXTURES = fixtures_root()
PAGES = sorted(path.relative_to(FIXTURES).as_posix() for path in FIXTURES.rglob("*")
               if path.suffix in (".html", ".htm"))

# What an injected script does: call the function the test exposes, or alert where it is not.
RUN = "(self.__pwned||alert)(7466)"
# Every context at once: an address, markup, a string in a script.
POLYGLOT = f"javascript:{RUN}//\"><script>{RUN}</script><img src=x onerror={RUN}>'-{RUN}-'"
# With the addresses a check might let through: a disguised scheme, data:, another site.
PAYLOADS = [POLYGLOT, f" \tJaVaScRiPt:{RUN}//", f"data:text/html,<script>{RUN}</script>",
            "//example.invalid/puzlogic/index.html"]

SEARCH = r"(?:window\.|document\.)?location\.search"
LITERAL_READ = re.compile(r"\.(?:get|has|getAll)\(\s*[\"']([^\"']+)[\"']\s*\)")
REGEX_NAME = re.compile(r"\[\?&\]([A-Za-z_][\w-]*)=")
SCRIPT_SRC = re.compile(r"<script\b[^>]*\bsrc=[\"']([^\"']+)[\"']", re.IGNORECASE)
# A regular expression literal tested against (or run on) `subject`.
REGEX_ON = r"/((?:\\.|[^/\n])+)/[a-z]*\.(?:test|exec)\(\s*{subject}"


@dataclass
class Scan:
    """What a page's code reads of its address: parameter names, whether it passes every
    parameter on (to the game it frames), and the reads it could not name."""

    names: set[str] = field(default_factory=set)
    forwards: bool = False
    unnamed: list[str] = field(default_factory=list)


def page_sources(page: str) -> dict[str, str]:
    """The page's own text and each local script it loads, by path."""
    path = FIXTURES / page
    sources = {page: path.read_text(encoding="utf-8")}
    for src in SCRIPT_SRC.findall(sources[page]):
        script = (path.parent / src).resolve()
        if script.is_file() and script.is_relative_to(FIXTURES.resolve()):
            sources[script.relative_to(FIXTURES.resolve()).as_posix()] = script.read_text(
                encoding="utf-8")
    return sources


def function_body(code: str, start: int) -> str:
    """The braces-delimited body that begins at or after `start`."""
    depth, begin = 0, code.index("{", start)
    for at in range(begin, len(code)):
        depth += {"{": 1, "}": -1}.get(code[at], 0)
        if depth == 0:
            return code[begin:at + 1]
    return code[begin:]


def regex_names(code: str, subject: str, where: str, scan: Scan) -> int:
    """Names from regular expressions run on `subject`; each one without a name is unnamed."""
    found = 0
    for match in re.finditer(REGEX_ON.format(subject=subject), code):
        names = REGEX_NAME.findall(match.group(1))
        if not names:
            scan.unnamed.append(f"{where}: /{match.group(1)}/")
        scan.names.update(names)
        found += 1
    return found


def scan_file(code: str, where: str, sources: dict[str, str], scan: Scan) -> None:
    reads = len(re.findall(SEARCH, code))
    # params = new URLSearchParams(location.search): each use of `params` must name a parameter.
    for match in re.finditer(rf"(\w+)\s*=\s*new URLSearchParams\(\s*{SEARCH}\s*\)(?!\s*\.)", code):
        reads -= 1
        variable = match.group(1)
        for use in re.finditer(rf"(?<![\w.]){variable}\b(?=(.{{0,60}}))", code[match.end():]):
            after = use.group(1)
            named = LITERAL_READ.match(after)
            if named:
                scan.names.add(named.group(1))
            elif after.startswith(".forEach("):
                scan.forwards = True
            else:
                scan.unnamed.append(f"{where}: {variable}{after[:30]}")
    # new URLSearchParams(location.search).get("name")
    for match in re.finditer(rf"new URLSearchParams\(\s*{SEARCH}\s*\)(\.[^;\n]{{0,40}})", code):
        named = LITERAL_READ.match(match.group(1))
        if named:
            scan.names.add(named.group(1))
            reads -= 1
    # /[?&]name=.../.test(location.search)
    reads -= regex_names(code, SEARCH, where, scan)
    # fromQuery(location.search): the function's own regular expressions on its argument.
    for match in re.finditer(rf"(\w+)\(\s*{SEARCH}\s*\)", code):
        if match.group(1) in ("URLSearchParams", "test", "exec"):
            continue
        reads -= 1
        everything = "\n".join(sources.values())
        defined = re.search(rf"function\s+{match.group(1)}\s*\(\s*(\w+)\s*\)", everything)
        if not defined:
            scan.unnamed.append(f"{where}: {match.group(0)}")
            continue
        body = function_body(everything, defined.end())
        argument = defined.group(1)
        uses = len(re.findall(rf"(?<![\w.]){argument}\b", body))
        if regex_names(body, rf"{argument}\b", where, scan) < uses or not uses:
            scan.unnamed.append(f"{where}: {match.group(1)}({argument}) reads it otherwise")
    if reads > 0:
        scan.unnamed.append(f"{where}: location.search read in a way the test cannot name")


@cache
def scanned(page: str) -> Scan:
    scan = Scan()
    sources = page_sources(page)
    for where, code in sources.items():
        scan_file(code, where, sources, scan)
    return scan


@cache
def every_name() -> frozenset[str]:
    return frozenset(name for page in PAGES for name in scanned(page).names)


def names_to_attack(page: str) -> list[str]:
    """The page's own parameters, and, when it passes its parameters on to the game it frames,
    every parameter any replica reads."""
    scan = scanned(page)
    return sorted(every_name() if scan.forwards else scan.names)


class Watch:
    """What the payloads could do in the page: call __pwned, open a dialog."""

    def __init__(self, page: Page) -> None:
        self.ran: list[str] = []
        page.expose_function("__pwned", lambda value: self.ran.append(f"__pwned({value})"))
        page.on("dialog", self._dialog)

    def _dialog(self, dialog) -> None:
        self.ran.append(f"{dialog.type}({dialog.message})")
        dialog.dismiss()


# Resolves once `last` is heard (messages from one sender arrive in order, so the page's
# handlers have seen every earlier one by then); fails if it is not heard within 10 s.
HEARD = """last => new Promise((done, fail) => {
  addEventListener("message", event => { if (event.data === last) done(); });
  setTimeout(() => fail(new Error("the last message never came")), 10000);
})"""
# Posts `payload` as messages to the frame itself.
POST = f"""payload => {{
  const heard = ({HEARD})("replicas-safe-last");
  for (const message of [payload, {{name: "sp.hideMessage", answer: payload}}, {{data: payload}}])
    postMessage(message, "*");
  postMessage("replicas-safe-last", "*");
  return heard;
}}"""
FRAME_SOURCES = "() => [...document.querySelectorAll('iframe, frame')].map(f => f.src)"


def on_fixture_server(address: str, port: int) -> bool:
    parts = urlsplit(address)
    return (parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost")
            and parts.port == port)


def attacks(name: str) -> list[tuple[str, str | None]]:
    """(query and hash, payload to post as messages): the page with each payload in every
    parameter it reads, in its hash and in messages, then with the polyglot in each parameter
    alone (so that no other one hides its read, as ?generate= hides Puzlogic's ?levels=)."""
    every = names_to_attack(name)
    found = [(f"?{urlencode(dict.fromkeys(every, payload))}#{quote(payload)}", payload)
             for payload in PAYLOADS]
    return found + [(f"?{urlencode({key: POLYGLOT})}", None) for key in sorted(scanned(name).names)]


def load_attacked(page: Page, address: str, message: str | None, port: int,
                  watch: Watch) -> None:
    """Loads the address, posts the message to each frame, and checks that no injected script
    ran and that every frame is (and is sent to) a page of the fixture server."""
    page.goto(address, wait_until="load", timeout=30_000)
    sources = []
    for frame in page.frames:
        if not frame.is_detached():
            if message is not None:
                frame.evaluate(POST, message)
            sources += frame.evaluate(FRAME_SOURCES)
    assert not watch.ran, f"injected script ran: {watch.ran}"
    for source in sources:
        assert on_fixture_server(source, port) or source in ("", "about:blank"), \
            f"a frame's address is {source!r}"
    for frame in page.frames:
        assert frame.url in ("", "about:blank") or on_fixture_server(frame.url, port), \
            f"a frame went to {frame.url!r}"


def test_the_scan_finds_the_parameters_the_tests_and_the_bot_use():
    """A scan that found nothing would make the attack below prove nothing."""
    assert {"game", "width", "height"} <= scanned("portal/frame.html").names
    assert {"seed", "coins", "scene", "pinata", "size"} <= scanned("burrito-bison/index.html").names
    assert {"level", "levels", "generate", "leaves"} <= scanned("puzlogic/index.html").names
    assert {"seed", "remember"} <= scanned("daily-set/puzzle/set.htm").names
    assert {"seed", "remember", "consent"} <= scanned("daily-set/set/puzzle/index.html").names
    assert {"time"} <= scanned("daily-set/you_completed_todays_puzzle.htm").names
    portal = scanned("portal/index.html")
    assert {"game", "consent", "cover", "size"} <= portal.names and portal.forwards


@pytest.mark.parametrize("name", PAGES)
def test_a_replica_page_runs_no_script_from_its_address(fixtures_url, page, name):
    scan = scanned(name)
    assert not scan.unnamed, f"{name} reads parameters the test cannot name: {scan.unnamed}"
    watch = Watch(page)
    for attack, message in attacks(name):
        try:
            load_attacked(page, f"{fixtures_url}{name}{attack}", message,
                          urlsplit(fixtures_url).port, watch)
        except AssertionError as failure:
            raise AssertionError(f"{name}{unquote(attack)}: {failure}") from None


@pytest.mark.parametrize("code", [
    'const params = new URLSearchParams(location.search); const n = params.get(name);',
    'var query = new URLSearchParams(window.location.search); use(query);',
    'var rest = location.search.slice(1);',
    'var m = /seed=(\\d+)/.exec(location.search);',
    'function read(search) { return search.split("&"); } read(location.search);',
])
def test_a_read_the_scan_cannot_name_is_found(code):
    scan = Scan()
    scan_file(code, "page.html", {"page.html": code}, scan)
    assert scan.unnamed


def test_a_portal_takes_only_a_known_answer_from_its_consent_frame(fixtures_url, page):
    """The Sourcepoint message frame answers the portal by postMessage: what it sends is a
    word the portal checks, never markup or an address."""
    watch = Watch(page)
    page.goto(f"{fixtures_url}portal/index.html?game=puzlogic&banner=0&consent=sourcepoint")
    message = page.frame_locator("#sp_message_iframe_1096342").locator("#notice")
    message.wait_for()
    frame = next(frame for frame in page.frames if "/us_pm/" in frame.url)
    for answer in [*PAYLOADS, "declined"]:
        # (in a box: a handle to the promise itself, not awaited yet)
        heard = page.evaluate_handle(f"last => ({{heard: ({HEARD})(last)}})", "replicas-safe-last")
        frame.evaluate("""answer => {
          parent.postMessage({name: "sp.hideMessage", answer: answer}, "*");
          parent.postMessage("replicas-safe-last", "*");
        }""", answer)
        page.evaluate("box => box.heard", heard)
        expected = "declined" if answer == "declined" else None
        assert page.evaluate("window.__portalTest.consent") == expected
    assert not watch.ran
