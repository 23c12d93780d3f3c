"""A picture of SET cards, read as the Daily SET puzzle or as a table of the card game.

Either is read in four stages, each a module with a typed result: find the cards (find.py,
photo.py), cut each (cut.py), read each (read.py), check the board (check.py); drawing what
was read is apart (draw.py). The puzzle: 12 cards with exactly 6 sets among them, found by
their shapes; the 6 sets are the check that no card is misread. A table: 3 to 21 cards with
edges of their own, any number of sets; with no such check to stand on, each card is read
twice, by the camera's rules and by a learned reader, and an answer needs both to name the
same card, the learned reader surely.

Unless told which (`kind`): a picture with 3 or more cards with edges, not 12, is first read
as a table, card by card (refused where a card may hide: cards touching, a card split by
glare, a card's ink outside the cards found); else, or when that is refused, one whose shapes
read as 12 cards with the 6 sets is the puzzle; else, with cards with edges, a table; else
what the shapes read (more than 12 cards: a table) or why not.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

import numpy as np

from webbot.set_cards import check, cut, find, read
from webbot.set_cards.model import DAILY_CARDS, MIN_TABLE_CARDS, Board, BoardError, TooSmall
from webbot.set_cards.photo import CardsFound, find_cards
from webbot.words import counted

Kind = Literal["puzzle", "table"]


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
    to one card, and every set among them."""
    found = find_cards(image) if found is None else found  # found and cut by their edges
    check.cut_clean(found)
    readings = read.read_cut_cards(found.cards)
    return check.table_board(found.cards, readings)


def read_board(image: np.ndarray, lossy: bool = False) -> Board:
    """Every card of the board in the picture (BGR), found by its shapes, read, and every set
    among them; a BoardError names what could not be read (no board, cards missing, a card
    unclear, cards too small to read through the lossy compression (JPEG) of a `lossy`
    picture). A photo is looked at at half size first (find.half_look), and at full size when
    that is refused."""
    half = find.half_look(image)
    if half is not None:
        try:
            return _read_sight(half, lossy, scale=2.0)
        except BoardError:
            pass  # a second look, at full size
    return _read_sight(find.look(image), lossy)


def _read_sight(sight: find.Sight, lossy: bool, scale: float = 1.0) -> Board:
    """The board read from what find.look saw; its cards' places multiplied by `scale` (a
    picture looked at at half size, placed in the whole)."""
    found = find.by_shapes(sight, lossy, scale)
    check.not_too_many(len(found.cards))
    cuts = cut.cut_shaped(found)
    readings = read.read_shaped(found, cuts, lossy)
    return check.puzzle_board(found, cuts, readings)


def _confirmed(image: np.ndarray, board: Board, edged: CardsFound,
               refusal: BoardError | None) -> Board:
    """A table read from its shapes, which has no 6 sets to check it by: as many cards as
    have edges (where some were found), and each card, cut from the picture, read again by
    the camera's rules and the learned reader to the same card (verdict.agreed)."""
    check.same_count(board, edged, refusal)
    again = read.read_cut_cards(cut.cut_again(image, board))
    return check.confirmed(board, again, refusal)
