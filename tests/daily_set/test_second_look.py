"""The second look at a board's cards taken together: the outlines' bunches, and each outline
beside the board's sure ones."""

from __future__ import annotations

import cv2
import numpy as np

from webbot.set_cards.second_look import read_likeness, read_outlines

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


def _silhouette(kind: str, wobble: int = 0) -> np.ndarray:
    """A 16x32 shape silhouette as the board cuts them (1 ink, 0 paper)."""
    picture = np.zeros((32, 16), np.uint8)
    if kind == "diamond":
        cv2.fillPoly(picture, [np.array([(8, 0), (15, 16), (8, 31), (0, 16)])], 1)
    elif kind == "oval":
        cv2.ellipse(picture, (8, 16), (7, 15), 0, 0, 360, 1, cv2.FILLED)
    else:  # a squiggle: an oval whose halves lean apart
        cv2.ellipse(picture, (8, 16), (6, 15), 0, 0, 360, 1, cv2.FILLED)
        picture[:16] = np.roll(picture[:16], 2, axis=1)
        picture[16:] = np.roll(picture[16:], -2, axis=1)
    return np.roll(picture, wobble, axis=0).astype(np.float32)


def test_a_doubtful_outline_is_put_beside_the_board_s_sure_ones():
    kinds = ["diamond", "oval", "squiggle"] * 4
    silhouettes = [[_silhouette(kind, wobble=i % 2)] for i, kind in enumerate(kinds)]
    outlines = [(kind, 0.1) for kind in kinds]
    outlines[4] = ("squiggle", 0.6)  # an oval, doubtfully read
    likeness = read_likeness(silhouettes, outlines)
    assert [name for name, _ in likeness] == kinds
    assert likeness[4][1] < 0.3
    # Halfway between an oval and a squiggle: the likeness is doubtful too.
    between = (_silhouette("oval") + _silhouette("squiggle")) / 2
    assert read_likeness([*silhouettes, [between]], [*outlines, None])[-1][1] >= 0.5


def test_a_board_without_a_sure_example_of_each_shape_gives_no_likeness():
    kinds = ["diamond", "oval", "squiggle"] * 4
    outlines = [(kind, 0.1 if kind != "oval" else 0.4) for kind in kinds]
    assert read_likeness([[_silhouette(kind)] for kind in kinds], outlines) == [None] * 12
