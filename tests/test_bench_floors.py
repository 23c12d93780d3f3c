"""The speed rows' floors (scripts/floors.py): derived from the games' sources and page frames,
never from the bot's timings."""

from __future__ import annotations

import json

import pytest

from scripts.floors import (
    FIXTURES,
    FRAME_S,
    burrito_bison_floor,
    daily_set_floor,
    puzlogic_floor,
    source_constant,
)


def test_puzlogic_floor_is_the_games_animations_and_a_frame_per_move():
    levels = json.loads((FIXTURES / "puzlogic" / "levels.json").read_text())["levels"]
    pieces = sum(len(level["pieces"]) for level in levels)
    assert len(levels) == 15 and pieces == 114
    floor = puzlogic_floor()
    # 14 x (250 ms settle + 300 ms fade) + 250 ms, and 1 + 14 + 2 x 114 moves at 1/60 s (onto
    # level 1's button, onto Next after each level but the last, to each piece and its cell)
    assert floor.value == pytest.approx(14 * 0.55 + 0.25 + 243 / 60)
    assert "243 mouse moves" in floor.how and "114 pieces" in floor.how


def test_puzlogic_floor_follows_the_levels_played():
    assert puzlogic_floor(levels=1).value == pytest.approx(0.25 + (1 + 2 * 2) * FRAME_S)


def test_daily_set_floor_is_the_load_and_a_frame_per_click():
    floor = daily_set_floor(0.2)
    assert floor.value == pytest.approx(0.2 + 18 / 60)
    assert "18 x 1/60 s" in floor.how and "0.20 s" in floor.how


def test_burrito_bison_floor_is_the_page_frame_rate():
    assert burrito_bison_floor().value == 60


def test_a_constant_the_source_does_not_set_is_an_error(tmp_path):
    (tmp_path / "game.js").write_text("const FADE_MS = 300;\n")
    assert source_constant(tmp_path / "game.js", "FADE_MS") == 300
    with pytest.raises(ValueError, match="sets no SETTLE_MS"):
        source_constant(tmp_path / "game.js", "SETTLE_MS")
