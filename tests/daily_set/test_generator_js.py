"""The Daily SET replica's puzzle generator (fixtures/daily-set/javascript/PuzzleGenerator.js),
run in node and judged in Python: 12 distinct cards holding exactly 6 sets, the sets it lists
are the ones Python finds with the site's card numbering, the same seed gives the same puzzle,
seeds vary, and ?seed= query strings are read as the pages read them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import needs_node
from tests.conftest import run_node as run_node_with
from tests.daily_set.conftest import attributes, is_set, sets_among

GENERATOR = (Path(__file__).resolve().parents[2] / "fixtures" / "daily-set" / "javascript"
             / "PuzzleGenerator.js")
pytestmark = needs_node

SEEDS = range(301)
def run_node(script: str, data: Any = None) -> Any:
    return run_node_with(GENERATOR, script, data)


GENERATE = """
const out = input.map((seed) => {
  const times = [], puzzles = [];
  for (let k = 0; k < 2; k++) {  // twice: the same puzzle, and the faster of two timings
    const start = process.hrtime.bigint();
    puzzles.push(G.generate(seed));
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { seed, puzzle: puzzles[0], again: puzzles[1], ms: Math.min(...times) };
});
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def sample() -> list[dict]:
    return run_node(GENERATE, list(SEEDS))


def test_the_python_numbering_and_rule():
    # 1, 2, 3 red solid squiggles are a set; 1 red, 2 red, 3 purple solid squiggles are not.
    assert is_set((1, 2, 3))
    assert not is_set((1, 2, 6))
    assert attributes(16) == (1, "green", "diamond", "solid")  # the real page's alt text


def test_twelve_distinct_cards(sample):
    for item in sample:
        cards = item["puzzle"]["cards"]
        assert len(cards) == 12 == len(set(cards)), item["seed"]
        assert all(isinstance(card, int) and 1 <= card <= 81 for card in cards), item["seed"]


def test_exactly_six_sets_and_the_listed_ones(sample):
    for item in sample:
        found = sets_among(item["puzzle"]["cards"])
        assert len(found) == 6, item["seed"]
        assert item["puzzle"]["sets"] == found, item["seed"]


def test_same_seed_same_puzzle(sample):
    for item in sample:
        assert item["again"] == item["puzzle"], item["seed"]
    again = run_node(GENERATE, [item["seed"] for item in sample[:10]])
    assert [a["puzzle"] for a in again] == [item["puzzle"] for item in sample[:10]]


def test_seeds_vary(sample):
    puzzles = [item["puzzle"] for item in sample]
    assert len({tuple(p["cards"]) for p in puzzles}) == len(puzzles)
    assert len({json.dumps(p["sets"]) for p in puzzles}) > len(puzzles) // 2
    uses = Counter(card for p in puzzles for card in p["cards"])
    assert set(uses) == set(range(1, 82)), "some card never appears"
    # Every card is about equally likely: 301 puzzles x 12 cards / 81 is about 45 each.
    assert min(uses.values()) > 15 and max(uses.values()) < 90


def test_generation_is_fast(sample):
    slowest = max(sample, key=lambda item: item["ms"])
    assert slowest["ms"] < 50, slowest["seed"]


QUERY = """
const out = input.map((search) => {
  const puzzle = G.fromQuery(search);
  return puzzle && { seed: puzzle.seed, cards: puzzle.cards, sets: puzzle.sets };
});
console.log(JSON.stringify(out));
"""


def test_query_strings():
    searches = ["", "?", "?level=3", "?seed=", "?seed=7", "?x=1&seed=7#top", "?seed=-1",
                "?seed=4294967303", "?seed=abc", "?seed=abc", "?seed=random", "?seed=random"]
    found = run_node(QUERY, searches)
    assert found[:4] == [None] * 4
    seven = run_node("console.log(JSON.stringify(G.generate(7)));")
    assert found[4] == found[5] == found[7] == seven  # 2**32 + 7 wraps to 7
    assert found[6]["seed"] == 2**32 - 1
    assert found[8] == found[9] and found[8] != seven
    assert found[10] != found[11], "two random puzzles were the same"
    for puzzle in found[4:]:
        assert puzzle["sets"] == sets_among(puzzle["cards"]) and len(puzzle["sets"]) == 6


@pytest.mark.parametrize("seed", [2.5, "7", None])
def test_a_seed_that_is_not_an_integer_is_a_clear_error(seed):
    message = run_node("try { G.generate(input); console.log('null'); } "
                       "catch (e) { console.log(JSON.stringify(e.message)); }", seed)
    assert message is not None and "the seed must be an integer" in message
