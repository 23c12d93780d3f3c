"""Where a board's cards lie, from their shapes: the board's slope, its rows and columns, the
cards numbered row by row, and the cards a first chaining of shapes (shapes.py) got wrong put
right by their columns: a run of alike shapes parted, a card split in two rejoined, a shape
too faint for colour added.

A board tilted by a photo is turned straight first, by the slope its rows of shapes show; a
board of cards standing on end (a photo of the card game's table, shapes lying down) is read
turned a quarter, and numbered as it was given.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from webbot.set_cards.model import MAX_CARDS
from webbot.set_cards.shapes import CARD_H, CARD_W, Shape, alike, centre, ink_at

MAX_TILT = 10.0  # degrees: a slope above this is not a board's
# A card whose shapes lie off its column by about half their pitch has lost a shape at its
# edge (where a card meets the table, a shape can be taken for the table).
OFF_COLUMN = 0.25  # of the shapes' pitch


def tilt_of(groups: list[list[Shape]]) -> float:
    """The board's slope in degrees (anticlockwise), from the cards' rows of shapes and the
    rows of cards; 0 when nothing shows it."""
    angles = []
    for group in groups:
        if len(group) >= 2:
            (x0, y0), (x1, y1) = group[0].centre, group[-1].centre
            angles.append(math.degrees(math.atan2(y0 - y1, x1 - x0)))
    centres = [centre(g) + (float(np.median([s.h for s in g])),) for g in groups]
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


def parted_by_columns(groups: list[list[Shape]]) -> list[list[Shape]]:
    """Each run of more than three alike shapes (two neighbouring cards alike but for their
    count, or for what the chain did not see) parted where the other cards' columns part, when
    that leaves cards of one to three shapes. A wrong parting leaves a card of one or two off
    its column's middle, which is refused."""
    if all(len(g) <= 3 for g in groups):
        return groups
    height = float(np.median([s.h for g in groups for s in g]))
    columns = _clusters([centre(g)[0] for g in groups if len(g) <= 3], 0.5 * CARD_W * height)
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


def _grid_point(group: list[Shape], on_end: bool) -> tuple[float, float]:
    """The card's place as (across, down) in the picture as given: for cards read turned a
    quarter clockwise, the given picture's rows are the turned one's columns, right first."""
    x, y = centre(group)
    return (y, -x) if on_end else (x, y)


def numbered(groups: list[list[Shape]], on_end: bool = False) -> list[list[Shape]]:
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


def pitch_of(placed: list[list[Shape]]) -> float:
    """The median distance between neighbouring shapes of a card (0 with no card of two)."""
    pitches = [b.x - a.x for g in placed for a, b in zip(g, g[1:], strict=False)]
    return float(np.median(pitches)) if pitches else 0.0


def off_column(placed: list[list[Shape]]) -> set[int]:
    """The cards (indices) of one or two shapes whose middle lies off their column's by about
    half the shapes' pitch: a card that lost a shape at its edge (the cards of a column are
    centred alike; a table laid by hand may not be, and is then refused, not misread)."""
    pitch = pitch_of(placed)
    return {i for i, off in enumerate(_column_offsets(placed))
            if len(placed[i]) < 3 and off is not None and off > OFF_COLUMN * pitch}


def _column_offsets(placed: list[list[Shape]]) -> list[float | None]:
    """How far each card's middle lies from the median of the others in its column."""
    return [None if m is None else abs(centre(g)[0] - m)
            for g, m in zip(placed, _column_middles(placed), strict=True)]


def _column_middles(placed: list[list[Shape]]) -> list[float | None]:
    """The median middle of the other cards in each card's column (None for a column of
    fewer than three cards, or no card of two shapes to measure the pitch by)."""
    if not pitch_of(placed):
        return [None] * len(placed)
    height = float(np.median([s.h for g in placed for s in g]))
    middles = [centre(g)[0] for g in placed]
    columns = _clusters(middles, 0.5 * CARD_W * height)
    found: list[float | None] = []
    for i, middle in enumerate(middles):
        column = _nearest(columns, middle)
        others = [m for j, m in enumerate(middles) if j != i and _nearest(columns, m) == column]
        found.append(float(np.median(others)) if len(others) >= 2 else None)
    return found


def rejoined(placed: list[list[Shape]]) -> list[list[Shape]]:
    """Two neighbouring cards, each off its column's middle, that are one card's shapes split
    apart (alike but for their share of ink, which JPEG tinted: a share is read again from the
    card itself), made one where together they sit on the middle."""
    shifted = off_column(placed)
    merged = list(placed)
    for i in sorted(shifted, reverse=True):
        if i + 1 not in shifted or len(merged[i]) + len(merged[i + 1]) > 3:
            continue
        left, right = merged[i], merged[i + 1]
        if not alike(left[-1], right[0], by_share=False):
            continue
        together = [*merged[:i], left + right, *merged[i + 2:]]
        off = _column_offsets(together)[i]
        if off is not None and off <= OFF_COLUMN * pitch_of(together):
            merged = together
    return merged


def completed(picture: np.ndarray, placed: list[list[Shape]]) -> list[list[Shape]]:
    """Each card off its column's middle by about half a pitch, with ink by lightness a pitch
    beyond its shapes on the side of the middle, given a shape there (its neighbour's, moved):
    a shape too faint for colour (JPEG, a small card). The card reader must then count it
    too, and the card sit on the middle, or the card stays as it was (and is refused)."""
    pitch = pitch_of(placed)
    middles = _column_middles(placed)
    done = list(placed)
    for i in off_column(placed):
        group, column = placed[i], middles[i]
        middle = centre(group)[0]
        if column is None or abs(abs(column - middle) - 0.5 * pitch) > OFF_COLUMN * pitch:
            continue
        toward = 1 if column > middle else -1
        edge = group[-1] if toward > 0 else group[0]
        step = round(toward * pitch)
        if not ink_at(picture, edge, step):
            continue
        more = sorted([*group, replace(edge, x=edge.x + step, seen=False)],
                      key=lambda s: s.x)
        trial = [*done[:i], more, *done[i + 1:]]
        now = _column_offsets(trial)[i]
        if now is not None and now <= OFF_COLUMN * pitch:
            done = trial
    return done


def missing(placed: list[list[Shape]], on_end: bool = False) -> str:
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
