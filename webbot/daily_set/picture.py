"""A picture of SET cards, read as the Daily SET puzzle or as a table of the card game.

The puzzle: 12 cards with exactly 6 sets among them, read from their shapes (board.py); the
6 sets are the check that no card is misread. A table: 3 to 21 cards with edges of their own
(photo.py, read by camera.py), any number of sets; with no such check to stand on, each card
is read twice, by the camera's rules and by a learned reader (learned.py), and an answer
needs both to name the same card, each clearly, or one all but certain where the other is
unsure.

Unless told which (`kind`): a picture with 3 or more cards with edges, not 12, is first read
as a table, card by card (refused where a card may hide: cards touching, a card split by
glare, a card's ink outside the cards found); else, or when that is refused, one whose shapes
read as 12 cards with the 6 sets is the puzzle; else, with cards with edges, a table; else
what the shapes read (more than 12 cards: a table) or why not.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

import cv2
import numpy as np

from webbot.daily_set.board import (
    DAILY_CARDS,
    MAX_CARDS,
    PICTURE_DOUBT_LIMIT,
    Board,
    BoardCard,
    BoardError,
    TooSmall,
    read_board,
    sets_among,
    unclear_cards,
)
from webbot.daily_set.camera import paper_divided, read_cut, read_normal
from webbot.daily_set.learned import Learned, read_learned
from webbot.daily_set.model import ATTRIBUTES, Card, Reading
from webbot.daily_set.perceive import CardError
from webbot.daily_set.photo import CardsFound, CutCard, find_cards, straightened
from webbot.words import counted

Kind = Literal["puzzle", "table"]
MIN_TABLE_CARDS = 3
# Where the learned reader names another value than the rules, which are in doubt of theirs:
# its doubt plus the rules' leaning to their own value (1 - their doubt) under this, it stands.
OUTVOTED = 0.5


def read_picture(image: np.ndarray, lossy: bool = False, kind: Kind | None = None) -> Board:
    """The cards and sets of a picture (BGR), as the puzzle or a table (`kind`, or told from
    the picture); a BoardError names what could not be read."""
    if kind == "table":
        return read_table(image)
    edged = find_cards(image) if kind is None else CardsFound([], 0)
    table = len(edged.cards) >= MIN_TABLE_CARDS
    refusal = None
    if table and len(edged.cards) != DAILY_CARDS:  # not the puzzle's 12: a table first
        try:
            return read_table(image, edged)
        except BoardError as error:
            refusal = error
    try:
        board = read_board(image, lossy)
    except BoardError as error:
        if refusal is not None:  # (shapes too small for the puzzle are for a table too)
            raise (error if isinstance(error, TooSmall) else refusal) from None
        if not table:
            raise
        return read_table(image, edged)
    if len(board.cards) == DAILY_CARDS:  # (read_board has checked the 6 sets)
        return replace(board, kind="puzzle")
    if kind == "puzzle":
        raise BoardError(f"{counted(len(board.cards), 'card')} found; the Daily SET puzzle has "
                         f"{DAILY_CARDS}")
    if table and refusal is None:
        return read_table(image, edged)
    return _confirmed(image, board, edged, refusal)


def read_table(image: np.ndarray, found: CardsFound | None = None) -> Board:
    """A table of the card game: every card with edges of its own in the picture, read twice
    (at full and at half size) to one card, and every set among them."""
    found = find_cards(image) if found is None else found
    edged = found.cards
    if found.strays:
        raise BoardError(f"{counted(found.strays, 'light region')} as large as a card but not "
                         "shaped like one: cards touching each other or cut off by the "
                         "picture's edge (lay them apart, all in the picture)")
    if found.gaps:
        raise BoardError(f"{counted(found.gaps, 'gap')} a card wide between cards of a row or a "
                         "column, as light as a card: a card there may not be told from the "
                         "table (lay the cards in whole rows, light them evenly)")
    if found.loose_ink:
        raise BoardError(f"ink of {counted(found.loose_ink, 'shape')} outside the cards found: "
                         "a card there was not told from the table (light it evenly)")
    if len(edged) < MIN_TABLE_CARDS:
        raise BoardError(f"{counted(len(edged), 'card')} with edges of its own found; a table "
                         f"is read from {MIN_TABLE_CARDS} or more (cards on a background "
                         "they stand out from)")
    if len(edged) > MAX_CARDS:
        raise BoardError(f"{counted(len(edged), 'card')} found; a SET table has at most "
                         f"{MAX_CARDS}")
    cards, unclear = [], []
    for position, cut in enumerate(edged, 1):
        try:
            reading = _read_twice(cut)
        except CardError as exc:
            unclear.append(f"{position} ({exc})")
            continue
        x, y, w, h = cv2.boundingRect(cut.corners.astype(np.float32))
        cards.append(BoardCard(position, (x, y, w, h), cut.corners, reading))
    if unclear:
        raise unclear_cards(unclear)
    return Board(cards, sets_among(cards), 0.0, kind="table")


def _confirmed(image: np.ndarray, board: Board, edged: CardsFound,
               refusal: BoardError | None) -> Board:
    """A table read from its shapes, which has no 6 sets to check it by: as many cards as
    have edges (where some were found), and each card read again, clearly, by the camera's
    reader on the card cut from the picture, to the same card."""
    if len(edged.cards) >= MIN_TABLE_CARDS and len(edged.cards) != len(board.cards):
        raise refusal or BoardError(
            f"{counted(len(edged.cards), 'card')} with edges of its own, but "
            f"{len(board.cards)} read from their shapes")
    unclear = []
    for card in board.cards:
        corners = card.corners.astype(np.float32)
        try:
            again, doubts = read_cut(straightened(image, corners),
                                     float(np.linalg.norm(corners[3] - corners[0])))
        except CardError as exc:
            unclear.append(f"{card.position} (read as {card.reading.card}, but not again on "
                           f"its own: {exc})")
            continue
        if again != card.reading.card or max(doubts.values()) >= PICTURE_DOUBT_LIMIT:
            unclear.append(f"{card.position} (read as {card.reading.card}, and on its own "
                           f"as {again}{'' if again != card.reading.card else ' in doubt'})")
    if unclear:
        raise refusal or unclear_cards(unclear)
    return replace(board, kind="table")


def _read_twice(cut: CutCard) -> Reading:
    """A table's card read by the camera's rules and by the learned reader, and judged."""
    normal = paper_divided(cut.picture)
    card, doubts = read_normal(normal, cut.height)
    return judged(card, doubts, read_learned(normal))


def judged(card: Card, doubts: dict[str, float], learned: Learned) -> Reading:
    """The card of two readings, the rules' (`card`, each attribute's doubt) and the learned
    reader's: an answer where both name it and their doubts together stay under 1 (the
    learned reader's doubt: twice its unsureness, 1 where it is torn between two values), or
    the learned reader is all but certain; where they name different cards, the learned
    reader's only where the rules are in doubt of every value they read otherwise and it is
    all but certain, or its doubt and the rules' leaning stay under OUTVOTED and the rules
    doubt none of the values they agree on. Otherwise a CardError saying why."""
    doubtful = max(doubts, key=doubts.__getitem__)
    if learned.card != card:
        differ = [name for name in ATTRIBUTES if getattr(card, name) != getattr(learned.card, name)]
        # The rules in doubt of each value they read otherwise: the learned reading stands
        # where it is certain, or where its doubt and the rules' leaning the other way
        # together stay under half the doubt two readings that agree may have.
        # Not certain: what they agree on is clear to the rules too (a card they read
        # otherwise is hard to read: a value both lean to in doubt may be wrong in both).
        leaning = sum(1 - doubts[name] for name in differ)
        outvoted = learned.doubt + leaning < OUTVOTED and all(
            doubts[name] < PICTURE_DOUBT_LIMIT for name in ATTRIBUTES if name not in differ)
        if any(doubts[name] < PICTURE_DOUBT_LIMIT for name in differ) or not (
                learned.certain or outvoted):
            raise CardError(f"read as {card} by its rules, and as {learned.card} by the learned "
                            "reader")
        return Reading(learned.card, round(max(learned.doubt, leaning), 3), learned.least)
    if doubts[doubtful] + learned.doubt >= 1 and not learned.certain:
        if doubts[doubtful] >= learned.doubt:
            raise CardError(f"read as {card}, but its {doubtful} is in doubt "
                            f"({doubts[doubtful]:.2f})")
        raise CardError(f"read as {card}, but the learned reader is unsure of its "
                        f"{learned.least} ({learned.sure[learned.least]:.2f} sure)")
    return Reading(card, round(max(doubts[doubtful], learned.doubt), 3), doubtful
                   if doubts[doubtful] >= learned.doubt else learned.least)
