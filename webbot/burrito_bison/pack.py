"""Template packs cut from a player's own screenshots (`webbot burrito-bison pack cut`).

The manifest (layout.py) says which crop is cut from which screenshot, as a box in the
pack's 1173x660 game. A screenshot may show a whole page: the game is found in each picture as
a block of a real game's shape framed by black (a portal draws the game in a black frame),
else as the part of the pictures that changes from one screen to the next (the page around it
stays the same), or given as a box. The box is taken to hold the 1173x660 scene fitted and
centred, as the game draws itself at other sizes; each picture is brought to the pack's scale
the way the bot brings its frames (`perceive.fitted`), and the crops are cut there, so a pack
matches frames of any size alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from webbot import folders
from webbot.burrito_bison import digits, shop
from webbot.burrito_bison.layout import (
    MANIFEST,
    PACK_GAME_SIZE,
    REAL_SIZES,
    SHOP_COINS,
    SHOP_PRICE,
    SHOTS,
    Box,
)
from webbot.burrito_bison.matching import REQUIRED, Matcher, TemplatePack
from webbot.burrito_bison.perceive import (
    COVERS,
    INDICATOR_SCORE,
    RULES,
    classify,
    fitted,
    framed_game,
    real_shaped,
)
from webbot.burrito_bison.readout import RESULTS_PLACES, Number, read_in, white_ink
from webbot.errors import WebbotError

CHANGES = 24          # grey levels by which a pixel differs between screens to count as game
GAME_ASPECT = (1.3, 2.5)
GAME_MIN = (320, 180)


@dataclass(frozen=True)
class ShotCheck:
    """How one screenshot reads with the pack just cut."""

    shot: str
    screen: str        # what it should read as
    read_as: str
    score: float       # its own indicator's best score
    rival: str         # the other screen whose indicator scores highest on it
    rival_score: float

    @property
    def ok(self) -> bool:
        return self.read_as == self.screen and self.rival_score < INDICATOR_SCORE


@dataclass(frozen=True)
class CutReport:
    box: Box | None    # the game's box found by what changes between the pictures, if it was
    framed: dict[str, Box]  # the pictures whose game was found framed by black, and where
    written: tuple[Path, ...]   # the crops
    checks: tuple[ShotCheck, ...]
    missing_shots: tuple[str, ...]
    missing_required: tuple[str, ...]
    glyphs: tuple[Path, ...] = ()  # the digits taught (digits.py)
    digits: str = ""   # their labels, e.g. "013456789M"
    unlabelled: tuple[str, ...] = ()  # number glyphs that could not be labelled
    numbers: tuple[tuple[str, Number], ...] = ()  # each number read back with the pack


def number_inks(scenes: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The ink of each number the results and shop screenshots show, by name."""
    inks = {}
    if "results" in scenes:
        for name, (x, y, width, height) in RESULTS_PLACES.items():
            inks[f"results-{name}"] = white_ink(scenes["results"][y:y + height, x:x + width])
    if "shop" in scenes:
        inks["shop-coins"] = white_ink(shop.crop(scenes["shop"], SHOP_COINS))
        price = shop.price_ink(shop.crop(scenes["shop"], SHOP_PRICE))
        if price is not None:
            inks["shop-price"] = price
    return inks


def teach_digits(scenes: dict[str, np.ndarray], out: Path) -> tuple[list[Path], str, list[str]]:
    """The game's digits taught from the shop's level pips and the screenshots' numbers,
    written under out/digits/; the labels taught and the glyphs left unlabelled."""
    inks = number_inks(scenes)
    pips = digits.pip_inks(shop.pip_pictures(scenes["shop"])) if "shop" in scenes else []
    if not inks and not pips:
        return [], "", []
    taught, unlabelled = digits.teach(pips, inks)
    labels = "".join(sorted({glyph.label for glyph in taught}))
    return digits.save(taught, out), labels, unlabelled


def shot_name(path: Path) -> str:
    stem = path.stem.lower().replace("rocket-ready", "rocket_ready")
    if stem not in SHOTS:
        raise WebbotError(f"{path.name}: name the screenshots after their screens: "
                          f"{', '.join(f'{name}.png' for name in SHOTS)}")
    return stem


def _span(fractions: np.ndarray, high: float, low: float) -> tuple[int, int]:
    """The longest run of values >= high, grown either way while they stay >= low."""
    best, start = (0, 0), None
    for i, value in enumerate(np.append(fractions, -1.0)):
        if value >= high and start is None:
            start = i
        elif value < high and start is not None:
            if i - start > best[1] - best[0]:
                best = (start, i)
            start = None
    first, end = best
    while first > 0 and fractions[first - 1] >= low:
        first -= 1
    while end < len(fractions) and fractions[end] >= low:
        end += 1
    return first, end


