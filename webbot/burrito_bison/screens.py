"""Which Burrito Bison screen a frame shows, by grayscale template matching.

A template pack is a folder of PNG crops named like ../shared/reference/burrito-bison/
templates (`bison-health-bar.png`, `next-button.png`, ...). Each screen is known by one
indicator that appears on it and nowhere else; the indicators are tried in an order where a
screen that can show another's indicator comes first (the shop shows results' Next button).

Matching runs on a blurred half-size copy of the frame first, then the best spot is
confirmed at full size in a small window around it: about 4x cheaper than matching at full
size.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from webbot import inputs
from webbot.burrito_bison.digits import Glyphs
from webbot.burrito_bison.layout import (
    CAMERA_ANCHOR,
    PACK_GAME_SIZE,
    PLACES,
    REAL_SIZES,
    ZOOM_RANGE,
)
from webbot.burrito_bison.model import Match, Point, Sighting
from webbot.errors import WebbotError
from webbot.vision.region import GameNotFound
from webbot.vision.region import find_game as find_framed

# The crops every pack has (named like the real game's crops), and extras: the ring as
# Pineapple Spank, the screens the real crops do not tell apart, and the screens of the later
# builds (the title, the comic, the flash sale, the piñata cards, the shop's grid).
REQUIRED = ("bison-health-bar", "cancel-button", "filled-with-goodies", "full-rocket",
            "left-goalpost", "next-button", "tap-to-continue", "unlocked")
OPTIONAL = ("pineapple-health-bar", "rocket-bar", "shop-hud", "shop-lock", "shop-button",
            "click-to-start", "comic-panel", "flash-sale", "sale-close", "card-back")

# The ring's camera zooms with the opponent's size (about 0.95-1.2), so the crops of things in
# the ring are searched over those scales: coarsely at half size, then in 0.025 steps around
# the best two at full size; the header and menus never zoom.
ZOOMS = (0.95, 1.05, 1.15)
ZOOM_STEP = 0.025
FINE_STEPS = 2  # fine scales tried either side of a coarse one
FINE_BLUR = 1.0  # the Gaussian sigma both sides get before the full-size match
ZOOMED = {"left-goalpost"}

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
DEFAULT_PACK = "webbot.burrito_bison"
SLACK = 24  # pixels around a crop's place in the manifest where a game frame may show it


@dataclass(frozen=True)
class Template:
    name: str
    coarse: tuple[tuple[float, np.ndarray], ...]  # (scale, blurred half-size picture)
    fine: dict[float, np.ndarray]                 # scale -> full-size picture


def _scaled(gray: np.ndarray, scale: float) -> np.ndarray:
    if scale == 1.0:
        return gray
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.resize(gray, None, fx=scale, fy=scale, interpolation=interpolation)


def _half(gray: np.ndarray, scale: float = 1.0) -> np.ndarray:
    # The blur makes the half-size copy forgiving of which pixel phase it was taken at: thin
    # text strokes otherwise score anywhere from 0.4 to 1.0 at the right spot.
    return cv2.GaussianBlur(_scaled(gray, scale / 2), (3, 3), 0)


def _soft(gray: np.ndarray) -> np.ndarray:
    # Text and thin outlines drawn at another size (a game embedded at 1146x644 or 1120x540,
    # then scaled to the pack's size) differ by a pixel here and there: the crops of outlined
    # text scored 0.71-0.84 sharp, 0.82-0.90 once both sides are softened alike.
    return cv2.GaussianBlur(gray, (0, 0), FINE_BLUR)


def _template(name: str, gray: np.ndarray) -> Template:
    if name not in ZOOMED:
        return Template(name, ((1.0, _half(gray)),), {1.0: _soft(gray)})
    fine_scales = np.arange(ZOOM_RANGE[0], ZOOM_RANGE[1] + ZOOM_STEP / 2, ZOOM_STEP)
    fine = {round(float(scale), 3): _soft(_scaled(gray, float(scale))) for scale in fine_scales}
    return Template(name, tuple((scale, _half(gray, scale)) for scale in ZOOMS), fine)


class TemplatePack:
    """The templates of one folder, loaded once as grayscale at every scale searched, and the
    game's digits taught by `pack cut` (`digits/`, see digits.py; none in an older pack)."""

    def __init__(self, folder: Path | str | None = None,
                 required: tuple[str, ...] = REQUIRED) -> None:
        if folder is None:
            self.folder = Path(str(resources.files(DEFAULT_PACK) / "templates"))
        else:
            self.folder = Path(folder)
        if not self.folder.is_dir():
            raise WebbotError(f"template pack {self.folder} is not a folder")
        self.templates: dict[str, Template] = {}
        for name in REQUIRED + OPTIONAL:
            path = self.folder / f"{name}.png"
            if not path.exists():
                continue
            gray = inputs.read_image(path, cv2.IMREAD_GRAYSCALE)
            if min(gray.shape) < 4:
                raise WebbotError(f"template {path} is too small ({gray.shape[1]}x{gray.shape[0]})")
            self.templates[name] = _template(name, gray)
        self.digits = Glyphs.load(self.folder)
        missing = [f"{name}.png" for name in required if name not in self.templates]
        if missing:
            raise WebbotError(f"template pack {self.folder} lacks {', '.join(missing)}")

    def __contains__(self, name: str) -> bool:
        return name in self.templates


