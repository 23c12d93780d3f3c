"""Reads a SET card's count, shape, colour and fill from its pixels.

The card is scaled to a standard height first, so the small 95x62 GIFs, the larger PNGs and
rescaled copies are read the same way. Everything hangs on chroma (max - min channel): white,
greys and the drop shadows have none, and a colour mixed with white by antialiasing or by
stripes keeps a share of the ink's chroma equal to its coverage, whatever the colour.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from webbot.errors import WebbotError
from webbot.files import InputError, read_bytes
from webbot.inputs import MAX_IMAGE_BYTES, decode_image
from webbot.set_cards.model import Card, Reading
from webbot.vision.pixels import value_and_chroma

STANDARD_HEIGHT = 124  # twice the small card: stripes 4 px apart, a median filter keeps them
MIN_HEIGHT = 24  # below this stripes blur into a solid fill
ASPECTS = (0.8, 3.5)  # width / height of a picture that can be a card (the cards: 1.53)
RING = 0.06  # of the height: the edge band blanked (a frame around a card); the background is
# measured in the band as wide inside it (the shapes start 14% in from the top)
MAX_BACKGROUND_CHROMA = 80  # a tinted card is white-balanced; a coloured one is refused
MIN_INK_CHROMA = 60  # below this the card holds no coloured shape
HUES = {"red": 0.0, "green": 61.0, "purple": 141.0}  # OpenCV hue (0-180) of the real inks
# Interior ink share: solid ~1, striped ~0.5, empty ~0.
SOLID_ABOVE, EMPTY_BELOW = 0.7, 0.24
# Silhouette extent (area / bounding box): diamond ~0.53, squiggle ~0.8, oval ~0.9. Squiggle
# and oval differ also in solidity (area / convex hull): ~0.9 dented against ~0.99 convex, so
# both vote: (value - split) / spread, summed; the squiggle scores below 0.
DIAMOND_BELOW = 0.68
EXTENT_SPLIT, EXTENT_SPREAD = 0.843, 0.04
SOLIDITY_SPLIT, SOLIDITY_SPREAD = 0.943, 0.03
TYPICAL_SCORE = 3.0


class CardError(WebbotError):
    """A picture that cannot be read as a SET card."""


class NoInk(CardError):
    """A card picture in which no shape is coloured clearly enough to read (a faint one, or
    one JPEG has washed out)."""


class Uncounted(CardError):
    """A card picture whose ink does not part into 1 to 3 shapes (an empty shape's outline
    broken by JPEG, ink of a card beside in the picture)."""


class Unclear(CardError):
    """A card picture read, but too close to another reading to be an answer."""


class NotAPicture(CardError, InputError):
    """Bytes that are no picture at all: bad input, so exit code 2."""


def decode(data: bytes, name: str = "image") -> np.ndarray:
    """Image bytes (GIF, PNG, JPEG...) to BGR; transparency is laid on white, as a page shows it."""
    try:
        image = decode_image(data, name, cv2.IMREAD_UNCHANGED)
    except InputError as exc:
        raise NotAPicture(str(exc)) from None
    return as_bgr(image, name)


def as_bgr(image: np.ndarray, name: str = "image") -> np.ndarray:
    """A picture decoded as it is (OpenCV's IMREAD_UNCHANGED) to 8-bit BGR; transparency laid
    on white."""
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    elif image.dtype != np.uint8:
        raise CardError(f"{name}: {image.dtype} pixels are not supported")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:  # round(c a/255 + 255 (1 - a/255)) = 255 - round((255 - c) a/255),
        # in 16-bit integers: x/255 never ends in exactly a half
        alpha = image[..., 3:4].astype(np.uint16)
        clear = (255 - image[..., :3]).astype(np.uint16)
        return (255 - (clear * alpha + 127) // 255).astype(np.uint8)
    return image[..., :3]


def load(path: str | Path) -> np.ndarray:
    return decode(read_bytes(path, MAX_IMAGE_BYTES), str(path))


def classify(image: np.ndarray) -> Reading:
    """Reads one card picture (BGR)."""
    card, doubts = read_attributes(image)
    doubtful = max(doubts, key=doubts.__getitem__)
    return Reading(card, round(doubts[doubtful], 3), doubtful)


def read_attributes(image: np.ndarray) -> tuple[Card, dict[str, float]]:
    """One card picture (BGR) read, with each attribute's doubt (0: far from a boundary, 1: on
    it)."""
    picture = _standard(image)
    chroma = value_and_chroma(picture)[1].astype(np.float32)
    ink_chroma = float(np.percentile(chroma, 99.5))
    if ink_chroma < MIN_INK_CHROMA:
        raise NoInk("no coloured shape on the card")
    coverage = np.clip(chroma / ink_chroma, 0, 1)  # how much of each pixel is ink
    shapes, fragments = silhouettes(coverage >= 0.5)
    if not 1 <= len(shapes) <= 3:
        raise Uncounted(f"{len(shapes)} shapes found on the card (a card has 1 to 3)")
    color, color_doubt = _color(picture, coverage, shapes)
    fill, fill_doubt = _fill(coverage, shapes)
    shape, shape_doubt = _shape(shapes)
    count_doubt = count_doubt_of(shapes, fragments)
    doubts = {"count": count_doubt, "shape": shape_doubt, "color": color_doubt,
              "fill": fill_doubt}
    return Card(len(shapes), shape, color, fill), doubts


def _standard(image: np.ndarray) -> np.ndarray:
    """The picture at the standard height, denoised, on a white background."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise CardError("a card picture must be an 8-bit colour image")
    height, width = image.shape[:2]
    if height < MIN_HEIGHT:
        raise CardError(f"the picture is {height} px high; a card needs {MIN_HEIGHT} to be read")
    if not ASPECTS[0] <= width / height <= ASPECTS[1]:
        raise CardError(f"a {width}x{height} picture is not shaped like a card")
    scale = STANDARD_HEIGHT / height
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    resized = cv2.resize(image, None, fx=scale, fy=scale, interpolation=interpolation)
    return _white_balanced(cv2.medianBlur(resized, 3))  # speckles out, 4 px stripes kept


