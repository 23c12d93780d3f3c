"""Clearing the way to a game on a real page: cookie-consent dialogs, preroll ads, and anything
else that covers the game.

Consent dialogs are answered, declining where there is a way to decline: the known vendors'
by their buttons' selectors, any other by its buttons' words (English, French, German...) when
the box around them speaks of cookies or privacy. Whatever still covers the game (a preroll
with its countdown, say) is closed by its skip or close button once it has one, or waited out.
All of it is found through the DOM, as a person's eyes would find a button; the game's own
state is never read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import ElementHandle, Error, Page
from playwright.sync_api import Frame as PageFrame

from webbot.errors import WebbotError
from webbot.screen import Box

# Vendor, the decline button, the accept button.
VENDORS = (
    ("eu_cookie_compliance", "#sliding-popup .decline-button, "
     ".eu-cookie-compliance-banner .decline-button",
     "#sliding-popup .agree-button, .eu-cookie-compliance-banner .agree-button"),
    ("OneTrust", "#onetrust-reject-all-handler", "#onetrust-accept-btn-handler"),
    ("Cookiebot", "#CybotCookiebotDialogBodyButtonDecline",
     "#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll, "
     "#CybotCookiebotDialogBodyButtonAccept"),
    ("Didomi", "#didomi-notice-disagree-button, .didomi-continue-without-agreeing",
     "#didomi-notice-agree-button"),
    ("Quantcast", ".qc-cmp2-summary-buttons button[mode=secondary]",
     ".qc-cmp2-summary-buttons button[mode=primary]"),
)
# A button's whole text (lower case, end punctuation dropped) must match.
DECLINE_WORDS = (
    r"^(reject|reject all|reject all cookies|decline|decline all|deny|deny all|refuse|"
    r"refuse all|disagree|disagree and close|no,? thanks|continue without (accepting|agreeing)|"
    r"(use )?(only )?(necessary|essential|required) cookies( only)?|necessary only|"
    r"tout refuser|refuser|refuser tout|continuer sans accepter|"
    r"alle ablehnen|ablehnen|nur (notwendige|essenzielle|erforderliche)( cookies)?( akzeptieren)?|"
    r"verweigern|rechazar|rechazar todo|rifiuta|rifiuta tutto)$")
ACCEPT_WORDS = (
    r"^(accept|accept all|accept all cookies|accept cookies|allow|allow all|allow all cookies|"
    r"allow cookies|agree|i agree|agree and close|ok|okay|ok,? i agree|got it|i understand|"
    r"tout accepter|accepter|accepter et fermer|j'accepte|"
    r"alle akzeptieren|akzeptieren|zustimmen|alle zulassen|einverstanden|"
    r"aceptar|aceptar todo|accetta|accetta tutto)$")
# The box around a consent button speaks of one of these.
CONSENT_CONTEXT = (r"cookie|consent|privacy|datenschutz|einwilligung|vie priv|données|"
                   r"confidentialit|privacidad|riservatezza")
SKIP_WORDS = (r"^(skip|skip ad|skip ads|skip this ad|close|close ad|passer|passer la pub|"
              r"ignorer|überspringen|werbung überspringen|schließen|[x×✕])$")

_HELPERS = """
const visible = e => {
  if (!e || !e.isConnected) return false;
  const r = e.getBoundingClientRect();
  if (r.width < 2 || r.height < 2) return false;
  const s = getComputedStyle(e);
  return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.05;
};
const words = e => (e.innerText || e.value || e.getAttribute('aria-label') || '')
  .replace(/\\s+/g, ' ').trim();
