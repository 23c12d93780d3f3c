"""Finding a game on any page: in every frame (cross-site ones included), every element that
could hold it, each shown to the game's own `recognises`; consent dialogs answered and prerolls
skipped on the way. The first element the game recognises wins, whatever comes before it in the
page (a chat sidebar's canvas, an ad's)."""

from __future__ import annotations

import contextlib
import math
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import soupsieve
from playwright.sync_api import ElementHandle, Error, Frame, Page

from webbot import answer
from webbot.deadline import Deadline
from webbot.errors import WebbotError, first_line
from webbot.files import InputError
from webbot.game import Candidate, GameSpec, frame_name
from webbot.options import FIND_TIMEOUT_S
from webbot.page_scripts import page_script
from webbot.screen import Box, Camera
from webbot.shown import shown
from webbot.way import Clearance, Way, answer_consent
from webbot.words import counted

FRAME_SEPARATOR = ">>>"
ENTER_FRAME = " >> internal:control=enter-frame >> "
SAY_WAITING_S = 2.0  # a game found sooner is found without a word


class NoGameFound(WebbotError):
    """No frame of the page shows the game; the message lists what was looked at."""


@dataclass
class Found:
    candidate: Candidate
    way: Way
    cleared: list[str]  # what was answered, skipped or pressed on the way (said as it was done)
    # The other elements looked at on the last look, with what was wrong with each.
    passed_over: list[tuple[Box, str]] = field(default_factory=list)


def frame_selector(text: str) -> str:
    """`--game-selector`: CSS selectors, one per frame level, joined by `>>>`
    (`iframe#gameiframe >>> iframe >>> canvas`), or a Playwright selector as it is."""
    if "internal:" in text or FRAME_SEPARATOR not in text:
        _check_css(text.strip(), text)
        return text.strip()
    parts = [part.strip() for part in text.split(FRAME_SEPARATOR)]
    if not all(parts):
        raise InputError(f"--game-selector {text!r}: an empty step between '>>>'")
    for part in parts:
        _check_css(part, text)
    return ENTER_FRAME.join(parts)


def _check_css(part: str, text: str) -> None:
    """A malformed CSS selector is a usage error before anything starts (soupsieve, the CSS
    engine that comes with Beautiful Soup, reads it). What is Playwright's own (a `text=`
    engine, a `>>` chain, `:visible`, `:has-text()`) is left to Playwright."""
    if ">>" in part or "internal:" in part or re.match(r"^\s*[\w-]+=", part):
        return
    try:
        soupsieve.compile(part)
    except soupsieve.SelectorSyntaxError as exc:
        if "detected as a pseudo-class" not in str(exc):  # Playwright has more of those
            reason = str(exc).splitlines()[0]
            raise InputError(f"--game-selector {text!r}: not a CSS selector ({reason})") from None




def candidates(page: Page, spec: GameSpec, selector: str | None = None,
               camera: Camera | None = None) -> Iterator[Candidate]:
    """Displayed elements that may be the game, in every frame, largest first; `camera`
    takes their pictures. Each element's place on the page is asked for only when the one
    before it was not the game (a board of twelve card links is found at its first card)."""
    camera = camera or Camera(page)
    if selector:
        yield from _selected(page, selector, camera)
        return
    for frame, handle in _largest_first(page, spec.candidates):
        try:
            box = answer.box(handle)
        except Error:
            continue
        if box and box["width"] >= spec.min_size[0] and box["height"] >= spec.min_size[1]:
            yield Candidate(frame, handle, Box.of(box), camera)


def _selected(page: Page, selector: str, camera: Camera) -> list[Candidate]:
    """The displayed elements --game-selector names, largest first."""
    try:
        handles = answer.handles(page.locator(frame_selector(selector)))
    except Error as exc:
        if "while parsing" not in str(exc):
            raise
        raise InputError(f"--game-selector {selector!r}: Playwright cannot read it "
                         f"({first_line(exc)})") from None
    found = []
    for handle in handles:
        try:
            frame, box = answer.owner_frame(handle), answer.box(handle)
        except Error:
            continue
        if frame is not None and box:
            found.append(Candidate(frame, handle, Box.of(box), camera))
    return sorted(found, key=lambda c: -c.box.width * c.box.height)


