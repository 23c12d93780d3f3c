"""Shared Daily SET test material: the site's card numbering, the real saved page and cards
(from ../shared/reference; tests using them skip when it is absent) and a site built from them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scripts.render_set_cards import card_for_number
from tests.conftest import REFERENCE
from webbot.set_cards.model import Card, find_sets
from webbot.set_cards.model import is_set as cards_make_a_set

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "daily-set"
IMAGES = FIXTURES / "images" / "setcards"
REAL = REFERENCE / "daily-set"
REAL_PAGE = "daily_set_16_70.htm"
REAL_CARDS = [16, 5, 10, 9, 57, 79, 7, 77, 37, 39, 43, 70]  # in positions 1..12
REAL_SETS = [[1, 11, 12], [2, 6, 10], [4, 8, 9], [5, 8, 12], [6, 7, 11], [7, 8, 10]]
needs_reference = pytest.mark.skipif(not (REAL / REAL_PAGE).is_file(),
                                     reason="../shared/reference/daily-set is absent")


def site_card(number: int) -> Card:
    """The card an image number of the site (and of the replica) shows: test truth only."""
    return Card(**card_for_number(number))


def attributes(number: int) -> tuple[int, str, str, str]:
    """count, colour, shape and fill of the card with this image number."""
    card = site_card(number)
    return card.count, card.color, card.shape, card.fill


def is_set(numbers: tuple[int, ...]) -> bool:
    """Whether the cards with these image numbers make a SET (by the project's set finder)."""
    return cards_make_a_set(*(site_card(n) for n in numbers))


def sets_among(numbers: list[int]) -> list[list[int]]:
    """Every set among the cards, as sorted 1-based positions, in lexicographic order."""
    return [[i + 1 for i in triple] for triple in find_sets([site_card(n) for n in numbers])]


def real_site(root: Path) -> Path:
    """The real page in puzzle/, our javascript/ and images/, the real cards over ours."""
    (root / "puzzle").mkdir()
    shutil.copy(REAL / REAL_PAGE, root / "puzzle" / REAL_PAGE)
    shutil.copytree(FIXTURES / "javascript", root / "javascript")
    shutil.copytree(FIXTURES / "images", root / "images")
    small = root / "images" / "setcards" / "small"
    for gif in (REAL / "cards").glob("*.gif"):
        shutil.copy(gif, small / gif.name)
    return root
