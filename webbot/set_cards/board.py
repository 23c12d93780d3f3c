"""Finds the SET cards in a picture of a board (a screenshot or a photo) and reads them.

Cards are found from their shapes, not their edges: the Daily SET's own cards are white on a
white page with no outline at all (the 2022 page), where an edge finder sees no card. A shape
is a blob of coloured ink lying on light, greyish paper (a dark or coloured table is not paper,
so its colour is not taken for ink); the shapes of one card are copies side by side, the same
size, hue, fill and outline, closer to each other than to the next card's. Each card is then
cut out around its shapes, inside the card, and read by the card classifier (perceive.py);
its fill and shape are read a second time with the whole board's (second_look.py), from the
shapes' lightness, which JPEG keeps sharp where it blurs their colour, and that reading stands.

A board tilted by a photo is turned straight first, by the slope its rows of shapes show; a
board of cards standing on end (a photo of the card game's table, shapes lying down) is read
turned a quarter, and numbered as it was given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from webbot.errors import WebbotError
from webbot.set_cards.model import (
    DAILY_CARDS,
    DAILY_SETS,
    MAX_CARDS,
    Card,
    Reading,
    attribute_word,
    find_sets,
    least_certain,
)
from webbot.set_cards.perceive import (
    CardError,
    NoInk,
    Uncounted,
    ink_named,
    mean_hue,
    read_attributes,
    value_and_chroma,
)
from webbot.set_cards.second_look import (
    fill_level,
    outline_features,
    paper_and_ink,
    read_fills,
    read_likeness,
    read_outlines,
)
from webbot.vision.percentile import percentile
from webbot.words import counted

# Paper: bright and grey (a tinted photo's white included). Ink: coloured; JPEG smears the
# chroma of thin strokes (a green stripe drops to ~40), so ink is what is clearly coloured and
# whatever fainter colour touches it.
PAPER_VALUE, PAPER_CHROMA = 140, 25
INK_CHROMA, FAINT_INK_CHROMA = 60, 25
# A thin outline through JPEG keeps its darkness where its chroma drops under INK_CHROMA (a
# green empty oval at 55-59): as dark as ink and fairly coloured counts as ink too.
DARK_INK_CHROMA, DARK_INK_GREY = 40, 170
SHAPE_ASPECT = (0.25, 0.9)  # width / height of an upright shape (the real 19x42: 0.45)
MIN_SHAPE_H = 12  # px: a card about 50 px wide draws its shapes ~22 px high
MIN_EXTENT = 0.4  # of its box a shape fills (a diamond: 0.5)
# Shapes of one card: the real pitch is 32 px for 42 px high shapes, a gap of 0.31 of the
# height; the nearest shapes of two cards are 0.38 apart at the closest (the 2022 table, two
# three-shape cards) but then differ in look, as no two cards are the same.
MAX_GAP = 0.55  # of the shape height
SAME_HEIGHT, SAME_ROW = 0.15, 0.2  # relative differences allowed within a card
SAME_HUE, SAME_SHARE, SAME_SILHOUETTE = 20.0, 0.25, 0.7
# A card's crop for the classifier, in shape heights: the real card is 2.26 wide and 1.48 high
# with 0.14 beside three shapes; the crop stays inside it.
CROP_H, CROP_PAD_X, CROP_MIN_W = 1.4, 0.12, 2.0
CARD_W, CARD_H = 2.26, 1.48  # the card's box, put around its shapes at a card's proportions
MIN_TILT, MAX_TILT = 0.3, 10.0  # degrees: below, left as it is; above, not a board
HALF_LOOK_PIXELS = 2_500_000  # a picture this large is first read at half size (read_board)
MIN_HALF_SHAPE_H = 40  # px at half size: about the page's own (42 px high shapes)
# A picture is lossier than the page's own card files (JPEG, scaling): a reading is refused
# from this doubt up.
PICTURE_DOUBT_LIMIT = 0.5
# Through JPEG, shapes lower than this do not read reliably (a card about 50 px wide draws
# them about 22 px high), so they are refused, untried.
MIN_LOSSY_SHAPE_H = 20
# A card whose shapes lie off its column by about half their pitch has lost a shape at its
# edge (where a card meets the table, a shape can be taken for the table).
OFF_COLUMN = 0.25  # of the shapes' pitch
LONE_PITCH = 0.76  # of the shape height: the real cards' pitch (32 px for 42 px high shapes)
OVERRULE = 0.3  # the doubt under which the board's second look overrules the card reader


class BoardError(WebbotError):
    """A picture that cannot be read as a board of SET cards: nothing is guessed."""


class TooSmall(BoardError):
    """Shapes too small in the picture for any reading of it, the puzzle's or a table's."""


@dataclass(frozen=True)
class Shape:
    x: int
    y: int
    w: int
    h: int
    hue: float  # OpenCV hue, 0-180
    share: float  # of the silhouette inked: solid ~1, striped ~0.5, empty ~0.2
    fill_level: float  # how dark its middle is against its ink and paper (second_look.py)
    silhouette: np.ndarray  # the filled outline, scaled to 16x32
    seen: bool = True  # False: a shape placed where ink shows, too faint to be seen by colour

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


@dataclass(frozen=True)
class BoardCard:
    position: int  # 1-based, row by row
    box: tuple[int, int, int, int]  # x, y, width, height in the picture
    corners: np.ndarray  # the card's four corners in the picture (a tilted board's too)
    reading: Reading


@dataclass(frozen=True)
class Board:
    cards: list[BoardCard]
    sets: list[tuple[int, int, int]]  # positions
    tilt: float  # degrees the picture was turned to read it
    kind: str = "puzzle"  # or "table": the card game's (webbot.set_cards.picture)


def read_board(image: np.ndarray, lossy: bool = False) -> Board:
    """Every card of the board in the picture (BGR), read, and every set among them; a
    BoardError names what could not be read (no board, cards missing, a card unclear, cards
    too small to read through the lossy compression (JPEG) of a `lossy` picture).

    A picture of HALF_LOOK_PIXELS or more (a photo) whose cards are drawn at least as large
    as a page draws them is read at half size (a quarter of the work), and read again at full
    size when that is refused."""
    if image.shape[0] * image.shape[1] >= HALF_LOOK_PIXELS:
        half = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        sight = _look(half)
        heights = [s.h for g in sight.groups for s in g]
        if len(sight.groups) >= DAILY_CARDS and np.median(heights) >= MIN_HALF_SHAPE_H:
            try:
                return _read_seen(sight, lossy, scale=2.0)
            except BoardError:
                pass  # a second look, at full size
    return _read_seen(_look(image), lossy)


@dataclass(frozen=True)
class _Sight:
    """The cards' shapes found in a picture, for its slope and which way up it stands."""

    picture: np.ndarray  # as given, or turned a quarter clockwise (cards standing on end)
    groups: list[list[Shape]]
    quarter: np.ndarray  # the affine map from the picture as given to `picture`


