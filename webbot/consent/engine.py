"""DuckDuckGo's autoconsent, the first link of the consent chain: about 800 rules for hundreds
of consent managers, kept up to date by its makers, run in every frame of the page.

How it is driven (the library's own Playwright runner does the same): its Playwright bundle
is an init script of the browser context, so it runs in every frame, cross-site ones and
ones that appear later; it talks to the bot through one exposed binding. Each message is
answered in the frame that sent it: `init` with the config and the rules that can run in that
frame. It opts out, and opts in only where opting out failed.

The binding takes messages from any script in the page's world, so a gate in the page lets a
document send a bounded number of them, each as JSON text of bounded length
(page_scripts/consent_gate.js: a flood stays in the page's renderer, off the bot's connection),
what comes through is checked (`messages.py`) and bounded per frame, and what it claims is not
simply believed: the library waits for the bot's word before it answers a dialog it found
(`autoAction` null), and the bot gives it only for a dialog it sees itself (`look.py`: the
vendor's own popup, by the selectors of the library's rule for it, else its consent buttons);
that a dialog was answered is said only when the bot saw that dialog gone (webbot.consent),
and the vendor is named only when the bot saw the vendor's own popup go. A script that finds
the binding past the gate (through Playwright's own objects in the page) may still send
anything, nested as deep as the page can (Playwright's client reads a binding's argument
recursively: see READING_DEPTH): only JSON text is read, its depth checked first.

The bundle runs in the page's main world, so the config says `isMainWorld`: the engine then
runs its rule snippets itself instead of asking the bot (no `eval` round trip, whose 1 s limit
a busy bot could miss); an `eval` message is never answered. With Playwright's sync API, a
binding callback may call `frame.evaluate` (no deadlock); messages wait while the bot is not
inside a Playwright call, so every wait in the bot is a Playwright wait.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import threading
import time
from collections import deque
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, ElementHandle, Error, Frame, JSHandle, Page

from webbot.answer import NoAnswer, evaluate, evaluate_handle
from webbot.consent.look import dialog_in
from webbot.consent.messages import MAX_CHARS, Done, Failure, Found, Init, Report, Result, checked
from webbot.page_scripts import page_script
from webbot.shown import shown

PACKAGE = "@duckduckgo/autoconsent"
# Where scripts/setup.sh installs it (npm ci beside package.json); WEBBOT_AUTOCONSENT names
# another install (the folder holding node_modules/), or "off".
HERE = Path(__file__).parent
CONFIG = {
    "enabled": True,
    "autoAction": None,  # it waits for the bot's optOut, given for a dialog the bot sees
    "disabledCmps": [],
    "enablePrehide": False,  # hidden-but-open dialogs would still swallow the game's clicks
    "enableCosmeticRules": True,
    "enableGeneratedRules": True,
    "detectRetries": 20,
    "isMainWorld": True,
    "enablePopupMutationObserver": True,  # late popups (a dialog 5 s after load)
    "enableHeuristicDetection": True,  # unbranded dialogs, by the library's own word lists
    "heuristicMode": "reject",  # ... and only ever to decline
    "logs": {"lifecycle": False, "rulesteps": False, "detectionsteps": False, "evals": False,
             "errors": False, "messages": False, "waits": False},
}
# How long a frame's engine may work on a popup it found before the next link takes over.
PATIENCE_S = 8.0
# What one frame may send (the library sends about 20 messages a document, a page load is two
# documents: about:blank first), and how many of its documents get the rules.
MAX_MESSAGES = 500
MAX_INITS = 20
MAX_ERRORS = 20  # the last ones kept
# Python's recursion limit while a page can send messages: Playwright's client reads (and
# checks) a binding's argument recursively, about 5 Python calls a level of nesting, before the
# binding's callback sees it; a message deeper than the limit allows ends its connection. A
# page's own script cannot send one nested much over a thousand deep (Chromium's stack ends its
# serialising first); Python's calls between Python functions take no C stack.
READING_DEPTH = 50_000


@dataclass(frozen=True)
class Library:
    """An installed copy of the library: its version, bundle and rules."""

    root: Path
    version: str

    @property
    def bundle(self) -> str:
        return (self.root / "dist" / "autoconsent.playwright.js").read_text()

    @property
    def name(self) -> str:
        return f"autoconsent {self.version}"


def find_library() -> Library | None:
    """The installed library, or None (not installed, or turned off)."""
    where = os.environ.get("WEBBOT_AUTOCONSENT", "")
    if where.lower() == "off":
        return None
    base = Path(where) if where else HERE
    root = base / "node_modules" / PACKAGE
    try:
        version = json.loads((root / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None
    if not (root / "dist" / "autoconsent.playwright.js").is_file():
        return None
    return Library(root, str(version))


_READING_RULES = threading.Lock()


def _rules(root: Path) -> tuple[tuple[dict, re.Pattern | None], ...]:
    """The library's rules, each with its URL pattern compiled once (there are more patterns
    than Python's own regex cache holds); read once, whichever thread asks first."""
    with _READING_RULES:
        return _read_rules(root)