def _white_balanced(picture: np.ndarray) -> np.ndarray:
    """Blanks the edge band (a frame or border drawn around a card) and scales each channel so
    the background, the median of the band just inside it, is white: a tint is not ink."""
    ring = max(1, round(RING * picture.shape[0]))
    edge = np.ones(picture.shape[:2], bool)
    edge[ring:-ring, ring:-ring] = False
    band = np.zeros_like(edge)
    band[ring:-ring, ring:-ring] = True
    band[2 * ring:-2 * ring, 2 * ring:-2 * ring] = False
    background = np.median(picture[band], axis=0)
    if background.min() < 120 or background.max() - background.min() > MAX_BACKGROUND_CHROMA:
        raise CardError("the card's background is too dark or too colourful to read inks on")
    # Each channel scaled through a table: the same values as scaling every pixel, 6x sooner.
    levels = np.arange(256)
    balanced = cv2.merge([cv2.LUT(channel, np.clip(levels * (255 / white), 0, 255).astype(np.uint8))
                          for channel, white in zip(cv2.split(picture), background, strict=True)])
    balanced[edge] = 255
    return balanced


def silhouettes(ink: np.ndarray) -> tuple[list[np.ndarray], int]:
    """Filled outlines of the shapes, one mask each, left to right, and how many pieces of
    ink too small to be shapes were left out (a shape cut off or smudged; specks don't count)."""
    contours, _ = cv2.findContours(ink.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    tall = [c for c in contours if cv2.boundingRect(c)[3] >= 0.35 * ink.shape[0]]
    if not tall:
        return [], 0
    biggest = max(cv2.contourArea(c) for c in tall)
    kept = sorted((c for c in tall if cv2.contourArea(c) >= 0.3 * biggest),
                  key=lambda c: cv2.boundingRect(c)[0])
    pieces = sum(cv2.contourArea(c) >= 0.05 * biggest for c in contours)
    masks = []
    for contour in kept:
        mask = np.zeros(ink.shape, np.uint8)
        cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED)
        masks.append(mask)
    return masks, pieces - len(kept)