def _look(image: np.ndarray) -> _Sight:
    """The picture's cards, as it stands or, where more show so, turned a quarter (cards
    standing on end: shapes lying down)."""
    sight = _Sight(image, _groups(_shapes(image)), np.eye(2, 3, dtype=np.float64))
    if len(sight.groups) < DAILY_CARDS:
        h = image.shape[0]
        turned = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        turned_groups = _groups(_shapes(turned))
        if len(turned_groups) > len(sight.groups):
            return _Sight(turned, turned_groups,
                          np.array([[0, -1, h - 1], [1, 0, 0]], np.float64))  # (x, y) -> turned
    return sight


def _read_seen(sight: _Sight, lossy: bool, scale: float = 1.0) -> Board:
    """The board read from what `_look` saw; its cards' boxes and corners multiplied by
    `scale` (a picture read at half size, placed in the whole)."""
    image, groups, quarter = sight.picture, sight.groups, sight.quarter
    tilt = _tilt(groups)
    turn = quarter
    upright = image
    if abs(tilt) >= MIN_TILT:
        h, w = image.shape[:2]
        level = cv2.getRotationMatrix2D((w / 2, h / 2), -tilt, 1)  # back level
        upright = cv2.warpAffine(image, level, (w, h), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
        turn = np.hstack([level[:, :2] @ quarter[:, :2],
                          (level[:, :2] @ quarter[:, 2] + level[:, 2])[:, None]])
        groups = _groups(_shapes(upright))
    on_end = bool(quarter[0, 0] == 0)
    if not groups:
        raise BoardError("no SET cards in the picture (no coloured shapes on light cards)")
    height = float(np.median([s.h for g in groups for s in g]))
    if lossy and height < MIN_LOSSY_SHAPE_H:
        raise TooSmall(f"the cards are too small to read through JPEG compression: their "
                         f"shapes are {height:.0f} px high, {MIN_LOSSY_SHAPE_H} needed")
    groups = _parted(groups)
    crowded = [g for g in groups if len(g) > 3]
    if crowded:
        x, y = crowded[0][0].centre
        raise BoardError(f"{len(crowded[0])} alike shapes in a row near ({x:.0f}, {y:.0f}): "
                         "cannot tell the cards apart")
    back = cv2.invertAffineTransform(turn) * scale
    placed = _rejoined(_numbered(groups, on_end))
    placed = _completed(upright, placed)
    if len(placed) > MAX_CARDS:
        raise BoardError(f"{counted(len(placed), 'card')} found; a SET table has at most "
                         f"{MAX_CARDS}")
    fills = read_fills([float(np.mean([s.fill_level for s in g])) for g in placed])
    outlines = read_outlines([outline_features([s.silhouette for s in g]) for g in placed])
    likeness = read_likeness([[s.silhouette for s in g] for g in placed], outlines)
    outlines = [_likened(outline, like) for outline, like in zip(outlines, likeness, strict=True)]
    cards, unclear = [], []
    shifted = _off_column(placed)
    pitch = _pitch(placed)
    for position, (group, fill, outline) in enumerate(zip(placed, fills, outlines,
                                                          strict=True), 1):
        try:
            if position - 1 in shifted:
                raise CardError("its shapes lie off the middle of its column: one at the "
                                "card's edge may be unseen")
            reading = _read(upright, group, fill, outline, lossy, pitch)
        except CardError as exc:
            unclear.append(f"{position} ({exc})")
            continue
        corners = cv2.transform(_card_corners(group)[None], back)[0]
        x, y, w, h = cv2.boundingRect(corners.astype(np.float32))
        cards.append(BoardCard(position, (x, y, w, h), corners, reading))
    if unclear:
        raise unclear_cards(unclear)
    if len(cards) < DAILY_CARDS:
        raise BoardError(f"{counted(len(cards), 'card')} found; a Daily SET board has {DAILY_CARDS}"
                         f"{_missing(placed, on_end)}")
    sets = sets_among(cards)
    if len(cards) == DAILY_CARDS and len(sets) != DAILY_SETS:
        raise BoardError(f"{len(sets)} sets among the 12 cards where a Daily SET puzzle has "
                         f"{DAILY_SETS}: a card is misread; least certain: "
                         f"{least_certain([c.reading for c in cards])}")
    return Board(cards, sets, tilt)


def unclear_cards(unclear: list[str]) -> BoardError:
    """The refusal of a board whose cards at these positions (each with its reason) are
    unclear."""
    return BoardError(f"card{'s' * (len(unclear) > 1)} unclear at position "
                      f"{', '.join(unclear)}")


def sets_among(cards: list[BoardCard]) -> list[tuple[int, int, int]]:
    """Every set among the cards, by their positions; a BoardError when two read alike (a
    deck has one of each card)."""
    twins = [(a, b) for a in cards for b in cards
             if a.position < b.position and a.reading.card == b.reading.card]
    if twins:
        a, b = twins[0]
        raise BoardError(f"cards {a.position} and {b.position} both read as {a.reading.card}: "
                         "a deck has one of each, so one of them is misread")
    return [tuple(cards[i].position for i in triple)
            for triple in find_sets([c.reading.card for c in cards])]


def _shapes(image: np.ndarray) -> list[Shape]:
    """The blobs of ink on paper that are shaped like SET shapes."""
    value, chroma = value_and_chroma(image)
    paper = (value >= PAPER_VALUE) & (chroma < PAPER_CHROMA)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    strong = (chroma >= INK_CHROMA) | ((chroma >= DARK_INK_CHROMA) & (grey <= DARK_INK_GREY))
    ink = _touching(chroma >= FAINT_INK_CHROMA, strong) & _enclosed(~paper)
    contours, hierarchy = cv2.findContours(ink.astype(np.uint8), cv2.RETR_CCOMP,
                                           cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    hsv = None
    shapes = []
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent != -1:
            continue  # a hole's outline
        x, y, w, h = cv2.boundingRect(contour)
        if h < MIN_SHAPE_H or not SHAPE_ASPECT[0] <= w / h <= SHAPE_ASPECT[1]:
            continue
        mask = np.zeros((h, w), np.uint8)
        cv2.drawContours(mask, [contour - (x, y)], -1, 1, cv2.FILLED)
        area = int(mask.sum())
        if area < MIN_EXTENT * w * h:
            continue
        inked = ink[y:y + h, x:x + w] & (mask > 0)
        if hsv is None:
            hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        hue = mean_hue(hsv[y:y + h, x:x + w, 0][inked])
        # The fill, away from the outline, as a share of the ink's full colour (stripes
        # average out whatever their phase): solid ~1, striped ~0.5, empty ~0.1.
        depth = _depth(mask)
        middle = depth > 0.3 * depth.max()
        colour = chroma[y:y + h, x:x + w]
        full = max(1.0, percentile(colour[inked], 95))
        share = float(np.clip(colour[middle] / full, 0, 1).mean())
        drawn, origin = _drawn_outline(grey, (x, y, w, h), mask)
        silhouette = cv2.resize(drawn.astype(np.float32), (16, 32), interpolation=cv2.INTER_AREA)
        level = fill_level(grey, origin, drawn, _depth(drawn))
        shapes.append(Shape(x, y, w, h, hue, share, level, silhouette))
    return shapes


def _depth(mask: np.ndarray) -> np.ndarray:
    """Each pixel's distance to the shape's edge. Padded: the box's own edge, which the shape
    touches, is no edge of it."""
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT)
    return cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1]


