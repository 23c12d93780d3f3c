"""Perceive: what a Puzlogic screen shows, from its pixels alone.

The game is an 800x600 canvas and everything the bot reads sits on the game's 48 px grid
(columns at x = 18 + 48i, rows at y = 38 + 48j, 44 px boxes, as the real game draws them). A
picture (a canvas screenshot at any scale, or a page grab with the game inside black) is cut to
the game and scaled to 800x600, then each grid box is classified: a board cell (a full 2 px
outline: empty, a given digit or a placed piece), a tray slot (corner brackets: a piece or
nothing), or a sum (bold digits beside a triangle that points away from the board).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from webbot.errors import WebbotError
from webbot.puzlogic.inks import (
    dark_ink,
    family,
    grey_ink,
    line_ink,
    mask,
    off_background,
    shares,
)
from webbot.puzlogic.lines import Lines, bracket_arms, outline_grid, outline_sides
from webbot.puzlogic.model import (
    BOX,
    GRID_Y,
    HEIGHT,
    WIDTH,
    LevelButton,
    LevelView,
    Picture,
    SeenPiece,
    SelectView,
    Solution,
    Spot,
    Sum,
    UnreadableScreen,
)
from webbot.vision.digits import DigitReader
from webbot.vision.labels import Key
from webbot.vision.marks import Mark
from webbot.vision.pixels import value_and_chroma
from webbot.vision.region import find_game

COLUMNS, ROWS = 16, 11
SELECT_PLACES = 20  # level buttons: four rows of five fit above the music note
PIECE_FAMILIES = {"blue": "blue", "white": "white"}  # colour family -> piece colour
SUM_FAMILIES = {"dark": "all", "blue": "blue", "white": "white"}  # colour family -> sum kind
# A sum's family must fill half its triangle's ink and this share of its digits' ink (the real
# blue sums' digits are half dark edge, so dark never counts against blue or white), and blue,
# white or red other than it under OTHER_SHARE of either (JPEG bleeds a teal background's
# colour into dark digits: 14% "blue"; the real blue digits are 40% blue and more); red this
# much is an error.
TRIANGLE_SHARE = 0.5
DIGIT_SHARE = {"dark": 0.5, "blue": 0.2, "white": 0.2}
OTHER_SHARE = 0.2
RED_SHARE = 0.2
MIN_CONTRAST = 60  # colour distance below which a box holds no ink (a leaf is ~30)
SHARP_CONTRAST = 8  # sum digits this much lighter or darker than the background are cut out
# by lightness, which JPEG keeps sharp (it keeps colour at half size: the strokes of a blue sum
# on teal, 12 grey levels darker, run together); a sum as light as its background only by colour


def normalise(image: np.ndarray, like: Picture | None = None) -> Picture:
    """The game cut out of a grab and scaled to 800x600. `like`: an earlier picture of the same
    level from a grab of the same size, whose game box and background are taken as known."""
    same = like is not None and like.grab_shape == image.shape
    region = like.region if same else find_game(image, WIDTH / HEIGHT)
    game = region.crop(image)
    if game.shape[:2] != (HEIGHT, WIDTH):
        shrink = game.shape[1] > WIDTH
        game = cv2.resize(game, (WIDTH, HEIGHT),
                          interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    return Picture(np.ascontiguousarray(game), region, image.shape,
                   like.background if same else None)


# ---- colours and ink -------------------------------------------------------------------------

def ink(patch: np.ndarray, background: np.ndarray, min_contrast: float = MIN_CONTRAST,
        towards: float | None = None) -> np.ndarray:
    """How much each pixel is ink rather than background (0..1); zeros when there is no ink.
    By colour distance, or by lightness alone when `towards` gives the ink's lightness (sharper
    after JPEG, which blurs colour; only what is lighter, or darker, than the background as
    the ink is: a pale leaf over dark digits is not ink)."""
    if towards is not None:
        gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
        away = gray - lightness_of(background)
        distance = np.clip(away if towards > lightness_of(background) else -away, 0, None)
    else:
        distance = np.linalg.norm(patch.astype(np.float32) - background, axis=2)
    top = float(distance.max())
    if top < min_contrast:
        return np.zeros(distance.shape, np.float32)
    return np.clip(distance / np.percentile(distance[distance > top / 2], 90), 0, 1)


def lightness_of(colour: np.ndarray) -> float:
    """A BGR colour's grey level, as OpenCV's conversion weighs it."""
    return float(0.114 * colour[0] + 0.587 * colour[1] + 0.299 * colour[2])


def glyphs(amount: np.ndarray, min_height: int) -> list[tuple[int, np.ndarray]]:
    """Ink blobs at least `min_height` tall, left to right, as (x, glyph) pairs."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (amount > 0.45).astype(np.uint8), connectivity=8)
    found = []
    for k in range(1, count):
        x, y, w, h, _ = stats[k]
        if h < min_height:
            continue
        part = labels[y:y + h, x:x + w]
        found.append((int(x), amount[y:y + h, x:x + w] * ((part == k) | (part == 0))))
    return sorted(found, key=lambda item: item[0])


