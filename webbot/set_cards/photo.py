"""SET cards with edges of their own in a photo (the card game on a table): found, cut out and
straightened (their reading is camera.py's; the cards the finder may have missed are looked
for by unseen.py).

A card is a light region standing out from its table (thresholds on lightness), or a region
enclosed by edges whose rim is paper: a quadrilateral of a card's proportions (quads.py). Its
four corners map it onto an upright card of the page's proportions (a perspective warp), the
long side across, as the page's cards lie, so that the shapes stand as on the page whichever
way the card lay on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

from webbot.set_cards import parting
from webbot.set_cards.parting import EDGE_THRESHOLDS, PALEST
from webbot.set_cards.quads import (
    CARD_AREAS,
    INK_CONTRAST,
    INKED_SHARE,
    MIN_CARD_SHARE,
    card_quad,
    chroma_of,
    inside,
    levelled,
    median_within,
    of_card_size,
    overlap,
    sides,
)
from webbot.set_cards.unseen import (
    OUTSIDE_PAPER,
    gaps_between,
    ink_outside,
    looked_closer,
    standing_otherwise,
)

CUT_WIDTH, CUT_HEIGHT = 190, 124  # the current layout's card, px
MIN_SINGLE_SHARE = 0.3  # of a card file's picture: a card with edges found smaller is not it
MAX_ROWS = 7  # a board's rows, numbered by its columns (21 cards laid in 3)
LOOK_SIDE = 1000  # px: the longer side cards are looked for at (a phone's 4032 is shrunk)
LIGHT_TABLE_LEVELS = 6  # thresholds tried between the median and the brightest
# Any light region of STRAY_SHARE of a card or more that is not one is a stray: a card not
# found whole (glare splitting it, cards touching).
STRAY_SHARE = 0.25
RIM, RIM_DARKER = (0.88, 0.96), 10  # a card's rim (of its size round its middle) is paper
RIM_COLOURED = 10  # the rim's a*b* length above the region's palest tenth: paper's, on a card
HOLDS_MORE = 1.5  # a region this many times a card's area that holds the card holds more
RIMMED_INK = 12  # lightness below its paper that is a shape's, on a card enclosed by edges
# (a card in deep shade: its reader judges whether that is clearly a card)

@dataclass(frozen=True)
class CutCard:
    corners: np.ndarray  # 4 x 2, in the picture: the cut's top-left, top-right, bottom-right,
    # bottom-left
    picture: np.ndarray  # BGR, CUT_WIDTH x CUT_HEIGHT, the card upright and long side across

    @property
    def height(self) -> float:
        """The card's short side in the picture, px."""
        c = self.corners
        return float(min(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[3] - c[0])))


@dataclass(frozen=True)
class CardsFound:
    cards: list[CutCard]  # in rows as seen (top to bottom, each left to right)
    strays: int  # light regions a quarter of a card or larger that are not a card: cards
    # touching each other, split by glare, or cut off by the picture's edge
    loose_ink: int = 0  # blobs of ink of a shape's size outside every card: a card not found
    gaps: int = 0  # gaps a card wide in a row or a column, as light as a card: one unseen


