"""A SET card as a camera sees it, cut out and straightened (photo.py), read against its own
paper: the camera's rules.

The paper's colour is fitted across the card (light falls unevenly, warm or cold) and every
pixel divided by it, so a colour cast, a shadow's gradient or glare is not ink. Ink is what
absorbs light in some channel more than the paper does (the darkest channel), which holds for
the three inks however dark a photo makes them (purple turns nearly grey). Colour is judged by
the ink's direction in Lab's a*b* plane (over the shapes and a margin, where JPEG spreads it),
fill by the ink share in the shapes' middles (each against its own strongest ink) and whether
a striping's lines are seen (glare.py), shape by the silhouettes' likeness to a diamond and an
oval and their solidity.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import cv2
import numpy as np

from webbot.set_cards.glare import LINES_SEEN, TYPICAL_LINES, glare_on, stripe_lines
from webbot.set_cards.model import Card
from webbot.set_cards.perceive import (
    CardError,
    NoInk,
    Uncounted,
    boundary_doubt,
    count_doubt_of,
    silhouettes,
)
from webbot.set_cards.photo import CUT_HEIGHT, CUT_WIDTH

BORDER = 0.03  # of the cut's height: the card's own edge and the table beyond, left out
# Ink: darkness in the darkest channel once the paper is divided out, against the card's
# strongest ink; a shape's pixels are those at INK_SHARE of it or more.
INK_SHARE = 0.45
# Where a shape breaks at INK_SHARE, the shapes at PALE_SHARE, taken where none breaks there
# and their sizes are alike (count doubt at most ALIKE_DOUBT).
PALE_SHARE, ALIKE_DOUBT = 0.25, 0.5
MIN_INK = 0.15  # below this the card holds no shape
PAPER_DARKNESS = 0.08  # what the paper fit keeps as paper (noise, grain)
# Inks' directions in Lab's a*b* plane (degrees), ranges holding both the physical cards'
# inks in photos and the page's art: an ink within its range is sure, one halfway between two
# ranges' nearest ends wholly in doubt.
INK_RANGES = {"red": (14.0, 35.0), "green": (139.0, 167.0), "purple": (-46.0, -13.0)}
# Below this a*b* length the ink's colour is only a guess (doubt 1): on the tune part's real
# photos, as taken and JPEG-compressed as another camera would (scripts/bench_photo_cards.py),
# the rules named a wrong colour at up to 7 (thin red outlines turned purple), a step up.
FAINT_INK_CHROMA = 10.0
# A faint ink's tint still points away from a colour: on the tune part's cards whose colour the
# rules only guess (scripts/bench_photo_cards.py --choose), a tint of a*b* length 4.5 or less
# pointed anywhere (up to 163 degrees from its colour's range), while the learned reader's wrong
# colours (faint purples read green) lay 113 degrees or more from a tint of length 5.4 or more.
# From FAINT_TINT a colour whose range lies over TINT_AWAY degrees from the tint is not the ink.
FAINT_TINT, TINT_AWAY = 5.0, 100.0
INK_MARGIN = 7  # px of the cut: a JPEG block's colour, spread, at a small photo's scale
# Ink share inside the shapes: photos of the cards give empty <= 0.05, striped 0.2-0.3 (thin
# lines), solid >= 0.93; the page's striped art 0.55-0.8.
EMPTY_BELOW, SOLID_ABOVE = 0.15, 0.8
TYPICAL_EMPTY, TYPICAL_SOLID = 0.03, 0.95
TYPICAL_STRIPED = (0.24, 0.6)  # thin lines, the page's art
# The spread of the ink share in a solid's middle: drawn photos 0.01-0.04 (95%), stripes
# blurred to a solid's share 0.08-0.12.
SOLID_UNEVEN, TYPICAL_EVEN = 0.08, 0.02
# The same spread in the page's dense stripes: 0.04 or more at 95% of drawn photos (median
# 0.19); a solid washed out by glare to a striping's share stays even (0.03).
EVEN_STRIPES, TYPICAL_UNEVEN = 0.035, 0.1
FAINT_STRIPES = 0.4  # a share below this is thin lines, or an empty shape's blurred inside
# A shape's depth (its middle's distance from its edge) in the picture's px: below about
# 6 px an empty shape's blurred inside can read as striped; real cards' shapes are 10+.
SMALL_DEPTH = (5.0, 10.0)
# Silhouettes fitted to OUTLINE_SIZE and laid on a diamond's and an oval's: a diamond's
# likeness to the diamond is 0.83-0.96 (blurred art to real cards), an oval's or a
# squiggle's 0.56-0.61. Oval against squiggle: likeness to the oval 0.91-0.98 against
# 0.72-0.90, solidity 0.97-0.99 against 0.84-0.94.
OUTLINE_SIZE = (40, 80)
DIAMOND_SPLIT, TYPICAL_DIAMOND, TYPICAL_ROUND = 0.72, 0.9, 0.6
OVAL_SPLIT, OVAL_SPREAD = 0.905, 0.03
MIN_LIKENESS, MIN_SOLIDITY = 0.5, 0.75  # below any shape's: no shape's silhouette
SOLIDITY_SPLIT, SOLIDITY_SPREAD = 0.955, 0.015
TYPICAL_SCORE = 3.0


class Ruled(NamedTuple):
    """The rules' reading of a card: the card, each attribute's doubt (0: far from a boundary,
    1: on it, a guess), and a faint ink's tint (its a*b* length and angle; None where the ink
    was strong enough to judge)."""

    card: Card
    doubts: dict[str, float]
    tint: tuple[float, float] | None = None


def points_away(tint: tuple[float, float] | None, color: str, chroma: float = FAINT_TINT,
                degrees: float = TINT_AWAY) -> bool:
    """Whether a faint ink's tint rules `color` out: at least `chroma` long and more than
    `degrees` from that colour's range."""
    return tint is not None and tint[0] >= chroma and angle_to(tint[1],
                                                                *INK_RANGES[color]) > degrees


