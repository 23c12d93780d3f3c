"""Per-pixel measures by OpenCV (webbot.vision.pixels) give numpy's answers, on any 8-bit
picture: whole, a strided view of one (a look's sampled overlay), or with an alpha channel."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from webbot.vision.pixels import brightest, value_and_chroma
from webbot.vision.region import GameNotFound, find_game

PICTURES = st.tuples(st.integers(1, 12), st.integers(1, 12), st.sampled_from([3, 4])).flatmap(
    lambda shape: arrays(np.uint8, shape))


@given(PICTURES, st.integers(1, 3))
def test_a_pixel_s_brightest_channel_and_chroma_are_numpy_s(picture, step):
    view = picture[::step, ::step]
    top = view[..., :3].max(axis=2)
    assert np.array_equal(brightest(view), top)
    value, chroma = value_and_chroma(view)
    assert np.array_equal(value, top)
    assert np.array_equal(chroma, top - view[..., :3].min(axis=2))


def test_a_game_framed_by_black_is_found_to_the_pixel_and_an_empty_picture_has_none():
    page = np.zeros((300, 500, 3), np.uint8)
    page[37:277, 61:381] = (40, 120, 200)  # a 4:3 game, 320x240
    found = find_game(page, 4 / 3)
    assert (found.x, found.y, found.width, found.height) == (61, 37, 320, 240)
    for empty in (np.zeros((0, 0, 3), np.uint8), np.zeros((5, 0, 3), np.uint8)):
        with pytest.raises(GameNotFound):
            find_game(empty, 4 / 3)
