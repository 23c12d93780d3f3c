"""The parts kept apart (scripts/parts.py): no picture in two parts, and every real photo in
one."""

from __future__ import annotations

import itertools
import json

import pytest

from scripts.parts import (
    BOARD_SEEDS,
    BURRITO_COINS,
    BURRITO_REAL,
    CARD_SEEDS,
    LEFT_OUT,
    PART_NAMES,
    PUZLOGIC_PAGES,
    REAL_CARD_PARTS,
    REAL_CARDS,
    puzlogic_seeds,
    split_real_cards,
)
from webbot.set_cards.model import Card
from webbot.set_cards.perceive import load
from webbot.set_cards.single import read_single


def test_the_seed_ranges_of_the_parts_do_not_overlap():
    for seeds in (BOARD_SEEDS, CARD_SEEDS):
        ranges = sorted((seeds.of(part) for part in PART_NAMES), key=lambda r: r.start)
        assert all(a.stop <= b.start for a, b in zip(ranges, ranges[1:], strict=False))


def test_the_real_photos_lists_are_disjoint_and_the_test_part_is_a_fifth():
    parts = json.loads(REAL_CARD_PARTS.read_text())
    names = [name for part in PART_NAMES for name in parts[part]]
    assert len(names) == len(set(names))
    assert 0.15 <= len(parts["test"]) / len(names) <= 0.25
    kinds = {name.split("/")[0] for name in parts["test"]}
    assert len(kinds) == 81  # every kind of card is in the test part


@pytest.mark.skipif(not REAL_CARDS.is_dir(), reason="../shared/reference is absent")
def test_every_real_photo_is_in_one_part_as_the_split_made_it():
    assert split_real_cards() == json.loads(REAL_CARD_PARTS.read_text())


@pytest.mark.skipif(not REAL_CARDS.is_dir(), reason="../shared/reference is absent")
def test_the_photos_left_out_are_read_as_what_they_show_not_as_their_labels():
    """Both readers read the two photos left out as the photo shows them (an empty diamond,
    a green ink) with no doubt."""
    shown = {"3-green-striped-diamond/old__44_.png": Card(3, "diamond", "green", "empty"),
             "3-red-empty-diamond/tytyt__195_.png": Card(3, "diamond", "green", "empty")}
    assert set(shown) == set(LEFT_OUT)
    for name, card in shown.items():
        assert read_single(load(REAL_CARDS / name)).card == card


def test_burrito_bisons_coin_parts_do_not_overlap():
    assert set(BURRITO_COINS) <= set(PART_NAMES)
    for first, second in itertools.combinations(BURRITO_COINS.values(), 2):
        assert not set(first) & set(second)


def test_burrito_bisons_real_screens_are_one_part_each():
    assert set(BURRITO_REAL) == {"tune", "test"}
    assert BURRITO_REAL["tune"] != BURRITO_REAL["test"]


def test_puzlogics_generated_levels_in_train_tune_and_test_do_not_overlap():
    parts = [puzlogic_seeds(part) for part in PART_NAMES]
    assert all(parts)
    for first, second in itertools.combinations(parts, 2):
        assert not first & second


def test_puzlogics_test_pages_are_distinct_pages():
    pages = PUZLOGIC_PAGES["test"]
    assert len(set(pages)) == len(pages)
    assert all(b - a >= 15 for a, b in itertools.pairwise(sorted(pages)))
