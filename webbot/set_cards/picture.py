"""A picture of SET cards, read as the Daily SET puzzle or as a table of the card game.

The puzzle: 12 cards with exactly 6 sets among them, read from their shapes (board.py); the
6 sets are the check that no card is misread. A table: 3 to 21 cards with edges of their own
(photo.py, read by camera.py), any number of sets; with no such check to stand on, each card
is read twice, by the camera's rules and by a learned reader (learned.py), and an answer
needs both to name the same card, the learned reader surely (verdict.py).

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

from webbot.set_cards.board import (
    Board,
    BoardCard,
    BoardError,
    TooSmall,
    read_board,
    sets_among,
    unclear_cards,
)
from webbot.set_cards.camera import paper_divided, read_normal
from webbot.set_cards.learned import read_learned
from webbot.set_cards.model import DAILY_CARDS, MAX_CARDS, Reading
from webbot.set_cards.perceive import CardError
from webbot.set_cards.photo import CardsFound, CutCard, find_cards, straightened
from webbot.set_cards.verdict import agreed
from webbot.words import counted

Kind = Literal["puzzle", "table"]
MIN_TABLE_CARDS = 3


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
    have edges (where some were found), and each card, cut from the picture, read again by
    the camera's rules and the learned reader to the same card (verdict.agreed)."""
    if len(edged.cards) >= MIN_TABLE_CARDS and len(edged.cards) != len(board.cards):
        raise refusal or BoardError(
            f"{counted(len(edged.cards), 'card')} with edges of its own, but "
            f"{len(board.cards)} read from their shapes")
    unclear = []
    for card in board.cards:
        corners = card.corners.astype(np.float32)
        normal = paper_divided(straightened(image, corners))
        try:
            again = agreed(*read_normal(normal, float(np.linalg.norm(corners[3] - corners[0]))),
                           read_learned(normal))
        except CardError as exc:
            unclear.append(f"{card.position} (read as {card.reading.card} from the shapes, but "
                           f"not on its own: {exc})")
            continue
        if again.card != card.reading.card:
            unclear.append(f"{card.position} (read as {card.reading.card} from the shapes, and "
                           f"on its own as {again.card})")
    if unclear:
        raise refusal or unclear_cards(unclear)
    return replace(board, kind="table")


def _read_twice(cut: CutCard) -> Reading:
    """A table's card read by the camera's rules and by the learned reader, and agreed on."""
    normal = paper_divided(cut.picture)
    return agreed(*read_normal(normal, cut.height), read_learned(normal))
