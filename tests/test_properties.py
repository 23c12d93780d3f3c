"""Property tests (Hypothesis): loaders raise only our error on anything; every answer of every
solver obeys the rules; generated puzzles survive render -> screenshot -> read unchanged."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.puzlogic.conftest import comparable
from tests.puzlogic.replica import level, open_game
from webbot.errors import WebbotError
from webbot.files import InputError, parse_json
from webbot.inputs import decode_image
from webbot.puzlogic.model import KINDS, Piece, Placement, Puzzle, PuzzleError, Sum
from webbot.puzlogic.perceive import classify, normalise
from webbot.puzlogic.rules import broken_rules
from webbot.puzlogic.solvers import BACKENDS, solutions

KEYS = st.sampled_from(["cells", "pieces", "sums", "value", "color", "line", "index", "target",
                        "counts", "side"]) | st.text(max_size=3)
SCALARS = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
           | st.sampled_from(["blue", "white", "row", "col", "all"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(KEYS, inner, max_size=5), max_leaves=40)
# Shaped like a puzzle, so that the checks past the top level are reached too.
NEAR_PUZZLE = st.fixed_dictionaries(
    {"cells": st.lists(st.lists(st.none() | st.integers(-2, 60), max_size=4), max_size=6),
     "pieces": st.lists(st.dictionaries(st.sampled_from(["value", "color"]),
                                        SCALARS | st.integers(-1, 100), max_size=2), max_size=6)},
    optional={"sums": st.lists(st.dictionaries(
        st.sampled_from(["line", "index", "target", "counts", "side"]),
        SCALARS | st.integers(-1, 5000), max_size=5), max_size=4)})


@given(JSON | NEAR_PUZZLE)
def test_the_puzzle_loader_raises_only_its_own_error(data):
    try:
        puzzle = Puzzle.from_json(data)
    except PuzzleError as exc:
        assert "\n" not in str(exc)
    else:
        assert len(puzzle.free) == len(puzzle.pieces)


@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_json_text_raises_only_our_error(data):
    try:
        Puzzle.from_json(parse_json(data.decode("utf-8", "replace"), "f.json"), "f.json")
    except InputError as exc:
        assert str(exc).startswith("f.json") and "\n" not in str(exc)


@given(st.binary(max_size=2000))
def test_picture_bytes_raise_only_our_error(data):
    try:
        decode_image(data, "x.png")
    except InputError as exc:
        assert str(exc).startswith("x.png")


@st.composite
def planted_puzzles(draw) -> tuple[Puzzle, tuple[Placement, ...]]:
    """A small board with a planted solution: a few cells with numbers that repeat in no line,
    some of them free (their numbers become pieces), sums of each kind from the planted ones."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
                         min_size=1, max_size=8))
    values = {cell: draw(st.integers(0, 6)) for cell in sorted(cells)}
    for axis in (0, 1):
        for index in {cell[axis] for cell in cells}:
            line = [values[c] for c in cells if c[axis] == index]
            assume(len(line) == len(set(line)))
    free = draw(st.sets(st.sampled_from(sorted(cells)), min_size=1))
    color = {cell: draw(st.sampled_from(("blue", "white"))) for cell in sorted(free)}
    sums = []
    for line, axis in (("row", 0), ("col", 1)):
        for index in sorted({cell[axis] for cell in cells}):
            counts = draw(st.none() | st.sampled_from(KINDS))
            if counts:
                target = sum(values[c] for c in cells if c[axis] == index and
                             (counts == "all" or (c in free and color[c] == counts)))
                sums.append(Sum(line, index, target, counts))
    planted = tuple(sorted(Placement(*c, values[c], color[c]) for c in free))
    puzzle = Puzzle({c: None if c in free else values[c] for c in cells},
                    tuple(sorted(Piece(p.value, p.color) for p in planted)), tuple(sums))
    return puzzle, planted


@settings(max_examples=100)
@given(planted_puzzles())
def test_every_answer_of_every_solver_obeys_the_rules(case):
    puzzle, planted = case
    limit = 40
    found = {}
    for name in BACKENDS:
        answers = solutions(puzzle, name, limit=limit, timeout_s=20)
        assert answers, name  # a solution exists (the planted one), so each must find one
        assert all(broken_rules(puzzle, answer) == [] for answer in answers), name
        found[name] = set(answers)
    if all(len(answers) < limit for answers in found.values()):  # every search was complete:
        assert planted in found["fast"]  # ... the planted solution is among the answers,
        assert found["fast"] == found["z3"] == found["bruteforce"]  # ... and all agree


# (CI's time: generated puzzles of sizes 4-12 are played in tests/puzlogic/test_bot.py)
@pytest.mark.full
@settings(max_examples=16, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), size=st.integers(2, 12))
def test_generated_puzzles_round_trip_through_the_screen(browser, fixtures_url, reader, seed,
                                                         size):
    page = browser.new_page(viewport={"width": 900, "height": 700})
    try:
        open_game(page, fixtures_url, f"generate={seed}&size={size}&level=1")
        shown = level(page, 1)  # what the replica drew (the test hook; the reader never sees it)
        for _ in range(3):  # a frame with doubts is read again, as the bot does
            picture = normalise(cv2.imdecode(np.frombuffer(page.screenshot(), np.uint8),
                                             cv2.IMREAD_COLOR))
            assert classify(picture) == "level"
            view = reader.read_level(picture)
            if not view.doubts:
                break
        assert view.doubts == []
        assert comparable(view.puzzle().to_json()) == comparable(shown)
    except WebbotError as exc:
        pytest.fail(f"seed {seed}, size {size}: {exc}")
    finally:
        page.close()