def fitted(image: np.ndarray, width: float, height: float) -> np.ndarray:
    """`image` of a game whose box is `width` x `height` (in any unit), resized to the scale the
    pack's crops are cut at: the box fitted into PACK_GAME_SIZE by the smaller of the two
    ratios, as the game fits its scene into a box of another aspect (centred)."""
    scale = min(width / PACK_GAME_SIZE[0], height / PACK_GAME_SIZE[1])
    size = round(width / scale), round(height / scale)
    # Halving by area is cheap (and keeps thin strokes); the rest is linear, as area
    # resampling by a ratio such as 1280 -> 1173 costs 8 ms a frame.
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        image = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    if image.shape[1] == size[0] and image.shape[0] == size[1]:
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


def _best(image: np.ndarray, template: np.ndarray) -> tuple[float, tuple[int, int]]:
    if template.shape[0] > image.shape[0] or template.shape[1] > image.shape[1]:
        return -1.0, (0, 0)
    result = cv2.matchTemplate(image, template, cv2.TM_CCOEFF_NORMED)
    _, score, _, at = cv2.minMaxLoc(result)
    return float(score) if np.isfinite(score) else -1.0, at


Region = tuple[int, int, int, int]  # left, top, right, bottom in image pixels


def _place(name: str, offset: tuple[float, float], shape: tuple[int, ...]) -> Region | None:
    """Where a crop can be in a frame whose 1173x660 scene starts at `offset`: its box in the
    manifest with SLACK around it (for the ring post, the box at every camera zoom)."""
    if name not in PLACES:
        return None
    x, y, width, height = PLACES[name]
    zooms = ZOOM_RANGE if name in ZOOMED else (1.0,)
    ax, ay = CAMERA_ANCHOR
    xs = [ax + (edge - ax) * zoom for edge in (x, x + width) for zoom in zooms]
    ys = [ay + (edge - ay) * zoom for edge in (y, y + height) for zoom in zooms]
    left = max(0, int(offset[0] + min(xs)) - SLACK)
    top = max(0, int(offset[1] + min(ys)) - SLACK)
    right = min(shape[1], int(offset[0] + max(xs)) + 1 + SLACK)
    bottom = min(shape[0], int(offset[1] + max(ys)) + 1 + SLACK)
    return (left, top, right, bottom) if right > left and bottom > top else None


