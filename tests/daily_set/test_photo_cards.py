"""The photographed-card renderer (scripts/photo_cards.py), the measuring stick of the card
reader on camera pictures, and what the reader of a card file (`webbot daily-set classify`)
makes of its pictures: never a wrong card; a doubt is a refusal that says what it read."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scripts.photo_cards import CARD_ASPECT, WIDTHS, Look, photo_card, photograph, random_look
from scripts.render_set_cards import card_for_number
from webbot.set_cards.perceive import Unclear
from webbot.set_cards.single import read_single


def test_a_seed_draws_the_same_picture_and_another_seed_another():
    first, card = photo_card(40, np.random.default_rng(7))
    again, _ = photo_card(40, np.random.default_rng(7))
    other, _ = photo_card(40, np.random.default_rng(8))
    assert np.array_equal(first, again)
    assert first.shape != other.shape or not np.array_equal(first, other)
    assert card == card_for_number(40)


@pytest.mark.parametrize("seed", range(12))
def test_pictures_are_landscape_cards_60_to_150_px_wide(seed):
    picture, _ = photo_card(seed * 7 % 81 + 1, np.random.default_rng(seed))
    height, width = picture.shape[:2]
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert WIDTHS[0] <= width <= WIDTHS[1]
    assert abs(width / height - CARD_ASPECT) < 0.05


def test_every_fault_is_drawn_within_its_bounds():
    looks = [random_look(np.random.default_rng(seed)) for seed in range(200)]
    assert all(abs(look.angle) <= 4 for look in looks)
    assert all(0.8 <= gain <= 1.2 for look in looks for gain in look.gains)
    assert all(0 <= look.blur <= 1.5 for look in looks)
    assert all(60 <= look.jpeg <= 90 for look in looks)
    assert any(look.moire for look in looks) and not all(look.moire for look in looks)
    assert any(look.margin > 0 for look in looks) and any(look.margin < 0 for look in looks)


def _card_white(picture: np.ndarray) -> np.ndarray:
    """The median colour of the card's plain white, left of its shapes, well inside the card."""
    height, width = picture.shape[:2]
    return np.median(picture[height // 3:2 * height // 3, width // 10:width // 5].reshape(-1, 3),
                     axis=0)


def test_a_colour_cast_tints_the_cards_white():
    plain = Look(width=120)
    neutral = _card_white(photograph(1, plain))
    warm = _card_white(photograph(1, replace(plain, exposure=0.8, gains=(0.8, 1.0, 1.2))))
    assert abs(float(neutral[0]) - float(neutral[2])) <= 2  # B and R alike: white
    assert warm[2] - warm[0] > 60  # red well above blue


def test_the_table_shows_round_the_card_only_with_a_margin():
    look = Look(width=120, table=(0, 0, 0))
    cropped = photograph(1, replace(look, margin=-0.02))
    framed = photograph(1, replace(look, margin=0.06))
    assert cropped[:, :3].mean() > 200  # the card's white to the edge
    assert framed[:, :3].mean() < 60  # the black table


def test_moire_sampling_differs_from_a_prefiltered_picture():
    striped = 40
    assert card_for_number(striped)["fill"] == "striped"
    look = Look(width=64)
    clean = photograph(striped, look).astype(int)
    aliased = photograph(striped, replace(look, moire=True, nearest=True)).astype(int)
    assert np.abs(clean - aliased).max() > 60


def test_a_doubtful_card_is_refused_saying_what_it_read(webbot_here, tmp_path):
    picture, _ = photo_card(70, np.random.default_rng(231))  # a small diamond, blurred
    with pytest.raises(Unclear, match=r"^unsure of the fill: striped or empty\?$"):
        read_single(picture)
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), picture)
    done = webbot_here("daily-set", "classify", str(path))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"webbot: error: {path}: unsure of the fill: striped or empty?"]
