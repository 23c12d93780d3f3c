"""Which Burrito Bison screen a frame shows, by the template pack's crops (matching.py).

Each screen is known by one indicator that appears on it and nowhere else; the indicators are
tried in an order where a screen that can show another's indicator comes first (the shop
shows results' Next button). Where no indicator scores at its place (a build whose layout
differs from the manifest's, a page grab with the game at another size), each is looked for
over the whole picture and a range of scales before the answer is `unknown`.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from webbot import inputs
from webbot.beside import on_a_thread
from webbot.burrito_bison.layout import PACK_GAME_SIZE, PLACES, REAL_SIZES
from webbot.burrito_bison.matching import (
    FRAMED_SCALES,
    FREE_SCALES,
    Matcher,
    TemplatePack,
)
from webbot.burrito_bison.model import Match, Point, Sighting
from webbot.errors import WebbotError
from webbot.vision.region import GameNotFound
from webbot.vision.region import find_game as find_framed

# Screen, indicator templates (any of them), in the order they are tried.
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cards", ("card-back",)),
    ("flash_sale", ("flash-sale",)),
    ("title", ("click-to-start",)),
    ("comic", ("comic-panel",)),
    ("pinata", ("filled-with-goodies",)),
    ("unlocked", ("unlocked",)),
    ("missions", ("tap-to-continue",)),
    ("shop", ("shop-hud",)),
    ("results", ("next-button",)),
    ("ring", ("bison-health-bar", "pineapple-health-bar")),
    ("rocket_ready", ("full-rocket",)),
    ("flight", ("rocket-bar",)),
)
SCREEN_NAMES = {screen for screen, _ in RULES}
# The screens tried before each one whose indicators can show on it too (the shop has the
# results' Next arrow; a flight's bar top is part of the full bar; the piñata cards are dealt
# over the dimmed shop).
COVERS = {"results": ("shop", "cards"), "flight": ("rocket_ready",), "shop": ("cards",)}
# What to click on each screen: role -> template.
TARGETS: dict[str, dict[str, str]] = {
    "title": {"start": "click-to-start"},
    "comic": {"continue": "comic-panel"},
    "flash_sale": {"close": "sale-close"},
    "cards": {"pick": "card-back"},
    "pinata": {"cancel": "cancel-button"},
    "missions": {"continue": "tap-to-continue"},
    "shop": {"next": "next-button"},
    "results": {"next": "next-button", "shop": "shop-button"},
    "ring": {"launch": "left-goalpost"},
    "rocket_ready": {"rocket": "full-rocket"},
}
INDICATOR_SCORE = 0.85  # real and replica indicators score 0.97-1.0, other screens < 0.75
TARGET_SCORE = 0.6      # a target on a screen already known (the post on a zoomed ring)


def fitted(image: np.ndarray, width: float, height: float) -> np.ndarray:
    """`image` of a game whose box is `width` x `height` (in any unit), resized to the scale the
    pack's crops are cut at: the box fitted into PACK_GAME_SIZE by the smaller of the two
    ratios, as the game fits its scene into a box of another aspect (centred)."""
    scale = min(width / PACK_GAME_SIZE[0], height / PACK_GAME_SIZE[1])
    size = round(width / scale), round(height / scale)
    # Halving by area is cheap (and keeps thin strokes); the rest is linear, as area
    # resampling by a ratio such as 1280 -> 1173 is too slow for the decision loop.
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        image = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    if image.shape[1] == size[0] and image.shape[0] == size[1]:
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


def _target(matcher: Matcher, name: str, scale: float) -> Match | None:
    """A click target of a screen seen at `scale`: at its place (or at 1:1 anywhere), then
    anywhere in a framed game, then anywhere at about the indicator's scale."""
    if matcher.scales is None:
        match = matcher.confirmed(name, TARGET_SCORE)
        if match is None and matcher.offset is not None:
            match = matcher.confirmed(name, TARGET_SCORE, anywhere=True)
        if match is not None:
            return match
    return matcher.near(scale).confirmed(name, TARGET_SCORE)


def _sighting(matcher: Matcher, screen: str, evidence: Match) -> Sighting:
    targets: dict[str, Point] = {}
    for role, name in TARGETS.get(screen, {}).items():
        if name in matcher.pack and (match := _target(matcher, name, evidence.scale)):
            targets[role] = match.centre
    if screen == "unlocked":  # the card screen goes on at a tap anywhere
        targets["continue"] = (matcher.gray.shape[1] / 2, matcher.gray.shape[0] / 2)
    return Sighting(screen, evidence, targets, matcher.all_found())


