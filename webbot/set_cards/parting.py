"""Cards touching on a table, told apart: a light region that is cards edge to edge parted
as a grid, cards touching askew cut along their seam, and a card touching one already found
looked for beside it. Each piece is a card only where its shapes lie in its middle."""

from __future__ import annotations

import cv2
import numpy as np

from webbot.set_cards.quads import (
    CARD_AREAS,
    CARD_RATIO,
    INK_CONTRAST,
    INKED_SHARE,
    card_quad,
    chroma_of,
    corners_of,
    of_card_size,
    plane_through,
    sides,
)

EDGE_THRESHOLDS = (20, 60)  # Canny's, on lightness (0-255) smoothed over 5 px
# Cards edge to edge: a light region filling MIN_PARTED_FILL of its turned box, its sides
# within PARTED_FIT of k cards by m, each piece's ink centred within PARTED_OFF_MIDDLE of a
# card's short side of its middle.
MIN_PARTED_FILL, PARTED_FIT, PARTED_OFF_MIDDLE = 0.85, 0.15, 0.08
MAX_PARTED = 7  # cards in a region parted: a row of 21 cards laid in 3
SEAM_WIDTH = 5  # px: edges thickened so, to cut cards touching askew apart along their seam
SEAMED_SHARE = 0.85  # of a region: the cards cut from it along its seams cover this much
PALEST, INK_COLOURED = 10, 10  # a*b* length above a card's palest tenth that is a shape's ink
# A region's shapes, looked at upright ALONG_SIDE px long: ink pieces of SHAPE_SHARE of it or
# more, SHAPE_LONG times as long as wide (a SET shape is about twice as long).
ALONG_SIDE, SHAPE_SHARE, SHAPE_LONG = 200, 0.02, 1.4
# A card's middle looked in for its shapes: the card shrunk so round its middle (leaving out
# its edge and a seam's shadow along it).
LOOKED_IN = 0.8
SPECKS = (2, 98)  # percentiles of a card's ink taken as its extent
HELD_GROWN = 1.06  # a card found in a region, grown so, left out of what else it holds


def parted(outline: np.ndarray, lab: np.ndarray, card: np.ndarray
            ) -> list[np.ndarray] | None:
    """Cards laid edge to edge in a row or a column, parted: a light region that is a
    quadrilateral k cards by m (`card`: a card's two sides, across and down as the board's
    cards lie, or else the other way round; its proportions within PARTED_FIT, its size
    within CARD_AREAS), cut by the
    perspective its corners give, each piece's shapes in its middle, as a card's are; None
    when it is not that."""
    rectangle = cv2.minAreaRect(outline.astype(np.float32))
    if cv2.contourArea(outline.astype(np.float32)) < MIN_PARTED_FILL * np.prod(rectangle[1]):
        return None
    quad = corners_of(outline)
    across, down = sides(quad)
    short = min(card)
    # By the region's proportions, its size only roughly: the board's cards farther from the
    # camera are smaller than those its median card stands for. Cards lying as the board's do
    # first (a grid of cards lying the other way may fit as well: 2 by 2, half as large).
    fits = [(turned, error, k, m)
            for turned, (w, h) in enumerate((tuple(card), tuple(card[::-1])))
            for k in range(1, MAX_PARTED + 1) for m in range(1, MAX_PARTED + 1)
            if 2 <= k * m <= MAX_PARTED
            and CARD_AREAS[0] <= across * down / (k * m * w * h) <= CARD_AREAS[1]
            and (error := abs(across * m * h / (down * k * w) - 1)) <= PARTED_FIT]
    if not fits:
        return None
    _, _, k, m = min(fits)
    grid = cv2.getPerspectiveTransform(np.float32([[0, 0], [k, 0], [k, m], [0, m]]),
                                       quad.astype(np.float32))
    pieces = []
    for row in range(m):
        for column in range(k):
            corners = np.float32([[column, row], [column + 1, row], [column + 1, row + 1],
                                  [column, row + 1]])
            piece = cv2.perspectiveTransform(corners[None], grid)[0]
            if not shapes_in_middle(lab, piece, short):
                return None
            pieces.append(piece)
    return pieces

def rest_of(outline: np.ndarray, held: list[np.ndarray], lab: np.ndarray,
            card: float, card_sides: np.ndarray) -> list[np.ndarray]:
    """The cards in what a light region holds beside the cards found in it (`held`: another
    card touching them): each piece left, opened by a few px, that is a card of the board's
    size (`card`: its area; `card_sides`: as `parted` takes them) with its shapes in its
    middle, cards edge to edge parted, or cards touching askew cut along their seam."""
    mask, origin = rest(outline, held)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                   offset=origin)
    short = float(np.sqrt(card / CARD_RATIO))
    pieces = []
    for contour in contours:
        quad = card_quad(contour, lab.shape[0] * lab.shape[1])
        if quad is not None and of_card_size(quad, card) and \
                shapes_in_middle(lab, quad, short):
            pieces.append(quad.astype(np.float32))
        elif cv2.contourArea(contour) >= CARD_AREAS[0] * card:
            outline = contour.reshape(-1, 2)
            pieces += parted(outline, lab, card_sides) or seamed(outline, lab, card) or []
    return pieces