def _drawn_outline(grey: np.ndarray, box: tuple[int, int, int, int],
                   mask: np.ndarray) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The shape's filled outline cut from lightness, which JPEG keeps sharp where it blurs
    colour (the mask, which fattens a small diamond into a squiggle): what is darker than
    halfway from the paper around to the ink and joins the colour. Returned cropped to its own
    box, with that box in the picture."""
    x, y, w, h = box
    pad = max(2, h // 6)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    patch = grey[y0:y + h + pad, x0:x + w + pad]
    colour = np.zeros(patch.shape, bool)
    colour[y - y0:y - y0 + h, x - x0:x - x0 + w] = mask > 0
    paper, ink = paper_and_ink(patch, patch[colour])
    joined = _touching(patch < (paper + ink) / 2, colour)
    contours, _ = cv2.findContours(joined.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return mask, box
    outline = max(contours, key=cv2.contourArea)
    filled = np.zeros(patch.shape, np.uint8)
    cv2.drawContours(filled, [outline], -1, 1, cv2.FILLED)
    bx, by, bw, bh = cv2.boundingRect(outline)
    return filled[by:by + bh, bx:bx + bw], (x0 + bx, y0 + by, bw, bh)


def _touching(faint: np.ndarray, strong: np.ndarray) -> np.ndarray:
    """The parts of `faint` that hold some of `strong`."""
    count, labels = cv2.connectedComponents(np.asarray(faint, bool).view(np.uint8),
                                           connectivity=8)
    keep = np.bincount(labels[strong & faint], minlength=count) > 0
    keep[0] = False
    return keep[labels]


def _enclosed(outside_paper: np.ndarray) -> np.ndarray:
    """What is not paper but lies within it (the shapes on a card), without what reaches the
    picture's edge (a table, a page's coloured band)."""
    count, labels = cv2.connectedComponents(np.asarray(outside_paper, bool).view(np.uint8),
                                           connectivity=4)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    keep = np.ones(count, bool)
    keep[edge] = False
    keep[0] = False  # paper itself
    return keep[labels]


def _alike(a: Shape, b: Shape, *, by_share: bool = True) -> bool:
    """Whether b could be the shape beside a on the same card (`by_share` False: whatever
    their share of ink, which JPEG's tint may set apart)."""
    height = max(a.h, b.h)
    if abs(a.h - b.h) > SAME_HEIGHT * height:
        return False
    if abs(a.centre[1] - b.centre[1]) > SAME_ROW * height:
        return False
    left, right = (a, b) if a.x <= b.x else (b, a)
    gap = right.x - (left.x + left.w)
    if not -0.15 * height <= gap <= MAX_GAP * height:
        return False
    hue = abs(a.hue - b.hue)
    if min(hue, 180 - hue) > SAME_HUE or (by_share and abs(a.share - b.share) > SAME_SHARE):
        return False
    overlap = np.minimum(a.silhouette, b.silhouette).sum()
    union = np.maximum(a.silhouette, b.silhouette).sum()
    return bool(union) and overlap / union >= SAME_SILHOUETTE


def _groups(shapes: list[Shape]) -> list[list[Shape]]:
    """The shapes chained into cards, each left to right."""
    ordered = sorted(shapes, key=lambda s: s.x)
    owner = list(range(len(ordered)))

    def root(i: int) -> int:
        while owner[i] != i:
            owner[i] = owner[owner[i]]
            i = owner[i]
        return i

    for i, a in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            b = ordered[j]
            if b.x - (a.x + a.w) > MAX_GAP * max(a.h, b.h):
                break  # sorted by x: the rest are further still
            if _alike(a, b):
                owner[root(j)] = root(i)
    groups: dict[int, list[Shape]] = {}
    for i, shape in enumerate(ordered):
        groups.setdefault(root(i), []).append(shape)
    return [card for run in groups.values() for card in _split(run)]


def _split(run: list[Shape]) -> list[list[Shape]]:
    """A run of alike shapes as cards. Only two three-shape cards side by side can chain
    (fewer shapes leave wider margins), and no two cards are the same, so six shapes are two
    cards alike but for one attribute the chain did not see: cut at the wider gap between
    them. Any other run of more than three is left whole here (_parted parts it by columns)."""
    if len(run) != 6:
        return [run]
    gaps = [b.x - (a.x + a.w) for a, b in zip(run, run[1:], strict=False)]
    if gaps[2] > max(gaps[:2] + gaps[3:]):
        return [run[:3], run[3:]]
    return [run]


def _parted(groups: list[list[Shape]]) -> list[list[Shape]]:
    """Each run of more than three alike shapes (two neighbouring cards alike but for their
    count, or for what the chain did not see) parted where the other cards' columns part, when
    that leaves cards of one to three shapes. A wrong parting leaves a card of one or two off
    its column's middle, which is refused."""
    if all(len(g) <= 3 for g in groups):
        return groups
    height = float(np.median([s.h for g in groups for s in g]))
    columns = _clusters([_centre(g)[0] for g in groups if len(g) <= 3], 0.5 * CARD_W * height)
    if not columns:  # no other card to part by: the run is refused as it is
        return groups
    parted = []
    for group in groups:
        cards: dict[int, list[Shape]] = {}
        for shape in group:
            cards.setdefault(_nearest(columns, shape.centre[0]), []).append(shape)
        if len(group) > 3 and len(cards) > 1 and all(len(c) <= 3 for c in cards.values()):
            parted.extend(cards[column] for column in sorted(cards))
        else:
            parted.append(group)
    return parted


def _tilt(groups: list[list[Shape]]) -> float:
    """The board's slope in degrees (anticlockwise), from the cards' rows of shapes and the
    rows of cards; 0 when nothing shows it."""
    angles = []
    for group in groups:
        if len(group) >= 2:
            (x0, y0), (x1, y1) = group[0].centre, group[-1].centre
            angles.append(math.degrees(math.atan2(y0 - y1, x1 - x0)))
    centres = [_centre(g) + (float(np.median([s.h for s in g])),) for g in groups]
    for x0, y0, h0 in centres:  # each card and its right-hand neighbour
        right = [(x, y) for x, y, _ in centres if x - x0 > CARD_W * h0 * 0.8
                 and abs(y - y0) < 0.5 * h0]
        if right:
            x1, y1 = min(right)
            angles.append(math.degrees(math.atan2(y0 - y1, x1 - x0)))
    if not angles:
        return 0.0
    tilt = float(np.median(angles))
    return tilt if abs(tilt) <= MAX_TILT else 0.0


def _centre(group: list[Shape]) -> tuple[float, float]:
    xs = [s.centre[0] for s in group]
    ys = [s.centre[1] for s in group]
    return (min(xs) + max(xs)) / 2, float(np.mean(ys))


def _grid_point(group: list[Shape], on_end: bool) -> tuple[float, float]:
    """The card's place as (across, down) in the picture as given: for cards read turned a
    quarter clockwise, the given picture's rows are the turned one's columns, right first."""
    x, y = _centre(group)
    return (y, -x) if on_end else (x, y)


def _numbered(groups: list[list[Shape]], on_end: bool = False) -> list[list[Shape]]:
    """The cards row by row, each row left to right, in the picture as given."""
    height = float(np.median([s.h for g in groups for s in g]))
    apart = 0.5 * (CARD_W if on_end else CARD_H) * height  # between rows
    by_down = sorted(groups, key=lambda g: _grid_point(g, on_end)[1])
    rows: list[list[list[Shape]]] = []
    for group in by_down:
        down = _grid_point(group, on_end)[1]
        if rows and abs(down - np.mean([_grid_point(g, on_end)[1] for g in rows[-1]])) < apart:
            rows[-1].append(group)
        else:
            rows.append([group])
    return [g for row in rows for g in sorted(row, key=lambda g: _grid_point(g, on_end)[0])]


def _pitch(placed: list[list[Shape]]) -> float:
    """The median distance between neighbouring shapes of a card (0 with no card of two)."""
    pitches = [b.x - a.x for g in placed for a, b in zip(g, g[1:], strict=False)]
    return float(np.median(pitches)) if pitches else 0.0


def _off_column(placed: list[list[Shape]]) -> set[int]:
    """The cards (indices) of one or two shapes whose middle lies off their column's by about
    half the shapes' pitch: a card that lost a shape at its edge (the cards of a column are
    centred alike; a table laid by hand may not be, and is then refused, not misread)."""
    pitch = _pitch(placed)
    return {i for i, off in enumerate(_column_offsets(placed))
            if len(placed[i]) < 3 and off is not None and off > OFF_COLUMN * pitch}


def _column_offsets(placed: list[list[Shape]]) -> list[float | None]:
    """How far each card's middle lies from the median of the others in its column."""
    return [None if m is None else abs(_centre(g)[0] - m)
            for g, m in zip(placed, _column_middles(placed), strict=True)]


def _column_middles(placed: list[list[Shape]]) -> list[float | None]:
    """The median middle of the other cards in each card's column (None for a column of
    fewer than three cards, or no card of two shapes to measure the pitch by)."""
    if not _pitch(placed):
        return [None] * len(placed)
    height = float(np.median([s.h for g in placed for s in g]))
    middles = [_centre(g)[0] for g in placed]
    columns = _clusters(middles, 0.5 * CARD_W * height)
    found: list[float | None] = []
    for i, middle in enumerate(middles):
        column = _nearest(columns, middle)
        others = [m for j, m in enumerate(middles) if j != i and _nearest(columns, m) == column]
        found.append(float(np.median(others)) if len(others) >= 2 else None)
    return found


def _rejoined(placed: list[list[Shape]]) -> list[list[Shape]]:
    """Two neighbouring cards, each off its column's middle, that are one card's shapes split
    apart (alike but for their share of ink, which JPEG tinted: a share is read again from the
    card itself), made one where together they sit on the middle."""
    shifted = _off_column(placed)
    merged = list(placed)
    for i in sorted(shifted, reverse=True):
        if i + 1 not in shifted or len(merged[i]) + len(merged[i + 1]) > 3:
            continue
        left, right = merged[i], merged[i + 1]
        if not _alike(left[-1], right[0], by_share=False):
            continue
        together = [*merged[:i], left + right, *merged[i + 2:]]
        off = _column_offsets(together)[i]
        if off is not None and off <= OFF_COLUMN * _pitch(together):
            merged = together
    return merged


def _completed(picture: np.ndarray, placed: list[list[Shape]]) -> list[list[Shape]]:
    """Each card off its column's middle by about half a pitch, with ink by lightness a pitch
    beyond its shapes on the side of the middle, given a shape there (its neighbour's, moved):
    a shape too faint for colour (JPEG, a small card). The card reader must then count it
    too, and the card sit on the middle, or the card stays as it was (and is refused)."""
    pitch = _pitch(placed)
    middles = _column_middles(placed)
    completed = list(placed)
    for i in _off_column(placed):
        group, column = placed[i], middles[i]
        middle = _centre(group)[0]
        if column is None or abs(abs(column - middle) - 0.5 * pitch) > OFF_COLUMN * pitch:
            continue
        toward = 1 if column > middle else -1
        edge = group[-1] if toward > 0 else group[0]
        step = round(toward * pitch)
        if not _ink_at(picture, edge, step):
            continue
        more = sorted([*group, replace(edge, x=edge.x + step, seen=False)],
                      key=lambda s: s.x)
        trial = [*completed[:i], more, *completed[i + 1:]]
        now = _column_offsets(trial)[i]
        if now is not None and now <= OFF_COLUMN * pitch:
            completed = trial
    return completed


def _missing(placed: list[list[Shape]], on_end: bool = False) -> str:
    """Where cards seem to be missing: grid places with no card, when the cards found stand
    on a grid."""
    if not placed:
        return ""
    height = float(np.median([s.h for g in placed for s in g]))
    card_w, card_h = (CARD_H, CARD_W) if on_end else (CARD_W, CARD_H)  # as given
    points = [_grid_point(g, on_end) for g in placed]
    columns = _clusters([x for x, _ in points], 0.5 * card_w * height)
    rows = _clusters([y for _, y in points], 0.5 * card_h * height)
    taken = {(_nearest(rows, y), _nearest(columns, x)) for x, y in points}
    empty = [r * len(columns) + c + 1 for r in range(len(rows)) for c in range(len(columns))
             if (r, c) not in taken]
    if not empty or len(rows) * len(columns) > MAX_CARDS:
        return ""
    return (f" (a {len(rows)}x{len(columns)} grid with no card found at position"
            f"{'s' * (len(empty) > 1)} {', '.join(map(str, empty))})")


def _clusters(values: list[float], apart: float) -> list[float]:
    means: list[list[float]] = []
    for value in sorted(values):
        if means and value - np.mean(means[-1]) < apart:
            means[-1].append(value)
        else:
            means.append([value])
    return [float(np.mean(m)) for m in means]


def _nearest(means: list[float], value: float) -> int:
    return int(np.argmin([abs(m - value) for m in means]))


def _read(upright: np.ndarray, group: list[Shape], fill: tuple[str, float] | None,
          outline: tuple[str, float] | None, lossy: bool = False, pitch: float = 0.0
          ) -> Reading:
    """The card's reading from a crop around its shapes, inside the card, and the board's
    second look at its fill and shape; a `lossy` picture's shape is not taken from the card
    reader alone."""
    if len(group) == 1 and _ink_beside(upright, group[0], pitch):
        raise CardError("ink lies where shapes beside its one would be: they may be unseen")
    height = float(np.median([s.h for s in group]))
    left = min(s.x for s in group)
    right = max(s.x + s.w for s in group)
    cx, cy = (left + right) / 2, _centre(group)[1]
    width = max(right - left + 2 * CROP_PAD_X * height, CROP_MIN_W * height)
    top, bottom = round(cy - CROP_H * height / 2), round(cy + CROP_H * height / 2)
    x0, x1 = round(cx - width / 2), round(cx + width / 2)
    if top < 0 or x0 < 0 or bottom > upright.shape[0] or x1 > upright.shape[1]:
        raise CardError("the card runs off the picture")
    by_board = fill is not None and outline is not None and all(s.seen for s in group)
    try:
        card, doubts = read_attributes(upright[top:bottom, x0:x1])
    except NoInk:  # (a count with a shape not seen must be the card reader's too)
        if not by_board:
            raise
        return _read_from_board(group, fill, outline)
    except Uncounted as exc:
        card, counted = None, str(exc)
    else:
        counted = f"{len(group)} shapes found, {card.count} read"
    if card is None or card.count != len(group):
        # The card reader parts ink by colour, which JPEG smears: a small empty shape's
        # outline breaks into strokes it counts as shapes, or fades where it loses one. The
        # board's shapes are each seen, alike and in the middle of the column, so the board
        # reads the card alone; but where the board saw two shapes and the reader more, only
        # if no ink by lightness lies a pitch beyond them (a shape the board did not see;
        # beyond three is the card's edge, and a lone shape's sides were looked at already).
        more = card is None or card.count > len(group)
        if not by_board or (more and len(group) == 2 and _ink_beyond(upright, group, pitch)):
            raise CardError(counted)
        return _read_from_board(group, fill, outline)
    # The count is the board's: shapes alike, chained and in the middle of the card's column;
    # the card reader's doubt about it (JPEG specks beside the shapes) is not the count's.
    doubts["count"] = 0.0
    # The fill and the shape are read a second way, from the board's cards taken together
    # (second_look.py), and that way is the steadier through JPEG and scaling: the card
    # reader reads colour, which JPEG smears (an empty shape's middle tinted by its outline),
    # where the fill's second way reads lightness, which JPEG keeps.
    if fill is not None:
        card = replace(card, fill=fill[0])
        doubts["fill"] = fill[1]
    # The shape likewise, from the outlines' bunches, which are cut from lightness: where the
    # card reader disagrees, the outline stands only when surer still (below OVERRULE: a
    # less sure outline is where the card reader is the one to trust); where they
    # agree, two ways of reading it say the same, and the surer one's doubt is the shape's.
    if outline is not None:
        if outline[0] == card.shape:
            doubts["shape"] = min(doubts["shape"], outline[1])
        else:
            doubts["shape"] = outline[1] if outline[1] < OVERRULE else 1.0
        card = replace(card, shape=outline[0])
    elif lossy:
        doubts["shape"] = 1.0
    return _sure(card, doubts)


def _likened(outline: tuple[str, float] | None, like: tuple[str, float] | None
             ) -> tuple[str, float] | None:
    """A card's outline reading, with its likeness to the board's sure outlines as a third
    look at the shape: agreeing, the surer one's doubt; surely otherwise, no sure outline."""
    if outline is None or like is None:
        return outline
    if like[0] == outline[0]:
        return outline[0], min(outline[1], like[1])
    return (outline[0], 1.0) if like[1] < PICTURE_DOUBT_LIMIT else outline


def _ink_beyond(picture: np.ndarray, group: list[Shape], pitch: float) -> bool:
    """Whether ink by lightness lies a pitch left of a card's first shape or right of its
    last."""
    step = round(pitch if pitch > 0 else LONE_PITCH * group[0].h)
    return _ink_at(picture, group[0], -step) or _ink_at(picture, group[-1], step)


def _ink_beside(picture: np.ndarray, shape: Shape, pitch: float) -> bool:
    """Whether a pitch either side of a card's lone shape lies ink by lightness: shapes too
    faint for colour, beside the one seen (else a card of three faint shapes can read as one)."""
    step = round(pitch if pitch > 0 else LONE_PITCH * shape.h)
    return _ink_at(picture, shape, -step) or _ink_at(picture, shape, step)


def _ink_at(picture: np.ndarray, shape: Shape, dx: int) -> bool:
    """Whether ink by lightness fills the place of `shape` moved `dx` across (a shape's
    worth of it, dark against the paper around)."""
    x, y, w, h = shape.x, shape.y, shape.w, shape.h
    x0, x1 = max(0, x - abs(dx)), min(picture.shape[1], x + w + abs(dx))
    y0, y1 = max(0, y - h // 4), min(picture.shape[0], y + h + h // 4)
    grey = cv2.cvtColor(picture[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    row = slice(y - y0, y - y0 + h)
    paper, ink = paper_and_ink(grey, grey[row, x - x0:x - x0 + w])
    left = x + dx - x0
    beside = grey[row, max(0, left):left + w]
    return left >= 0 and beside.shape[1] == w and bool(
        np.mean(beside < (paper + ink) / 2) > 0.15)


def _read_from_board(group: list[Shape], fill: tuple[str, float],
                     outline: tuple[str, float]) -> Reading:
    """A card the card reader could not read (its shapes too faint or too small for it) read
    from the board alone: the count of its shapes, their hue, the second look's fill, and its
    outline only where that is sure enough to overrule a reader."""
    color, color_doubt = ink_named(mean_hue(np.array([s.hue for s in group])))
    doubts = {"count": 0.0, "color": color_doubt, "fill": fill[1],
              "shape": outline[1] if outline[1] < OVERRULE else 1.0}
    card = Card(len(group), outline[0], color, fill[0])
    return _sure(card, doubts)


def _sure(card: Card, doubts: dict[str, float]) -> Reading:
    """The reading, with its greatest doubt; a CardError when that doubt is too great."""
    doubtful = max(doubts, key=doubts.__getitem__)
    if doubts[doubtful] >= PICTURE_DOUBT_LIMIT:
        raise CardError(f"read as {card}, but unsure of its {attribute_word(doubtful)}")
    return Reading(card, round(doubts[doubtful], 3), doubtful)


def _card_corners(group: list[Shape]) -> np.ndarray:
    """The card's corners (upright picture), a card's proportions around its shapes."""
    height = float(np.median([s.h for s in group]))
    cx, cy = _centre(group)
    w, h = CARD_W * height / 2, CARD_H * height / 2
    return np.array([(cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)],
                    np.float64)