const clean = t => t.toLowerCase().replace(/[!.…›»▸>✓]+/g, ' ').replace(/\\s+/g, ' ').trim();
const BUTTONS = 'button, [role=button], a, input[type=button], input[type=submit]';
"""

_FIND_CONSENT = "([vendors, decline, accept, context]) => {" + _HELPERS + """
  for (const [name, no, yes] of vendors) {
    for (const [selector, answer] of [[no, 'declined'], [yes, 'accepted']]) {
      const button = [...document.querySelectorAll(selector)].find(visible);
      if (button) return [button, name, answer, words(button)];
    }
  }
  const about = new RegExp(context, 'i');
  const inConsentBox = b => {
    for (let e = b.parentElement, i = 0; e && e !== document.body && i < 8;
         e = e.parentElement, i++) {
      const text = e.innerText || '';
      if (text.length < 2000 && about.test(text)) return true;
    }
    return false;
  };
  const buttons = [...document.querySelectorAll(BUTTONS)].filter(visible);
  for (const [pattern, answer] of [[decline, 'declined'], [accept, 'accepted']]) {
    const re = new RegExp(pattern, 'i');
    const button = buttons.find(b => re.test(clean(words(b))) && inConsentBox(b));
    if (button) return [button, 'a consent dialog', answer, words(button)];
  }
  return null;
}"""

# What is on top at a point of `el` (given as fractions of its box): null when `el` itself.
_COVER = "(el, [fx, fy, skip]) => {" + _HELPERS + """
  const r = el.getBoundingClientRect();
  const x = r.left + fx * r.width, y = r.top + fy * r.height;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return ['outside', null];
  const hit = document.elementFromPoint(x, y);
  if (!hit || hit === el || el.contains(hit)) return null;
  let root = hit;
  while (root.parentElement && root.parentElement !== document.body
         && !root.parentElement.contains(el)) root = root.parentElement;
  const name = root.tagName.toLowerCase() + (root.id ? '#' + root.id : '') +
    [...root.classList].slice(0, 2).map(c => '.' + c).join('');
  const text = words(root).slice(0, 60);
  const re = new RegExp(skip, 'i');
  const button = [...root.querySelectorAll(BUTTONS)].filter(visible)
    .find(b => re.test(clean(words(b))));
  return [name + (text ? ` ("${text}")` : ''), button || null];
}"""

# Where, as fractions of the game's box, a cover is looked for: the centre and four inner points.
PROBES = ((0.5, 0.5), (0.15, 0.15), (0.85, 0.15), (0.15, 0.85), (0.85, 0.85))
CONSENT_CLOSE_S = 3.0
COVER_PATIENCE_S = 45.0  # a preroll runs 15-30 s; waiting longer is waiting for nothing
GUARD_EVERY_S = 0.5


@dataclass(frozen=True)
class Cover:
    """Something on top of the game: what it is, and its skip or close button if it has one."""

    what: str
    button: ElementHandle | None = None


def answer_consent(page: Page) -> list[str]:
    """Answer every consent dialog showing in any frame; what was done, in words. A dialog
    that something else covers (a game page's own dialog under the portal's preroll) is left
    for a later call, once the cover is gone."""
    done: list[str] = []
    for frame in list(page.frames):
        for _ in range(3):  # a dialog may have a second step
            found = _consent_button(frame)
            if found is None or _covered(page, found[0]):
                break
            button, vendor, answer, label = found
            try:
                button.click(timeout=CONSENT_CLOSE_S * 1000)
            except Error as exc:
                raise WebbotError(f"cannot press '{label}' on {vendor}: "
                                  f"{str(exc).splitlines()[0]}") from None
            if not _went_away(button, CONSENT_CLOSE_S):
                raise WebbotError(f"{vendor} did not close after '{label}' was pressed; "
                                  "cannot get past it")
            done.append(f"{answer} {vendor} ('{label}')")
    return done


def _consent_button(frame: PageFrame) -> tuple[ElementHandle, str, str, str] | None:
    try:
        found = frame.evaluate_handle(_FIND_CONSENT, [VENDORS, DECLINE_WORDS, ACCEPT_WORDS,
                                                      CONSENT_CONTEXT])
        parts = found.get_properties()
        if not parts:
            return None
        element = parts["0"].as_element()
        vendor, answer, label = (parts[k].json_value() for k in ("1", "2", "3"))
    except Error:  # the frame went away or navigated meanwhile
        return None
    return (element, vendor, answer, label) if element else None


def _covered(page: Page, button: ElementHandle) -> bool:
    def box() -> Box:
        found = button.bounding_box()
        if not found:
            raise WebbotError("the button is not displayed")
        return Box.of(found)

    try:
        way = Way(page, button, box)
        cover = way.cover(((0.5, 0.5),))
        if cover is not None and cover.what == "outside":
            button.scroll_into_view_if_needed(timeout=CONSENT_CLOSE_S * 1000)
            cover = way.cover(((0.5, 0.5),))
    except (Error, WebbotError):
        return False  # let the click say what is wrong
    return cover is not None and cover.what != "outside"


def _went_away(element: ElementHandle, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if not element.is_visible():
                return True
        except Error:
            return True  # detached with its frame
        time.sleep(0.05)
    return False


class Way:
    """The path from the top page to the game element: frames and the iframe elements that
    hold them. It tells what covers the game and clears it."""

    def __init__(self, page: Page, element: ElementHandle, box: Callable[[], Box]) -> None:
        self.page = page
        self.element = element
        self.box = box
        self.chain = self._chain(element)
        self._checked = 0.0
        self.done: list[str] = []

    @staticmethod
    def _chain(element: ElementHandle) -> list[ElementHandle]:
        """The iframe elements from the top page down to the game's frame."""
        chain: list[ElementHandle] = []
        frame = element.owner_frame()
        while frame is not None and frame.parent_frame is not None:
            chain.insert(0, frame.frame_element())
            frame = frame.parent_frame
        return chain

    def cover(self, points: tuple[tuple[float, float], ...] = PROBES,
              element: ElementHandle | None = None, box: Box | None = None) -> Cover | None:
        """What is on top of the game (or of `element`, an element of the game's frame whose
        box is `box`) at the probe points (fractions of its box), if anything; looked at in
        every frame on the way down."""
        target = element or self.element
        game = box or self.box()
        for fx, fy in points:
            x, y = game.x + fx * game.width, game.y + fy * game.height
            for holder in [*self.chain, target]:
                if holder is target:
                    place = (fx, fy)
                else:
                    outer = holder.bounding_box()
                    if not outer or not outer["width"] or not outer["height"]:
                        return Cover(f"{_name(holder)}, not displayed")
                    place = ((x - outer["x"]) / outer["width"], (y - outer["y"]) / outer["height"])
                found = holder.evaluate_handle(_COVER, [*place, SKIP_WORDS]).get_properties()
                if not found:
                    continue
                what = found["0"].json_value()
                return Cover(what, found["1"].as_element() if what != "outside" else None)
        return None

    def clear(self, patience_s: float = COVER_PATIENCE_S) -> None:
        """Answer consent, scroll the game into view, skip or wait out what covers it."""
        deadline = time.monotonic() + patience_s
        while True:
            self.done += answer_consent(self.page)
            cover = self.cover()
            if cover is None:
                self._checked = time.monotonic()
                return
            if cover.what == "outside":
                self.element.scroll_into_view_if_needed(timeout=5000)
                if self.cover() is None:
                    continue
            elif cover.button is not None:
                label = _label(cover.button)
                try:
                    cover.button.click(timeout=3000)
                    self.done.append(f"pressed '{label}' on {cover.what}")
                    continue
                except Error:
                    pass  # not clickable yet: wait on
            if time.monotonic() > deadline:
                raise WebbotError(f"the game is covered by {cover.what} and nothing closed it "
                                  f"within {patience_s:g} s; cannot get past it")
            self.page.wait_for_timeout(250)

    def guard(self, x: float, y: float, element: ElementHandle | None = None,
              box: Box | None = None, every_s: float = GUARD_EVERY_S) -> None:
        """Before a press at page point (x, y) on the game (or on `element` of its frame, whose
        box is `box`): clear anything that has come over it since the last look (a late
        consent popup, say). Checked at most every half second."""
        if time.monotonic() - self._checked < every_s:
            return
        game = box or self.box()
        point = ((x - game.x) / max(1e-6, game.width), (y - game.y) / max(1e-6, game.height))
        if self.cover((point,), element, game) is not None:
            self.clear()
        self._checked = time.monotonic()


def _name(element: ElementHandle) -> str:
    try:
        return element.evaluate("e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')")
    except Error:
        return "an element"


def _label(element: ElementHandle) -> str:
    try:
        return " ".join(element.inner_text().split()) or _name(element)
    except Error:
        return _name(element)
