"""Finding a template pack's crops in a picture, by grayscale normalised correlation.

A template pack is a folder of PNG crops named like ../shared/reference/burrito-bison/
templates (`bison-health-bar.png`, `next-button.png`, ...); extra files in it are ignored, so
any folder that holds these file names is a pack as it is.

Three ways to look, cheapest first:
- in a game frame at the pack's scale (`framed`), each crop around its place in the manifest;
- in any picture at the pack's scale, each crop everywhere (the ring post over its zooms);
- `free`: each crop everywhere over a range of scales, for a build whose layout differs from
  the manifest's or a game of another size in a page grab.
Each match is found on a blurred half-size copy first and confirmed at full size in a small
window around the best spots: about 4x cheaper than matching at full size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from webbot import inputs
from webbot.burrito_bison.digits import Glyphs
from webbot.burrito_bison.layout import CAMERA_ANCHOR, PACK_GAME_SIZE, PLACES, ZOOM_RANGE
from webbot.burrito_bison.model import Match
from webbot.errors import WebbotError

# The crops every pack has (named like the real game's crops), and extras: the ring as
# Pineapple Spank, the screens the real crops do not tell apart, and the screens of the later
# builds (the title, the comic, the flash sale, the piñata cards, the shop's grid).
REQUIRED = ("bison-health-bar", "cancel-button", "filled-with-goodies", "full-rocket",
            "left-goalpost", "next-button", "tap-to-continue", "unlocked")
OPTIONAL = ("pineapple-health-bar", "rocket-bar", "shop-hud", "shop-lock", "shop-button",
            "click-to-start", "comic-panel", "flash-sale", "sale-close", "card-back")
DEFAULT_PACK = "webbot.burrito_bison"

# The ring's camera zooms with the opponent's size (about 0.95-1.2), so the crops of things in
# the ring are searched over those scales: coarsely at half size, then in 0.025 steps around
# the best two at full size; the header and menus never zoom.
ZOOMS = (0.95, 1.05, 1.15)
ZOOM_STEP = 0.025
FINE_STEPS = 2  # fine scales tried either side of a coarse one
FINE_BLUR = 1.0  # the Gaussian sigma both sides get before the full-size match
ZOOMED = {"left-goalpost"}
SLACK = 24  # pixels around a crop's place in the manifest where a game frame may show it
# A crop whose blurred half-size copy scores under this around its place is not looked for
# there at full size: where the full size scored 0.5 or more, the half size scored higher (0.62
# the least, on the replica's screens at four sizes, the real ones, JPEG and faded: scratch;
# tests/burrito_bison/test_perceive_replica.py checks none is hidden), and no place is asked
# for less than 0.6.
NOT_AT_PLACE = 0.45

# The free search: scales 10% apart, from a game at half the pack's size (a 0.75x grab of a
# small embed) to twice it (a DPR-2 grab of a large one), confirmed at full size 2.4% apart.
# A frame already at the pack's scale only needs the scales of another build's art.
FREE_RATIO = 1.05
FREE_SCALES = tuple(round(0.5 * FREE_RATIO ** i, 3) for i in range(29))      # 0.5 .. 1.98
FRAMED_SCALES = tuple(scale for scale in FREE_SCALES if 0.8 <= scale <= 1.25)
FREE_FINE = (-2, -1, 0, 1, 2)  # quarter-steps of FREE_RATIO around a coarse scale
# A crop whose smaller side would shrink below this many pixels is not searched at that
# scale: so small, it scores about as high on unrelated text and art as on its true place.
FREE_MIN_SIDE = 14
FREE_CANDIDATES = 4  # coarse spots confirmed (small scales' blurred crops match widely)
# Normalised correlation ignores contrast, so a button dimmed under a popup matches as well
# as a live one; a crop counts as seen only at about its own contrast (a dimmed one has about
# 0.2 of it; JPEG, rescaling and replicas keep 0.9-1.1).
CONTRAST = (0.6, 1.6)
# The free search looks in so many places and sizes that grey shapes alone find look-alikes;
# the mean colour tells them apart: a true match, rescaled or JPEG, keeps its crop's mean
# colour within about 10, where a look-alike's lies 50 or more away.
FREE_COLOUR = 30.0


@dataclass(frozen=True)
class Template:
    name: str
    gray: np.ndarray                              # the crop as cut
    colour: np.ndarray                            # its mean colour, BGR
    coarse: tuple[tuple[float, np.ndarray], ...]  # (scale, blurred half-size picture)
    fine: dict[float, np.ndarray]                 # scale -> full-size picture
    free: dict[tuple[float, bool], np.ndarray] = field(default_factory=dict, compare=False)

    def at(self, scale: float, half: bool) -> np.ndarray:
        """The crop at `scale` for the free search (half size and blurred, or softened), made
        once."""
        key = (scale, half)
        if key not in self.free:
            self.free[key] = _half(self.gray, scale) if half else _soft(_scaled(self.gray, scale))
        return self.free[key]


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
    # then scaled to the pack's size) differ by a pixel here and there, so both sides are
    # softened alike for outlined text to still match.
    return cv2.GaussianBlur(gray, (0, 0), FINE_BLUR)


def _template(name: str, gray: np.ndarray, colour: np.ndarray) -> Template:
    if name not in ZOOMED:
        return Template(name, gray, colour, ((1.0, _half(gray)),), {1.0: _soft(gray)})
    fine_scales = np.arange(ZOOM_RANGE[0], ZOOM_RANGE[1] + ZOOM_STEP / 2, ZOOM_STEP)
    fine = {round(float(scale), 3): _soft(_scaled(gray, float(scale))) for scale in fine_scales}
    return Template(name, gray, colour, tuple((scale, _half(gray, scale)) for scale in ZOOMS),
                    fine)


class TemplatePack:
    """The templates of one folder, loaded once as grayscale at every scale searched, and the
    game's digits taught by `pack cut` (`digits/`, see digits.py; none if the pack has no
    such folder)."""

    def __init__(self, folder: Path | str | None = None,
                 required: tuple[str, ...] = REQUIRED) -> None:
        if folder is None:
            self.folder = Path(str(resources.files(DEFAULT_PACK) / "templates"))
        else:
            self.folder = Path(folder)
        if not self.folder.is_dir():
            raise inputs.InputError(f"template pack {self.folder} is not a folder")
        self.templates: dict[str, Template] = {}
        for name in REQUIRED + OPTIONAL:
            path = self.folder / f"{name}.png"
            if not path.exists():
                continue
            colour = inputs.read_image(path)
            gray = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
            if min(gray.shape) < 4:
                raise WebbotError(f"template {path} is too small ({gray.shape[1]}x{gray.shape[0]})")
            self.templates[name] = _template(name, gray, colour.reshape(-1, 3).mean(axis=0))
        self.digits = Glyphs.load(self.folder)
        missing = [f"{name}.png" for name in required if name not in self.templates]
        if missing:
            raise WebbotError(f"template pack {self.folder} lacks {', '.join(missing)}")

    def __contains__(self, name: str) -> bool:
        return name in self.templates


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


class Matcher:
    """Finds a pack's templates in one picture.

    In a game frame at the pack's scale (`framed`), each crop is looked for only around its
    place in the manifest, where the pack was cut; a click target that is not there is then
    looked for everywhere (the real shop's Next arrow is not where the results' is). In any
    other picture every crop is looked for everywhere. With `scales` (the free search), every
    crop is looked for everywhere at each of those scales."""

    def __init__(self, pack: TemplatePack, image: np.ndarray, framed: bool = False,
                 scales: tuple[float, ...] | None = None, gray: np.ndarray | None = None
                 ) -> None:
        self.pack = pack
        self.image = image
        if gray is None:
            gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        self.gray = gray
        self.offset = ((self.gray.shape[1] - PACK_GAME_SIZE[0]) / 2,
                       (self.gray.shape[0] - PACK_GAME_SIZE[1]) / 2) \
            if framed and scales is None else None
        self.scales = scales
        self._half: np.ndarray | None = None
        self._soft: np.ndarray | None = None
        self.found: dict[str, Match] = {}
        self._near: dict[float, Matcher] = {}

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

    def freed(self, scales: tuple[float, ...]) -> Matcher:
        """A free matcher over `scales` in the same picture, sharing the copies made so far."""
        matcher = Matcher(self.pack, self.image, scales=scales, gray=self.gray)
        matcher._half, matcher._soft = self.half, self.soft  # both are needed, made once
        return matcher

    def near(self, scale: float) -> Matcher:
        """A free matcher over the scales around one (the targets of a screen whose indicator
        matched at `scale`; the ring post zooms up to 1.2 of the header), made once."""
        key = round(scale, 3)
        if key not in self._near:
            ratios = (0.91, 1.0, 1.1, 1.21)
            self._near[key] = self.freed(tuple(round(key * ratio, 3) for ratio in ratios))
        return self._near[key]

    def find(self, name: str, anywhere: bool = False) -> Match | None:
        """The template's best match in the picture (None when the pack lacks it)."""
        key = f"{name} anywhere" if anywhere and self.offset is not None else name
        if key in self.found:
            return self.found[key]
        template = self.pack.templates.get(name)
        if template is None:
            return None
        region = None
        if self.offset is not None and not anywhere:
            region = _place(name, self.offset, self.gray.shape)
        if self.scales is not None:
            best = self._free(template)
        elif region is not None and name not in ZOOMED:
            left, top, right, bottom = region
            if self._not_at(template, region):
                best = Match(name, -1.0, left, top, 0, 0)
            else:
                score, (dx, dy) = _best(self.soft[top:bottom, left:right], template.fine[1.0])
                best = self._match(name, score, left + dx, top + dy, template.fine[1.0])
        else:
            best = self._search(template, region)
        self.found[key] = best
        return best

    def _not_at(self, template: Template, region: Region) -> bool:
        """The crop is not in `region`, as a blurred half-size look tells at a sixteenth of the
        cost of the full-size one: most crops looked for at their places are not there (the
        other screens' indicators, every one on a frame of a fade)."""
        left, top, right, bottom = region
        half = self.half[top // 2:bottom // 2, left // 2:right // 2]
        crop = template.coarse[0][1]
        return half.shape[0] >= crop.shape[0] and half.shape[1] >= crop.shape[1] and \
            _best(half, crop)[0] < NOT_AT_PLACE

    def all_found(self) -> dict[str, Match]:
        """Every match made, by template (for debugging), the closer looks' included."""
        found: dict[str, Match] = {}
        for near in self._near.values():
            found.update(near.found)
        return {**found, **self.found}

    def confirmed(self, name: str, threshold: float, anywhere: bool = False) -> Match | None:
        """The template's best match when it scores `threshold` at about its own contrast."""
        match = self.find(name, anywhere)
        if match is None or match.score < threshold:
            return None
        if self.scales is not None and match.colour > FREE_COLOUR:
            return None
        return match if CONTRAST[0] <= match.contrast <= CONTRAST[1] else None

    def _match(self, name: str, score: float, x: int, y: int, full: np.ndarray,
               scale: float = 1.0) -> Match:
        height, width = full.shape
        patch = self.soft[y:y + height, x:x + width]
        contrast = float(patch.std()) / max(1e-6, float(full.std()))
        colour = 0.0
        if self.image.ndim == 3:
            mean = self.image[y:y + height, x:x + width].reshape(-1, 3).mean(axis=0)
            colour = float(np.linalg.norm(mean - self.pack.templates[name].colour))
        return Match(name, score, x, y, width, height, scale, round(contrast, 3),
                     round(colour, 1))

    def _confirm(self, template: Template, full: np.ndarray, x: int, y: int, margin: int,
                 scale: float) -> Match:
        """The full-size match in a window `margin` pixels around (x, y)."""
        height, width = full.shape
        at_x, at_y = max(0, x - margin), max(0, y - margin)
        window = self.soft[at_y:at_y + height + 2 * margin, at_x:at_x + width + 2 * margin]
        score, (dx, dy) = _best(window, full)
        return self._match(template.name, score, at_x + dx, at_y + dy, full, scale)

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
                margin = 4 + round(abs(scale - coarse_scale) * max(full.shape))
                match = self._confirm(template, full, left + 2 * x, top + 2 * y, margin, scale)
                if match.score > best.score:
                    best = match
        return best

    def _free(self, template: Template) -> Match:
        """Everywhere at every scale of the matcher where the crop keeps FREE_MIN_SIDE pixels:
        coarse at half size, then confirmed at full size at the scales around the best few."""
        coarse = []
        for scale in self.scales or ():
            if min(template.gray.shape) * scale >= FREE_MIN_SIDE:
                score, (x, y) = _best(self.half, template.at(scale, half=True))
                coarse.append((score, scale, 2 * x, 2 * y))
        coarse.sort(key=lambda item: item[0], reverse=True)
        best = Match(template.name, -1.0, 0, 0, 0, 0)
        for _, coarse_scale, x, y in coarse[:FREE_CANDIDATES]:
            for step in FREE_FINE:
                scale = round(coarse_scale * FREE_RATIO ** (step / 4), 3)
                if min(template.gray.shape) * scale < FREE_MIN_SIDE:
                    continue
                full = template.at(scale, half=False)
                margin = 4 + math.ceil(abs(scale / coarse_scale - 1) * max(full.shape))
                match = self._confirm(template, full, x, y, margin, scale)
                if match.score > best.score:
                    best = match
        return best
