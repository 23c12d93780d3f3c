"""`webbot puzlogic solve` as a user runs it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_webbot
from tests.puzlogic.conftest import known_solution, needs_reference, reference_levels
from webbot.puzlogic.generate import latin_puzzle
from webbot.puzlogic.model import Placement, Puzzle
from webbot.puzlogic.rules import broken_rules


def write(tmp_path, data, name="puzzle.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


@needs_reference
@pytest.mark.parametrize("solver", ["auto", "bruteforce"])
def test_json_placements_of_a_reference_level(webbot_here, tmp_path, solver):
    level = reference_levels()[14]
    result = webbot_here("puzlogic", "solve", write(tmp_path, level), "--solver", solver,
                         "--json")
    assert result.returncode == 0, result.stderr
    placed = json.loads(result.stdout)["placements"]
    assert tuple(Placement(*p) for p in placed) == known_solution(level)


def test_text_output_draws_the_board_and_says_if_unique(webbot_here, tmp_path):
    data = {"cells": [[0, 0, None], [0, 1, 1], [1, 0, 1], [1, 1, None]],
            "pieces": [{"value": 2, "color": "blue"}, {"value": 2, "color": "white"}]}
    result = webbot_here("puzlogic", "solve", write(tmp_path, data), "--unique")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] in ([" 2b  1", "  1 2w"], [" 2w  1", "  1 2b"])
    assert lines[2].endswith("NOT unique")


def test_all_solutions_as_json(webbot_here, tmp_path):
    data = {"cells": [[0, 0, None], [1, 1, None]],
            "pieces": [{"value": 2, "color": "blue"}, {"value": 3, "color": "blue"}]}
    result = webbot_here("puzlogic", "solve", write(tmp_path, data), "--all", "--json")
    out = json.loads(result.stdout)
    assert out["unique"] is False
    assert sorted(out["solutions"]) == [[[0, 0, 2, "blue"], [1, 1, 3, "blue"]],
                                        [[0, 0, 3, "blue"], [1, 1, 2, "blue"]]]


def test_generated_board_round_trip(webbot_here, tmp_path):
    puzzle, _ = latin_puzzle(6, seed=1)
    result = webbot_here("puzlogic", "solve", write(tmp_path, puzzle.to_json()), "--json")
    placed = [Placement(*p) for p in json.loads(result.stdout)["placements"]]
    assert broken_rules(Puzzle.from_json(puzzle.to_json()), placed) == []


def one_line_error(result) -> str:
    assert result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    return line


@pytest.mark.parametrize("solver", ["fast", "z3", "bruteforce"])
def test_unsolvable_puzzle_exits_non_zero_with_a_reason(webbot_here, tmp_path, solver):
    data = {"cells": [[0, 0, None], [0, 1, 1]], "pieces": [{"value": 1, "color": "blue"}]}
    result = webbot_here("puzlogic", "solve", write(tmp_path, data), "--solver", solver)
    assert result.returncode == 1
    assert one_line_error(result).endswith(f"the puzzle has no solution ({solver} solver)")


@pytest.mark.parametrize(("content", "reason"), [
    ('{"cells": [[0, 0, null]], "pieces": []}', "1 free cells but 0 pieces"),
    ("not json", "is not JSON"),
    ('{"cells": [[0, 0, null]], "pieces": [{"value": 1, "color": "pink"}]}',
     "pieces[0].color: expected \"blue\" or \"white\", got 'pink'"),
])
def test_malformed_puzzle_exits_non_zero_with_a_reason(webbot_here, tmp_path, content, reason):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = webbot_here("puzlogic", "solve", str(path))
    assert result.returncode == 2  # bad input, like bad usage
    assert reason in one_line_error(result)


def test_missing_file_and_unknown_solver(webbot_here, tmp_path):
    result = webbot_here("puzlogic", "solve", str(tmp_path / "none.json"))
    assert "none.json: no such file" in one_line_error(result)
    result = webbot_here("puzlogic", "solve", str(tmp_path / "none.json"), "--solver", "magic")
    assert result.returncode == 2
    assert "'magic' is not one of" in one_line_error(result)


@pytest.mark.parametrize("solver", ["fast", "z3"])
def test_the_largest_board_allowed_is_solved_or_stopped_with_one_line(tmp_path, solver):
    puzzle, _ = latin_puzzle(50, seed=1)  # 1,500 free cells: once a RecursionError
    path = write(tmp_path, puzzle.to_json())
    # (a process of its own: a main thread's stack, as the user's command has)
    result = run_webbot("puzlogic", "solve", path, "--solver", solver, "--timeout", "2",
                        "--json", timeout=300)
    if result.returncode == 0:
        placed = [Placement(*p) for p in json.loads(result.stdout)["placements"]]
        assert broken_rules(puzzle, placed) == []
    else:
        assert result.returncode == 1
        assert one_line_error(result) == (f"webbot: error: {solver} solver: the search ran past "
                                          "its 2 s limit (--timeout S to allow longer)")


def test_all_stops_at_the_limit_and_says_so(webbot_here, tmp_path):
    cells = [[k, k, None] for k in range(6)]  # 6 free cells in 6 lines: 6! solutions
    pieces = [{"value": v, "color": "blue"} for v in range(1, 7)]
    path = write(tmp_path, {"cells": cells, "pieces": pieces})
    result = webbot_here("puzlogic", "solve", path, "--all", "--limit", "7", "--json")
    assert result.returncode == 0
    out = json.loads(result.stdout)
    assert len(out["solutions"]) == 7 and out["complete"] is False and out["unique"] is False
    assert result.stderr == ("note: stopped at the limit of 7 solutions (--limit); there are "
                             "more\n")
    done = webbot_here("puzlogic", "solve", path, "--all", "--limit", "720", "--json")
    assert json.loads(done.stdout)["complete"] is True and done.stderr == ""