def count_doubt_of(shapes: list[np.ndarray], fragments: int) -> float:
    """Shapes on a card are copies: sizes far apart, or a piece of one left over, mean a
    blot or a broken shape."""
    if fragments:
        return 1.0
    areas = [int(np.count_nonzero(m)) for m in shapes]
    return float(np.clip((1 - min(areas) / max(areas)) / 0.5, 0, 1))


def _color(picture: np.ndarray, coverage: np.ndarray,
           shapes: list[np.ndarray]) -> tuple[str, float]:
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    inked = (coverage >= 0.7) & (np.maximum.reduce(shapes) > 0)
    if not inked.any():
        raise NoInk("no clear colour in its shapes")
    return ink_named(mean_hue(hsv[..., 0][inked]))


def mean_hue(hues: np.ndarray) -> float:
    """The mean of OpenCV hues (0-180), taken round the circle (red lies at both ends)."""
    angles = hues.astype(np.float32) * (np.pi / 90)  # to radians
    return float(np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2) % 180


def ink_named(hue: float) -> tuple[str, float]:
    """The ink nearest an OpenCV hue, and the doubt: 0.5 when halfway between two inks."""
    distances = {name: min(abs(hue - at), 180 - abs(hue - at)) for name, at in HUES.items()}
    ranked = sorted(distances, key=distances.__getitem__)
    best, second = distances[ranked[0]], distances[ranked[1]]
    return ranked[0], best / (best + second)


def _fill(coverage: np.ndarray, shapes: list[np.ndarray]) -> tuple[str, float]:
    """Ink share in the middle of the shapes, away from their outlines."""
    inside = np.zeros(coverage.shape, bool)
    for mask in shapes:
        distance = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        inside |= distance > 0.6 * distance.max()
    share = float(coverage[inside].mean())
    if share >= SOLID_ABOVE:
        return "solid", boundary_doubt(share, SOLID_ABOVE, 1.0)
    if share < EMPTY_BELOW:
        return "empty", boundary_doubt(share, EMPTY_BELOW, 0.0)
    middle = (SOLID_ABOVE + EMPTY_BELOW) / 2
    edge = SOLID_ABOVE if share > middle else EMPTY_BELOW
    return "striped", boundary_doubt(share, edge, middle)


def _shape(shapes: list[np.ndarray]) -> tuple[str, float]:
    extents, solidities = [], []
    for mask in shapes:
        contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0],
                      key=cv2.contourArea)
        area = float(np.count_nonzero(mask))
        _, _, w, h = cv2.boundingRect(contour)
        hull = cv2.contourArea(cv2.convexHull(contour)) + cv2.arcLength(contour, True) / 2
        extents.append(area / (w * h))
        solidities.append(area / hull)
    extent, solidity = float(np.median(extents)), float(np.median(solidities))
    if extent < DIAMOND_BELOW:
        return "diamond", boundary_doubt(extent, DIAMOND_BELOW, 0.53)
    doubt_diamond = boundary_doubt(extent, DIAMOND_BELOW, 0.8)
    score = ((extent - EXTENT_SPLIT) / EXTENT_SPREAD
             + (solidity - SOLIDITY_SPLIT) / SOLIDITY_SPREAD)
    shape = "oval" if score > 0 else "squiggle"
    return shape, max(doubt_diamond, boundary_doubt(score, 0, TYPICAL_SCORE))


def boundary_doubt(value: float, boundary: float, typical: float) -> float:
    """1 on the boundary, 0 at the typical value of the class (or beyond)."""
    return float(np.clip(1 - abs(value - boundary) / abs(typical - boundary), 0, 1))