def _split_widest(blobs: list[tuple[int, np.ndarray]]) -> list[tuple[int, np.ndarray]]:
    """The widest glyph cut in two at its faintest column in the middle third, when it is wide
    enough to be two digits run together; the glyphs as they were otherwise."""
    k = max(range(len(blobs)), key=lambda n: blobs[n][1].shape[1])
    x, glyph = blobs[k]
    height, width = glyph.shape
    if width < 0.9 * height:
        return blobs[:0]  # one digit, not two: let the count refuse it
    profile = glyph.sum(axis=0)
    cut = width // 3 + int(np.argmin(profile[width // 3:width - width // 3]))
    halves = [(x, glyph[:, :cut]), (x + cut, glyph[:, cut:])]
    return blobs[:k] + [(hx, trim(h)) for hx, h in halves] + blobs[k + 1:]


def trim(glyph: np.ndarray) -> np.ndarray:
    """A glyph without its empty rows and columns."""
    rows, columns = np.nonzero(glyph > 0.45)
    if not len(rows):
        return glyph
    return glyph[rows.min():rows.max() + 1, columns.min():columns.max() + 1]


# ---- screens ---------------------------------------------------------------------------------

def recognises(image: np.ndarray) -> bool:
    """Does a grab show Puzlogic (any of its screens)?"""
    try:
        return classify(normalise(image)) != "unknown"
    except WebbotError:  # no 4:3 game area in it
        return False


def classify(picture: Picture) -> str:
    """title, select, level, completed or unknown."""
    canvas = picture.canvas
    value, spread = value_and_chroma(canvas[100:440:4, 20:780:4])
    greyish = (value < 110) & (spread < 25)
    if greyish.mean() > 0.8 and mask(canvas[35:70, 290:510], "white").sum() > 150:
        return "completed"
    logo = np.array([canvas[48, 200], canvas[48, 280], canvas[120, 440], canvas[48, 680]])
    if mask(logo, "blue").all():  # the purple of the title's letters
        play_box = dark_ink(canvas[182:184, 384:416], picture.background).mean() > 0.8
        return "select" if play_box else "title"
    hud_left = ink(canvas[10:36, 30:115], picture.background)
    hud_right = ink(canvas[10:36, 690:780], picture.background)
    if (hud_left > 0.5).sum() > 60 and (hud_right > 0.5).sum() > 60:
        return "level"
    return "unknown"


def _piece_colour(canvas: np.ndarray, x: int, y: int, background: np.ndarray) -> str | None:
    strips = np.concatenate([canvas[y + 6:y + 38, x + 6:x + 11].reshape(-1, 3),
                             canvas[y + 6:y + 38, x + 34:x + 39].reshape(-1, 3)])
    fill = np.median(strips, axis=0)
    if np.linalg.norm(fill - background) < MIN_CONTRAST:  # a pale background brightened
        return None  # by gamma can pass for white
    return PIECE_FAMILIES.get(family(fill, background) or "")


