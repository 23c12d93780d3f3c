"""Decide: today's six sets among the cards as read (webbot.set_cards.model says which
triples are sets), and the policy that clicks them one by one. Pure: tested without a browser."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from webbot.errors import WebbotError
from webbot.set_cards.model import DAILY_SETS, Reading, attribute_word, find_sets, least_certain

DOUBT_LIMIT = 0.9  # the readings of the real and replica cards stay under 0.7


class Misread(WebbotError):
    """The cards as read cannot be today's puzzle; nothing was clicked on a guess."""


@dataclass(frozen=True)
class Observation:
    """The cards as read and the sets clicked so far (card indices, 0-based)."""

    readings: tuple[Reading, ...]
    clicked: tuple[tuple[int, int, int], ...] = ()


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


def next_set(observation: Observation) -> tuple[int, int, int] | None:
    """The policy: the first of today's sets not clicked yet; None when all are."""
    left = [s for s in todays_sets(observation.readings) if s not in observation.clicked]
    return left[0] if left else None
