"""Cards a photo may hide from the card finder (photo.py), looked for once the cards with
edges are found: ink of a shape's size outside every card (a card lit or shaded like its
table), looked at closer; two cards edge to edge seen as one card turned a quarter; a gap a
card wide in a row holding colour (a card as grey as its table). A table is read only when
none is left: a card left out would be a reading that lies.
"""

from __future__ import annotations

import cv2
import numpy as np

from webbot.set_cards.quads import (
    CARD_RATIO,
    INK_CONTRAST,
    card_quad,
    chroma_of,
    inside,
    levelled,
    of_card_size,
    overlap,
)

OUTSIDE_CHROMA = 30  # a*b* length of ink beside its surroundings (a coloured table's own less)
PALE_CHROMA = 15  # above a grey table's a*b* length: ink (faint shapes: 18-20 above it)
# A faint shape's outline (a washed-out card's on a white table): a little darker than its
# surroundings and a little more coloured than the table.
FAINT_DARKER, FAINT_COLOURED = 15, 6
OUTSIDE_INK_SHARE = 0.04  # of a card's area: ink this large (its box) outside the cards is a
# card's (a shape's box: ~0.14)
OUTSIDE_PAPER = 0.6  # of the cards' lightness: what ink outside them must lie on
OUTSIDE_MARGIN = 0.15  # of a card's short side round each card found, left out (its edge)
OUTSIDE_MIN_WIDTH = 0.12  # of a card's short side: a shape is ~0.3 wide, 0.7 high
WINDOW_CARDS = 1.2  # a closer look's reach round ink outside the cards, in cards' long sides
WINDOW_LEVELS = 6  # thresholds tried in that window, from Otsu's to its brightest
MIN_LYING = 1.15  # long side / short side as seen: a card that lies one way or the other
PAIR_AREA = 1.6  # of a card's area: two cards edge to edge, not a card nearer the camera
GAP_CARDS = 0.9  # a gap this many cards wide between two cards of a row: room for one
# OpenCV's median filter on 8-bit pictures fails on windows wider than 255 px; so wide a
# window round large cards is as good at 255.
MAX_MEDIAN = 255
GAP_COLOURED = 8  # a*b* length above the table's that is a shape's ink in such a gap


def looked_closer(lightness: np.ndarray, ink: list[np.ndarray], cards: list[np.ndarray],
                   card: float) -> list[np.ndarray]:
    """Cards found round ink outside the cards: in a window a few cards wide round each blob
    the light is nearly even, so a threshold there (Otsu's, and the levels above it) tells a
    card from the table beside it that the whole picture's could not. A card found must hold
    the blob, be of the board's cards' size and overlap no card found."""
    long = np.sqrt(card * CARD_RATIO)
    found: list[np.ndarray] = []
    for box in ink:
        middle = box.mean(axis=0)
        low = np.maximum(0, middle - WINDOW_CARDS * long).astype(int)
        high = np.minimum(lightness.shape[::-1], middle + WINDOW_CARDS * long).astype(int)
        window = lightness[low[1]:high[1], low[0]:high[0]]
        otsu, _ = cv2.threshold(window, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        for level in np.linspace(otsu, np.percentile(window, 99), WINDOW_LEVELS):
            contours, _ = cv2.findContours((window > level).astype(np.uint8),
                                           cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            shaped = (card_quad(contour, lightness.size) for contour in contours)
            quads = [quad + low.astype(np.float32) for quad in shaped if quad is not None]
            quad = next((q for q in quads if inside(middle, q)
                         and of_card_size(q, card)), None)
            if quad is not None and not any(overlap(quad, q) for q in cards + found):
                found.append(quad)
                break
    return found


def ink_outside(picture: np.ndarray, quads: list[np.ndarray], card: float
                 ) -> list[np.ndarray]:
    """Blobs of ink as large as a small shape lying outside every card found, on something
    nearly as light as the cards' paper that is none of them: a card there was not found (lit
    or shaded like the table). Ink: much darker than its surroundings, or coloured and
    darker."""
    lab = cv2.cvtColor(picture, cv2.COLOR_BGR2LAB)
    lightness = lab[..., 0]
    window = min(MAX_MEDIAN, max(3, int(np.sqrt(card) / 2) | 1))
    around = cv2.medianBlur(lightness, window)
    darker = cv2.subtract(around, lightness)
    chroma = chroma_of(lab)
    cards = np.zeros(lightness.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(cards, quad.astype(np.int32), 1)
    paper = float(np.median(lightness[cards > 0]))
    beyond = chroma[cards == 0]
    table = float(np.median(beyond)) if beyond.size else 0.0  # the table's a*b* length
    # (coloured: beside a grey table's colour too, where a pale card's shapes are faint)
    coloured = min(OUTSIDE_CHROMA, table + PALE_CHROMA) if beyond.size else OUTSIDE_CHROMA
    ink = (darker > INK_CONTRAST) | ((chroma > coloured) & (darker > INK_CONTRAST / 2)) \
        | ((chroma > table + FAINT_COLOURED) & (darker > FAINT_DARKER))
    # (a faint outline's strokes, joined where they break)
    ink = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)) > 0
    short = np.sqrt(card / CARD_RATIO)  # a card's short side
    margin = int(OUTSIDE_MARGIN * short) * 2 + 1
    cards = cv2.dilate(cards, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (margin, margin)))
    # On something as light as a card that is none of the cards found (not the table between
    # two of them).
    uncovered = cv2.medianBlur(np.where(cards > 0, 0, lightness).astype(np.uint8), window)
    ink &= uncovered >= OUTSIDE_PAPER * paper
    _, _, stats, _ = cv2.connectedComponentsWithStats((ink & (cards == 0)).astype(np.uint8))
    # A shape's size: not a strip of table between two cards (long and thin), nor a speck.
    return [np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
            for x, y, w, h, _ in stats[1:] if w * h >= OUTSIDE_INK_SHARE * card
            and max(w, h) <= short and min(w, h) >= OUTSIDE_MIN_WIDTH * short]