def find_game(pictures: list[np.ndarray]) -> Box:
    """The game's box in screenshots of one page: the region that changes between them."""
    if len(pictures) < 2:
        height, width = pictures[0].shape[:2]
        if real_shaped(width, height):
            return 0, 0, width, height  # a grab of the game alone
        raise WebbotError(f"one {width}x{height} screenshot does not show where the game is "
                          "(it is not a grab of the game alone, whose shape would be one of "
                          f"{', '.join(f'{w}x{h}' for w, h in REAL_SIZES)}): give two or more "
                          "screenshots of the same page, or --box X,Y,W,H")
    height = min(p.shape[0] for p in pictures)
    width = min(p.shape[1] for p in pictures)
    grays = np.stack([cv2.cvtColor(p[:height, :width], cv2.COLOR_BGR2GRAY) for p in pictures])
    changes = (grays.max(axis=0).astype(np.int16) - grays.min(axis=0)) > CHANGES
    columns = changes.mean(axis=0)
    left, right = _span(columns, 0.5 * columns.max(), 0.5 * columns.max())
    rows = changes[:, left:right].mean(axis=1)
    top, bottom = _span(rows, 0.5, 0.1)
    if bottom > top:
        columns = changes[top:bottom].mean(axis=0)
        left, right = _span(columns, 0.5, 0.1)
    box = left, top, right - left, bottom - top
    aspect = box[2] / max(1, box[3])
    if box[2] < GAME_MIN[0] or box[3] < GAME_MIN[1] or \
            not GAME_ASPECT[0] <= aspect <= GAME_ASPECT[1]:
        raise WebbotError(f"no game-shaped region changes between the screenshots (the one "
                          f"that does is {box[2]}x{box[3]} at {box[0]},{box[1]}): give "
                          "screenshots of different screens, or --box X,Y,W,H")
    return box


def scene(picture: np.ndarray, box: Box) -> np.ndarray:
    """The game in `picture` at the pack's scale, cropped to the 1173x660 scene."""
    x, y, width, height = box
    if x < 0 or y < 0 or x + width > picture.shape[1] or y + height > picture.shape[0]:
        raise WebbotError(f"the game's box {width}x{height} at {x},{y} is not inside the "
                          f"{picture.shape[1]}x{picture.shape[0]} screenshot")
    game = fitted(picture[y:y + height, x:x + width], width, height)
    left = round((game.shape[1] - PACK_GAME_SIZE[0]) / 2)
    top = round((game.shape[0] - PACK_GAME_SIZE[1]) / 2)
    return game[top:top + PACK_GAME_SIZE[1], left:left + PACK_GAME_SIZE[0]]


def _check(pack: TemplatePack, shot: str, image: np.ndarray) -> ShotCheck:
    screen = SHOTS[shot]
    matcher = Matcher(pack, image)
    own, rival = 0.0, ("", -1.0)
    for other, indicators in RULES:
        for name in indicators:
            match = matcher.find(name)
            if match is None:
                continue
            if other == screen:
                own = max(own, match.score)
            elif other not in COVERS.get(screen, ()) and screen not in COVERS.get(other, ()) \
                    and match.score > rival[1]:
                rival = (other, match.score)
    return ShotCheck(shot, screen, classify(pack, image).screen, own, *rival)


def _made_before(out: Path, crops: dict[str, object]) -> set[str]:
    """Make `out` a pack of webbot's (webbot.folders) for a cut that writes `crops`: a file
    there that webbot did not write is never overwritten (refused), and the glyphs an earlier
    cut taught are removed; what an earlier cut wrote that stays (the crops of screens not
    given now), by name."""
    folders.claim(out, folders.PACK)
    made = set(folders.made_here(out))
    if foreign := [name for name in crops if (out / name).exists() and name not in made]:
        raise folders.NotOurs(f"{out / foreign[0]} was not written by webbot: move it away, "
                              "or cut the pack into a new folder")
    old_glyphs = {name for name in made if name.startswith(f"{digits.FOLDER}/")}
    folders.remove_made(out, old_glyphs)
    return made - old_glyphs


def cut_pack(paths: list[Path], out: Path, box: Box | None = None) -> CutReport:
    """Cut the manifest's crops from screenshots named after their screens into `out`, then
    read every screenshot back with the new pack."""
    from webbot import inputs

    shots: dict[str, Path] = {}
    for path in paths:
        name = shot_name(path)
        if name in shots:
            raise WebbotError(f"two screenshots of {name}: {shots[name]} and {path}")
        shots[name] = path
    pictures = {name: inputs.read_image(path) for name, path in shots.items()}
    boxes = dict.fromkeys(pictures, box) if box else \
        {name: found for name, picture in pictures.items() if (found := framed_game(picture))}
    framed = {} if box else dict(boxes)
    rest = [name for name in pictures if name not in boxes]
    found = find_game([pictures[name] for name in rest]) if rest else None
    boxes.update(dict.fromkeys(rest, found))
    scenes = {name: scene(picture, boxes[name]) for name, picture in pictures.items()}
    crops = {f"{cut.name}.png": cut for cut in MANIFEST if cut.shot in scenes}
    kept = _made_before(out, crops)
    written = []
    for name, cut in crops.items():
        x, y, width, height = cut.box
        crop = scenes[cut.shot][y:y + height, x:x + width]
        folders.write_private(out / name, cv2.imencode(".png", crop)[1].tobytes())
        written.append(out / name)
    cut_names = {path.stem for path in written}
    glyph_files, labels, unlabelled = teach_digits(scenes, out)
    folders.record(out, folders.PACK, kept | {p.relative_to(out).as_posix()
                                              for p in (*written, *glyph_files)})
    pack = TemplatePack(out, required=())
    checks = tuple(_check(pack, name, image) for name, image in scenes.items())
    numbers = tuple((name, read_in(ink, pack.digits))
                    for name, ink in number_inks(scenes).items())
    return CutReport(found, framed, tuple(written), checks,
                     tuple(name for name in SHOTS if name not in shots),
                     tuple(name for name in REQUIRED if name not in cut_names),
                     tuple(glyph_files), labels, tuple(unlabelled), numbers)