@cache
def _read_rules(root: Path) -> tuple[tuple[dict, re.Pattern | None], ...]:
    rules = json.loads((root / "rules" / "rules.json").read_text())["autoconsent"]
    return tuple((rule, _pattern(rule)) for rule in rules)


def read_rules_ahead() -> None:
    """The installed library's rules read on a thread of their own (some 50 ms: 0.7 MB of JSON,
    hundreds of patterns), while the browser starts, rather than in the first page's load."""
    library = find_library()
    if library is not None:
        threading.Thread(target=_rules, args=(library.root,), daemon=True,
                         name="reading consent rules").start()


def _pattern(rule: dict) -> re.Pattern | None:
    pattern = (rule.get("runContext") or {}).get("urlPattern")
    try:
        return re.compile(pattern) if pattern else None
    except re.error:
        return None  # a JavaScript-only pattern: let the library judge it


def rules_for(root: Path, url: str, top: bool) -> list[dict]:
    """The rules that may run in a frame: its place (top page or frame) and its URL; the
    library would drop the others itself, after parsing them in every frame."""
    kept = []
    for rule, pattern in _rules(root):
        where = rule.get("runContext") or {}
        runs_here = where.get("main", True) if top else where.get("frame", False)
        if runs_here and (pattern is None or pattern.search(url)):
            kept.append(rule)
    return kept


# The consent managers the library knows by code of its own rather than by a rule of
# rules.json, with the popup that code detects each by (its detectPopup), as CSS selectors.
CODED_POPUPS = {
    "Onetrust": ("#onetrust-banner-sdk", "#onetrust-pc-sdk"),
    "Cybotcookiebot": ("#CybotCookiebotDialog",),
    "Klaro": (".klaro > .cookie-notice", ".klaro > .cookie-modal"),
    "TrustArc-top": ("#truste-consent-content", "#trustarc-banner-overlay",
                     "#truste-consent-track"),
    "Sourcepoint-frame": ("#notice", ".message-container", ".message"),
    "Conversant": (".cmp-root .cmp-receptacle",),
    "Evidon": ("#_evidon_banner",),
    "Uniconsent": (".unic .unic-box", ".unic .unic-bar", ".unic .unic-modal"),
    "consentmanager.net": ("#cmpbox",),
    "tumblr-com": ("#cmp-app-container",),
    "tiktok.com": (".tiktok-cookie-banner",),
}
# What a rule's detectPopup steps look for: a CSS selector, or a path of them into shadow roots
# and frames (popup_elements.js reads both).
_LOOKS = ("visible", "exists", "waitForVisible", "waitFor")
Selector = str | tuple[str, ...]


def _selector(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and bool(value)
                                      and all(isinstance(part, str) for part in value))


@cache
def _popups(root: Path) -> dict[str, tuple[Selector, ...]]:
    """Each consent manager's popup, as the selectors its rule detects it by."""
    found: dict[str, tuple[Selector, ...]] = {}
    for rule, _ in _rules(root):
        selectors: list[Selector] = []
        steps = list(rule.get("detectPopup") or [])
        while steps:
            step = steps.pop()
            if isinstance(step, list):
                steps += step
            elif isinstance(step, dict):
                selectors += [v if isinstance(v, str) else tuple(v)
                              for k, v in step.items() if k in _LOOKS and _selector(v)]
                steps += [v for k, v in step.items()
                          if isinstance(v, dict | list) and not (k in _LOOKS and _selector(v))]
        if selectors and isinstance(rule.get("name"), str):
            found[rule["name"]] = tuple(dict.fromkeys(selectors))
    return found


