"""Read each card: the third stage of reading a picture of SET cards.

A card found by its shapes is read from its cut by the card classifier (perceive.py); its fill
and shape are read a second time with the whole board's (second_look.py), from the shapes'
lightness, which JPEG keeps sharp where it blurs their colour, and that reading stands. A card
with edges of its own (a table's) has no board to check it by: it is read twice, by the
camera's rules (camera.py) and by the learned reader (learned.py), and answered only where
both name it, the learned reader surely (verdict.py).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from webbot.set_cards.camera import paper_divided, read_normal
from webbot.set_cards.cut import ShapeCut
from webbot.set_cards.find import ShapedCards
from webbot.set_cards.learned import read_learned
from webbot.set_cards.model import Card, Reading, attribute_word
from webbot.set_cards.perceive import (
    CardError,
    NoInk,
    Uncounted,
    ink_named,
    mean_hue,
    read_attributes,
)
from webbot.set_cards.photo import CutCard
from webbot.set_cards.second_look import (
    outline_features,
    read_fills,
    read_likeness,
    read_outlines,
)
from webbot.set_cards.shapes import Shape, ink_beyond
from webbot.set_cards.verdict import agreed

# A picture is lossier than the page's own card files (JPEG, scaling): a reading is refused
# from this doubt up.
PICTURE_DOUBT_LIMIT = 0.5
OVERRULE = 0.3  # the doubt under which the board's second look overrules the card reader


def read_shaped(found: ShapedCards, cuts: list[ShapeCut], lossy: bool = False
                ) -> list[Reading | CardError]:
    """Each card found by its shapes read from its cut, with the board's second look at its
    fill and shape; in place of a card not read, why not."""
    placed = found.cards
    fills = read_fills([float(np.mean([s.fill_level for s in g])) for g in placed])
    outlines = read_outlines([outline_features([s.silhouette for s in g]) for g in placed])
    likeness = read_likeness([[s.silhouette for s in g] for g in placed], outlines)
    outlines = [_likened(outline, like) for outline, like in zip(outlines, likeness, strict=True)]
    readings: list[Reading | CardError] = []
    for cut, fill, outline in zip(cuts, fills, outlines, strict=True):
        if isinstance(cut.picture, CardError):
            readings.append(cut.picture)
            continue
        try:
            readings.append(_read_card(found, cut, fill, outline, lossy))
        except CardError as exc:
            readings.append(exc)
    return readings


def read_cut_cards(cuts: list[CutCard]) -> list[Reading | CardError]:
    """Each card cut out with its edges read twice (read_twice); in place of a card not read,
    why not."""
    readings: list[Reading | CardError] = []
    for cut in cuts:
        try:
            readings.append(read_twice(cut))
        except CardError as exc:
            readings.append(exc)
    return readings


def read_twice(cut: CutCard) -> Reading:
    """A card cut out with its edges read by the camera's rules and by the learned reader, and
    agreed on (verdict.agreed); else Unclear, saying why."""
    normal = paper_divided(cut.picture)
    card, doubts, tint = read_normal(normal, cut.height, cut.picture)
    return agreed(card, doubts, read_learned(normal), tint=tint)


def _read_card(found: ShapedCards, cut: ShapeCut, fill: tuple[str, float] | None,
               outline: tuple[str, float] | None, lossy: bool = False) -> Reading:
    """The card's reading from its cut, and the board's second look at its fill and shape; a
    `lossy` picture's shape is not taken from the card reader alone."""
    group, upright, pitch = cut.shapes, found.picture, found.pitch
    by_board = fill is not None and outline is not None and all(s.seen for s in group)
    try:
        card, doubts = read_attributes(cut.picture)
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
        if not by_board or (more and len(group) == 2 and ink_beyond(upright, group, pitch)):
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
