"""Line measures on a mask: a 2 px line is found a pixel off, not two; gaps count."""

from __future__ import annotations

import numpy as np
import pytest

from webbot.puzlogic.lines import Lines, bracket_arms, outline_grid, outline_sides


def mask_with_box(x: int, y: int, brackets: bool = False) -> np.ndarray:
    dark = np.zeros((120, 120), bool)
    dark[y:y + 2, x:x + 44] = dark[y + 42:y + 44, x:x + 44] = True
    dark[y:y + 44, x:x + 2] = dark[y:y + 44, x + 42:x + 44] = True
    if brackets:  # a tray slot: the middle of each side left out
        dark[y:y + 2, x + 14:x + 30] = dark[y + 42:y + 44, x + 14:x + 30] = False
        dark[y + 14:y + 30, x:x + 2] = dark[y + 14:y + 30, x + 42:x + 44] = False
    return dark


def test_a_full_outline_has_every_side_and_middle():
    assert min(outline_sides(Lines(mask_with_box(30, 30)), 30, 30)) == 1.0


def test_an_outline_a_pixel_off_is_still_found_but_not_two_pixels_off():
    lines = Lines(mask_with_box(31, 31))
    assert min(outline_sides(lines, 30, 30)) == 1.0
    assert max(outline_sides(Lines(mask_with_box(33, 33)), 30, 30)[:4]) < 0.2


def test_brackets_have_arms_but_no_middles():
    lines = Lines(mask_with_box(30, 30, brackets=True))
    arms, middles = bracket_arms(lines, 30, 30)
    assert arms == 1.0 and middles == 0.0
    assert max(outline_sides(lines, 30, 30)[4:]) == 0.0  # so no board cell


def test_a_gap_counts_and_lines_past_the_edge_are_empty():
    dark = np.zeros((10, 40), bool)
    dark[4:6, 0:30] = True
    lines = Lines(dark)
    assert lines.across(4, 0, 40) == 0.75
    assert lines.across(50, 0, 10) == 0.0 and lines.down(0, 45, 5) == 0.0


@pytest.mark.parametrize("density", [0.02, 0.3])
def test_the_outlines_of_a_grid_of_boxes_are_each_box_s_measured_alone(density):
    # (measured all at once for boxes inside the picture, one by one for any other)
    dark = np.random.default_rng(7).random((600, 800)) < density
    for xs, ys in (([18, 66, 738], [38, 86, 518]), ([-5, 3, 790], [-3, 590])):
        grid = outline_grid(Lines(dark), xs, ys)
        for j, y in enumerate(ys):
            for i, x in enumerate(xs):
                assert grid[j, i].tolist() == outline_sides(Lines(dark), x, y)