def find_cards(image: np.ndarray, cut_off: bool = False) -> CardsFound:
    """The cards with edges in a photo (BGR), cut out and straightened; with `cut_off`, also
    those touching two sides of the picture (a picture of one card, cropped close: Otsu's
    threshold alone).

    Paper is told from the table by a threshold on lightness: Otsu's, for a table darker than
    the cards, and a few between the picture's median and its brightest, for a light one
    (a grey or white table); or by the edges round it, for a card no lighter than its table:
    the way that shows the most cards wins, the others add cards it did not show. Then the
    cards it may have missed are looked for (unseen.py)."""
    scale = min(1.0, LOOK_SIDE / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else image
    lab = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), (5, 5), 0)
    lightness = lab[..., 0]
    otsu, _ = cv2.threshold(lightness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    low, high = np.percentile(lightness, (50, 99.5))
    levels = [otsu] if cut_off else [otsu, *np.linspace(low, high, LIGHT_TABLE_LEVELS + 2)[1:-1]]
    chroma = chroma_of(lab)
    edged, blanks = _edged_regions(lightness, chroma)
    seen = sorted([*(_regions(lightness, level, cut_off) for level in levels), (edged, [])],
                  key=lambda regions: -len(regions[0]))
    quads, others = seen[0]
    holding = []  # card-shaped regions another level shows holding a card found, and more
    # Regions of no card's shape another level shows (cards touching): looked at below.
    elsewhere = [other for _, more in seen[1:] for other in more]
    for more, _ in seen[1:]:  # cards in shade or in light another level shows
        for quad in more:
            over = [cv2.contourArea(q) for q in quads if overlap(quad, q)]
            if not over:
                quads.append(quad)
            elif cv2.contourArea(quad) >= HOLDS_MORE * max(over):
                holding.append(quad)
    if not quads:
        return CardsFound([], 0)
    # Cards edge to edge with a card's proportions (shapes along the long side): parted below.
    along = [q for q in quads if parting.shapes_along(lab, q)]
    along = along if len(along) < len(quads) else []
    quads = [q for q in quads if not any(q is a for a in along)]
    card = float(np.median([cv2.contourArea(quad) for quad in quads]))
    alike = [q for q in quads if of_card_size(q, card)]
    if not alike:  # (regions of sizes far apart: none of them a board's card)
        return CardsFound([], len(quads))
    odd = []  # card-shaped, not a card's size or way, and not cards laid edge to edge
    standing = standing_otherwise(alike)  # (two cards edge to edge: a card's proportions)
    alike = [q for q in alike if not any(q is s for s in standing)] or alike
    card_sides = np.median([sides(q) for q in alike], axis=0)
    for quad in [*(q for q in quads if not any(q is a for a in alike)), *along]:
        parted = parting.parted(quad, lab, card_sides) \
            or parting.seamed(quad, lab, card)  # (two cards of a column: a card's shape)
        if parted:
            alike += parted
        else:
            odd.append(quad)
    looked_at: list[np.ndarray] = []
    for outline in holding:  # a pale card touching one found (lighter than the level that
        # showed that one: a white table), or a patch of the table; once where levels agree
        if any(inside(o.mean(axis=0), outline) and inside(outline.mean(axis=0), o)
               for o in looked_at):
            continue
        looked_at.append(outline)
        held = [q for q in alike if inside(q.mean(axis=0), outline)]
        alike += [q for q in parting.rest_of(outline, held, lab, card, card_sides)
                  if not any(overlap(q, a) for a in alike)] if held else []
    unshaped = []  # regions not card-shaped
    for area, outline in others:
        held = [q for q in alike if inside(q.mean(axis=0), outline)]
        if held:  # (what else it holds is looked at again below: all of it cards, or a stray)
            alike += parting.rest_of(outline, held, lab, card, card_sides)
            unshaped.append((area, outline))
            continue
        parted = parting.parted(outline, lab, card_sides) \
            or parting.seamed(outline, lab, card)
        if parted:
            alike += parted
        else:
            unshaped.append((area, outline))
    for area, outline in elsewhere:
        if area > parting.MAX_PARTED * CARD_AREAS[1] * card:  # (the table round the cards)
            continue
        held = [q for q in alike if inside(q.mean(axis=0), outline)]
        pieces = parting.rest_of(outline, held, lab, card, card_sides) if held else \
            parting.parted(outline, lab, card_sides) or parting.seamed(outline, lab, card)
        alike += [q for q in pieces or [] if not any(overlap(q, a) for a in alike)]
    loose = [] if cut_off else ink_outside(small, alike, card)
    if loose:  # a card lit or shaded like its table round it: looked for where its ink lies
        closer = looked_closer(lightness, loose, alike, card)
        standing = standing_otherwise(alike + closer)
        alike += [q for q in closer if not any(q is s for s in standing)]
        loose = ink_outside(small, alike, card)
    strays = [quad for quad in odd if not any(overlap(quad, q) for q in alike)]
    # A region rimmed as a card whose shapes hardly show (faint, in shade, glare on them), as
    # light as a card, is a card all the same: its reader says whether they can be read.
    paper = median_within(lightness, alike)
    alike += [b for b in blanks if of_card_size(b, card)
              and median_within(lightness, [b]) >= OUTSIDE_PAPER * paper
              and not any(overlap(b, q) for q in alike)]
    for area, outline in unshaped:
        # A region holding cards found at another level is those cards and what lies beside
        # them: the table (a bright patch of it), or another card touching them.
        held = [q for q in alike if inside(q.mean(axis=0), outline)]
        if (parting.largest(parting.rest(outline, held)[0]) if held else area) \
                >= STRAY_SHARE * card:
            strays.append(outline)
    return CardsFound([CutCard(corners, straightened(image, corners))
                       for corners in _in_rows([q / scale for q in alike])], len(strays),
                      len(loose), 0 if cut_off else gaps_between(lightness, chroma, alike))


def _regions(lightness: np.ndarray, level: float, cut_off: bool
             ) -> tuple[list[np.ndarray], list[tuple[float, np.ndarray]]]:
    """The card-shaped regions lighter than `level` (their corners), and the other regions
    large enough to be a card and holding ink (their areas and outlines)."""
    paper = lightness > level
    contours, _ = cv2.findContours(paper.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    quads, others = [], []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        # Touching two sides of the picture or more: a card cut off, or the page itself.
        cut = _edges_met(contour, paper.shape) >= 2 and not cut_off
        quad = None if cut else card_quad(contour, paper.size)
        if quad is not None:
            quads.append(quad)
        elif cv2.contourArea(contour) >= MIN_CARD_SHARE * paper.size and \
                _inked(lightness[y:y + h, x:x + w], contour - (x, y)):
            others.append((cv2.contourArea(contour), contour.reshape(-1, 2)))
    return quads, others


def _edged_regions(lightness: np.ndarray, chroma: np.ndarray
                   ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The card-shaped regions enclosed by edges (a card's outline, where its paper is no
    lighter than the table beside it: a white table, a card in shade), largest first, none
    inside another (a shape's hollow, a card's inner border): those holding ink, and those
    rimmed with paper but blank."""
    edges = cv2.dilate(cv2.Canny(lightness, *EDGE_THRESHOLDS), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours((edges == 0).astype(np.uint8), cv2.RETR_CCOMP,
                                   cv2.CHAIN_APPROX_NONE)
    found = [card_quad(c, lightness.size) for c in contours if _edges_met(c, edges.shape) < 2]
    quads: list[np.ndarray] = []
    blanks: list[np.ndarray] = []
    for quad in sorted((q for q in found if q is not None), key=lambda q: -cv2.contourArea(q)):
        if any(overlap(quad, q) for q in quads + blanks):
            continue
        held = _rim_and_ink(lightness, chroma, quad)
        if held == (True, True):
            quads.append(quad)
        elif held[0]:
            blanks.append(quad)
    return quads, blanks


def _rim_and_ink(lightness: np.ndarray, chroma: np.ndarray, quad: np.ndarray
                 ) -> tuple[bool, bool]:
    """Whether a region enclosed by edges has a rim of paper, as light and as pale as its
    paper (a card's; a shape's outline, striped or solid, does not), and whether it holds ink
    darker than its paper."""
    middle = quad.mean(axis=0)
    whole, rim = np.zeros(lightness.shape, np.uint8), np.zeros(lightness.shape, np.uint8)
    cv2.fillConvexPoly(whole, np.round(quad).astype(np.int32), 1)
    cv2.fillConvexPoly(rim, np.round(middle + (quad - middle) * RIM[1]).astype(np.int32), 1)
    cv2.fillConvexPoly(rim, np.round(middle + (quad - middle) * RIM[0]).astype(np.int32), 0)
    values, edge = lightness[whole > 0], lightness[rim > 0]
    if not edge.size:
        return False, False
    paper = float(np.median(values))
    inked = np.count_nonzero(values < paper - RIMMED_INK) >= INKED_SHARE * values.size
    # and of the paper's colour (a shape's outline is ink, however much of it a region holds)
    palest = float(np.percentile(chroma[whole > 0], PALEST))
    return (float(np.median(edge)) >= paper - RIM_DARKER
            and float(np.median(chroma[rim > 0])) <= palest + RIM_COLOURED), inked


def _edges_met(contour: np.ndarray, shape: tuple[int, ...]) -> int:
    """How many of the picture's sides a region touches."""
    x, y, w, h = cv2.boundingRect(contour)
    return sum((x <= 0, y <= 0, x + w >= shape[1], y + h >= shape[0]))


def _inked(lightness: np.ndarray, contour: np.ndarray) -> bool:
    """Whether a light region holds shapes (pixels much darker than its paper), as cards do
    and a bright patch of the table (its grain only a little darker) does not."""
    within = np.zeros(lightness.shape, np.uint8)
    cv2.drawContours(within, [contour], -1, 1, cv2.FILLED)
    values = lightness[within > 0]
    ink = np.count_nonzero(values < np.median(values) - INK_CONTRAST)
    return ink >= INKED_SHARE * values.size


def card_cut(image: np.ndarray) -> CutCard:
    """The card of a picture of one card: the largest card found with edges of its own, where
    it fills MIN_SINGLE_SHARE of the picture or more; else the whole picture (a card cropped
    to its face, or the page's art, white on white)."""
    height, width = image.shape[:2]
    found = max(find_cards(image, cut_off=True).cards,
                key=lambda card: cv2.contourArea(card.corners), default=None)
    if found is not None and cv2.contourArea(found.corners) >= MIN_SINGLE_SHARE * width * height:
        return found
    whole = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    return CutCard(whole, straightened(image, whole))


def _in_rows(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Cards in rows as seen once the board is turned level (by its cards' edges, a quarter
    turn at most), each row left to right. The board's columns first: a card nudged up or
    down (cards pushed together) keeps its column's rank, where a row taken alone would
    leave it; else a card joins the row above's when its middle lies within half a card's
    height of that row's."""
    if not quads:
        return []
    level = levelled(quads)
    middles = np.array([quad.mean(axis=0) for quad in level])
    sizes = np.array([sides(quad) for quad in level])
    rows = _rows_by_columns(middles, np.median(sizes, axis=0))
    if rows is None:
        rows = []
        for index in sorted(range(len(quads)), key=lambda i: middles[i][1]):
            if rows and abs(middles[index][1] - np.mean(middles[rows[-1]][:, 1])) < \
                    sizes[index].min() / 2:
                rows[-1].append(index)
            else:
                rows.append([index])
    return [quads[i] for row in rows for i in sorted(row, key=lambda i: middles[i][0])]


def _rows_by_columns(middles: np.ndarray, card: np.ndarray) -> list[list[int]] | None:
    """The rows of a board laid in columns (`card`: its cards' width and height as they lie):
    columns are cards less than half a card's width apart across, one after another; the
    longest columns give each row's height, and a shorter column's cards keep their order,
    each at the row nearest, as a whole. None where a column holds two cards side by side
    (no columns to go by) or more than MAX_ROWS."""
    order = np.argsort(middles[:, 0])
    columns = [[int(order[0])]]
    for index in order[1:]:
        if middles[index][0] - middles[columns[-1][-1]][0] < card[0] / 2:
            columns[-1].append(int(index))
        else:
            columns.append([int(index)])
    columns = [sorted(column, key=lambda i: middles[i][1]) for column in columns]
    if any(np.diff(middles[column][:, 1]).min(initial=card[1]) < card[1] / 2
           for column in columns):
        return None
    count = max(len(column) for column in columns)
    if count > MAX_ROWS:
        return None
    heights = np.median([middles[column][:, 1] for column in columns if len(column) == count],
                        axis=0)
    rows: list[list[int]] = [[] for _ in range(count)]
    for column in columns:
        places = min(combinations(range(count), len(column)), key=lambda chosen: sum(
            (middles[i][1] - heights[row]) ** 2 for i, row in zip(column, chosen, strict=True)))
        for i, row in zip(column, places, strict=True):
            rows[row].append(i)
    return [row for row in rows if row]


def straightened(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card within `corners` (clockwise from top-left) warped upright, its long side
    across; a card standing on end is turned a quarter, its top to the left."""
    corners = corners.astype(np.float32)
    across = np.linalg.norm(corners[1] - corners[0])
    down = np.linalg.norm(corners[3] - corners[0])
    if down > across:
        corners = np.roll(corners, -1, axis=0)
    target = np.float32([[0, 0], [CUT_WIDTH, 0], [CUT_WIDTH, CUT_HEIGHT], [0, CUT_HEIGHT]])
    warp = cv2.getPerspectiveTransform(corners, target)
    return cv2.warpPerspective(image, warp, (CUT_WIDTH, CUT_HEIGHT), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
