"""The shapes of SET cards in a picture, found by their ink and chained into cards.

Cards are found from their shapes, not their edges: the Daily SET's own cards are white on a
white page with no outline at all (the 2022 page), where an edge finder sees no card. A shape
is a blob of coloured ink lying on light, greyish paper (a dark or coloured table is not paper,
so its colour is not taken for ink); the shapes of one card are copies side by side, the same
size, hue, fill and outline, closer to each other than to the next card's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from webbot.set_cards.perceive import mean_hue
from webbot.set_cards.second_look import fill_level, paper_and_ink
from webbot.vision.percentile import percentile
from webbot.vision.pixels import value_and_chroma

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
CARD_W, CARD_H = 2.26, 1.48  # the card's box, in shape heights, at a card's proportions
LONE_PITCH = 0.76  # of the shape height: the real cards' pitch (32 px for 42 px high shapes)


@dataclass(frozen=True)
class Shape:
    """One shape of ink on a card, and how it looks: its box, hue, fill and outline."""

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


def find_shapes(image: np.ndarray) -> list[Shape]:
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


def alike(a: Shape, b: Shape, *, by_share: bool = True) -> bool:
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


def chained(shapes: list[Shape]) -> list[list[Shape]]:
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
            if alike(a, b):
                owner[root(j)] = root(i)
    groups: dict[int, list[Shape]] = {}
    for i, shape in enumerate(ordered):
        groups.setdefault(root(i), []).append(shape)
    return [card for run in groups.values() for card in _split(run)]


def _split(run: list[Shape]) -> list[list[Shape]]:
    """A run of alike shapes as cards. Only two three-shape cards side by side can chain
    (fewer shapes leave wider margins), and no two cards are the same, so six shapes are two
    cards alike but for one attribute the chain did not see: cut at the wider gap between
    them. Any other run of more than three is left whole here (grid.parted_by_columns parts
    it by the columns)."""
    if len(run) != 6:
        return [run]
    gaps = [b.x - (a.x + a.w) for a, b in zip(run, run[1:], strict=False)]
    if gaps[2] > max(gaps[:2] + gaps[3:]):
        return [run[:3], run[3:]]
    return [run]


def centre(group: list[Shape]) -> tuple[float, float]:
    """The middle of a card's shapes: halfway across them, at their mean height."""
    xs = [s.centre[0] for s in group]
    ys = [s.centre[1] for s in group]
    return (min(xs) + max(xs)) / 2, float(np.mean(ys))


def ink_beyond(picture: np.ndarray, group: list[Shape], pitch: float) -> bool:
    """Whether ink by lightness lies a pitch left of a card's first shape or right of its
    last (for a lone shape: either side of it, shapes too faint for colour beside the one
    seen, else a card of three faint shapes can read as one); `pitch` 0: the real cards'."""
    step = round(pitch if pitch > 0 else LONE_PITCH * group[0].h)
    return ink_at(picture, group[0], -step) or ink_at(picture, group[-1], step)


def ink_at(picture: np.ndarray, shape: Shape, dx: int) -> bool:
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