def popup_selectors(root: Path, cmp: str | None) -> tuple[Selector, ...]:
    """The CSS selectors the library detects `cmp`'s popup by (none for a name it has no rule
    for)."""
    return CODED_POPUPS.get(str(cmp)) or _popups(root).get(str(cmp), ())


def knows_the_page(rules: list[dict], top: bool) -> bool:
    """Whether the library has rules written for a page: the top page (where nearly all its
    rules run), or a frame one of `rules` names by its address (a consent manager's own
    frame); not a frame that only its few generic frame rules reach."""
    return top or any((rule.get("runContext") or {}).get("urlPattern") for rule in rules)


def vendor_name(cmp: str | None) -> str:
    """The library's name for a consent manager; its word-list detector is not one."""
    return "an unbranded dialog" if str(cmp).startswith("HEURISTIC") else shown(cmp, 100)


@dataclass
class FrameState:
    """What the engine in one frame has said."""

    url: str
    lifecycle: str = "loading"
    cmp: str | None = None
    found: float | None = None  # when it last said it found a popup
    asked: str | None = None  # the reply awaited: optOutResult, or optInResult
    popup_at: float | None = None  # when it was asked
    dialog: list[ElementHandle] = field(default_factory=list)  # what the bot saw as it asked
    answered: str | None = None  # the consent manager its reply named
    result: str | None = None  # declined | accepted | failed | hidden
    opted_in: bool = False  # asked to opt in after its opt-out failed
    reported: bool = False  # the result has been reported
    knows: bool = True  # the library has rules written for this page (knows_the_page)
    document: JSHandle | None = None  # the document whose init was answered
    looking: bool = False  # the bot is looking for the dialog it said it found
    popup: str | None = None  # the consent manager whose popup it last said it found
    seen_own: str | None = None  # ... whose own popup the bot saw as it asked
    note: str | None = None  # a reply reported while the dialog stayed
    names: set[str] = field(default_factory=set)  # the popups and replies it named

    def may_ask(self) -> bool:
        """Whether the library may be asked to decline: nothing asked or answered yet."""
        return not (self.asked or self.result or self.reported)


def _parsed(raw: object) -> object:
    """A message as the page's gate sends it (its JSON text; consent_gate.js), else None (sent
    past the gate, straight to the binding)."""
    if not isinstance(raw, str) or len(raw) > MAX_CHARS:
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


@dataclass
class Budget:
    """What one frame has sent, over all its documents."""

    messages: int = 0
    inits: int = 0
    starting: bool = False  # an init is being answered
    pending: str | None = None  # the address of an init that came meanwhile