def read_cut(picture: np.ndarray, height: float = CUT_HEIGHT) -> Ruled:
    """A cut, straightened card (BGR) read by the rules (Ruled); `height`: the card's short
    side in the picture it was cut from."""
    return read_normal(paper_divided(picture), height, picture)


def read_normal(normal: np.ndarray, height: float = CUT_HEIGHT,
                picture: np.ndarray | None = None) -> Ruled:
    """`read_cut` on a cut card already divided by its paper (`paper_divided`); given the cut
    as it was (`picture`), a striping where glare falls is a guess (glare.py)."""
    darkness = _darkness(normal)
    strongest = float(np.percentile(darkness, 99.5))
    if strongest < MIN_INK:
        raise NoInk("no shape stands out from the card's paper")
    shapes, fragments = silhouettes(darkness >= INK_SHARE * strongest)
    if fragments:  # a shape paler than the others (light falling on it) broken: looked again
        again, broken = silhouettes(darkness >= PALE_SHARE * strongest)
        if not broken and 1 <= len(again) <= 3 and count_doubt_of(again, 0) <= ALIKE_DOUBT:
            shapes, fragments = again, 0
    if not 1 <= len(shapes) <= 3:
        raise Uncounted(f"{len(shapes)} shapes found on the card (a card has 1 to 3)")
    inked = np.maximum.reduce(shapes) > 0
    core = inked & (darkness >= 0.7 * strongest)
    color, color_doubt, tint = _color(normal, darkness, inked, core)
    coverage = _coverage(darkness, shapes)
    depths = [cv2.distanceTransform(mask, cv2.DIST_L2, 3) for mask in shapes]
    lines = stripe_lines(coverage, depths)
    fill, fill_doubt = _fill(coverage, depths, height / CUT_HEIGHT, lines)
    if (fill == "striped" and lines < LINES_SEEN and picture is not None
            and glare_on(picture, shapes)):
        fill_doubt = 1.0  # or a solid washed out
    shape, shape_doubt = _shape(shapes)
    doubts = {"count": count_doubt_of(shapes, fragments), "shape": shape_doubt,
              "color": color_doubt, "fill": fill_doubt}
    return Ruled(Card(len(shapes), shape, color, fill), doubts, tint)


def paper_divided(picture: np.ndarray) -> np.ndarray:
    """A cut card (BGR), at the cut's size, divided by its paper's colour (`_paper_divided`)."""
    picture = cv2.resize(picture, (CUT_WIDTH, CUT_HEIGHT), interpolation=cv2.INTER_AREA)
    return _paper_divided(picture.astype(np.float32))


def _paper_divided(picture: np.ndarray) -> np.ndarray:
    """The picture divided by its paper's colour where it lies (0-1; the paper 1): first a
    smooth fit over the whole card, then the paper's own colour near each pixel, the shapes
    (their insides too) left out, so a shadow's edge or glare is divided out and the ink
    kept."""
    field = _paper_fit(picture)
    darkness = _darkness(np.clip(picture / field, 0, 1))
    ink = (darkness >= 0.3 * np.percentile(darkness, 99.5)).astype(np.uint8)
    outlines, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(ink, [c for c in outlines if cv2.boundingRect(c)[3] >= 0.2 * CUT_HEIGHT],
                     -1, 1, cv2.FILLED)
    paper = 1 - cv2.dilate(ink, np.ones((5, 5), np.uint8)).astype(np.float32)
    sigma = CUT_HEIGHT / 12
    weight = cv2.GaussianBlur(paper, (0, 0), sigma)[..., None]
    local = cv2.GaussianBlur(picture * paper[..., None], (0, 0), sigma) / np.maximum(weight,
                                                                                      1e-3)
    field = np.where(weight > 0.05, local, field)
    normal = np.clip(picture / np.maximum(field, 1), 0, 1)
    edge = max(1, round(BORDER * CUT_HEIGHT))
    normal[:edge], normal[-edge:], normal[:, :edge], normal[:, -edge:] = 1, 1, 1, 1
    return normal


