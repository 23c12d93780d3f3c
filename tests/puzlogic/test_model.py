"""Puzzles read from JSON, and the one-line reasons malformed ones are refused."""

from __future__ import annotations

import json

import pytest

from tests.puzlogic.conftest import needs_reference, reference_levels
from webbot.files import InputError
from webbot.puzlogic.model import Piece, Placement, Puzzle, PuzzleError, Sum
from webbot.puzlogic.rules import broken_rules, givens_repeat

SMALL = {
    "cells": [[0, 1, 1], [1, 0, None], [1, 1, None], [2, 0, 2]],
    "pieces": [{"value": 1, "color": "blue"}, {"value": 2, "color": "white"}],
    "sums": [{"line": "row", "index": 1, "target": 3, "counts": "all", "side": "left"}],
}


@needs_reference
def test_reference_levels_parse():
    for level in reference_levels():
        puzzle = Puzzle.from_json(level)
        assert len(puzzle.free) == len(puzzle.pieces) > 0


def test_json_round_trip():
    puzzle = Puzzle.from_json(SMALL)
    assert puzzle.free == ((1, 0), (1, 1))
    assert puzzle.pieces == (Piece(1, "blue"), Piece(2, "white"))
    assert puzzle.sums == (Sum("row", 1, 3, "all", "left"),)
    assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle


def changed(**parts) -> dict:
    return {**SMALL, **parts}


@pytest.mark.parametrize(("data", "message"), [
    ([], 'the puzzle: expected a JSON object with "cells", "pieces" and "sums", got \\[\\]'),
    (changed(cells=[[0, 0, None], [0, 0, 1], [1, 1, None]]), r"cell \(0, 0\) is listed twice"),
    (changed(sums=[{"line": "row", "index": 7, "target": 3}]),
     "the all sum 3 on row 7 is on a line without cells"),
    (changed(pieces=[{"value": 1, "color": "blue"}]),
     "2 free cells but 1 pieces: every piece must fill exactly one free cell"),
    (changed(pieces=SMALL["pieces"] * 2), "2 free cells but 4 pieces"),
    (changed(sums=[{"line": "row", "index": 1, "target": 3, "counts": "red"}]),
     "sums\\[0\\].counts: expected \"all\", \"blue\" or \"white\", got 'red'"),
    (changed(sums=[{"line": "diagonal", "index": 1, "target": 3}]),
     "sums\\[0\\].line: expected \"row\" or \"col\", got 'diagonal'"),
    (changed(cells=[[0, 1, 100], [1, 0, None], [1, 1, None]]),
     r"cells\[0\]\[2\]: expected the value of \[row, col, value\]: a whole number from 0 to 99 "
     r"or null \(a free cell\), got 100"),
    (changed(pieces=[{"value": -1, "color": "blue"}, {"value": 2, "color": "blue"}]),
     r"pieces\[0\].value: expected a whole number from 0 to 99, got -1"),
    (changed(pieces=[{"value": "7", "color": "blue"}, {"value": 2, "color": "blue"}]),
     r"pieces\[0\].value: expected a whole number from 0 to 99, got '7'"),
    (changed(pieces=[{"value": 1, "color": "green"}, {"value": 2, "color": "blue"}]),
     r"pieces\[0\].color: expected \"blue\" or \"white\", got 'green'"),
    (changed(cells=[[0, 1]]), r"cells\[0\]: expected \[row, col, value\], got \[0, 1\]"),
    (changed(cells=[]), "the puzzle has no cells"),
])
def test_malformed_puzzles_are_refused_in_one_line(data, message):
    with pytest.raises(PuzzleError, match=message) as caught:
        Puzzle.from_json(data)
    assert "\n" not in str(caught.value)


def test_unreadable_files(tmp_path):
    with pytest.raises(InputError, match="missing.json: no such file"):
        Puzzle.load(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    with pytest.raises(InputError, match="broken.json is not JSON"):
        Puzzle.load(broken)


def test_referee_names_every_broken_rule():
    puzzle = Puzzle.from_json(SMALL)
    good = [Placement(1, 0, 1, "blue"), Placement(1, 1, 2, "white")]
    assert broken_rules(puzzle, good) == []
    swapped = [Placement(1, 0, 2, "white"), Placement(1, 1, 1, "blue")]
    assert broken_rules(puzzle, swapped) == ["col 0 repeats [2]", "col 1 repeats [1]"]
    twice = [Placement(1, 0, 1, "blue"), Placement(1, 1, 1, "blue")]
    problems = broken_rules(puzzle, twice)
    assert "the pieces placed are not exactly the pieces given" in problems
    assert "row 1 repeats [1]" in problems
    assert "the all sum 3 on row 1 adds up to 2" in problems
    assert broken_rules(puzzle, good[:1])[0] == "1 free cells left empty, e.g. (1, 1)"
    assert "(0, 1) is not free" in broken_rules(puzzle, [*good, Placement(0, 1, 1, "blue")])


def test_given_zero_is_a_number_not_a_free_cell():
    puzzle = Puzzle.from_json({"cells": [[0, 0, 0], [0, 1, None]],
                               "pieces": [{"value": 0, "color": "blue"}]})
    assert puzzle.free == ((0, 1),)
    assert givens_repeat(puzzle) is False
    assert broken_rules(puzzle, [Placement(0, 1, 0, "blue")]) == ["row 0 repeats [0]"]
