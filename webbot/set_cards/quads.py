"""Card-shaped quadrilaterals in a photo, and how they lie against each other: what the card
finder (photo.py) and its checks for cards it may have missed (unseen.py) share.

Quadrilaterals are 4x2 float arrays of corners, clockwise (y down) from the top-left.
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_CARD_SHARE = 0.002  # of the picture: a card smaller is not looked at
CARD_RATIO = 1.53  # a card's long side / its short side
CARD_ASPECT = (1.2, 1.95)  # long / short side as seen (perspective stretches it)
MIN_RECTANGULAR = 0.8  # area / its turned bounding box: rounded corners and a little glare
# A board's cards are alike in size (a phone's tilt makes the near ones larger): a card-shaped
# region outside these shares of the median card's area is a piece of one (glare splitting
# it) or several (touching).
CARD_AREAS = (0.6, 1.6)
INKED_SHARE = 0.02  # of a light region, its ink: a card's shapes (a single one ~6%)
INK_CONTRAST = 40  # lightness (0-255) below a region's paper that is ink, not grain


def of_card_size(quad: np.ndarray, card: float) -> bool:
    """Whether a quadrilateral is of the board's cards' size (`card`: the median's area)."""
    return CARD_AREAS[0] <= cv2.contourArea(quad) / card <= CARD_AREAS[1]


def sides(quad: np.ndarray) -> tuple[float, float]:
    """A quadrilateral's mean length across (its first side and the third) and down."""
    across = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    down = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    return float(across), float(down)


def overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two quadrilaterals share ground (either's middle or a corner in the other)."""
    if (a.min(axis=0) > b.max(axis=0)).any() or (b.min(axis=0) > a.max(axis=0)).any():
        return False  # (their boxes apart: the test below is the costly one)
    return any(inside(point, b) for point in (a.mean(axis=0), *a)) or \
        any(inside(point, a) for point in (b.mean(axis=0), *b))


def inside(point: np.ndarray, outline: np.ndarray) -> bool:
    """Whether a point lies in an outline (or on it)."""
    return cv2.pointPolygonTest(outline.astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0


def card_quad(contour: np.ndarray, picture_area: int) -> np.ndarray | None:
    """The corners of a region of a card's proportions filling most of its turned box."""
    area = cv2.contourArea(contour)
    if area < MIN_CARD_SHARE * picture_area:
        return None
    (_, _), (width, height), _ = cv2.minAreaRect(contour)
    if not width or not height or area / (width * height) < MIN_RECTANGULAR:
        return None
    if not CARD_ASPECT[0] <= max(width, height) / min(width, height) <= CARD_ASPECT[1]:
        return None
    return corners_of(contour)


def corners_of(contour: np.ndarray) -> np.ndarray:
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


def levelled(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The quadrilaterals turned by the board's turn (told by its cards' edges, modulo a
    quarter: cards lie either way), so that its rows lie across."""
    edges = [quad[1] - quad[0] for quad in quads]
    angles = np.array([np.arctan2(dy, dx) for dx, dy in edges])
    quarter = np.pi / 2
    turn = float(np.angle(np.exp(4j * angles).mean()) / 4)
    turn = (turn + quarter / 2) % quarter - quarter / 2
    cos, sin = np.cos(-turn), np.sin(-turn)
    return [quad @ np.array([[cos, sin], [-sin, cos]]) for quad in quads]


def median_within(lightness: np.ndarray, quads: list[np.ndarray]) -> float:
    """The median lightness within the quadrilaterals."""
    within = np.zeros(lightness.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(within, np.round(quad).astype(np.int32), 1)
    return float(np.median(lightness[within > 0]))


def chroma_of(lab: np.ndarray) -> np.ndarray:
    """How coloured each pixel is: its a*b* length."""
    a, b = (lab[..., i].astype(np.float32) - 128 for i in (1, 2))
    return np.hypot(a, b)


def plane_through(values: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """A plane fitted (least squares) through `values` (2-D, float32) where `chosen`, over
    the whole picture: light across a card, which a curved fit would bend to a spot."""
    height, width = values.shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    terms = np.stack([np.ones_like(xs), xs / width, ys / height], -1)
    coefficients = np.linalg.lstsq(terms[chosen], values[chosen], rcond=None)[0]
    return terms @ coefficients
