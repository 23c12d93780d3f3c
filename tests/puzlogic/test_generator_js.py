"""The replica's level generator (fixtures/puzlogic/generator.js), run in node and judged by the
project's own Python solvers: every level has exactly one solution, the generator's own JS
solver agrees with them, levels fit the schema and the screen, the same seed gives the same
level, and the levels vary."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import needs_node
from tests.conftest import run_node as run_node_with
from tests.puzlogic.conftest import known_solution, reference_levels, sum_box
from webbot.puzlogic.model import Placement, Puzzle
from webbot.puzlogic.solvers import is_unique, solutions

GENERATOR = Path(__file__).resolve().parents[2] / "fixtures" / "puzlogic" / "generator.js"
pytestmark = needs_node

SIZES = range(4, 17)
SEEDS = range(6)  # per size
VARIETY_SEEDS = range(60)  # one level each, sizes 6..16 in turn
SCREEN_ROWS, SCREEN_COLS, TRAY_WIDTH = 9, 12, 8  # grid rows above the tray, columns
MAX_HEIGHT, MAX_WIDTH = 7, 10  # a board's bounding box
ROW_SIDES, COL_SIDES = ("left", "right"), ("top", "bottom")


def run_node(script: str, data: Any = None) -> Any:
    return run_node_with(GENERATOR, script, data)


GENERATE = """
const out = input.map(([seed, size]) => {
  const times = [], levels = [];
  for (let k = 0; k < 2; k++) {  // twice: the same level, and the faster of two timings
    const start = process.hrtime.bigint();
    levels.push(G.generate(seed, size));
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const level = levels[0];
  return { seed, size, level, again: levels[1], ms: Math.min(...times),
           solution: G.solve(level), count: G.countSolutions(level, 3) };
});
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def sample() -> list[dict]:
    return run_node(GENERATE, [[seed, size] for size in SIZES for seed in SEEDS])


@pytest.fixture(scope="module")
def variety() -> list[dict]:
    return run_node(GENERATE, [[seed, 6 + seed % 11] for seed in VARIETY_SEEDS])


def ids(items: list[dict]) -> list[str]:
    return [f"size{item['size']}-seed{item['seed']}" for item in items]


def placements(rows: list) -> tuple[Placement, ...]:
    return tuple(sorted(Placement(*row) for row in rows))


def screen_problems(level: dict, size: int) -> list[str]:
    """Every way the level breaks the schema or does not fit the 800x600 screen."""
    problems = []
    cells = level["cells"]
    spots = [(r, c) for r, c, _ in cells]
    if len(set(spots)) != len(spots):
        problems.append("a cell is listed twice")
    if min(r for r, _ in spots) != 0 or min(c for _, c in spots) != 0:
        problems.append("the bounding box does not start at row 0 and column 0")
    height, width = 1 + max(r for r, _ in spots), 1 + max(c for _, c in spots)
    if height > MAX_HEIGHT or width > MAX_WIDTH:
        problems.append(f"the board is {height} x {width}")
    if any(v is not None and not 0 <= v <= 9 for _, _, v in cells):
        problems.append("a given is not a digit")
    free = sum(v is None for _, _, v in cells)
    if not free == len(level["pieces"]) == size:
        problems.append(f"{free} free cells, {len(level['pieces'])} pieces, size {size}")
    if any(not 0 <= p["value"] <= 9 or p["color"] not in ("blue", "white")
           for p in level["pieces"]):
        problems.append("a piece is not a blue or white digit")
    problems += sum_problems(level["sums"], spots, height, width)
    problems += tray_problems(level)
    if "tip" not in level:
        problems.append("no tip key")
    return problems


def sum_problems(sums: list[dict], spots: list, height: int, width: int) -> list[str]:
    problems = []
    sides = Counter(s["side"] for s in sums)
    if height + (sides["top"] > 0) + (sides["bottom"] > 0) > SCREEN_ROWS:
        problems.append("column sums do not fit above and below the board")
    if width + (sides["left"] > 0) + (sides["right"] > 0) > SCREEN_COLS:
        problems.append("row sums do not fit left and right of the board")
    places = Counter((s["line"], s["index"], s["side"]) for s in sums)
    kinds = Counter((s["line"], s["index"], s["counts"]) for s in sums)
    if max(places.values(), default=1) > 1 or max(kinds.values(), default=1) > 1:
        problems.append("two sums share a side cell, or a line has two sums of a kind")
    for s in sums:
        axis = 0 if s["line"] == "row" else 1
        allowed = ROW_SIDES if s["line"] == "row" else COL_SIDES
        if s["side"] not in allowed or s["counts"] not in ("all", "blue", "white"):
            problems.append(f"sum {s} has a bad side or kind")
        if not any(spot[axis] == s["index"] for spot in spots) or not 0 <= s["target"] <= 99:
            problems.append(f"sum {s} is on an empty line or out of range")
    return problems


def tray_problems(level: dict) -> list[str]:
    rows = level["tray_rows"]
    codes = [code for row in rows for code in row if code is not None]
    problems = []
    if not 1 <= len(rows) <= 2 or any(len(row) > TRAY_WIDTH for row in rows):
        problems.append(f"tray rows {rows} do not fit")
    if not all(re.fullmatch(r"\d[bw]", code) for code in codes):
        problems.append(f"tray rows {rows} hold something other than piece codes")
    pieces = [f"{p['value']}{p['color'][0]}" for p in level["pieces"]]
    if codes != pieces:
        problems.append(f"pieces {pieces} are not the tray's {codes}, in that order")
    return problems


def test_sample_covers_every_size(sample):
    assert sorted({item["size"] for item in sample}) == list(SIZES)
    assert len(sample) == len(SIZES) * len(SEEDS)


def test_every_level_has_exactly_one_solution(sample, variety):
    for item in sample + variety:
        assert is_unique(Puzzle.from_json(item["level"])), ids([item])


def test_js_solver_finds_the_python_solution(sample, variety):
    for item in sample + variety:
        python = solutions(Puzzle.from_json(item["level"]), limit=1)[0]
        assert item["count"] == 1, ids([item])
        assert placements(item["solution"]) == python, ids([item])


def test_levels_fit_the_schema_and_the_screen(sample, variety):
    for item in sample + variety:
        assert screen_problems(item["level"], item["size"]) == [], ids([item])


def test_same_seed_same_level(sample):
    for item in sample:
        assert json.dumps(item["again"]) == json.dumps(item["level"]), ids([item])
    again = run_node(GENERATE, [[item["seed"], item["size"]] for item in sample[:5]])
    assert [a["level"] for a in again] == [item["level"] for item in sample[:5]]
    assert len({json.dumps(item["level"]) for item in sample}) == len(sample)


def test_generation_is_fast(sample):
    slowest = max(sample, key=lambda item: item["ms"])
    assert slowest["ms"] < 200, ids([slowest])


def blocks(level: dict) -> int:
    """Connected groups of cells (sharing an edge)."""
    left = {(r, c) for r, c, _ in level["cells"]}
    count = 0
    while left:
        count += 1
        stack = [left.pop()]
        while stack:
            r, c = stack.pop()
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in left:
                    left.remove(near)
                    stack.append(near)
    return count


def test_levels_vary(variety):
    levels = [item["level"] for item in variety]
    kinds = Counter(s["counts"] for level in levels for s in level["sums"])
    colours = [{p["color"] for p in level["pieces"]} for level in levels]
    assert set(kinds) == {"all", "blue", "white"}
    assert sum(blocks(level) > 1 for level in levels) >= 6, "few boards of separate blocks"
    assert sum(blocks(level) == 1 for level in levels) >= 30, "few boards of one block"
    assert sum(c == {"blue", "white"} for c in colours) >= 30, "few levels of both colours"
    assert sum(c == {"blue"} for c in colours) >= 2, "no all-blue levels"
    assert sum(any(v is not None for _, _, v in level["cells"]) for level in levels) >= 50
    assert len({(1 + max(r for r, _, _ in level["cells"]), 1 + max(c for _, c, _ in level["cells"]))
                for level in levels}) >= 10, "few board sizes"
    assert len({p["value"] for level in levels for p in level["pieces"]}) == 10


def test_js_counts_agree_with_python_without_sums(sample):
    """With the sums taken away levels have many solutions, some differing only in colour."""
    bare = [dict(item["level"], sums=[]) for item in sample if item["size"] <= 8]
    counts = run_node("console.log(JSON.stringify(input.map((lv) => G.countSolutions(lv, 20))));",
                      bare)
    python = [len(solutions(Puzzle.from_json(level), limit=20)) for level in bare]
    assert counts == python
    assert max(counts) > 1


def test_js_solver_on_the_reference_levels():
    levels = reference_levels()
    if not levels:
        pytest.skip("../shared/reference is absent")
    found = run_node("console.log(JSON.stringify(input.map((lv) => "
                     "[G.countSolutions(lv, 2), G.solve(lv)])));", levels)
    for level, (count, solution) in zip(levels, found, strict=True):
        assert count == 1, level["level"]
        assert placements(solution) == known_solution(level), level["level"]


@pytest.mark.parametrize("size", [1, 21, 2.5, "8"])
def test_a_size_out_of_range_is_a_clear_error(size):
    message = run_node("try { G.generate(1, input); console.log('null'); } "
                       "catch (e) { console.log(JSON.stringify(e.message)); }", size)
    assert message is not None and "size (the number of pieces)" in message


def test_the_smallest_and_largest_sizes_work():
    levels = run_node("console.log(JSON.stringify([2, 3, 20].map((n) => G.generate(7, n))));")
    for level in levels:
        assert is_unique(Puzzle.from_json(level))


def test_no_two_sums_are_drawn_in_one_box(sample, variety):
    """The real game never draws sums over each other; 28 of 900 generated levels once did."""
    for item in [*sample, *variety]:
        level = item["level"]
        boxes = [sum_box(level, s) for s in level["sums"]]
        assert len(set(boxes)) == len(boxes), (item["seed"], item["size"], level["sums"])
