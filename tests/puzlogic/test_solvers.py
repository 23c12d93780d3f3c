"""Every backend is exact: the reference levels, random puzzles checked against each other
and against the referee, and the two bugs of the seed solvers."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.puzlogic.conftest import known_solution, level_puzzle, needs_reference, reference_levels
from webbot.puzlogic.generate import latin_puzzle
from webbot.puzlogic.model import COLORS, KINDS, NoSolution, Piece, Puzzle, Sum
from webbot.puzlogic.rules import broken_rules
from webbot.puzlogic.solvers import BACKENDS, NAMES, fast, is_unique, solutions, solve
from webbot.puzlogic.solvers.z3 import naive_solutions

LEVELS = reference_levels()


@needs_reference
@pytest.mark.parametrize("backend", NAMES)
@pytest.mark.parametrize("level", LEVELS, ids=[f"level{lv['level']}" for lv in LEVELS])
def test_reference_level_has_exactly_its_known_solution(level, backend):
    assert solutions(level_puzzle(level), backend) == [known_solution(level)]


@needs_reference
@pytest.mark.parametrize("level", LEVELS, ids=[f"level{lv['level']}" for lv in LEVELS])
def test_benchmark_baseline_is_exact_too(level):
    assert list(naive_solutions(level_puzzle(level))) == [known_solution(level)]


def puzzle_of(cells, pieces, sums=()):
    return Puzzle(dict(cells), tuple(Piece(v, c) for v, c in pieces), tuple(sums))


@pytest.mark.parametrize("backend", NAMES)
def test_a_full_line_below_its_target_is_not_a_solution(backend):
    # The seed's search accepted this: row 0 is full and adds up to 3, not 5.
    puzzle = puzzle_of({(0, 0): None, (0, 1): None}, [(1, "blue"), (2, "blue")],
                       [Sum("row", 0, 5)])
    assert solutions(puzzle, backend) == []
    with pytest.raises(NoSolution, match="no solution"):
        solve(puzzle, backend)


@pytest.mark.parametrize("backend", NAMES)
def test_each_piece_is_used_exactly_once(backend):
    # Pieces 0 and 2 add up to 2, as do 1 and 1: the seed's Z3 model took the second.
    puzzle = puzzle_of({(0, 0): None, (1, 1): None, (0, 1): 0, (1, 0): 2},
                       [(0, "blue"), (2, "blue")], [Sum("row", 0, 1)])
    assert solutions(puzzle, backend) == []


@pytest.mark.parametrize("backend", NAMES)
def test_colour_sums_count_only_their_colour(backend):
    cells = {(0, 0): None, (0, 1): None, (0, 2): 5}
    pieces = [(1, "blue"), (2, "white")]
    found = solutions(puzzle_of(cells, pieces, [Sum("row", 0, 2, "white"), Sum("row", 0, 8)]),
                      backend)
    assert len(found) == 2  # the white 2 may go either side
    assert all(any(p.color == "white" and p.value == 2 for p in s) for s in found)
    assert solutions(puzzle_of(cells, pieces, [Sum("row", 0, 3, "blue")]), backend) == []


@pytest.mark.parametrize("backend", NAMES)
def test_repeated_givens_have_no_solution(backend):
    puzzle = puzzle_of({(0, 0): 3, (0, 5): 3, (1, 0): None}, [(1, "blue")])
    assert solutions(puzzle, backend) == []


@pytest.mark.parametrize("backend", NAMES)
def test_uniqueness(backend):
    one = puzzle_of({(0, 0): None, (0, 1): 1}, [(2, "blue")])
    two = puzzle_of({(0, 0): None, (1, 1): None}, [(2, "blue"), (3, "blue")])
    assert is_unique(one, backend) and not is_unique(two, backend)


@st.composite
def small_puzzles(draw):
    """Boards of up to 4x4 with gaps, givens, both colours and sums of every kind; some are
    built around a planted filling, others have targets at random (often unsolvable)."""
    height, width = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    grid = [(r, c) for r in range(height) for c in range(width)]
    cells, planted = {}, {}
    for cell in draw(st.lists(st.sampled_from(grid), min_size=1, max_size=9, unique=True)):
        if draw(st.booleans()):
            cells[cell] = draw(st.integers(0, 4))
        else:
            cells[cell] = None
            planted[cell] = (draw(st.integers(0, 4)), draw(st.sampled_from(COLORS)))
    pieces = tuple(Piece(v, c) for v, c in planted.values())
    sums = []
    for _ in range(draw(st.integers(0, 3))):
        line = draw(st.sampled_from(("row", "col")))
        axis = 0 if line == "row" else 1
        index = draw(st.sampled_from(sorted({cell[axis] for cell in cells})))
        kind = draw(st.sampled_from(KINDS))
        on_line = [c for c in cells if c[axis] == index]
        planted_total = sum(cells[c] if cells[c] is not None else planted[c][0]
                            for c in on_line
                            if kind == "all" or (c in planted and planted[c][1] == kind))
        target = planted_total if draw(st.booleans()) else draw(st.integers(0, 12))
        sums.append(Sum(line, index, target, kind))
    return Puzzle(cells, pieces, tuple(sums))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_all_backends_find_the_same_solutions_and_the_referee_agrees(puzzle):
    found = {name: set(solutions(puzzle, name)) for name in BACKENDS}
    assert found["fast"] == found["bruteforce"] == found["z3"]
    assert found["fast"] == set(naive_solutions(puzzle))
    for solution in found["fast"]:
        assert broken_rules(puzzle, solution) == []


@pytest.mark.parametrize("size", [4, 5, 7])
def test_generated_puzzles_are_solved_by_every_backend(size):
    puzzle, planted = latin_puzzle(size, seed=size)
    assert broken_rules(puzzle, planted) == []
    for name in ("fast", "z3") if size > 4 else NAMES:
        assert broken_rules(puzzle, solve(puzzle, name)) == []


def test_restarts_still_find_a_solution_and_prove_none(monkeypatch):
    puzzle, _ = latin_puzzle(9, seed=2)
    # A tiny node budget forces the restart path on a board that needs backtracking.
    first = next(fast.solutions(puzzle, budget=3))
    assert broken_rules(puzzle, first) == []
    impossible = Puzzle(puzzle.cells, puzzle.pieces, (*puzzle.sums, Sum("row", 0, 1, "all")))
    assert list(fast.solutions(impossible, budget=3)) == []