# Where a sum's triangle sits in the 48x48 square around its box (from x-2, y-2), and where
# its digits are, by the side of the board the sum is on.
# How much bluer than green and red a pixel is, from no ink to full ink, in a blue sum's core
# (#678CFF: 115). Steeper ramps read sooner but, under colour casts and blur, misread blue
# digits (a 9 as a 3).
CORE_RAMP = (20, 60)
SUM_STYLES = {"all": "bold", "blue": "blue core", "white": "bold"}  # digit template sets
# Styles whose Tesseract answers must be the nearest bundled or learned template's digit, and
# are not learned: a blue core is derived ink, which JPEG breaks into shapes Tesseract still
# names (half a 5 as a 2, a 0 as a 9), and a shape learned would later read others alone.
AGREE = {"blue core"}
TRIANGLES = {"left": (slice(17, 32), slice(41, 48)), "right": (slice(17, 32), slice(0, 7)),
             "top": (slice(41, 48), slice(17, 32)), "bottom": (slice(0, 7), slice(17, 32))}
SUM_DIGITS = {"left": (slice(4, 44), slice(0, 40)), "right": (slice(4, 44), slice(8, 48)),
              "top": (slice(0, 40), slice(4, 44)), "bottom": (slice(8, 48), slice(4, 44))}


def sum_kind(triangle: np.ndarray, digits: np.ndarray, background: np.ndarray
             ) -> tuple[str | None, str]:
    """A sum's kind (all, blue or white) from the ink pixels (BGR) of its triangle and of its
    digits, or None and why. The triangle, a filled shape, is the surer witness; the digits must
    agree. Neither may hold another colour family: a sum whose ink is not clearly one family
    is a doubt, never a guess (the real blue sums' digits are thin blue strokes with dark
    edges, about half their ink each, so they can pass for dark)."""
    seen = {"triangle": shares(triangle, background), "digits": shares(digits, background)}
    if max(part["red"] for part in seen.values()) >= RED_SHARE:
        return None, "red, an error hides its kind"
    for name, kind in SUM_FAMILIES.items():
        others = [k for k in ("blue", "white", "red") if k != name]
        if (seen["triangle"][name] >= TRIANGLE_SHARE and seen["digits"][name] >= DIGIT_SHARE[name]
                and all(part[k] < OTHER_SHARE for part in seen.values() for k in others)):
            return kind, ""
    said = "; ".join(f"{part} " + (", ".join(f"{share:.0%} {name}" for name, share
                                             in sorted(found.items(), key=lambda kv: -kv[1])
                                             if share) or "no family")
                     for part, found in seen.items())
    return None, f"not clearly one colour family: {said}"


def _line_ends(board: dict[Spot, object]) -> set[tuple[int, int]]:
    """The grid boxes just past either end of each row and column of the board: the only
    places a sum can be (the HUD's boxes and tip text are not)."""
    rows: dict[int, list[int]] = {}
    columns: dict[int, list[int]] = {}
    for spot in board:
        rows.setdefault(spot.j, []).append(spot.i)
        columns.setdefault(spot.i, []).append(spot.j)
    ends = {(min(i) - 1, j) for j, i in rows.items()} | {(max(i) + 1, j) for j, i in rows.items()}
    return ends | {(i, min(j) - 1) for i, j in columns.items()} | \
        {(i, max(j) + 1) for i, j in columns.items()}