@dataclass
class Engine:
    """The library installed on a browser context; what it did, frame by frame."""

    library: Library
    frames: dict[Frame, FrameState] = field(default_factory=dict)
    budgets: dict[Frame, Budget] = field(default_factory=dict)
    errors: deque[str] = field(default_factory=lambda: deque(maxlen=MAX_ERRORS))

    def install(self, target: BrowserContext | Page) -> None:
        """On a context (every page it opens), or on one page (a tab of the user's browser)."""
        # (before the page opens anything: no page script yet that could keep it waiting)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), READING_DEPTH))
        binding = f"__webbotConsent{secrets.token_hex(8)}"
        target.expose_binding(binding, self._on_message)
        target.add_init_script(script=f"({page_script('consent_gate')})"
                                      f"({json.dumps([binding, MAX_MESSAGES, MAX_CHARS])})")
        target.add_init_script(script=self.library.bundle)

    def _on_message(self, source: dict, raw: object) -> None:
        frame: Frame = source["frame"]
        budget = self.budgets.setdefault(frame, Budget())
        budget.messages += 1
        message = checked(_parsed(raw)) if budget.messages <= MAX_MESSAGES else None
        if message is None:
            return
        state = self.frames.get(frame)
        if isinstance(message, Init):
            self._init(frame, budget, message.url)
            return
        if state is None:
            state = self.frames[frame] = FrameState(frame.url)
        if isinstance(message, Report):
            state.lifecycle = message.state.lifecycle
        elif isinstance(message, Found):
            state.cmp = message.cmp
            if message.type == "popupFound":
                state.found = time.monotonic()
                state.names.add(message.cmp)
                state.popup = message.cmp
                self._ask(frame, state)
        elif isinstance(message, Result) and message.type == state.asked:
            self._replied(state, message)
        elif (isinstance(message, Done) and message.isCosmetic and message.cmp == state.answered
              and not state.reported):
            state.result = "hidden"  # a cosmetic rule hid it: the cover check still looks
        elif isinstance(message, Failure):
            with suppress(TypeError, ValueError, RecursionError):
                self.errors.append(json.dumps(message.details)[:200])

    def _init(self, frame: Frame, budget: Budget, url: str) -> None:
        """A document's rules are sent once: an init from the document (and address) already
        answered is not. One at a time: an init that comes while one is answered (messages are
        handled meanwhile) waits for it, and only the last of those is looked at."""
        budget.pending = url
        if budget.starting:
            return
        budget.starting = True
        try:
            while budget.pending is not None:
                url, budget.pending = budget.pending, None
                state = self.frames.get(frame)
                if (state is None or state.url != (url or frame.url)
                        or not _same_document(frame, state.document)):
                    budget.inits += 1
                    self._start(frame, url, answer=budget.inits <= MAX_INITS)
        finally:
            budget.starting = False

    def _start(self, frame: Frame, url: str, answer: bool) -> None:
        """A new document in the frame: the engine there gets the config and its rules (unless
        the frame has had its MAX_INITS). An init from a site the frame no longer shows came
        from a document gone (the blank one a frame starts with): its answer would reach the
        document after it."""
        if url and _site(url) != _site(frame.url):
            return
        try:
            document = evaluate_handle(frame, _THE_DOCUMENT, url == "about:blank").as_element()
        except (Error, NoAnswer):
            return  # the frame went meanwhile
        if document is None:
            return
        state = self.frames[frame] = FrameState(url or frame.url, document=document)
        if not answer:
            return
        top = frame.parent_frame is None
        rules = rules_for(self.library.root, state.url, top)
        state.knows = knows_the_page(rules, top)
        self._send(state, {"type": "initResp", "config": CONFIG, "rules": {"autoconsent": rules}})

    def _ask(self, frame: Frame, state: FrameState) -> None:
        """The library said it found a popup: it is asked to decline once the bot sees a dialog
        there too (else the word may come from any script in the page, and nothing is done),
        looked for again at each step for PATIENCE_S (a dialog that fades in). Messages that
        come while the bot looks are handled meanwhile: one look at a time, and what they
        changed is looked at after it."""
        if state.found is None or state.looking or not state.may_ask():
            return
        state.looking = True
        try:
            seen, own = dialog_in(frame, popup_selectors(self.library.root, state.popup))
        finally:
            state.looking = False
        if seen and state.may_ask():
            state.asked, state.dialog, state.popup_at = "optOutResult", seen, time.monotonic()
            state.seen_own = state.popup if own else None
            self._send(state, {"type": "optOut"})

    @staticmethod
    def _replied(state: FrameState, message: Result) -> None:
        """The reply to the bot's optOut or optIn, within PATIENCE_S of the ask. The first one
        counts (another may come from any script); "none" says the library had no popup when
        asked (the word that it found one was not its own): asked again at its next word."""
        if (state.result is not None or state.popup_at is None
                or time.monotonic() - state.popup_at >= PATIENCE_S):
            return  # (past its time the next links have the dialog)
        state.asked = None
        if message.cmp == "none":
            state.dialog, state.popup_at = [], None
            return
        state.answered = message.cmp
        state.names.add(message.cmp)
        if message.type == "optOutResult":
            state.result = "declined" if message.result else "failed"
        else:
            state.result = "accepted" if message.result else "failed"

    @staticmethod
    def _send(state: FrameState, message: dict[str, Any]) -> None:
        """To the engine of the document whose state it is, and to no document after it (a
        handle evaluates only in its own document)."""
        if state.document is None:
            return  # a document whose init was not answered: its engine does not run
        # As JSON text: Playwright's own argument encoding of a few hundred rules takes
        # Python most of a second; a string goes across at once.
        # The document went meanwhile, or its script never yields: an error out of an event
        # handler would end the bot's next call.
        with suppress(Error, NoAnswer):
            evaluate(state.document,
                     "(d, m) => void window.autoconsentReceiveMessage(JSON.parse(m))",
                     json.dumps(message))

    def step(self) -> list[tuple[Frame, FrameState]]:
        """The frames whose engine finished since the last call; a failed opt-out is followed
        by an opt-in in that frame (the dialog has no way to decline)."""
        finished = []
        for frame in [f for f in self.budgets if f.is_detached() and f not in self.frames]:
            del self.budgets[frame]
        for frame, state in list(self.frames.items()):
            if frame.is_detached() and (state.reported or not state.result):
                del self.frames[frame]  # (a dialog's own frame goes when it is answered)
                continue
            if state.found is not None and time.monotonic() - state.found < PATIENCE_S:
                self._ask(frame, state)
            if state.result == "failed" and not state.opted_in:
                state.opted_in, state.result = True, None
                state.asked, state.popup_at = "optInResult", time.monotonic()
                self._send(state, {"type": "optIn"})
            elif state.result and state.result != "failed" and not state.reported:
                state.reported = True
                finished.append((frame, state))
        return finished

    def not_yet(self, state: FrameState) -> None:
        """The reply reported came while the dialog stayed: not the last word. The library's next
        reply counts, within its time (PATIENCE_S from the ask); the frame keeps a note of it
        for a failure line."""
        state.note = f"said {state.result}, but the dialog stayed"
        state.asked = "optInResult" if state.result == "accepted" else "optOutResult"
        state.result, state.reported = None, False

    def line(self, state: FrameState) -> str:
        """What the engine did in a frame, in words."""
        how = " (no way to decline)" if state.result == "accepted" else ""
        # The vendor named only when the bot saw its own popup, by the rule's selectors, and
        # no other name was said (another script spoke too: either may be the page's).
        # ("an unbranded dialog", the library's word-list detector, carries no page word.)
        own = state.seen_own and state.answered == state.seen_own and len(state.names) == 1
        unbranded = str(state.answered).startswith("HEURISTIC")
        name = vendor_name(state.answered) if own or unbranded else "a consent dialog"
        return f"consent: {name}, {state.result}{how} ({self.library.name})"

    def own_popup(self, state: FrameState) -> tuple[Selector, ...]:
        """The selectors of the vendor's own popup the bot saw as it asked (none when what
        it saw was the dialog's consent buttons)."""
        return popup_selectors(self.library.root, state.seen_own) if state.seen_own else ()

    def knows(self, frame: Frame) -> bool:
        """Whether the library has rules written for this frame's page (see FrameState)."""
        state = self.frames.get(frame)
        return state is None or state.knows or state.cmp is not None

    def quiet(self) -> bool:
        """Whether no frame's engine has said it found a popup or been asked about one: it acts
        only on a popup the bot saw (so there is nothing of its own to finish)."""
        return all(s.found is None and s.popup_at is None and s.asked is None
                   for s in self.frames.values())

    def busy(self) -> bool:
        """Whether an engine is working on a popup it found and the bot saw (and has not run
        out of time). Once a reply came while the dialog stayed, the next links go on at once
        (the library's later reply, if any, is still reported, unless they closed it first)."""
        now = time.monotonic()
        return any(s.popup_at is not None and s.result is None and s.note is None
                   and now - s.popup_at < PATIENCE_S for s in self.frames.values())

    def closed_by_others(self, frame: Frame) -> None:
        """The bot's own links closed the frame's dialog: a later reply is not the library's
        doing, and is not reported."""
        state = self.frames.get(frame)
        if state is not None:
            state.reported, state.asked = True, None

    def summary(self) -> str:
        """What the engine found, for a failure line."""
        found = sorted({f"{vendor_name(s.cmp)} ({s.result or s.note or s.lifecycle})"
                        for s in self.frames.values() if s.cmp})
        # (what the page's world said, which any of its scripts may have said)
        return f"{self.library.name}: " + (f"said {', '.join(found)}" if found
                                            else "nothing it knows")


# The frame's document, unless an init sent from the blank document a frame starts with comes
# when the page's own has replaced it (or the other way round).
_THE_DOCUMENT = "blank => (document.URL === 'about:blank') === blank ? document : null"


def _site(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc


def _same_document(frame: Frame, document: JSHandle | None) -> bool:
    """Whether the frame still holds `document` (a handle into a document gone fails)."""
    if document is None:
        return False
    try:
        return bool(evaluate(frame, "d => d === document", document))
    except (Error, NoAnswer):
        return False
