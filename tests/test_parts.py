"""The parts of scripts/parts.py are kept apart: nothing a reader was trained or tuned on is in
a part its figures are measured on."""

from __future__ import annotations

import itertools

from scripts.parts import (
    BURRITO_COINS,
    BURRITO_REAL,
    PART_NAMES,
    PUZLOGIC_PAGES,
    puzlogic_seeds,
)


def test_burrito_bisons_coin_parts_do_not_overlap():
    assert set(BURRITO_COINS) <= set(PART_NAMES)
    for first, second in itertools.combinations(BURRITO_COINS.values(), 2):
        assert not set(first) & set(second)


def test_burrito_bisons_real_screens_are_one_part_each():
    assert set(BURRITO_REAL) == {"tune", "test"}
    assert BURRITO_REAL["tune"] != BURRITO_REAL["test"]


def test_puzlogics_generated_levels_in_train_and_test_do_not_overlap():
    train, test = puzlogic_seeds("train"), puzlogic_seeds("test")
    assert train and test
    assert not train & test
    assert puzlogic_seeds("tune") == set()  # tune is the real screenshots alone


def test_puzlogics_test_pages_are_distinct_pages():
    pages = PUZLOGIC_PAGES["test"]
    assert len(set(pages)) == len(pages)
    assert all(b - a >= 15 for a, b in itertools.pairwise(sorted(pages)))
