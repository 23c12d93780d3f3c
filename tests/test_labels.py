"""Annotated pictures a person reads at a glance: every label in a badge whose words stand out
(WCAG contrast) whatever is under it, a cell's reading or answer large inside its cell, and a
legend saying what the marks mean."""

from __future__ import annotations

import numpy as np
import pytest

from webbot.puzlogic.perceive import READ_LEGEND, SOLUTION_LEGEND
from webbot.screen import Box, Grab
from webbot.set_cards.draw import BOX_COLOUR, SET_COLOURS
from webbot.vision.labels import Key, text_on, with_legend
from webbot.vision.marks import Mark, annotate

CONSENT = (160, 0, 160)  # the consent steps' and pressed buttons' colour (webbot/session.py)


def luminance(bgr: tuple[int, int, int]) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    b, g, r = map(linear, bgr)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one, other) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


COLOURS = [CONSENT, BOX_COLOUR, *SET_COLOURS, *(k.colour for k in READ_LEGEND + SOLUTION_LEGEND),
           (0, 160, 0), (0, 0, 255)]


@pytest.mark.parametrize("fill", COLOURS)
def test_a_label_s_words_stand_out_on_its_badge(fill):
    assert contrast(text_on(fill), fill) >= 4.5  # WCAG AA for text


def test_a_label_on_a_dark_red_page_is_read_on_its_own_badge():
    """The consent line once was purple words straight on a dark red bar."""
    red = np.zeros((60, 400, 3), np.uint8)
    red[:] = (0, 0, 150)
    drawn = annotate(Grab(red, Box(0, 0, 400, 60)), [Mark(8, 30, 0, 0, "consent: declined",
                                                          CONSENT)])
    words = drawn[:30, :200].reshape(-1, 3)
    assert (words == CONSENT).all(axis=1).sum() > 100  # the badge
    assert (words == text_on(CONSENT)).all(axis=1).sum() > 20  # its words


def test_a_cell_s_label_is_large_and_inside_its_cell():
    picture = np.full((200, 200, 3), (122, 160, 212), np.uint8)  # Puzlogic's tan
    cell = Mark(60, 60, 44, 44, "4b", (128, 96, 0), "inside")
    drawn = annotate(Grab(picture, Box(0, 0, 200, 200)), [cell])
    changed = np.argwhere((drawn != picture).any(axis=2))
    (top, left), (bottom, right) = changed.min(axis=0), changed.max(axis=0)
    assert (left, top) >= (60, 60) and (right, bottom) <= (60 + 44, 60 + 44)  # all inside
    badge = np.argwhere((drawn == cell.color).all(axis=2))
    assert np.ptp(badge[:, 0]) >= 44 * 0.4  # its letters a good part of the cell's height


def test_a_legend_below_says_what_each_mark_means():
    picture = np.full((100, 700, 3), 128, np.uint8)
    keys = [Key("4b", (128, 96, 0), "a piece"), Key("12a", (0, 0, 255), "a sum")]
    drawn = with_legend(picture, keys, 11)
    assert drawn.shape[1] == 700 and drawn.shape[0] > 100 + 2 * 11
    assert (drawn[:100] == picture).all()  # the picture itself untouched
    strip = drawn[100:]
    for key in keys:  # each key's sample drawn in its colour
        assert (strip == key.colour).all(axis=2).any()
    assert (with_legend(picture, [], 11) == picture).all()


def test_a_meaning_too_long_for_a_narrow_picture_is_folded_not_cut():
    picture = np.full((100, 240, 3), 128, np.uint8)
    key = Key("7", (60, 60, 60), "a card's position, row by row from the top left")
    narrow = with_legend(picture, [key], 11)[100:]
    wide = with_legend(np.full((100, 2000, 3), 128, np.uint8), [key], 11)[100:]
    assert narrow.shape[0] > wide.shape[0]  # more lines
    ink = np.argwhere((narrow < 200).any(axis=2))
    assert ink[:, 1].max() < narrow.shape[1] - 4  # nothing reaches the picture's edge