def rest(outline: np.ndarray, held: list[np.ndarray]) -> tuple[np.ndarray, tuple[int, int]]:
    """What a region holds beside the cards found in it (grown by HELD_GROWN), opened by a
    few px so that the slivers along their edges go: a mask of the region's bounding box, and
    where that box begins in the picture (x, y)."""
    x, y, w, h = cv2.boundingRect(outline.astype(np.int32))
    x, y = x - SEAM_WIDTH, y - SEAM_WIDTH  # (a margin: opening erodes the region's edge too)
    rest = np.zeros((h + 2 * SEAM_WIDTH, w + 2 * SEAM_WIDTH), np.uint8)
    cv2.drawContours(rest, [outline.astype(np.int32).reshape(-1, 1, 2) - (x, y)], -1, 1,
                     cv2.FILLED)
    for quad in held:
        middle = quad.mean(axis=0)
        grown = middle + (quad - middle) * HELD_GROWN - (x, y)
        cv2.fillConvexPoly(rest, np.round(grown).astype(np.int32), 0)
    opened = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((SEAM_WIDTH, SEAM_WIDTH), np.uint8))
    return opened, (x, y)

def largest(mask: np.ndarray) -> int:
    """The area of a mask's largest connected piece, px."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return int(stats[1:, cv2.CC_STAT_AREA].max(initial=0))

def seamed(outline: np.ndarray, lab: np.ndarray, card: float
            ) -> list[np.ndarray] | None:
    """Cards touching askew, cut apart along the seam between them (an edge through the
    light region): the pieces when each is a card of the board's size (`card`: its area)
    with its shapes in its middle and together they cover the region; else None."""
    lightness = lab[..., 0]
    x, y, w, h = cv2.boundingRect(outline.astype(np.int32))
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [outline.astype(np.int32).reshape(-1, 1, 2) - (x, y)], -1, 1,
                     cv2.FILLED)
    edges = cv2.Canny(lightness[y:y + h, x:x + w], *EDGE_THRESHOLDS)
    seam = np.ones((SEAM_WIDTH, SEAM_WIDTH), np.uint8)
    edges = cv2.dilate(edges, seam)
    contours, _ = cv2.findContours(cv2.erode(region, seam) & (edges == 0), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    pieces = [(quad + (x, y)).astype(np.float32) for quad in (card_quad(c, lightness.size)
                                                                for c in contours)
              if quad is not None and of_card_size(quad, card)]
    short = float(np.sqrt(card / CARD_RATIO))
    if len(pieces) < 2 or sum(cv2.contourArea(q) for q in pieces) < SEAMED_SHARE * \
            np.count_nonzero(region) or not all(shapes_in_middle(lab, q, short)
                                                for q in pieces):
        return None
    return pieces

def shapes_in_middle(lab: np.ndarray, quad: np.ndarray, short: float) -> bool:
    """Whether a card's ink (`_ink`) lies in its middle (the shapes of a card are centred on
    it)."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    x, y = max(0, x), max(0, y)
    part = lab[y:y + h, x:x + w]
    within = np.zeros(part.shape[:2], np.uint8)
    middle = quad.mean(axis=0) - (x, y)
    cv2.fillConvexPoly(within, np.round(middle + (quad - (x, y) - middle) * LOOKED_IN).astype(
        np.int32), 1)
    paper = np.count_nonzero(within)
    if not paper:
        return False
    ys, xs = np.nonzero(_ink(part, within))
    if xs.size < INKED_SHARE * paper:
        return False
    # (the ink's extent but for specks: a seam's shadow, the table's grain at the edge)
    centre = np.array([np.mean(np.percentile(xs, SPECKS)), np.mean(np.percentile(ys, SPECKS))])
    return bool(np.linalg.norm(centre - middle) <= PARTED_OFF_MIDDLE * short)


def shapes_along(lab: np.ndarray, quad: np.ndarray) -> bool:
    """Whether a card-shaped region's shapes lie along its long side: a card's lie across it,
    so such a region is not one card but cards edge to edge (two standing on end side by
    side have nearly a card's proportions, lying). Shapes: the ink's pieces of SHAPE_SHARE
    of the region or more, SHAPE_LONG times as long as wide; along when most do."""
    corners = quad.astype(np.float32)
    across, down = sides(corners)
    if down > across:
        corners = np.roll(corners, -1, axis=0)
    width, height = ALONG_SIDE, int(ALONG_SIDE / CARD_RATIO)
    upright = cv2.warpPerspective(lab, cv2.getPerspectiveTransform(corners, np.float32(
        [[0, 0], [width, 0], [width, height], [0, height]])), (width, height))
    within = np.zeros((height, width), np.uint8)
    margin = int(0.05 * height)
    within[margin:-margin, margin:-margin] = 1
    count, _, stats, _ = cv2.connectedComponentsWithStats(_ink(upright, within).astype(np.uint8))
    ways = [w > h for w, h in (stats[i, [cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT]]
                               for i in range(1, count)
                               if stats[i, cv2.CC_STAT_AREA] >= SHAPE_SHARE * width * height)
            if max(w, h) >= SHAPE_LONG * min(w, h)]
    return bool(ways) and sum(ways) > len(ways) / 2


def _ink(part: np.ndarray, within: np.ndarray) -> np.ndarray:
    """A card's ink (Lab `part`, the card `within`): darker than its paper where it lies (a
    plane of light fitted through the paper: a card lit unevenly keeps its faint outlines), or
    more coloured than its palest tenth (pale stripes, faint beside the paper, fill a card
    with their colour)."""
    lightness, chroma = part[..., 0].astype(np.float32), chroma_of(part)
    card = within > 0
    paper = _paper_plane(lightness, card)
    palest = float(np.percentile(chroma[card], PALEST))
    return card & ((lightness < paper - INK_CONTRAST / 2) | (chroma > palest + INK_COLOURED))


def _paper_plane(lightness: np.ndarray, card: np.ndarray) -> np.ndarray:
    """The paper's lightness across a card: a plane fitted through the card's pixels, then
    again through those not darker than it (the paper, its shapes left out)."""
    plane = plane_through(lightness, card)
    return plane_through(lightness, card & (lightness >= plane - INK_CONTRAST / 4))
