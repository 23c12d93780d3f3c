"""SET cards with edges of their own in a photo (the card game on a table): found, cut out and
straightened (their reading is camera.py's).

A card is a light region standing out from its table (thresholds on lightness): a
quadrilateral of a card's proportions. Its four corners map it onto an upright card of the
page's proportions (a perspective warp), the long side across, as the page's cards lie, so
that the shapes stand as on the page whichever way the card lay on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CUT_WIDTH, CUT_HEIGHT = 190, 124  # the new page's card (scripts/render_set_cards.py)
MIN_SINGLE_SHARE = 0.3  # of a card file's picture: a card with edges found smaller is not it
LOOK_SIDE = 1000  # px: the longer side cards are looked for at (a phone's 4032 is shrunk)
LIGHT_TABLE_LEVELS = 6  # thresholds tried between the median and the brightest
MIN_CARD_SHARE = 0.002  # of the picture: a card smaller is not looked at
# A board's cards are alike in size (a phone's tilt makes the near ones larger): a card-shaped
# region outside these shares of the median card's area is a piece of one (glare splitting
# it) or several (touching). Any light region of STRAY_SHARE of a card or more that is not one
# is a stray: a card not found whole.
CARD_AREAS = (0.6, 1.6)
STRAY_SHARE = 0.25
# Cards edge to edge: a light region filling MIN_PARTED_FILL of its turned box, its sides
# within PARTED_FIT of k cards by m, each piece's ink centred within PARTED_OFF_MIDDLE of a
# card's short side of its middle.
MIN_PARTED_FILL, PARTED_FIT, PARTED_OFF_MIDDLE = 0.85, 0.15, 0.08
INKED_SHARE = 0.02  # of a light region, its ink: a card's shapes (a single one ~6%)
INK_CONTRAST = 40  # lightness (0-255) below a region's paper that is ink, not grain
OUTSIDE_CHROMA = 30  # a*b* length of ink beside its surroundings (a coloured table's own less)
PALE_CHROMA = 15  # above a grey table's a*b* length: ink (faint shapes: 18-20 above it)
OUTSIDE_INK_SHARE = 0.04  # of a card's area: ink this large (its box) outside the cards is a
# card's (a shape's box: ~0.14)
OUTSIDE_PAPER = 0.6  # of the cards' lightness: what ink outside them must lie on
OUTSIDE_MARGIN = 0.15  # of a card's short side round each card found, left out (its edge)
OUTSIDE_MIN_WIDTH = 0.12  # of a card's short side: a shape is ~0.3 wide, 0.7 high
EDGE_THRESHOLDS = (20, 60)  # Canny's, on lightness (0-255) smoothed over 5 px
RIM, RIM_DARKER = (0.88, 0.96), 10  # a card's rim (of its size round its middle) is paper
# The rim's colour (a*b* length) against the palest tenth of the region's: paper's, on a card
PALEST, RIM_COLOURED = 10, 10
RIMMED_INK = 12  # lightness below its paper that is a shape's, on a card enclosed by edges
# (a card in deep shade: its reader judges whether that is clearly a card)
MIN_LYING = 1.15  # long side / short side as seen: a card that lies one way or the other
GAP_CARDS = 0.9  # a gap this many cards wide between two cards of a row: room for one
GAP_COLOURED = 8  # a*b* length above the table's that is a shape's ink in such a gap
WINDOW_CARDS = 1.2  # a closer look's reach round ink outside the cards, in cards' long sides
CARD_ASPECT = (1.2, 1.95)  # long / short side (the cards: 1.53; perspective stretches it)
MIN_RECTANGULAR = 0.8  # area / its turned bounding box: rounded corners and a little glare


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
    (a grey or white table): the one that shows the most cards wins."""
    scale = min(1.0, LOOK_SIDE / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else image
    lab = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), (5, 5), 0)
    lightness = lab[..., 0]
    otsu, _ = cv2.threshold(lightness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    low, high = np.percentile(lightness, (50, 99.5))
    levels = [otsu] if cut_off else [otsu, *np.linspace(low, high, LIGHT_TABLE_LEVELS + 2)[1:-1]]
    chroma = _chroma(lab)
    edged, blanks = _edged_regions(lightness, chroma)
    seen = sorted([*(_regions(lightness, level, cut_off) for level in levels), (edged, [])],
                  key=lambda regions: -len(regions[0]))
    quads, others = seen[0]
    for more, _ in seen[1:]:  # cards in shade or in light another level shows
        quads += [quad for quad in more if not any(_overlap_quads(quad, q) for q in quads)]
    if not quads:
        return CardsFound([], 0)
    card = float(np.median([cv2.contourArea(quad) for quad in quads]))
    alike = [q for q in quads if CARD_AREAS[0] <= cv2.contourArea(q) / card <= CARD_AREAS[1]]
    if not alike:  # (regions of sizes far apart: none of them a board's card)
        return CardsFound([], len(quads))
    sides = np.median([_sides(q) for q in alike], axis=0)
    odd = []  # card-shaped, not a card's size or way, and not cards laid edge to edge
    standing = _standing_otherwise(alike)  # (two cards edge to edge: a card's proportions)
    alike = [q for q in alike if not any(q is s for s in standing)]
    for quad in (q for q in quads if not any(q is a for a in alike)):
        parted = _parted(quad, lightness, sides)  # (two cards of a column: a card's shape)
        if parted:
            alike += parted
        else:
            odd.append(quad)
    unshaped = []  # regions not card-shaped
    for area, outline in others:
        parted = None if any(_inside(q.mean(axis=0), outline) for q in alike) else \
            _parted(outline, lightness, sides)
        if parted:
            alike += parted
        else:
            unshaped.append((area, outline))
    loose = [] if cut_off else _ink_outside(small, alike, card)
    if loose:  # a card lit or shaded like its table round it: looked for where its ink lies
        closer = _looked_closer(lightness, loose, alike, card)
        standing = _standing_otherwise(alike + closer)
        alike += [q for q in closer if not any(q is s for s in standing)]
        loose = _ink_outside(small, alike, card)
    strays = [quad for quad in odd if not any(_overlap_quads(quad, q) for q in alike)]
    # A region rimmed as a card whose shapes hardly show (faint, in shade, glare on them), as
    # light as a card, is a card all the same: its reader says whether they can be read.
    paper = _median_within(lightness, alike)
    alike += [b for b in blanks if CARD_AREAS[0] <= cv2.contourArea(b) / card <= CARD_AREAS[1]
              and _median_within(lightness, [b]) >= OUTSIDE_PAPER * paper
              and not any(_overlap_quads(b, q) for q in alike)]
    for area, outline in unshaped:
        # A region holding cards found at another level is those cards and what lies beside
        # them: the table (a bright patch of it), or another card touching them.
        held = [q for q in alike if _inside(q.mean(axis=0), outline)]
        if area - sum(cv2.contourArea(q) for q in held) >= STRAY_SHARE * card:
            strays.append(outline)
    return CardsFound([CutCard(corners, straightened(image, corners))
                       for corners in _in_rows([q / scale for q in alike])], len(strays),
                      len(loose), 0 if cut_off else _gaps(lightness, chroma, alike))


def _sides(quad: np.ndarray) -> tuple[float, float]:
    """A quadrilateral's mean length across (its first side and the third) and down."""
    across = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    down = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    return float(across), float(down)


def _parted(outline: np.ndarray, lightness: np.ndarray, card: np.ndarray
            ) -> list[np.ndarray] | None:
    """Cards laid edge to edge in a row or a column, parted: a light region that is a
    quadrilateral k cards by m (`card`: a card's two sides, across and down as they lie, in
    either order), cut by the perspective its corners give, each piece's shapes in its
    middle, as a card's are; None when it is not that."""
    rectangle = cv2.minAreaRect(outline.astype(np.float32))
    if cv2.contourArea(outline.astype(np.float32)) < MIN_PARTED_FILL * np.prod(rectangle[1]):
        return None
    quad = _corners(outline)
    across, down = _sides(quad)
    long, short = max(card), min(card)
    fits = [(max(abs(across / (k * w) - 1), abs(down / (m * h) - 1)), k, m)
            for w, h in ((long, short), (short, long))
            for k in range(1, 5) for m in range(1, 5) if 2 <= k * m <= 6]
    error, k, m = min(fits)
    if error > PARTED_FIT:
        return None
    grid = cv2.getPerspectiveTransform(np.float32([[0, 0], [k, 0], [k, m], [0, m]]),
                                       quad.astype(np.float32))
    pieces = []
    for row in range(m):
        for column in range(k):
            corners = np.float32([[column, row], [column + 1, row], [column + 1, row + 1],
                                  [column, row + 1]])
            piece = cv2.perspectiveTransform(corners[None], grid)[0]
            if not _shapes_in_middle(lightness, piece, short):
                return None
            pieces.append(piece)
    return pieces


def _shapes_in_middle(lightness: np.ndarray, quad: np.ndarray, short: float) -> bool:
    """Whether a card's ink lies in its middle (the shapes of a card are centred on it)."""
    inside = np.zeros(lightness.shape, np.uint8)
    middle = quad.mean(axis=0)
    cv2.fillConvexPoly(inside, np.round(middle + (quad - middle) * 0.9).astype(np.int32), 1)
    values = lightness[inside > 0]
    if not values.size:
        return False
    ink = (inside > 0) & (lightness < np.median(values) - INK_CONTRAST / 2)
    ys, xs = np.nonzero(ink)
    if xs.size < INKED_SHARE * values.size:
        return False
    centre = np.array([(xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2])
    return bool(np.linalg.norm(centre - middle) <= PARTED_OFF_MIDDLE * short)


def _overlap_quads(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two quadrilaterals share ground (either's middle or a corner in the other)."""
    return any(_inside(point, b) for point in (a.mean(axis=0), *a)) or \
        any(_inside(point, a) for point in (b.mean(axis=0), *b))


def _inside(point: np.ndarray, outline: np.ndarray) -> bool:
    return cv2.pointPolygonTest(outline.astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0


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
        quad = None if cut else _card_quad(contour, paper.size)
        if quad is not None:
            quads.append(quad)
        elif cv2.contourArea(contour) >= MIN_CARD_SHARE * paper.size and \
                _inked(lightness[y:y + h, x:x + w], contour - (x, y)):
            others.append((cv2.contourArea(contour), contour.reshape(-1, 2)))
    return quads, others


def _looked_closer(lightness: np.ndarray, ink: list[np.ndarray], cards: list[np.ndarray],
                   card: float) -> list[np.ndarray]:
    """Cards found round ink outside the cards: in a window a few cards wide round each blob
    the light is nearly even, so a threshold there (Otsu's, and the levels above it) tells a
    card from the table beside it that the whole picture's could not. A card found must hold
    the blob, be of the board's cards' size and overlap no card found."""
    long = np.sqrt(card * 1.53)
    found: list[np.ndarray] = []
    for box in ink:
        middle = box.mean(axis=0)
        low = np.maximum(0, middle - WINDOW_CARDS * long).astype(int)
        high = np.minimum(lightness.shape[::-1], middle + WINDOW_CARDS * long).astype(int)
        window = lightness[low[1]:high[1], low[0]:high[0]]
        otsu, _ = cv2.threshold(window, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        for level in np.linspace(otsu, np.percentile(window, 99), LIGHT_TABLE_LEVELS):
            contours, _ = cv2.findContours((window > level).astype(np.uint8),
                                           cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            shaped = (_card_quad(contour, lightness.size) for contour in contours)
            quads = [quad + low.astype(np.float32) for quad in shaped if quad is not None]
            quad = next((q for q in quads if _inside(middle, q)
                         and CARD_AREAS[0] <= cv2.contourArea(q) / card <= CARD_AREAS[1]), None)
            if quad is not None and not any(_overlap_quads(quad, q) for q in cards + found):
                found.append(quad)
                break
    return found


def _edged_regions(lightness: np.ndarray, chroma: np.ndarray
                   ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The card-shaped regions enclosed by edges (a card's outline, where its paper is no
    lighter than the table beside it: a white table, a card in shade), largest first, none
    inside another (a shape's hollow, a card's inner border): those holding ink, and those
    rimmed with paper but blank."""
    edges = cv2.dilate(cv2.Canny(lightness, *EDGE_THRESHOLDS), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours((edges == 0).astype(np.uint8), cv2.RETR_CCOMP,
                                   cv2.CHAIN_APPROX_NONE)
    found = [_card_quad(c, lightness.size) for c in contours if _edges_met(c, edges.shape) < 2]
    quads: list[np.ndarray] = []
    blanks: list[np.ndarray] = []
    for quad in sorted((q for q in found if q is not None), key=lambda q: -cv2.contourArea(q)):
        if any(_overlap_quads(quad, q) for q in quads + blanks):
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


def _median_within(lightness: np.ndarray, quads: list[np.ndarray]) -> float:
    inside = np.zeros(lightness.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
    return float(np.median(lightness[inside > 0]))


def _chroma(lab: np.ndarray) -> np.ndarray:
    """How coloured each pixel is: its a*b* length."""
    a, b = (lab[..., i].astype(np.float32) - 128 for i in (1, 2))
    return np.hypot(a, b)


def _edges_met(contour: np.ndarray, shape: tuple[int, ...]) -> int:
    """How many of the picture's sides a region touches."""
    x, y, w, h = cv2.boundingRect(contour)
    return sum((x <= 0, y <= 0, x + w >= shape[1], y + h >= shape[0]))


def _ink_outside(picture: np.ndarray, quads: list[np.ndarray], card: float
                 ) -> list[np.ndarray]:
    """Blobs of ink as large as a small shape lying outside every card found, on something
    nearly as light as the cards (their boxes' corners): a card there was not found (lit or
    shaded like the table). Ink: much darker than its surroundings, or coloured and darker."""
    lab = cv2.cvtColor(picture, cv2.COLOR_BGR2LAB)
    lightness = lab[..., 0]
    around = cv2.medianBlur(lightness, max(3, int(np.sqrt(card) / 2) | 1))
    darker = cv2.subtract(around, lightness)
    chroma = np.hypot(lab[..., 1].astype(np.float32) - 128, lab[..., 2].astype(np.float32) - 128)
    cards = np.zeros(lightness.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(cards, quad.astype(np.int32), 1)
    paper = float(np.median(lightness[cards > 0]))
    # (coloured: beside a grey table's colour too, where a pale card's shapes are faint)
    coloured = np.minimum(OUTSIDE_CHROMA, float(np.median(chroma[cards == 0])) + PALE_CHROMA) \
        if (cards == 0).any() else OUTSIDE_CHROMA
    ink = (darker > INK_CONTRAST) | ((chroma > coloured) & (darker > INK_CONTRAST / 2))
    short = np.sqrt(card / 1.53)  # a card's short side
    margin = int(OUTSIDE_MARGIN * short) * 2 + 1
    cards = cv2.dilate(cards, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (margin, margin)))
    # On something as light as a card that is none of the cards found (not the table between
    # two of them).
    uncovered = cv2.medianBlur(np.where(cards > 0, 0, lightness).astype(np.uint8),
                               max(3, int(np.sqrt(card) / 2) | 1))
    ink &= uncovered >= OUTSIDE_PAPER * paper
    _, _, stats, _ = cv2.connectedComponentsWithStats((ink & (cards == 0)).astype(np.uint8))
    # A shape's size: not a strip of table between two cards (long and thin), nor a speck.
    return [np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
            for x, y, w, h, _ in stats[1:] if w * h >= OUTSIDE_INK_SHARE * card
            and max(w, h) <= short and min(w, h) >= OUTSIDE_MIN_WIDTH * short]


def _inked(lightness: np.ndarray, contour: np.ndarray) -> bool:
    """Whether a light region holds shapes (pixels much darker than its paper), as cards do
    and a bright patch of the table (its grain only a little darker) does not."""
    inside = np.zeros(lightness.shape, np.uint8)
    cv2.drawContours(inside, [contour], -1, 1, cv2.FILLED)
    values = lightness[inside > 0]
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


def _card_quad(contour: np.ndarray, picture_area: int) -> np.ndarray | None:
    area = cv2.contourArea(contour)
    if area < MIN_CARD_SHARE * picture_area:
        return None
    (_, _), (width, height), _ = cv2.minAreaRect(contour)
    if not width or not height or area / (width * height) < MIN_RECTANGULAR:
        return None
    if not CARD_ASPECT[0] <= max(width, height) / min(width, height) <= CARD_ASPECT[1]:
        return None
    return _corners(contour)


def _corners(contour: np.ndarray) -> np.ndarray:
    """The four corners of a region nearly a quadrilateral, clockwise from the top-left."""
    contour = contour.reshape(-1, 1, 2).astype(np.int32)
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for share in np.linspace(0.01, 0.1, 19):
        corners = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(corners) == 4:
            return _clockwise(corners.reshape(4, 2).astype(np.float32))
    return _clockwise(cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32))


def _clockwise(corners: np.ndarray) -> np.ndarray:
    """Corners in clockwise order (y down) from the one nearest the top-left."""
    middle = corners.mean(axis=0)
    order = np.argsort(np.arctan2(corners[:, 1] - middle[1], corners[:, 0] - middle[0]))
    corners = corners[order]
    return np.roll(corners, -int(np.argmin(corners.sum(axis=1))), axis=0)


def _in_rows(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Cards in rows as seen once the board is turned level (by its cards' edges, a quarter
    turn at most): a card joins the row above's when its middle lies within half a card's
    short side of that row's."""
    if not quads:
        return []
    level = _levelled(quads)
    rows: list[list[int]] = []
    for index in sorted(range(len(quads)), key=lambda i: level[i][:, 1].mean()):
        quad = level[index]
        short = min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]))
        middle = quad[:, 1].mean()
        if rows and abs(middle - np.mean([level[i][:, 1].mean() for i in rows[-1]])) < short / 2:
            rows[-1].append(index)
        else:
            rows.append([index])
    return [quads[i] for row in rows for i in sorted(row, key=lambda i: level[i][:, 0].mean())]


def _levelled(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The quadrilaterals turned by the board's turn (told by its cards' edges, modulo a
    quarter: cards lie either way), so that its rows lie across."""
    edges = [quad[1] - quad[0] for quad in quads]
    angles = np.array([np.arctan2(dy, dx) for dx, dy in edges])
    quarter = np.pi / 2
    turn = float(np.angle(np.exp(4j * angles).mean()) / 4)
    turn = (turn + quarter / 2) % quarter - quarter / 2
    cos, sin = np.cos(-turn), np.sin(-turn)
    return [quad @ np.array([[cos, sin], [-sin, cos]]) for quad in quads]


def _standing_otherwise(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The cards standing on end on a board of cards lying across, or the other way: two
    cards edge to edge have nearly a card's proportions, turned a quarter."""
    level = _levelled(quads)
    lying = np.array([np.log(np.ptp(q[:, 0]) / max(np.ptp(q[:, 1]), 1.0)) for q in level])
    board = float(np.median(lying))
    if abs(board) < np.log(MIN_LYING):
        return []
    return [quad for quad, way in zip(quads, lying, strict=True)
            if way * board < 0 and abs(way) >= np.log(MIN_LYING)]


def _gaps(lightness: np.ndarray, chroma: np.ndarray, quads: list[np.ndarray]) -> int:
    """Gaps a card wide between two cards of a row or a column, as light as a card and
    holding ink (colour or darkness beside the table's): a card lying there, no lighter than
    its table, with shapes too faint to be taken for ink outside the cards."""
    level = _levelled(quads)
    middles = np.array([quad.mean(axis=0) for quad in level])
    extents = np.array([np.ptp(quad, axis=0) for quad in level])  # across, down
    paper = _median_within(lightness, quads)
    cards = np.zeros(lightness.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(cards, np.round(quad).astype(np.int32), 1)
    table_colour = float(np.median(chroma[cards == 0])) if (cards == 0).any() else 0.0
    gaps = 0
    for along in (0, 1):  # in a row, in a column
        other = 1 - along
        for i in range(len(quads)):
            ahead = [j for j in range(len(quads)) if middles[j, along] > middles[i, along]
                     and abs(middles[j, other] - middles[i, other]) < extents[i, other] / 2]
            if not ahead:
                continue
            j = min(ahead, key=lambda j: middles[j, along])
            size = (extents[i, along] + extents[j, along]) / 2
            if middles[j, along] - middles[i, along] - size < GAP_CARDS * size:
                continue
            spot = (quads[i].mean(axis=0) + quads[j].mean(axis=0)) / 2
            if any(_inside(spot, quad) for quad in quads):  # (rows laid crooked)
                continue
            half = max(1, int(extents[i, other] / 3))
            x, y = np.round(spot).astype(int)
            window = np.s_[max(0, y - half):y + half, max(0, x - half):x + half]
            light, colour = lightness[window], chroma[window]
            gaps += light.size > 0 and float(np.median(light)) >= OUTSIDE_PAPER * paper and (
                float(np.percentile(colour, 95)) >= table_colour + GAP_COLOURED
                or float(np.percentile(light, 5)) <= float(np.median(light)) - INK_CONTRAST / 2)
    return gaps


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
