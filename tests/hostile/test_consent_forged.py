"""A page that speaks the consent library's protocol itself: the library's binding takes
messages from any script in the page's world. Forged answers, floods of errors, the rules asked
for again and again, code sent to be run, fields of the wrong types and huge messages: the game
is still played, no consent answer is claimed that the bot did not see happen, and the engine's
memory of it all stays bounded. Outcomes are read through the pages' test hooks, which the bot
never reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import webbot.consent
import webbot.consent.engine as engine_module
from tests.conftest import in_own_thread, run_webbot, sweep
from tests.test_portal import PORTAL
from webbot.browser import BrowserOptions
from webbot.consent.engine import MAX_ERRORS, MAX_INITS, MAX_MESSAGES, Engine, find_library
from webbot.consent.messages import MAX_CHARS, checked
from webbot.play import play as run_loop
from webbot.puzlogic.bot import player
from webbot.server import FixtureServer
from webbot.session import RunOptions, game_session

PAGES = Path(__file__).parent / "pages"
FORGER = PAGES / "consent-forger.js"
FORGED = "FORGED-CMP"
LIBRARY = find_library()
needs_library = pytest.mark.skipif(LIBRARY is None, reason="autoconsent is not installed "
                                                           "(bash scripts/setup.sh)")
# Every attack but the floods, which use up the frame's message budget (after which nothing
# it says is read, so the other attacks would prove nothing).
QUIET = "optout,init,eval,types,deep,impostor"


@pytest.fixture(scope="module")
def hostile_url():
    with FixtureServer(PAGES) as server:
        yield server.url


def forged_page(hostile_url: str, fixtures_url: str, attack: str) -> str:
    return (f"{hostile_url}consent-forged.html?attack={attack}"
            f"&game={fixtures_url}puzlogic/index.html%3Fseed%3D4")


def play(url: str, reader) -> tuple[list[str], bool, dict]:
    """Level 1 of the bundled Puzlogic at `url`: what the bot said (what the chain says after
    the page's forging is over included), whether the level was completed, and what the page
    saw: its hooks, and the engine's bounds."""
    said: list[str] = []
    options = RunOptions(url=url, browser=BrowserOptions(viewport=(1280, 900)),
                         find_timeout_s=40)

    def go():
        with game_session(options, PORTAL) as session:
            playable = player(session, [1], reader=reader, report=said.append)
            bot = playable.bot
            run_loop(playable)
            page = session.page
            page.wait_for_function("window.__consentTest && window.__consentTest.done",
                                   timeout=30_000)
            chain = session.consent
            said.extend(chain.news())
            seen = {"test": page.evaluate("window.__consentTest"),
                    "pwned": page.evaluate("window.__pwned === undefined ? null : true"),
                    "title": page.title(),
                    "errors": len(chain.engine.errors) if chain.engine else 0,
                    "portal": page.evaluate("window.__portalTest || null")}
            return said, [r.result for r in bot.results] == ["completed"], seen

    return in_own_thread(go)


def forged_lines(said: list[str]) -> list[str]:
    return [line for line in said if FORGED in line or "PWNED" in line]


@needs_library
@pytest.mark.parametrize("attack", sweep([QUIET, "impostor", "optout", "errors", "init", "eval",
                                          "types", "huge", "deep"],
                                         lambda attack: attack == QUIET))
def test_a_page_that_forges_the_library_s_messages_is_not_believed(hostile_url, fixtures_url,
                                                                    reader, attack):
    said, played, seen = play(forged_page(hostile_url, fixtures_url, attack), reader)
    assert played, said
    # No dialog was there: nothing is said of consent, least of all the page's words.
    assert not forged_lines(said) and not [x for x in said if x.startswith("consent: ")], said
    test = seen["test"]
    assert test["sent"] > 0  # the forging happened
    assert seen["pwned"] is None and seen["title"] != "PWNED"  # no eval was ever run
    assert test["evalResps"] == 0
    assert test["initResps"] <= 1  # the rules went to this document once at most
    assert seen["errors"] <= MAX_ERRORS


@needs_library
def test_a_flooding_page_ends_in_a_played_level_with_nothing_forged_said(hostile_url,
                                                                       fixtures_url):
    """The real command, every attack at once (floods, megabytes): it plays and ends."""
    done = run_webbot("puzlogic", "--url", forged_page(hostile_url, fixtures_url, "all"),
                      "--levels", "1", timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "completed" in done.stdout and "consent:" not in done.stdout, done.stdout
    assert FORGED not in done.stdout + done.stderr


@needs_library
def test_a_real_dialog_is_still_reported_by_its_own_name_among_forged_messages(
        fixtures_url, reader, monkeypatch):
    """The portal's OneTrust dialog, with a script of the page's own (before any other) that
    says FORGED-CMP was found and declined, again and again: the dialog is declined and said
    so once, never under the page's name."""
    install = webbot.consent.install
    forger = f"if (window === window.top) {{ window.__consentAttacks = ['optout'];\n" \
             f"{FORGER.read_text()}\n}}"

    def install_with_forger(context):
        chain = install(context)
        context.add_init_script(script=forger)
        return chain

    monkeypatch.setattr(webbot.consent, "install", install_with_forger)
    url = f"{fixtures_url}{PORTAL}?game=puzlogic&banner=0&consent=onetrust&seed=4"
    said, played, seen = play(url, reader)
    assert played and seen["portal"]["consent"] == "declined", said
    consent = [line for line in said if line.startswith("consent: ")]
    assert len(consent) == 1 and ", declined (" in consent[0], said
    assert not forged_lines(said), said
    # The library's name for it, the bot's own, or none when names conflict; never the page's.
    assert re.match(r"consent: (onetrust|a consent dialog), ", consent[0].lower()), said


@needs_library
def test_a_message_of_any_depth_or_size_through_the_binding_is_taken_or_refused(browser):
    """Sent by the page's own script to window.autoconsentSendMessage (the gate in the page,
    consent_gate.js): a message nested hundreds or thousands deep (past what the page can
    serialise, its own call fails) or megabytes long is refused, the engine and the page go on,
    and a message the protocol allows is taken."""
    context = browser.new_context()
    try:
        engine = Engine(LIBRARY)
        engine.install(context)
        page = context.new_page()
        page.goto("data:text/html,<p>a page")
        send = """([depth, size]) => {
            const deep = {};
            for (let i = 0, at = deep; i < depth; i++) at = at.inner = {};
            try {
              const sent = window.autoconsentSendMessage(
                  {type: "autoconsentError", details: {deep, pad: "x".repeat(size)}});
              const never = new Promise(done => setTimeout(() => done("no answer"), 10000));
              return Promise.race([sent.then(() => "taken", () => "refused"), never]);
            } catch (tooDeep) { return "not sent"; }
        }"""
        before = len(engine.errors)
        for depth, size in ((300, 0), (1_000, 0), (1_300, 0), (5_000, 0), (200_000, 0),
                            (1, 20_000_000)):
            assert page.evaluate(send, [depth, size]) != "no answer", (depth, size)
            assert len(engine.errors) == before, (depth, size)
            assert page.evaluate("1 + 1") == 2
        page.evaluate(send, [3, 10])
        assert len(engine.errors) == before + 1  # (a message of the protocol is read)
        # A flood: what passes the gate is answered before the page's promises settle.
        page.evaluate("""() => Promise.all(Array.from({length: 5000}, (_, i) =>
            window.autoconsentSendMessage({type: "autoconsentError", details: i})))""")
        [frame] = engine.budgets
        assert MAX_MESSAGES - 20 <= engine.budgets[frame].messages <= MAX_MESSAGES
    finally:
        context.close()


def test_the_vendor_is_named_only_when_the_bot_saw_its_own_popup(engine):
    from webbot.consent.engine import FrameState

    def said(**state) -> str:
        return engine.line(FrameState("https://example.org/", result="declined", **state))

    assert said(answered="Onetrust", names={"Onetrust"}, seen_own="Onetrust").startswith(
        "consent: Onetrust, declined")
    assert said(answered="Onetrust", names={"Onetrust"}, seen_own=None).startswith(
        "consent: a consent dialog, declined")  # (only its consent buttons were seen)
    assert said(answered="Onetrust", names={"Onetrust", FORGED}, seen_own="Onetrust"
                ).startswith("consent: a consent dialog, declined")
    assert said(answered=FORGED, names={FORGED}, seen_own="Onetrust").startswith(
        "consent: a consent dialog, declined")


def test_a_vendor_s_popup_is_known_by_its_rule_s_selectors():
    if LIBRARY is None:
        pytest.skip("autoconsent is not installed (bash scripts/setup.sh)")
    from webbot.consent.engine import popup_selectors

    assert "#onetrust-banner-sdk" in popup_selectors(LIBRARY.root, "Onetrust")
    assert popup_selectors(LIBRARY.root, FORGED) == ()
    assert popup_selectors(LIBRARY.root, None) == ()


# Without a browser: the engine itself, fed what a page can send.

class FakeDocument:
    """A frame's document, through which the engine answers it."""

    def __init__(self, frame: FakeFrame) -> None:
        self.frame = frame

    def as_element(self) -> FakeDocument:
        return self

    def evaluate(self, script: str, arg=None):
        self.frame.scripts.append(script)
        if "autoconsentReceiveMessage" in script:
            self.frame.sent.append(json.loads(arg))


class FakeFrame:
    """A top frame that records what the engine sends it and says one document holds on."""

    parent_frame = None
    url = "https://example.org/"

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.scripts: list[str] = []

    def evaluate(self, script: str, arg=None):
        self.scripts.append(script)
        return script == "d => d === document"

    def evaluate_handle(self, script: str, arg=None):
        return FakeDocument(self)

    def is_detached(self) -> bool:
        return False


def say(engine: Engine, frame: FakeFrame, message: object) -> None:
    """A message as the page's gate sends it: its JSON text (consent_gate.js)."""
    engine._on_message({"frame": frame}, json.dumps(message))


@pytest.fixture
def engine(monkeypatch) -> Engine:
    if LIBRARY is None:
        pytest.skip("autoconsent is not installed (bash scripts/setup.sh)")
    monkeypatch.setattr(engine_module, "dialog_in",  # no dialog shows
                        lambda frame, popup=(): ([], False))
    # The fakes are asked directly, not through the deadline (webbot.answer) a real page's
    # calls go through.
    monkeypatch.setattr(engine_module, "evaluate",
                        lambda target, script, arg=None: target.evaluate(script, arg))
    monkeypatch.setattr(engine_module, "evaluate_handle",
                        lambda target, script, arg=None: target.evaluate_handle(script, arg))
    return Engine(LIBRARY)


def test_init_is_answered_once_a_document_and_eval_never(engine):
    frame = FakeFrame()
    for _ in range(5):
        say(engine, frame, {"type": "init", "url": frame.url})
    say(engine, frame, {"type": "eval", "id": "1", "code": "window.x = 1"})
    assert [m["type"] for m in frame.sent] == ["initResp"]
    assert not any("window.x" in script for script in frame.scripts)


def test_a_claimed_answer_without_a_dialog_seen_is_not_reported(engine):
    frame = FakeFrame()
    say(engine, frame, {"type": "init", "url": frame.url})
    for kind in ("cmpDetected", "popupFound"):
        say(engine, frame, {"type": kind, "cmp": FORGED})
    say(engine, frame, {"type": "optOutResult", "cmp": FORGED, "result": True})
    say(engine, frame, {"type": "autoconsentDone", "cmp": FORGED, "isCosmetic": True})
    assert engine.step() == [] and not engine.busy()
    assert [m["type"] for m in frame.sent] == ["initResp"]  # not asked to decline, nor accept


def test_a_frame_s_messages_and_the_error_list_are_bounded(engine):
    frame = FakeFrame()
    for i in range(MAX_MESSAGES * 3):
        say(engine, frame, {"type": "autoconsentError", "details": i})
    assert len(engine.errors) == MAX_ERRORS
    assert json.loads(engine.errors[-1]) < MAX_MESSAGES  # the rest were not read
    # A new document after the frame used its budget gets no rules.
    say(engine, frame, {"type": "init", "url": frame.url})
    assert frame.sent == []


def test_only_a_message_s_json_text_is_read(engine):
    """What the page's gate sends (consent_gate.js); anything else came past it, straight to
    the binding, and is not read: an object, text that is not JSON or nests past Python's
    reading, text longer than a message may be."""
    frame = FakeFrame()
    for raw in ({"type": "init", "url": frame.url}, "{not json", "[" * 3000 + "]" * 3000,
                json.dumps({"type": "init", "url": frame.url, "pad": " " * MAX_CHARS})):
        engine._on_message({"frame": frame}, raw)
    assert frame.sent == []
    say(engine, frame, {"type": "init", "url": frame.url})
    assert [m["type"] for m in frame.sent] == ["initResp"]


def test_rules_go_to_at_most_max_inits_documents_of_a_frame(engine, monkeypatch):
    monkeypatch.setattr(engine_module, "_same_document", lambda frame, document: False)
    frame = FakeFrame()
    for _ in range(MAX_INITS + 5):
        say(engine, frame, {"type": "init", "url": frame.url})
    assert len(frame.sent) == MAX_INITS


@pytest.mark.parametrize("message", [
    {"type": "optOutResult", "cmp": 5, "result": True},
    {"type": "optOutResult", "cmp": FORGED, "result": "true"},
    {"type": "optOutResult", "cmp": FORGED, "result": 1},
    {"type": "optOutResult", "cmp": "x" * 101, "result": True},
    {"type": "optOutResult", "cmp": FORGED, "result": True, "pad": "x" * MAX_CHARS},
    {"type": "popupFound", "cmp": None},
    {"type": "init", "url": 7},
    {"type": "report", "state": "done"},
    {"type": "initResp", "config": {}},
    {"type": "OPTOUTRESULT", "cmp": FORGED, "result": True},
    None, "init", [1, 2], 12,
])
def test_messages_outside_the_protocol_are_dropped(message):
    assert checked(message) is None


def test_the_library_s_own_messages_pass():
    for message in [
        {"type": "init", "url": "https://example.org/"},
        {"type": "report", "instanceId": "a", "url": "u", "mainFrame": True,
         "state": {"lifecycle": "cmpDetected", "detectedCmps": ["x"], "clicks": 0}},
        {"type": "popupFound", "cmp": "Onetrust", "url": "u"},
        {"type": "optOutResult", "cmp": "Onetrust", "result": True, "scheduleSelfTest": False,
         "url": "u"},
        {"type": "autoconsentDone", "cmp": "Onetrust", "isCosmetic": False, "url": "u",
         "duration": 12, "totalClicks": 1},
        {"type": "autoconsentError", "details": {"msg": "Found multiple CMPs", "cmps": []}},
    ]:
        assert checked(message) is not None, message