def _triangle_side(amount: np.ndarray) -> str | None:
    """The side of the board a sum's triangle says it is on; None when there is no triangle;
    UnreadableScreen when there is one but other ink hides which (a leaf, say)."""
    filled = {side: int((amount[window] > 0.5).sum()) for side, window in TRIANGLES.items()}
    sides = [side for side, count in filled.items() if 20 <= count <= 80]
    if not sides:
        return None
    if len(sides) > 1 or sum(filled.values()) - filled[sides[0]] > 6:
        raise UnreadableScreen("its triangle is not clear")
    side = sides[0]
    shape = (amount[TRIANGLES[side]] > 0.5).astype(np.float32)
    along = shape.sum(axis=0) if side in ("left", "right") else shape.sum(axis=1)
    third = max(1, len(along) // 3)
    tip_end, base_end = along[:third].sum(), along[-third:].sum()
    points_outward = tip_end < base_end if side in ("left", "top") else tip_end > base_end
    return side if points_outward else None


GLYPHS = Path(__file__).with_name("glyphs")  # bundled templates (scripts/learn_puzlogic_glyphs.py)


class Reader:
    """Reads Puzlogic screens; keeps the digit reader (and its learned templates) between frames.
    Without one given, a reader with the bundled templates, learning into the user's cache."""

    def __init__(self, digits: DigitReader | None = None) -> None:
        self.digits = digits or DigitReader(seeds=GLYPHS)
        self._readings: list[tuple[str, int, float]] = []

    def _number(self, amount: np.ndarray, style: str, min_height: int, where: str,
                doubts: list[str], count: int | None = None) -> int | None:
        blobs = glyphs(amount, min_height)
        while count is not None and 0 < len(blobs) < count:
            blobs = _split_widest(blobs)  # digits run together by blur or JPEG
        if not blobs or (count is not None and len(blobs) != count):
            doubts.append(f"{where}: {len(blobs)} digit shapes")
            return None
        reads = [self.digits.read(glyph, style, agree=style in AGREE) for _, glyph in blobs]
        if any(r.digit is None for r in reads):
            doubts.append(f"{where}: an unreadable digit")
            return None
        value = int("".join(str(r.digit) for r in reads))
        self._readings.append((where, value, min(r.score for r in reads)))
        return value

    def read_level(self, picture: Picture) -> LevelView:
        """The level on the screen (its digits new to the reader taught together)."""
        return self.digits.batched(lambda: self._read_level(picture))

    def _read_level(self, picture: Picture) -> LevelView:
        canvas = picture.canvas
        self._readings = []
        background = picture.background
        lines = Lines(line_ink(canvas, background))
        # Pixels clearly off the background (a leaf is not): boxes without any hold nothing.
        busy = off_background(canvas, background) > 45
        doubts: list[str] = []
        board: dict[Spot, int | None | SeenPiece] = {}
        tray: list[SeenPiece] = []
        others: list[Spot] = []
        outlines = outline_grid(lines, [Spot(i, 0).x for i in range(COLUMNS)],
                                [Spot(0, j).y for j in range(ROWS)])
        for j in range(ROWS):
            for i in range(COLUMNS):
                spot = Spot(i, j)
                x, y = spot.x, spot.y
                sides = outlines[j, i].tolist()
                if min(sides) > 0.8:
                    board[spot] = self._cell(canvas, spot, background, doubts)
                    continue
                if not busy[y - 2:y + 46, x - 2:x + 46].any():
                    continue
                if sum(side > 0.8 for side in sides) >= 6:  # a cell with a side hidden (a
                    # leaf): a board without it would read as another puzzle
                    doubts.append(f"the box at grid {i},{j}: an outline with a side hidden")
                    continue
                arms, middles = bracket_arms(lines, x, y)
                # (JPEG rings a piece's edge into a side middle or two)
                if arms >= 0.75 and middles <= 0.5:
                    colour = _piece_colour(canvas, x, y, background)
                    if colour:
                        tray.append(self._piece(canvas, spot, colour, doubts))
                    continue
                others.append(spot)
        if not board:
            raise UnreadableScreen("no board cells on the level screen")
        top = min(s.j for s in board)
        left = min(s.i for s in board)
        cells: dict[tuple[int, int], int | None] = {}
        spots: dict[tuple[int, int], Spot] = {}
        placed: dict[tuple[int, int], SeenPiece] = {}
        for spot, content in board.items():
            key = (spot.j - top, spot.i - left)
            spots[key] = spot
            if isinstance(content, SeenPiece):
                placed[key] = content
                cells[key] = None
            else:
                cells[key] = content
        ends = _line_ends(board)
        sums = [s for spot in others if (spot.i, spot.j) in ends
                if (s := self._sum(canvas, spot, background, top, left, doubts)) is not None]
        red = int(mask(canvas[GRID_Y:HEIGHT - 20], "red").sum()) > 15
        level = self._level_number(canvas, background)
        return LevelView(cells, spots, placed, tray, sums, red, level, doubts, self._readings)

    def piece_on(self, picture: Picture, spot: Spot) -> SeenPiece | None:
        """The piece on one board cell, read from that cell alone (for checking a drop);
        None when no piece is seen there or its digit is in doubt."""
        return self.digits.batched(lambda: self._piece_on(picture, spot))

    def _piece_on(self, picture: Picture, spot: Spot) -> SeenPiece | None:
        canvas, background = picture.canvas, picture.background
        around = canvas[spot.y - 3:spot.y + 47, spot.x - 3:spot.x + 47]
        colour = _piece_colour(canvas, spot.x, spot.y, background)
        if min(outline_sides(Lines(line_ink(around, background)), 3, 3)) <= 0.8 or not colour:
            return None
        doubts: list[str] = []
        piece = self._piece(canvas, spot, colour, doubts)
        return None if doubts else piece

    def _level_number(self, canvas: np.ndarray, background: np.ndarray) -> int | None:
        """The last two glyphs of "Level 0N" in the top-left corner."""
        blobs = glyphs(ink(canvas[8:38, 28:130], background), 10)[-2:]
        digits = [self.digits.read(glyph, "regular").digit for _, glyph in blobs]
        return None if len(digits) != 2 or None in digits else 10 * digits[0] + digits[1]

    def _cell(self, canvas: np.ndarray, spot: Spot, background: np.ndarray,
              doubts: list[str]) -> int | None | SeenPiece:
        colour = _piece_colour(canvas, spot.x, spot.y, background)
        if colour:
            return self._piece(canvas, spot, colour, doubts)
        amount = ink(canvas[spot.y + 5:spot.y + 39, spot.x + 5:spot.x + 39], background)
        if not (amount > 0.5).any():
            return None
        return self._number(amount, "regular", 12, f"the cell at grid {spot.i},{spot.j}", doubts)

    def _piece(self, canvas: np.ndarray, spot: Spot, colour: str,
               doubts: list[str]) -> SeenPiece:
        patch = canvas[spot.y + 6:spot.y + 38, spot.x + 6:spot.x + 38]
        fill = np.median(canvas[spot.y + 6:spot.y + 38, spot.x + 6:spot.x + 11].reshape(-1, 3),
                         axis=0).astype(np.float32)
        value = self._number(ink(patch, fill), "regular", 12,
                             f"the {colour} piece at grid {spot.i},{spot.j}", doubts)
        return SeenPiece(value, colour, spot)

    def _sum(self, canvas: np.ndarray, spot: Spot, background: np.ndarray, top: int, left: int,
             doubts: list[str]) -> Sum | None:
        square = canvas[spot.y - 2:spot.y + 46, spot.x - 2:spot.x + 46]
        if square.shape[:2] != (48, 48):
            return None
        amount = ink(square, background)
        where = f"the sum at grid {spot.i},{spot.j}"
        try:
            side = _triangle_side(amount)
        except UnreadableScreen as exc:
            doubts.append(f"{where}: {exc}")
            return None
        if side is None:  # ink at a line's end, yet no sum: a sum missed is another puzzle
            doubts.append(f"{where}: ink but no triangle pointing away from the board")
            return None
        kind, why = sum_kind(square[TRIANGLES[side]][amount[TRIANGLES[side]] > 0.5],
                             square[SUM_DIGITS[side]][amount[SUM_DIGITS[side]] > 0.5], background)
        if kind is None:
            doubts.append(f"{where}: its colour ({why})")
            return None
        digits = self._digit_ink(square, amount, kind, background)[SUM_DIGITS[side]]
        target = self._number(digits, SUM_STYLES[kind], 9, where, doubts, 2)
        if target is None:
            return None
        line = "row" if side in ("left", "right") else "col"
        index = spot.j - top if line == "row" else spot.i - left
        return Sum(line, index, target, kind, side)

    @staticmethod
    def _digit_ink(square: np.ndarray, amount: np.ndarray, kind: str,
                   background: np.ndarray) -> np.ndarray:
        """The ink a sum's digits are read from. Blue digits are drawn thin with dark edges: the
        ink of their whole shape is a hollow outline, in which a 3 reads as an 8 and a 0 may
        not read at all. So they are read from their blue core alone."""
        if kind == "blue":
            pixels = square.astype(np.int16)
            blueness = pixels[..., 0] - np.maximum(pixels[..., 1], pixels[..., 2])
            return np.clip((blueness - CORE_RAMP[0]) / (CORE_RAMP[1] - CORE_RAMP[0]),
                           0, 1).astype(np.float32)
        strong = square[amount >= 0.95]  # the ink at its fullest
        lightness = lightness_of(np.median(strong, axis=0))
        if abs(lightness - lightness_of(background)) >= SHARP_CONTRAST:
            return ink(square, background, SHARP_CONTRAST, towards=lightness)
        return amount

    def read_select(self, picture: Picture) -> SelectView:
        """The level buttons: 5 a row from (250, 278) on a 64 px pitch, as many as are drawn.
        A button is where any of its four corner brackets shows (a drifting leaf pales one
        corner, not all four); the game numbers its buttons in order, so a label not read as
        its place's number, or a place without a button before one with, is a doubt."""
        return self.digits.batched(lambda: self._read_select(picture))

    def _read_select(self, picture: Picture) -> SelectView:
        canvas = picture.canvas
        self._readings = []
        background = picture.background
        buttons: list[LevelButton] = []
        doubts: list[str] = []
        gap = None  # the first place seen without a button
        for place in range(1, SELECT_PLACES + 1):
            x, y = 250 + 64 * ((place - 1) % 5), 278 + 64 * ((place - 1) // 5)
            if not bracket_corners(canvas[y:y + BOX, x:x + BOX], background):
                gap = gap or place
                continue
            if gap:
                doubts.append(f"no level button seen at place {gap}, yet one at {place}")
                gap = None
            label = canvas[y + 26:y + 38, x + 6:x + 38]
            purple = mask(label, "blue")
            unlocked = bool(purple.mean() > 0.5)
            finished = unlocked and int(mask(canvas[y + 3:y + 16, x + 4:x + 20], "green")
                                        .sum()) > 5
            fill = np.median(label[purple], axis=0) if unlocked else background
            patch = canvas[y + 14:y + 34, x + 6:x + 38]  # below a tick
            faint = 60 if unlocked else 25  # locked labels are grey on green
            number = self._number(ink(patch, fill, faint), "regular", 10,
                                  f"level button {place}", doubts, 2)
            if number is not None and number != place:
                doubts.append(f"level button {place}: read as {number}")
            buttons.append(LevelButton(number, (x + BOX / 2, y + BOX / 2), unlocked, finished))
        return SelectView(buttons, doubts)


def bracket_corners(box: np.ndarray, background: np.ndarray) -> int:
    """How many of a 44 px box's four corners show a level button's bracket (grey ink along
    both of its arms)."""
    dark = grey_ink(box, background)
    return sum(corner[0:2, 0:12].mean() + corner[0:12, 0:2].mean() >= 1.2
               for corner in (dark, dark[:, ::-1], dark[::-1], dark[::-1, ::-1]))


def slot_empty(picture: Picture, spot: Spot) -> bool:
    """Has a tray slot's piece left it (no piece colour inside its brackets)?"""
    return _piece_colour(picture.canvas, spot.x, spot.y, picture.background) is None


def completed_buttons(picture: Picture) -> dict[str, tuple[float, float]]:
    """Centres of the white words on the completed overlay's button row: Menu, then Next."""
    white = mask(picture.canvas[455:505, 250:550], "white").astype(np.uint8)
    white = cv2.dilate(white, np.ones((3, 9), np.uint8))
    count, _, stats, centroids = cv2.connectedComponentsWithStats(white)
    words = sorted((centroids[k][0] + 250, centroids[k][1] + 455)
                   for k in range(1, count) if stats[k][4] > 60)
    return dict(zip(("menu", "next"), words, strict=False)) if len(words) == 2 else {}


def hud_button(picture: Picture, line: int) -> tuple[float, float] | None:
    """Centre of "Restart □" (line 0) or "Quit □" (line 1) at the top right: word and box."""
    top = 10 + 36 * line
    patch = picture.canvas[top:top + 28, 640:790]
    ys, xs = np.nonzero(ink(patch, picture.background) > 0.5)
    if len(xs) < 30:
        return None
    return float((xs.min() + xs.max()) / 2 + 640), float((ys.min() + ys.max()) / 2 + top)


GIVEN, ON_BOARD, IN_TRAY, SUM = (0, 160, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255)  # BGR
ANSWER = (128, 96, 0)  # a deep teal: none of the game's own colours (tan, blue, purple, white)
READ_LEGEND = (
    Key("5", GIVEN, "a given number, as read (a box without a label: a free cell)"),
    Key("4b", ON_BOARD, "a piece on the board: its number and colour (b blue, w white)"),
    Key("4b", IN_TRAY, "a piece in the tray: its number and colour"),
    Key("12a", SUM, "a sum: its target, of all the line's numbers (a) or its blue (b) or "
                    "white (w) ones"))
SOLUTION_LEGEND = (
    Key("4b", ANSWER, "the solution: the piece that goes in that cell (b blue, w white)"),)


def marks(view: LevelView, picture: Picture) -> list[Mark]:
    """What was read, as boxes in the picture's pixels (for annotated debug pictures; their
    legend is READ_LEGEND)."""
    found = []

    def box(spot: Spot, text: str, colour: tuple[int, int, int]) -> None:
        found.append(spot_mark(picture, spot, text, colour, "inside"))

    for cell, spot in view.spots.items():
        piece = view.placed.get(cell)
        if piece:
            box(spot, f"{piece.value}{piece.color[0]}", ON_BOARD)
        else:
            given = view.cells[cell]
            box(spot, "" if given is None else str(given), GIVEN)
    for piece in view.tray:
        box(piece.spot, f"{piece.value}{piece.color[0]}", IN_TRAY)
    for s in view.sums:
        spot = Spot(*sum_spot(view, s))
        box(spot, f"{s.target}{s.counts[0]}", SUM)
    return found


def solution_marks(view: LevelView, picture: Picture, solution: Solution) -> list[Mark]:
    """Each piece of the solution in its cell, large (their legend is SOLUTION_LEGEND)."""
    return [spot_mark(picture, view.spots[p.cell], f"{p.value}{p.color[0]}", ANSWER, "inside")
            for p in solution]


def spot_mark(picture: Picture, spot: Spot, text: str, colour: tuple[int, int, int],
              where: str = "above") -> Mark:
    """A grid box of the game as a mark in the picture's pixels."""
    scale = picture.region.width / WIDTH
    x, y = picture.to_image(spot.x, spot.y)
    return Mark(x, y, BOX * scale, BOX * scale, text, colour, where)


def sum_spot(view: LevelView, s: Sum) -> tuple[int, int]:
    """The grid box (i, j) a sum was read in, from the board's cells and its side."""
    axis = 0 if s.line == "row" else 1
    line = [spot for cell, spot in view.spots.items() if cell[axis] == s.index]
    if s.line == "row":
        i = min(p.i for p in line) - 1 if s.side == "left" else max(p.i for p in line) + 1
        return i, line[0].j
    j = min(p.j for p in line) - 1 if s.side == "top" else max(p.j for p in line) + 1
    return line[0].i, j