def _largest_first(page: Page, elements: str) -> Iterator[tuple[Frame, ElementHandle]]:
    """The elements matching `elements` (CSS) in every frame, by their area on the page; each
    one's handle is taken only when it is asked for."""
    ranked = []
    for frame_number, frame in enumerate(page.frames):
        try:
            found = answer.evaluate_handle(frame, page_script("matching"), elements)
            width, areas = answer.evaluate(found, page_script("areas"))
            if not areas:
                continue
            scale = 1.0
            if frame.parent_frame is not None:  # a frame's element may be drawn scaled
                box = answer.box(answer.frame_element(frame))
                scale = box["width"] / width if box and width else 1.0
        except Error:
            continue  # a frame that went away while we looked
        ranked += [(-area * scale * scale, frame_number, i, frame, found)
                   for i, area in enumerate(areas)]
    for _, _, i, frame, found in sorted(ranked, key=lambda item: item[:3]):
        try:
            handle = answer.evaluate_handle(found, "(elements, i) => elements[i]", i).as_element()
        except Error:
            continue  # its frame went away meanwhile
        if handle is not None:
            yield frame, handle


def find_game(page: Page, spec: GameSpec, clearance: Clearance, *, selector: str | None = None,
                timeout_s: float = FIND_TIMEOUT_S) -> Found:
    """The element of the page that holds the game, with the way to it cleared (each thing
    done said through clearance.report as it is done). Not found within SAY_WAITING_S, what
    is waited for and for how long is said too, once."""
    started = time.monotonic()
    deadline = Deadline(timeout_s)
    cleared: list[str] = []
    camera = Camera(page)
    waiting_said = False
    while True:
        if not waiting_said and time.monotonic() - started > SAY_WAITING_S:
            waiting_said = True
            clearance.report(f"looking for {spec.name} on the page (up to {timeout_s:g} s, "
                             "--find-timeout)")
        cleared += answer_consent(page, clearance)
        looked: list[str] = []
        passed_over: list[tuple[Box, str]] = []
        for candidate in candidates(page, spec, selector, camera):
            verdict, way = _look_at(candidate, spec, clearance, cleared)
            if way is not None and verdict is None:
                cleared += clearance.tell(clearance.consent.settle(page))
                if spec.needs_focus:
                    _focus(way)
                return Found(candidate, way, cleared, passed_over)
            looked.append(f"{candidate.where}: {verdict}")
            passed_over.append((candidate.box, verdict))
        waited = time.monotonic() - started
        if deadline.passed() or (not looked and waited > spec.appears_within_s):
            raise NoGameFound(_not_found(page, spec, clearance, selector, looked,
                                         min(waited, timeout_s)))
        answer.pause(page, 250)


def _current(candidate: Candidate) -> Box:
    box = answer.box(candidate.element)
    if not box:
        raise WebbotError(f"the game ({candidate.name}) is no longer displayed")
    return Box.of(box)


def _look_at(candidate: Candidate, spec: GameSpec, clearance: Clearance, cleared: list[str]
             ) -> tuple[str | None, Way | None]:
    """What is wrong with the candidate (None when it is the game, uncovered), and the way to
    it when it could be looked at. A cover's button pressed is added to `cleared`, and
    said."""
    view = candidate.frame.page.viewport_size
    if view and candidate.box.larger_than(view["width"], view["height"]):
        return (f"larger than the {view['width']}x{view['height']} window (give --viewport "
                f"{math.ceil(candidate.box.width) + 40}x{math.ceil(candidate.box.height) + 40}"
                " or larger)"), None
    try:
        way = Way(candidate.frame.page, candidate.element, lambda: _current(candidate),
                  clearance, cleared, frame=candidate.frame)
        cover = way.cover()
        if cover is not None and cover.what == "outside":
            answer.scroll_into_view(candidate.element, 5)
            candidate.box = _current(candidate)
            cover = way.cover()
        if cover is not None and cover.what == "outside":
            return "outside the window, even scrolled into view", way
        if cover is not None:
            if cover.button is not None:
                cleared += clearance.tell([way.press(cover)])
            return f"covered by {cover.what}", way
        return (None if spec.recognises(candidate) else f"not {spec.name}"), way
    except (Error, WebbotError) as exc:
        return f"cannot be looked at ({shown(first_line(exc))})", None


def _focus(way: Way) -> None:
    """Keyboard focus into the game's frame, as a click into it would give."""
    for holder in way.holders:
        with contextlib.suppress(Error):
            answer.focus(holder)


def _not_found(page: Page, spec: GameSpec, clearance: Clearance, selector: str | None,
               looked: list[str], timeout_s: float) -> str:
    frames = [frame_name(frame) for frame in page.frames]
    what = f"'{selector}'" if selector else f"{spec.candidates} elements"
    seen = "; ".join(looked) if looked else f"no displayed {what}"
    if any(": covered by " in line for line in looked):
        seen += f"; tried {clearance.consent.tried()}"
    return (f"no frame of {shown(page.url)} shows {spec.name} after {timeout_s:.0f} s; looked in "
            f"{counted(len(frames), 'frame')} ({', '.join(frames)}): {seen}")
