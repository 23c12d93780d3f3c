"""The floors of the README's speed rows: bounds no bot could beat, derived from the games
themselves (their animations' lengths read from their sources, the page frames their moves
need), never from the bot's own timings; each says how it was derived.

Page frames: a page draws 60 frames a second, and Chromium hands a mouse move to the page at its
next frame, a press or a release at once (probed headless with Playwright: a move waits 15 ms,
median, a press or a release 1-2 ms). A drag or a click elsewhere needs a move, so a frame.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FRAMES_PER_S = 60
FRAME_S = 1 / FRAMES_PER_S


@dataclass(frozen=True)
class Floor:
    value: float  # seconds, or decisions a second for a bound from above
    how: str  # how it was derived, briefly (a table cell's words)
    # Its pieces, each bounding one part of a run (webbot.phases' names): (part, seconds, how)
    parts: tuple[tuple[str, float, str], ...] = ()


def source_constant(path: Path, name: str) -> int:
    """A number a game's source sets (`const NAME = 250` or `var NAME = 6`)."""
    found = re.search(rf"\b{name}\s*=\s*(\d+)", path.read_text())
    if found is None:
        raise ValueError(f"{path.name} sets no {name}")
    return int(found.group(1))


def puzlogic_floor(levels: int = 15, game: Path = FIXTURES / "puzlogic") -> Floor:
    """The first `levels` bundled levels from the level select: the game's own settle and fade
    after each level's last drop (Next answers only once the overlay has faded in; the last
    level's end shows after its settle), and a page frame for each mouse move the game needs:
    one onto level 1's button, one onto Next for each level after it, then for each piece one
    to it (a press picks it up where the pointer is) and one to its cell (a release drops it
    there)."""
    settle = source_constant(game / "game.js", "SETTLE_MS") / 1000
    fade = source_constant(game / "game.js", "FADE_MS") / 1000
    bundled = json.loads((game / "levels.json").read_text())["levels"][:levels]
    pieces = sum(len(level["pieces"]) for level in bundled)
    moves = levels + 2 * pieces
    animations = (levels - 1) * (settle + fade) + settle
    return Floor(animations + moves * FRAME_S,
                 f"the game's settle and fade, {animations:.2f} s (game.js: {levels - 1} x "
                 f"{settle + fade:.2f} s before Next answers, {settle:.2f} s after the last "
                 f"drop); {moves} mouse moves at a page frame each, {moves * FRAME_S:.2f} s (to "
                 f"each of the {pieces} pieces of levels.json and on to its cell, onto level "
                 f"1's button and onto Next {levels - 1} times); not the browser's start or "
                 "the page's load",
                 (("menus", levels * FRAME_S, f"{levels} moves onto a button at a page frame"),
                  ("dragging", 2 * pieces * FRAME_S,
                   f"{2 * pieces} mouse moves at a page frame"),
                  ("waiting", animations, "the game's settle and fade")))


def daily_set_floor(load_s: float, game: Path = FIXTURES / "daily-set") -> Floor:
    """The page's own load (`load_s`, measured without the bot), then a click on each card of
    each set the board holds: a move to the card at a page frame each (the press and the
    release reach the page at once); the page answers a set at once (SetBoard.js)."""
    sets = source_constant(game / "javascript" / "SetBoard.js", "SetBoard_SETS")
    clicks = 3 * sets
    return Floor(load_s + clicks * FRAME_S,
                 f"the page's own load in a bare browser page, {load_s:.2f} s, and a mouse "
                 f"move at a page frame to each card of the {sets} sets of 3 (SetBoard.js), "
                 f"{clicks} x 1/{FRAMES_PER_S} s = {clicks * FRAME_S:.2f} s",
                 (("page load", load_s, "the page in a bare browser page"),
                  ("acting", clicks * FRAME_S, f"a move at a page frame to each of {clicks} "
                                                "cards")))


def burrito_bison_floor() -> Floor:
    """Decisions a second, a bound from above: the game draws once a page frame (game.js
    steps its world in its requestAnimationFrame loop and draws it once), so a bot deciding
    on each new picture decides at most 60 times a second."""
    return Floor(FRAMES_PER_S, f"the game draws once a page frame (game.js), {FRAMES_PER_S} "
                 "a second: no more new pictures to decide on")