def _paper_fit(picture: np.ndarray) -> np.ndarray:
    """A quadratic surface per channel through the card's paper (fitted on every third pixel
    each way): the brighter pixels at first, then those the fit finds no darker than the
    paper."""
    height, width = picture.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    xs, ys = xs / width, ys / height
    terms = np.stack([np.ones_like(xs), xs, ys, xs * xs, ys * ys, xs * ys], -1)
    sampled, pixels = terms[::3, ::3].reshape(-1, 6), picture[::3, ::3].reshape(-1, 3)
    brightness = pixels.sum(axis=1)
    paper = brightness >= np.percentile(brightness, 40)
    for _ in range(3):
        if paper.sum() < sampled.shape[1] * 10:
            raise CardError("the card's paper cannot be told from its ink")
        coefficients = np.linalg.lstsq(sampled[paper], pixels[paper], rcond=None)[0]
        fitted = np.maximum(sampled @ coefficients, 1)
        paper = _darkness(pixels / fitted) < PAPER_DARKNESS
    return np.maximum(terms.reshape(-1, 6) @ coefficients, 1).reshape(height, width, 3)


def _darkness(normal: np.ndarray) -> np.ndarray:
    """1 - the darkest channel: how much ink (of any of the three colours) a pixel holds."""
    return 1 - np.minimum(np.minimum(normal[..., 0], normal[..., 1]), normal[..., 2])


def _color(normal: np.ndarray, darkness: np.ndarray, inked: np.ndarray,
           core: np.ndarray) -> tuple[str, float, tuple[float, float] | None]:
    """The ink's direction in Lab's a*b* plane, summed over the shapes and a margin round them
    (INK_MARGIN) and taken per unit of ink: JPEG keeps colour at half resolution and spreads a
    thin outline's colour onto the paper beside it, which the paper's division leaves neutral.
    Its strength that of the ink at its `core` darkness. An ink too faint to judge is the
    nearest colour, wholly in doubt, with its tint (length, angle)."""
    if not core.any():
        raise NoInk("no clear colour in its shapes")
    lab = cv2.cvtColor((np.clip(normal, 0, 1) * 255).astype(np.uint8),
                       cv2.COLOR_BGR2LAB).astype(np.float32) - 128
    region = cv2.dilate(inked.astype(np.uint8), np.ones((INK_MARGIN, INK_MARGIN), np.uint8)) > 0
    per_ink = float(np.median(darkness[core])) / max(float(darkness[region].sum()), 1e-6)
    a = float(lab[..., 1][region].sum()) * per_ink
    b = float(lab[..., 2][region].sum()) * per_ink
    angle = float(np.degrees(np.arctan2(b, a)))
    distances = {name: angle_to(angle, *ends) for name, ends in INK_RANGES.items()}
    ranked = sorted(distances, key=distances.__getitem__)
    chroma = float(np.hypot(a, b))
    if chroma < FAINT_INK_CHROMA:
        return ranked[0], 1.0, (chroma, angle)
    best, second = distances[ranked[0]], distances[ranked[1]]
    return ranked[0], 2 * best / (best + second), None


def angle_to(angle: float, low: float, high: float) -> float:
    """Degrees from an angle to a range of angles (0 within it)."""
    if (angle - low) % 360 <= (high - low) % 360:
        return 0.0
    return min(abs((angle - end + 180) % 360 - 180) for end in (low, high))


def _coverage(darkness: np.ndarray, shapes: list[np.ndarray]) -> np.ndarray:
    """The ink's darkness in each shape as a share of that shape's own strongest ink: light
    falling unevenly on the card pales one shape's outline and stripes alike."""
    coverage = np.zeros_like(darkness)
    for mask in shapes:
        inked = mask > 0
        coverage[inked] = darkness[inked] / max(float(np.percentile(darkness[inked], 99.5)),
                                                MIN_INK)
    return coverage