class Looker:
    """Finds a pack's templates in one frame.

    In a game frame at the pack's scale (`framed`), each crop is looked for only around its
    place in the manifest, where the pack was cut; a click target that is not there is then
    looked for everywhere (the real shop's Next arrow is not where the results' is). In any
    other picture (a page grab) every crop is looked for everywhere: on a blurred half-size
    copy first, confirmed at full size around the best two spots."""

    def __init__(self, pack: TemplatePack, image: np.ndarray, framed: bool = False) -> None:
        self.pack = pack
        self.gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        self.offset = ((self.gray.shape[1] - PACK_GAME_SIZE[0]) / 2,
                       (self.gray.shape[0] - PACK_GAME_SIZE[1]) / 2) if framed else None
        self._half: np.ndarray | None = None
        self._soft: np.ndarray | None = None
        self.found: dict[str, Match] = {}

    @property
    def half(self) -> np.ndarray:
        if self._half is None:
            self._half = _half(self.gray)
        return self._half

    @property
    def soft(self) -> np.ndarray:
        if self._soft is None:
            self._soft = _soft(self.gray)
        return self._soft

    def find(self, name: str, anywhere: bool = False) -> Match | None:
        """The template's best match in the frame (None when the pack lacks it)."""
        key = f"{name} anywhere" if anywhere and self.offset is not None else name
        if key in self.found:
            return self.found[key]
        template = self.pack.templates.get(name)
        if template is None:
            return None
        region = None
        if self.offset is not None and not anywhere:
            region = _place(name, self.offset, self.gray.shape)
        if region is not None and name not in ZOOMED:
            left, top, right, bottom = region
            score, (dx, dy) = _best(self.soft[top:bottom, left:right], template.fine[1.0])
            height, width = template.fine[1.0].shape
            best = Match(name, score, left + dx, top + dy, width, height)
        else:
            best = self._search(template, region)
        self.found[key] = best
        return best

    def _search(self, template: Template, region: Region | None) -> Match:
        """Coarse on a half-size copy (of the region, or the whole frame), then confirmed at
        full size at the scales around the best two."""
        left, top = (region[0] // 2 * 2, region[1] // 2 * 2) if region else (0, 0)
        half = self.half if region is None else \
            _half(self.gray[top:region[3], left:region[2]])
        coarse = sorted(((_best(half, picture), scale) for scale, picture in template.coarse),
                        key=lambda item: item[0][0], reverse=True)
        best = Match(template.name, -1.0, 0, 0, 0, 0)
        for (_, (x, y)), coarse_scale in coarse[:2]:
            for step in range(-FINE_STEPS, FINE_STEPS + 1):
                scale = round(coarse_scale + step * ZOOM_STEP, 3)
                full = template.fine.get(scale)
                if full is None:
                    continue
                height, width = full.shape
                margin = 4 + round(abs(scale - coarse_scale) * max(height, width))
                at_x, at_y = max(0, left + 2 * x - margin), max(0, top + 2 * y - margin)
                window = self.soft[at_y:at_y + height + 2 * margin,
                                   at_x:at_x + width + 2 * margin]
                score, (dx, dy) = _best(window, full)
                if score > best.score:
                    best = Match(template.name, score, at_x + dx, at_y + dy, width, height,
                                 scale)
        return best

    def seen(self, name: str, threshold: float = INDICATOR_SCORE) -> Match | None:
        match = self.find(name)
        return match if match is not None and match.score >= threshold else None


def _sighting(looker: Looker, screen: str, evidence: Match) -> Sighting:
    targets: dict[str, Point] = {}
    for role, target in TARGETS.get(screen, {}).items():
        match = looker.seen(target, TARGET_SCORE)
        if match is None and looker.offset is not None:
            match = looker.find(target, anywhere=True)
            match = match if match is not None and match.score >= TARGET_SCORE else None
        if match is not None:
            targets[role] = match.centre
    if screen == "unlocked":  # the card screen goes on at a tap anywhere
        targets["continue"] = (looker.gray.shape[1] / 2, looker.gray.shape[0] / 2)
    return Sighting(screen, evidence, targets, dict(looker.found))


def _first_seen(looker: Looker, screens: tuple[str, ...]) -> Sighting | None:
    for screen, indicators in RULES:
        if screen not in screens:
            continue
        # The best of a screen's indicators: the two health bars share their frame, so the
        # other player's bar scores high too.
        seen = [match for match in map(looker.seen, indicators) if match is not None]
        if seen:
            return _sighting(looker, screen, max(seen, key=lambda match: match.score))
    return None


def classify(pack: TemplatePack, image: np.ndarray, hint: str | None = None,
             framed: bool = False) -> Sighting:
    """The screen a frame (BGR or grey, canvas-sized or a page grab at 1:1) shows.

    `framed`: the image is the game's own box at the pack's scale (`fitted`), so each crop is
    looked for around its place only. `hint` (the screen of the frame before) is tried first:
    when its indicator is still there, only the screens that can show up on top of it are
    checked, so a decision loop does not pay for every template on every frame. The answer is
    the same as without the hint."""
    looker = Looker(pack, image, framed)
    if hint in SCREEN_NAMES:
        same = _first_seen(looker, (hint,))
        if same is not None:
            return _first_seen(looker, COVERS.get(hint, ())) or same
    screens = tuple(screen for screen, _ in RULES)
    return _first_seen(looker, screens) or Sighting("unknown", None, {}, dict(looker.found))


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
