"""Random puzzles with a planted solution, for tests and benchmarks.

A shuffled Latin square fills an N x N board (numbers 1..N); a share of the cells become free
and their numbers become pieces of random colour; some rows and columns get sums of every kind,
their targets taken from the planted solution. The puzzle is solvable by construction and may
have other solutions too.
"""

from __future__ import annotations

import random

from webbot.puzlogic.model import KINDS, Piece, Placement, Puzzle, Solution, Sum


def latin_puzzle(size: int, seed: int, free_share: float = 0.6, sum_share: float = 0.3
                 ) -> tuple[Puzzle, Solution]:
    rng = random.Random(seed)
    rows, cols, symbols = (rng.sample(range(size), size) for _ in range(3))
    square = {(r, c): symbols[(rows[r] + cols[c]) % size] + 1
              for r in range(size) for c in range(size)}
    free = set(rng.sample(sorted(square), round(free_share * size * size)))
    color = {cell: rng.choice(("blue", "white")) for cell in free}
    planted = tuple(sorted(Placement(*cell, square[cell], color[cell]) for cell in free))
    sums = []
    for line in ("row", "col"):
        for index in rng.sample(range(size), round(sum_share * size)):
            counts = rng.choice(KINDS)
            cells = [(index, k) if line == "row" else (k, index) for k in range(size)]
            target = sum(square[c] for c in cells
                         if counts == "all" or (c in free and color[c] == counts))
            sums.append(Sum(line, index, target, counts))
    cells = {cell: None if cell in free else value for cell, value in square.items()}
    pieces = tuple(sorted(Piece(p.value, p.color) for p in planted))
    return Puzzle(cells, pieces, tuple(sums)), planted
