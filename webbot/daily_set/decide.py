"""Decide: which triples of cards are SETs (each attribute all the same or all different),
today's six among the cards as read, and the policy that clicks them one by one. Pure: tested
without a browser."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from webbot.daily_set.model import ATTRIBUTES, Card, Observation, Reading, attribute_word
from webbot.errors import WebbotError

DAILY_SETS = 6  # the daily puzzle always hides exactly six
DOUBT_LIMIT = 0.9  # the readings of the real and replica cards stay under 0.7


class Misread(WebbotError):
    """The cards as read cannot be today's puzzle; nothing was clicked on a guess."""


def is_set(a: Card, b: Card, c: Card) -> bool:
    return all(len({getattr(a, n), getattr(b, n), getattr(c, n)}) != 2 for n in ATTRIBUTES)


def find_sets(cards: Sequence[Card]) -> list[tuple[int, int, int]]:
    """Every SET among the cards, as index triples in ascending order."""
    return [(i, j, k) for i, j, k in combinations(range(len(cards)), 3)
            if is_set(cards[i], cards[j], cards[k])]



def todays_sets(readings: Sequence[Reading]) -> list[tuple[int, int, int]]:
    """The SETs among the cards (0-based triples); anything but exactly 6 is a misread, and so
    is a card read too close to another value to act on."""
    unsure = [i for i, r in enumerate(readings) if r.doubt >= DOUBT_LIMIT]
    if unsure:
        reading = readings[unsure[0]]
        raise Misread(f"card {unsure[0] + 1} reads as {reading.card}, but unsure of its "
                      f"{attribute_word(reading.doubtful)}; nothing clicked")
    cards = [r.card for r in readings]
    twins = [(i, j) for i in range(len(cards)) for j in range(i + 1, len(cards))
             if cards[i] == cards[j]]
    sets = find_sets(cards)
    if not twins and len(sets) == DAILY_SETS:
        return sets
    problem = (f"cards {twins[0][0] + 1} and {twins[0][1] + 1} both read as {cards[twins[0][0]]}"
               if twins else f"found {len(sets)} sets where the puzzle has {DAILY_SETS}")
    raise Misread(f"{problem}; least certain: {least_certain(readings)}; nothing clicked")


def least_certain(readings: Sequence[Reading], count: int = 3) -> str:
    ranked = sorted(range(len(readings)), key=lambda i: -readings[i].doubt)[:count]
    return ", ".join(f"card {i + 1} as {readings[i].card} (its "
                     f"{attribute_word(readings[i].doubtful)})" for i in ranked)


def next_set(observation: Observation) -> tuple[int, int, int] | None:
    """The policy: the first of today's sets not clicked yet; None when all are."""
    left = [s for s in todays_sets(observation.readings) if s not in observation.clicked]
    return left[0] if left else None