def _first_seen(matcher: Matcher, screens: tuple[str, ...],
                given_up: Callable[[], bool] = lambda: False) -> Sighting | None:
    for screen, indicators in RULES:
        if screen not in screens:
            continue
        if given_up():
            return None
        # The best of a screen's indicators: the two health bars share their frame, so the
        # other player's bar scores high too.
        seen = [match for name in indicators
                if (match := matcher.confirmed(name, INDICATOR_SCORE)) is not None]
        if seen:
            return _sighting(matcher, screen, max(seen, key=lambda match: match.score))
    return None


def classify(pack: TemplatePack, image: np.ndarray, hint: str | None = None,
             framed: bool = False, search: bool = True,
             given_up: Callable[[], bool] = lambda: False) -> Sighting:
    """The screen a frame (BGR or grey, canvas-sized or any picture) shows.

    `framed`: the image is the game's own box at the pack's scale (`fitted`), so each crop is
    looked for around its place first. `hint` (the screen of the frame before) is tried first:
    when its indicator is still there, only the screens that can show up on top of it are
    checked, so a decision loop does not pay for every template on every frame. The answer is
    the same as without the hint. When no indicator scores, every one is looked for over the
    whole image at a range of scales (narrow for a framed game, wide for any picture); not
    `search`, the frame is "unknown" at once (a frame of a fade between two screens: the
    caller looks again before it pays for the search); once `given_up()` says so, the search
    stops between two screens' indicators with `unknown` (its answer no longer wanted)."""
    matcher = Matcher(pack, image, framed)
    if hint in SCREEN_NAMES:
        same = _first_seen(matcher, (hint,))
        if same is not None:
            return _first_seen(matcher, COVERS.get(hint, ())) or same
    screens = tuple(screen for screen, _ in RULES)
    found = _first_seen(matcher, screens)
    if found is not None:
        return found
    if not search:
        return Sighting("unknown", None, {}, matcher.all_found())
    free = matcher.freed(FRAMED_SCALES if framed else FREE_SCALES)
    found = _first_seen(free, screens, given_up)
    if found is not None:
        return replace(found, searched=True)
    return Sighting("unknown", None, {}, {**matcher.all_found(), **free.all_found()})


# A frame that no indicator marks at its place is most often one of a fade between two screens
# or of an intro bringing its art in (a streamed camera sees every one of them), and searching
# it over the picture at other scales is the slowest of reads (~0.4 s). Once nothing known has
# shown this long, a frame is searched beside the loop, which goes on reading each new frame
# at the places; the loop searches its own frames only once that search has found the game's
# art in the same place twice (a build laid out otherwise: art coming in is found elsewhere
# each time, and stands where the pack says soon after); once the loop's own search finds
# nothing, the search goes back beside the loop. A search beside the loop is given up once the
# loop reads a known screen (its answer would be dropped): on a busy machine it took a core
# from the browser well into the next screen (a ring after its fade: a third of its frames
# never sent).
SEARCH_AFTER_S = 0.5
SAME_PLACE_PX = 2.0


class SearchPace:
    """When a decision loop's frames are searched over scales: `due` says whether the loop's
    own frame is (classify(search=...)); `saw` is told each reading, and starts the search
    beside the loop (`search`, on a thread of its own) when nothing known has shown for
    SEARCH_AFTER_S."""

    def __init__(self, search: Callable[[np.ndarray, Callable[[], bool]], Sighting]) -> None:
        self.search = search  # (a picture, and whether its answer is still wanted)
        self.unknown_since: float | None = None  # nothing known has shown since
        self.art_searched = False  # the art was found only by the search, twice in one place
        self._found: Match | None = None  # where the last search found the screen's art
        self._beside: Future | None = None  # the search running beside the loop
        self._give_up = threading.Event()  # its answer is no longer wanted

    @property
    def beside(self) -> Future | None:
        """The search running beside the loop, if any (its answer is taken by `saw`)."""
        return self._beside

    def due(self, now: float) -> bool:
        return self.art_searched

    def saw(self, sighting: Sighting, image: np.ndarray, now: float) -> None:
        """A frame read as `sighting` (searched by the loop itself when `due` said so)."""
        searched_here = self.art_searched
        self._take_search()
        if sighting.screen != "unknown":
            self._give_up.set()
            if sighting.searched:
                self._found_by_search(sighting)
            else:
                self.art_searched, self._found = False, None
            self.unknown_since = None
            return
        if searched_here:
            # The loop's own search found nothing: the art it followed is gone (a popup's
            # cards turned over, a fade begun), and each such frame costs it ~0.4 s. The
            # search goes back beside the loop, at once.
            self.art_searched, self._found = False, None
            self.unknown_since = -math.inf
        if self.unknown_since is None:
            self.unknown_since = now
        if not self.art_searched and self._beside is None and \
                now - self.unknown_since >= SEARCH_AFTER_S:
            frame, given_up = image.copy(), threading.Event()
            self._beside = on_a_thread(lambda: self.search(frame, given_up.is_set),
                                       "webbot-search")
            self._give_up = given_up
            self.unknown_since = now  # (the next search a while later)

    def _take_search(self) -> None:
        beside = self._beside
        if beside is None or not beside.done():
            return
        self._beside = None
        found = beside.result()  # (an error of the search is the loop's)
        if found.screen != "unknown":
            self._found_by_search(found)

    def _found_by_search(self, sighting: Sighting) -> None:
        self.art_searched = _same_place(sighting.evidence, self._found)
        self._found = sighting.evidence


