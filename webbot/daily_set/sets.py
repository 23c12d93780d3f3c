"""Which triples of cards are SETs: each attribute all the same or all different."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from webbot.daily_set.model import ATTRIBUTES, Card

DAILY_SETS = 6  # the daily puzzle always hides exactly six


def is_set(a: Card, b: Card, c: Card) -> bool:
    return all(len({getattr(a, n), getattr(b, n), getattr(c, n)}) != 2 for n in ATTRIBUTES)


def find_sets(cards: Sequence[Card]) -> list[tuple[int, int, int]]:
    """Every SET among the cards, as index triples in ascending order."""
    return [(i, j, k) for i, j, k in combinations(range(len(cards)), 3)
            if is_set(cards[i], cards[j], cards[k])]

