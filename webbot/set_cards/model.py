"""SET cards (four attributes, each with three values), the rule of a set, a card as read, and
a board of cards read from a picture (or why not)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import combinations

import numpy as np

from webbot.errors import WebbotError

COUNTS = (1, 2, 3)
SHAPES = ("diamond", "oval", "squiggle")
COLORS = ("red", "green", "purple")
FILLS = ("solid", "striped", "empty")
ATTRIBUTES = ("count", "shape", "color", "fill")
DAILY_CARDS, DAILY_SETS = 12, 6  # the Daily SET puzzle: 12 cards hiding exactly 6 sets
MIN_TABLE_CARDS, MAX_CARDS = 3, 21  # a table of the card game, as read


@dataclass(frozen=True)
class Card:
    count: int
    shape: str
    color: str
    fill: str

    def __post_init__(self) -> None:
        for name, allowed in zip(ATTRIBUTES, (COUNTS, SHAPES, COLORS, FILLS), strict=True):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, not {getattr(self, name)!r}")

    def __str__(self) -> str:
        plural = "s" if self.count > 1 else ""
        return f"{self.count} {self.color} {self.fill} {self.shape}{plural}"

    def as_dict(self) -> dict[str, int | str]:
        return asdict(self)


@dataclass(frozen=True)
class Reading:
    """A card as read, with how close the least certain attribute came to another value."""

    card: Card
    doubt: float  # 0 = every attribute far from a boundary; 1 = on a boundary
    doubtful: str  # the attribute behind `doubt`

    def __str__(self) -> str:
        return str(self.card)


def attribute_word(name: str) -> str:
    """An attribute's name in words: `colour` for `color`."""
    return "colour" if name == "color" else name


def all_cards() -> list[Card]:
    """The 81 cards of the deck."""
    return [Card(n, s, c, f) for n in COUNTS for s in SHAPES for c in COLORS for f in FILLS]


def is_set(a: Card, b: Card, c: Card) -> bool:
    """Whether three cards make a SET: each attribute all the same or all different."""
    return all(len({getattr(a, n), getattr(b, n), getattr(c, n)}) != 2 for n in ATTRIBUTES)


def find_sets(cards: Sequence[Card]) -> list[tuple[int, int, int]]:
    """Every SET among the cards, as index triples in ascending order."""
    return [(i, j, k) for i, j, k in combinations(range(len(cards)), 3)
            if is_set(cards[i], cards[j], cards[k])]


def least_certain(readings: Sequence[Reading], count: int = 3) -> str:
    """The `count` readings most in doubt, in words: `card 3 as 2 red solid ovals (its fill)`."""
    ranked = sorted(range(len(readings)), key=lambda i: -readings[i].doubt)[:count]
    return ", ".join(f"card {i + 1} as {readings[i].card} (its "
                     f"{attribute_word(readings[i].doubtful)})" for i in ranked)


class BoardError(WebbotError):
    """A picture that cannot be read as a board of SET cards: nothing is guessed."""


class TooSmall(BoardError):
    """Shapes too small in the picture for any reading of it, the puzzle's or a table's."""


@dataclass(frozen=True)
class BoardCard:
    """A card of a board: where it lies in the picture, and how it reads."""

    position: int  # 1-based, row by row
    box: tuple[int, int, int, int]  # x, y, width, height in the picture
    corners: np.ndarray  # the card's four corners in the picture (a tilted board's too)
    reading: Reading


@dataclass(frozen=True)
class Board:
    """The cards of a picture, read, and every set among them."""

    cards: list[BoardCard]
    sets: list[tuple[int, int, int]]  # positions
    tilt: float  # degrees the picture was turned to read it
    kind: str = "puzzle"  # or "table": the card game's (webbot.set_cards.picture)
