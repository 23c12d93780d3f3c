from __future__ import annotations

import json

import pytest

from tests.conftest import REFERENCE
from webbot.puzlogic.model import Placement, Puzzle

LEVELS_FILE = REFERENCE / "puzlogic" / "levels.json"


def bundled_levels() -> list[dict]:
    """The replica's own level file (fixtures/puzlogic/levels.json)."""
    from webbot.server import fixtures_root

    return json.loads((fixtures_root() / "puzlogic" / "levels.json").read_text())["levels"]


def reference_levels() -> list[dict]:
    if not LEVELS_FILE.exists():
        return []
    return json.loads(LEVELS_FILE.read_text())["levels"]


needs_reference = pytest.mark.skipif(not LEVELS_FILE.exists(),
                                     reason="../shared/reference is absent")


def known_solution(level: dict) -> tuple[Placement, ...]:
    return tuple(sorted(Placement(*p) for p in level["solution"]))


def level_puzzle(level: dict) -> Puzzle:
    return Puzzle.from_json(level)


def comparable(level: dict) -> tuple:
    """A level without layout details: cells, the multiset of pieces, sums with their kinds."""
    return (sorted(tuple(c) for c in level["cells"]),
            sorted((p["value"], p["color"]) for p in level["pieces"]),
            sorted((s["line"], s["index"], s["target"], s["counts"]) for s in level["sums"]))


def sum_box(puzzle: dict, s: dict) -> tuple[int, int]:
    """The grid box a sum is drawn in: beside the first or last cell of its line."""
    axis = 0 if s["line"] == "row" else 1
    along = [c[1 - axis] for c in puzzle["cells"] if c[axis] == s["index"]]
    step = -1 if s["side"] in ("left", "top") else 1
    spot = (min(along) if step < 0 else max(along)) + step
    return (s["index"], spot) if axis == 0 else (spot, s["index"])