def _same_place(match: Match | None, before: Match | None) -> bool:
    return match is not None and before is not None and match.name == before.name and \
        abs(match.scale - before.scale) < 0.01 and \
        max(abs(match.x - before.x), abs(match.y - before.y)) <= SAME_PLACE_PX


def framed_game(picture: np.ndarray) -> tuple[int, int, int, int] | None:
    """The game in a page grab, as a portal shows it framed by black: the largest block of a
    real game's shape (x, y, width, height), or None."""
    for width, height in REAL_SIZES:
        try:
            region = find_framed(picture, width / height, min_width=320, tolerance=0.01)
        except GameNotFound:
            continue
        return region.x, region.y, region.width, region.height
    return None


def real_shaped(width: int, height: int) -> bool:
    """A picture of the shape of one of the real game's sizes (within 2%)."""
    return any(abs(width / height - w / h) < 0.02 * w / h for w, h in REAL_SIZES)


def game_of(picture: np.ndarray, whole: bool = True
            ) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """The game in a picture at the pack's scale, and its box in the picture: a page grab's
    game framed by black, or (`whole`) the whole picture when it has a real game's shape;
    else None."""
    box = framed_game(picture)
    if box is None and not whole:
        return None
    if box is None:
        height, width = picture.shape[:2]
        if not real_shaped(width, height):
            return None
        box = (0, 0, width, height)
    x, y, width, height = box
    return fitted(picture[y:y + height, x:x + width], width, height), box


def placed_game(pack: TemplatePack, picture: np.ndarray
                ) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """The game in a page grab without a black frame (under a toolbar, beside a sidebar), as
    game_of gives it: the 1173x660 scene placed by its screen's indicator (where it matched,
    at the scale it matched) and confirmed by the indicator scoring at its own place in the
    scene so cut; None when the screen is unknown or its layout is not the pack's."""
    sighting = classify(pack, picture)
    if sighting.evidence is None or sighting.evidence.name not in PLACES:
        return None
    name = sighting.evidence.name
    # Its scale to within a percent (a match at 1:1 only says "about 1").
    match = Matcher(pack, picture).near(sighting.evidence.scale).find(name)
    if match is None or match.score < INDICATOR_SCORE:
        return None
    x, y, _, _ = PLACES[name]
    left, top = round(match.x - x * match.scale), round(match.y - y * match.scale)
    width = round(PACK_GAME_SIZE[0] * match.scale)
    height = round(PACK_GAME_SIZE[1] * match.scale)
    if left < 0 or top < 0 or left + width > picture.shape[1] or \
            top + height > picture.shape[0]:
        return None
    game = fitted(picture[top:top + height, left:left + width], width, height)
    if Matcher(pack, game, framed=True).confirmed(name, INDICATOR_SCORE) is None:
        return None
    return game, (left, top, width, height)


def classify_picture(pack: TemplatePack, picture: np.ndarray) -> Sighting:
    """The screen a picture shows: a page grab whose game is framed by black (at any size) is
    cut to the game and brought to the pack's scale, anything else is searched as it is.
    Targets are points of the picture."""
    found = game_of(picture, whole=False)
    if found is None:
        return classify(pack, picture)
    game, (x, y, width, height) = found
    sighting = classify(pack, game, framed=True)
    scale = width / game.shape[1]
    return replace(sighting, targets={role: (x + px * scale, y + py * scale)
                                      for role, (px, py) in sighting.targets.items()})


def read_image(path: str | Path) -> np.ndarray:
    """A screenshot file as BGR, or a one-line error."""
    image = inputs.read_image(path)
    if min(image.shape[:2]) < 32:
        raise WebbotError(f"{path} is too small ({image.shape[1]}x{image.shape[0]}) for a "
                          "game screen")
    return image
