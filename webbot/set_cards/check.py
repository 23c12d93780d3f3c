"""Check the board: the last stage of reading a picture of SET cards.

A board is an answer only when every card was found clean and read, no two cards read alike
(a deck has one of each), and, for the Daily SET puzzle, its 12 cards hold exactly its 6 sets;
else a BoardError says what is wrong, naming the cards. A table's cards are checked before
they are read: a light region a card large that is no card, a gap a card wide, a shape's ink
outside every card found, each means a card the finder may have missed.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from webbot.set_cards.cut import ShapeCut
from webbot.set_cards.find import ShapedCards
from webbot.set_cards.grid import missing
from webbot.set_cards.model import (
    DAILY_CARDS,
    DAILY_SETS,
    MAX_CARDS,
    MIN_TABLE_CARDS,
    Board,
    BoardCard,
    BoardError,
    Reading,
    find_sets,
    least_certain,
)
from webbot.set_cards.perceive import CardError
from webbot.set_cards.photo import CardsFound, CutCard
from webbot.words import counted


def cut_clean(found: CardsFound) -> None:
    """A BoardError unless a table's cards were all found, each cut whole, 3 to 21 of them."""
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
    not_too_many(len(edged))


def not_too_many(count: int) -> None:
    """A BoardError when more cards were found than a SET table holds."""
    if count > MAX_CARDS:
        raise BoardError(f"{counted(count, 'card')} found; a SET table has at most "
                         f"{MAX_CARDS}")


def table_board(cuts: list[CutCard], readings: list[Reading | CardError]) -> Board:
    """A table's board: every card read, and every set among them."""
    places = [(position, cv2.boundingRect(cut.corners.astype(np.float32)), cut.corners)
              for position, cut in enumerate(cuts, 1)]
    cards = _every_card(places, readings)
    return Board(cards, sets_among(cards), 0.0, kind="table")


def puzzle_board(found: ShapedCards, cuts: list[ShapeCut],
                 readings: list[Reading | CardError]) -> Board:
    """A board read from its shapes: every card read, 12 or more of them, and every set among
    them; 12 cards must hold the Daily SET puzzle's 6 sets, or a card is misread."""
    cards = _every_card([(cut.position, cut.box, cut.corners) for cut in cuts], readings)
    if len(cards) < DAILY_CARDS:
        raise BoardError(f"{counted(len(cards), 'card')} found; a Daily SET board has {DAILY_CARDS}"
                         f"{missing(found.cards, found.on_end)}")
    sets = sets_among(cards)
    if len(cards) == DAILY_CARDS and len(sets) != DAILY_SETS:
        raise BoardError(f"{len(sets)} sets among the 12 cards where a Daily SET puzzle has "
                         f"{DAILY_SETS}: a card is misread; least certain: "
                         f"{least_certain([c.reading for c in cards])}")
    return Board(cards, sets, found.tilt)


def same_count(board: Board, edged: CardsFound, refusal: BoardError | None) -> None:
    """A board read from its shapes as a table must have as many cards as have edges of their
    own (where some were found); else the table's `refusal`, or a BoardError saying so."""
    if len(edged.cards) >= MIN_TABLE_CARDS and len(edged.cards) != len(board.cards):
        raise refusal or BoardError(
            f"{counted(len(edged.cards), 'card')} with edges of its own, but "
            f"{len(board.cards)} read from their shapes")


def confirmed(board: Board, again: list[Reading | CardError],
              refusal: BoardError | None) -> Board:
    """A board read from its shapes, as a table: each card read `again` on its own to the same
    card; else the table's `refusal`, or a BoardError naming the cards that differ."""
    unclear = []
    for card, reading in zip(board.cards, again, strict=True):
        if isinstance(reading, CardError):
            unclear.append(f"{card.position} (read as {card.reading.card} from the shapes, but "
                           f"not on its own: {reading})")
        elif reading.card != card.reading.card:
            unclear.append(f"{card.position} (read as {card.reading.card} from the shapes, and "
                           f"on its own as {reading.card})")
    if unclear:
        raise refusal or unclear_cards(unclear)
    return replace(board, kind="table")


def _every_card(places: list[tuple[int, tuple[int, int, int, int], np.ndarray]],
                readings: list[Reading | CardError]) -> list[BoardCard]:
    """The cards read at their places (position, box, corners); a BoardError naming each card
    not read, and why."""
    unclear = [f"{position} ({reading})" for (position, _, _), reading
               in zip(places, readings, strict=True) if isinstance(reading, CardError)]
    if unclear:
        raise unclear_cards(unclear)
    return [BoardCard(position, box, corners, reading)
            for (position, box, corners), reading in zip(places, readings, strict=True)]


def unclear_cards(unclear: list[str]) -> BoardError:
    """The refusal of a board whose cards at these positions (each with its reason) are
    unclear."""
    return BoardError(f"card{'s' * (len(unclear) > 1)} unclear at position "
                      f"{', '.join(unclear)}")


def sets_among(cards: list[BoardCard]) -> list[tuple[int, int, int]]:
    """Every set among the cards, by their positions; a BoardError when two read alike (a
    deck has one of each card)."""
    twins = [(a, b) for a in cards for b in cards
             if a.position < b.position and a.reading.card == b.reading.card]
    if twins:
        a, b = twins[0]
        raise BoardError(f"cards {a.position} and {b.position} both read as {a.reading.card}: "
                         "a deck has one of each, so one of them is misread")
    return [tuple(cards[i].position for i in triple)
            for triple in find_sets([c.reading.card for c in cards])]