def standing_otherwise(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The cards standing on end on a board of cards lying across, or the other way: two
    cards edge to edge have nearly a card's proportions, turned a quarter. On a board with no
    way most of its cards lie (two or three cards), those at least PAIR_AREA times as large as
    a card lying the other way."""
    level = levelled(quads)
    lying = np.array([np.log(np.ptp(q[:, 0]) / max(np.ptp(q[:, 1]), 1.0)) for q in level])
    board = float(np.median(lying))
    turned = np.abs(lying) >= np.log(MIN_LYING)
    if abs(board) >= np.log(MIN_LYING):
        return [quad for quad, way, clear in zip(quads, lying, turned, strict=True)
                if way * board < 0 and clear]
    areas = [cv2.contourArea(quad) for quad in quads]
    return [quad for quad, way, clear, area in zip(quads, lying, turned, areas, strict=True)
            if clear and any(other * way < 0 and other_clear and area >= PAIR_AREA * other_area
                             for other, other_clear, other_area in zip(lying, turned, areas,
                                                                       strict=True))]


def gaps_between(lightness: np.ndarray, chroma: np.ndarray, quads: list[np.ndarray]) -> int:
    """Gaps a card wide between two cards of a row or a column, as light as a card and
    holding ink (colour or darkness beside the table's): a card lying there, no lighter than
    its table, with shapes too faint to be taken for ink outside the cards."""
    level = levelled(quads)
    middles = np.array([quad.mean(axis=0) for quad in level])
    extents = np.array([np.ptp(quad, axis=0) for quad in level])  # across, down
    cards = np.zeros(lightness.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(cards, np.round(quad).astype(np.int32), 1)
    paper = float(np.median(lightness[cards > 0]))
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
            if any(inside(spot, quad) for quad in quads):  # (rows laid crooked)
                continue
            half = max(1, int(extents[i, other] / 3))
            x, y = np.round(spot).astype(int)
            window = np.s_[max(0, y - half):y + half, max(0, x - half):x + half]
            light, colour = lightness[window], chroma[window]
            gaps += light.size > 0 and float(np.median(light)) >= OUTSIDE_PAPER * paper and (
                float(np.percentile(colour, 95)) >= table_colour + GAP_COLOURED
                or float(np.percentile(light, 5)) <= float(np.median(light)) - INK_CONTRAST / 2)
    return gaps
