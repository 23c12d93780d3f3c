"""The second look at a board's cards taken together: the outlines' bunches."""

from __future__ import annotations

import numpy as np

from webbot.daily_set.second_look import read_outlines

# (how much of its box the outline fills, how mirror-like, how convex), as measured
DIAMOND, OVAL, SQUIGGLE = (0.57, 0.95, 0.92), (0.88, 0.97, 0.99), (0.80, 0.83, 0.91)


def _board(*kinds: tuple[float, float, float], seed: int = 1) -> list[tuple[float, ...]]:
    noise = np.random.default_rng(seed).normal(0, 0.01, (len(kinds), 3))
    return [tuple(float(v) for v in np.add(kind, wobble)) for kind, wobble in zip(
        kinds, noise, strict=True)]


def test_the_outlines_fall_in_three_bunches_named_by_their_look():
    kinds = [DIAMOND, OVAL, SQUIGGLE] * 4
    read = read_outlines(_board(*kinds))
    names = {DIAMOND: "diamond", OVAL: "oval", SQUIGGLE: "squiggle"}
    assert [name for name, _ in read] == [names[kind] for kind in kinds]
    assert all(doubt < 0.3 for _, doubt in read)


def test_a_board_without_one_of_the_shapes_leaves_every_outline_unread():
    assert read_outlines(_board(*[OVAL, SQUIGGLE] * 6)) == [None] * 12
    assert read_outlines(_board(*[DIAMOND, OVAL] * 6)) == [None] * 12