def _fill(coverage: np.ndarray, depths: list[np.ndarray], scale: float,
          lines: float) -> tuple[str, float]:
    """By the ink share in the middle of the shapes. Thin stripes and an empty shape's
    inside blurred by its outline look alike when the shape is small in the picture (`scale`:
    the picture's px per cut px): a faint striping is then in doubt. A striping's share
    evenly spread is a guess (or a solid washed out) unless its `lines` are seen
    (glare.stripe_lines). `depths`: each shape's distance to its edge."""
    inside = np.zeros(coverage.shape, bool)
    for distance in depths:
        inside |= distance > 0.8 * distance.max()
    middles = np.clip(coverage[inside], 0, 1)
    share = float(middles.mean())
    if share >= SOLID_ABOVE:  # and evenly inked: stripes blurred together are not
        uneven = float(middles.std())
        if uneven >= SOLID_UNEVEN:
            return "solid", 1.0
        return "solid", max(boundary_doubt(share, SOLID_ABOVE, TYPICAL_SOLID),
                            boundary_doubt(uneven, SOLID_UNEVEN, TYPICAL_EVEN))
    if share < EMPTY_BELOW:
        return "empty", boundary_doubt(share, EMPTY_BELOW, TYPICAL_EMPTY)
    if share >= FAINT_STRIPES:  # and unevenly inked, or its lines seen: a washed-out solid
        uneven = float(middles.std())  # is even and smooth
        evenness = (boundary_doubt(uneven, EVEN_STRIPES, TYPICAL_UNEVEN)
                    if uneven > EVEN_STRIPES else 1.0)
        smoothness = (boundary_doubt(lines, LINES_SEEN, TYPICAL_LINES)
                      if lines >= LINES_SEEN else 1.0)
        return "striped", max(boundary_doubt(share, SOLID_ABOVE, TYPICAL_STRIPED[1]),
                              min(evenness, smoothness))
    deepest = [float(distance.max()) * scale for distance in depths]
    small = boundary_doubt(float(np.median(deepest)), SMALL_DEPTH[0], SMALL_DEPTH[1])
    return "striped", max(small, boundary_doubt(share, EMPTY_BELOW, TYPICAL_STRIPED[0]))


def _shape(shapes: list[np.ndarray]) -> tuple[str, float]:
    """By likeness to a diamond's and an oval's outline (intersection over union, each shape
    fitted to its box), which blur hardly moves, and by solidity: the squiggle alone is
    dented."""
    features = np.median([_likeness(mask) for mask in shapes], axis=0)
    diamond, oval, solidity = (float(value) for value in features)
    if max(diamond, oval) < MIN_LIKENESS or solidity < MIN_SOLIDITY:  # an outline broken open
        return "squiggle", 1.0
    if diamond >= DIAMOND_SPLIT:
        return "diamond", boundary_doubt(diamond, DIAMOND_SPLIT, TYPICAL_DIAMOND)
    doubt_diamond = boundary_doubt(diamond, DIAMOND_SPLIT, TYPICAL_ROUND)
    score = (oval - OVAL_SPLIT) / OVAL_SPREAD + (solidity - SOLIDITY_SPLIT) / SOLIDITY_SPREAD
    shape = "oval" if score > 0 else "squiggle"
    return shape, max(doubt_diamond, boundary_doubt(score, 0, TYPICAL_SCORE))


def _likeness(mask: np.ndarray) -> tuple[float, float, float]:
    """A silhouette's likeness to a diamond and to an oval, and its solidity."""
    contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0],
                  key=cv2.contourArea)
    x, y, w, h = cv2.boundingRect(contour)
    fitted = cv2.resize(mask[y:y + h, x:x + w], OUTLINE_SIZE, interpolation=cv2.INTER_AREA) > 127
    diamond, oval = _outlines()
    area = float(np.count_nonzero(mask))
    solidity = area / (cv2.contourArea(cv2.convexHull(contour))
                       + cv2.arcLength(contour, True) / 2)
    return _overlap(fitted, diamond), _overlap(fitted, oval), solidity


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


@cache
def _outlines() -> tuple[np.ndarray, np.ndarray]:
    """A diamond and an oval (a stadium: half circles on a rectangle), filled, at
    OUTLINE_SIZE."""
    width, height = OUTLINE_SIZE
    diamond = np.zeros((height, width), np.uint8)
    cv2.fillPoly(diamond, [np.int32([[width / 2, 0], [width - 1, height / 2],
                                     [width / 2, height - 1], [0, height / 2]])], 1)
    oval = np.zeros((height, width), np.uint8)
    radius = width // 2
    cv2.rectangle(oval, (0, radius), (width - 1, height - 1 - radius), 1, cv2.FILLED)
    cv2.circle(oval, (radius, radius), radius, 1, cv2.FILLED)
    cv2.circle(oval, (radius, height - 1 - radius), radius, 1, cv2.FILLED)
    return diamond.astype(bool), oval.astype(bool)
