"""The fast exact solver: propagation over numpy candidate tables, narrowest choice first.

At every step the search works out, for each open cell, which pieces it may still take: the
number is not yet in its row or column, such a piece is still in hand, and the sums on its lines
can still hit their targets afterwards (an exact per-line subset-sum over the pieces in hand).
It rejects the state when a cell has no candidate or a number's pieces outnumber the cells,
rows or columns that could still take it.

Colour only matters on lines with a blue or white sum. Elsewhere a cell takes a number, and
the colours of such cells are dealt out at the end from what is left, so the search never
guesses a colour that no rule asks for. It fills the colour-bound cells first, fewest
candidates first, taking any forced move on the way (a row or column bound to hold a number,
because that number has exactly as many pieces left as lines that could take it, with a single
cell for it); then the rest, branching on the narrowest of a cell and such a bound line. Every
branching is exhaustive and disjoint, so the same search enumerates every solution.

A few early choices can trap a depth-first search on a large board for a long time while most
orderings finish at once, so the first solution is sought with restarts: random tie-breaks and
branch order, and a node budget growing by half each time. A run that ends within its budget
has searched completely, so "no solution" remains a proof.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from itertools import combinations

import numpy as np

from webbot.puzlogic.model import Placement, Puzzle, Solution
from webbot.puzlogic.solvers.deadline import UNLIMITED, SolverDeadline

COLORS = ("blue", "white")
ANY = 0  # the colour slot a colour-blind cell uses in the candidate table


class _Sum:
    def __init__(self, kind: str, target: int, total: int, axis: int, line: int) -> None:
        self.kind = kind
        self.counted = (True, True) if kind == "all" else (kind == "blue", kind == "white")
        self.target, self.total, self.axis, self.line = target, total, axis, line


class _Cutoff(Exception):
    """The search used up its node budget (a restart follows)."""


class _Search:
    def __init__(self, puzzle: Puzzle, cache: dict, rng: np.random.Generator | None = None,
                 node_limit: float = np.inf, deadline: SolverDeadline = UNLIMITED) -> None:
        self.deadline = deadline
        self.numbers = sorted({p.value for p in puzzle.pieces})
        column = {v: k for k, v in enumerate(self.numbers)}
        rows = sorted({r for r, _ in puzzle.cells})
        cols = sorted({c for _, c in puzzle.cells})
        line_of = ({r: k for k, r in enumerate(rows)}, {c: k for k, c in enumerate(cols)})
        self.free = puzzle.free
        n_free, n_values = len(self.free), len(self.numbers)
        self.cell_line = tuple(np.array([line_of[a][cell[a]] for cell in self.free], np.intp)
                               for a in (0, 1))
        self.members = []  # per axis: (lines x free cells) 0/1 matrix
        for axis, n_lines in ((0, len(rows)), (1, len(cols))):
            m = np.zeros((n_lines, n_free), np.float32)
            m[self.cell_line[axis], np.arange(n_free)] = 1
            self.members.append(m)
        self.used = [np.zeros((len(rows), n_values), bool), np.zeros((len(cols), n_values), bool)]
        self.consistent = True
        for (r, c), v in puzzle.cells.items():
            if v in column:
                k, at = column[v], (line_of[0][r], line_of[1][c])
                self.consistent &= not (self.used[0][at[0], k] or self.used[1][at[1], k])
                self.used[0][at[0], k] = self.used[1][at[1], k] = True
        self.colored = np.zeros((2, n_values), np.int64)  # pieces given, by [colour, number]
        for p in puzzle.pieces:
            self.colored[COLORS.index(p.color), column[p.value]] += 1
        self.in_hand = self.colored.sum(0)  # pieces not yet placed, by number
        self.placed = np.zeros_like(self.colored)  # placed on colour-bound cells
        self.open = np.ones(n_free, bool)
        self.open_in_line = [np.bincount(self.cell_line[a], minlength=len(lines)).tolist()
                             for a, lines in ((0, rows), (1, cols))]

        self.sums = []
        for s in puzzle.sums:
            a = 0 if s.line == "row" else 1
            givens = sum(v or 0 for cell, v in puzzle.cells.items() if cell[a] == s.index)
            self.sums.append(_Sum(s.counts, s.target, givens if s.counts == "all" else 0,
                                  a, line_of[a][s.index]))
        self.sums_on = [[[s for s in self.sums if s.axis == a and s.line == line]
                         for line in range(len(lines))] for a, lines in ((0, rows), (1, cols))]
        self.colour_matters = np.array([
            any(s.kind != "all" for a in (0, 1) for s in self.sums_on[a][self.cell_line[a][i]])
            for i in range(n_free)], bool)
        self.chosen: dict[int, tuple[int, int | None]] = {}  # cell -> (number, colour or None)
        self._cache = cache
        self.rng = rng
        self.nodes_left = node_limit

    def _available(self) -> np.ndarray:
        """(colour x number): a piece of that colour can still go to a colour-bound cell."""
        return (self.colored > self.placed) & (self.in_hand > 0)

    def _line_rule(self, s: _Sum, cells: int, have: list[np.ndarray]) -> np.ndarray | None:
        """What a sum lets its line take next, as a (colour x number) mask, or None when the
        target is out of reach. It works out the totals the line's `cells` open cells can
        still add (each number at most once in a line; a piece adds only if the sum counts
        its colour) with a subset-sum over bitsets, and admits a piece only if the remaining
        cells can then make up the rest."""
        need = s.target - s.total
        key = (s.counted, cells, need, have[0].tobytes(), have[1].tobytes())
        if key not in self._cache:
            cap = (1 << (need + 1)) - 1
            layers = [1] + [0] * cells  # layers[j]: bit t set when j cells can add up to t
            for k in np.flatnonzero(have[0] | have[1]):
                adds = {self.numbers[k] if s.counted[c] else 0 for c in (0, 1) if have[c][k]}
                for j in range(cells, 0, -1):
                    for add in adds:
                        layers[j] |= (layers[j - 1] << add) & cap
            after = layers[cells - 1]
            mask = np.empty((2, len(self.numbers)), bool)
            for c in (0, 1):
                if s.counted[c]:
                    mask[c] = [v <= need and bool(after >> (need - v) & 1) for v in self.numbers]
                else:
                    mask[c] = bool(after >> need & 1)
            self._cache[key] = mask if layers[cells] >> need & 1 else None
        return self._cache[key]

    def _sum_masks(self, available: np.ndarray) -> list[np.ndarray] | None:
        """Per axis, (lines x colour x number): which pieces each line's sums still admit."""
        masks = [np.ones((len(u), 2, len(self.numbers)), bool) for u in self.used]
        for s in self.sums:
            n_open = self.open_in_line[s.axis][s.line]
            need = s.target - s.total
            if need < 0 or (n_open == 0 and need != 0):
                return None
            if n_open == 0:
                continue
            fresh = ~self.used[s.axis][s.line]
            rule = self._line_rule(s, n_open, [fresh & available[0], fresh & available[1]])
            if rule is None:
                return None
            masks[s.axis][s.line] &= rule
        return masks

    def _candidates(self, cells: np.ndarray) -> np.ndarray | None:
        """(cells x colour x number) table of what each open cell may take, or None if dead.
        A colour-blind cell uses only the ANY slot."""
        available = self._available()
        masks = self._sum_masks(available)
        if masks is None:
            return None
        rows, cols = self.cell_line[0][cells], self.cell_line[1][cells]
        fresh = ~(self.used[0][rows] | self.used[1][cols])
        table = fresh[:, None, :] & available[None] & masks[0][rows] & masks[1][cols]
        blind = ~self.colour_matters[cells]
        table[blind, ANY] = (fresh[blind] & (self.in_hand > 0) & masks[0][rows[blind], ANY]
                             & masks[1][cols[blind], ANY])
        table[blind, 1 - ANY] = False
        return table

    def _place(self, i: int, c: int, k: int, delta: int) -> None:
        r, col = self.cell_line[0][i], self.cell_line[1][i]
        self.open[i] = delta < 0
        self.used[0][r, k] = self.used[1][col, k] = delta > 0
        self.in_hand[k] -= delta
        self.open_in_line[0][r] -= delta
        self.open_in_line[1][col] -= delta
        for s in self.sums_on[0][r] + self.sums_on[1][col]:
            s.total += delta * self.numbers[k] if s.counted[c] else 0
        if self.colour_matters[i]:
            self.placed[c, k] += delta
        if delta > 0:
            self.chosen[i] = (k, c if self.colour_matters[i] else None)
        else:
            del self.chosen[i]

    def _colourings(self) -> Iterator[Solution]:
        """Every way to deal the pieces left over to the colour-blind cells."""
        blind: dict[int, list[int]] = {}
        for i, (k, c) in self.chosen.items():
            if c is None:
                blind.setdefault(k, []).append(i)
        fixed = [Placement(*self.free[i], self.numbers[k], COLORS[c])
                 for i, (k, c) in self.chosen.items() if c is not None]
        spare_blue = {k: int(self.colored[0, k] - self.placed[0, k]) for k in blind}

        # Lazily: on a large board one number alone can be dealt in millions of ways.
        def deal(numbers: list[int]) -> Iterator[list[tuple[int, set[int]]]]:
            if not numbers:
                yield []
                return
            k = numbers[0]
            for pick in combinations(blind[k], spare_blue[k]):
                for rest in deal(numbers[1:]):
                    yield [(k, set(pick)), *rest]

        for choice in deal(list(blind)):
            self.deadline.check()
            dealt = [Placement(*self.free[i], self.numbers[k], "blue" if i in blues else "white")
                     for k, blues in choice for i in blind[k]]
            yield tuple(sorted(fixed + dealt))

    def _branches(self, cells: np.ndarray) -> list[tuple[int, int, int]]:
        """The moves (cell, colour, number) to try next; none when the state is dead."""
        allowed = self._candidates(cells)
        if allowed is None:
            return []
        choices = allowed.sum((1, 2))
        any_color = allowed.any(1)
        if choices.min() == 0 or (any_color.sum(0) < self.in_hand).any():
            return []
        order = choices + 1000 * ~self.colour_matters[cells]  # colour-bound cells first
        if self.rng is not None:  # break ties between equally narrow cells at random
            order = order + self.rng.random(len(choices)) * 0.5
        best = int(np.argmin(order))
        best_count = choices[best]
        colour_phase = self.colour_matters[cells[best]]
        branch = [(int(cells[best]), int(c), int(k))
                  for c, k in zip(*np.nonzero(allowed[best]), strict=True)]
        weights = any_color.astype(np.float32)
        for axis in (0, 1):
            hits = self.members[axis][:, cells] @ weights  # candidate cells per (line, number)
            lines_able = (hits > 0).sum(0)
            if (lines_able < self.in_hand).any():
                return []
            bound = np.flatnonzero((lines_able == self.in_hand) & (self.in_hand > 0))
            if bound.size and best_count > 1:
                sub = np.where(hits[:, bound] > 0, hits[:, bound], np.inf)
                line, j = np.unravel_index(int(np.argmin(sub)), sub.shape)
                if sub[line, j] < best_count and (sub[line, j] == 1 or not colour_phase):
                    best_count, k = sub[line, j], int(bound[j])
                    where = (self.cell_line[axis][cells] == line) & any_color[:, k]
                    branch = [(int(cells[n]), c, k) for n in np.flatnonzero(where)
                              for c in (0, 1) if allowed[n, c, k]]
        if self.rng is not None:
            self.rng.shuffle(branch)
        return branch

    def search(self) -> Iterator[Solution]:
        self.deadline.check()
        self.nodes_left -= 1
        if self.nodes_left < 0:
            raise _Cutoff
        cells = np.flatnonzero(self.open)
        if len(cells) == 0:
            if self._sum_masks(self._available()) is not None:  # sums on fully given lines
                yield from self._colourings()
            return
        for i, c, k in self._branches(cells):
            self._place(i, c, k, +1)
            yield from self.search()
            self._place(i, c, k, -1)


def _first_solution(puzzle: Puzzle, cache: dict, budget: float, deadline: SolverDeadline
                    ) -> Solution | None:
    """One solution, or None when there is none, by restarts (see the module's docstring)."""
    for attempt in range(1, 1000):
        budget *= 1.5
        try:
            rng = np.random.default_rng(attempt)
            return next(_Search(puzzle, cache, rng, budget, deadline).search(), None)
        except _Cutoff:
            pass
    return next(_Search(puzzle, cache, deadline=deadline).search(), None)


def solutions(puzzle: Puzzle, deadline: SolverDeadline = UNLIMITED, budget: float = 1000
              ) -> Iterator[Solution]:
    # The search goes one call deeper per placement; a 50 x 50 board has 2,500 free cells.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2 * len(puzzle.free) + 1000))
    cache: dict = {}
    search = _Search(puzzle, cache, node_limit=budget, deadline=deadline)
    if not search.consistent:
        return
    try:
        for solution in search.search():
            search.nodes_left = np.inf  # found one: from here on, enumerate without limit
            yield solution
        return
    except _Cutoff:  # only possible before the first solution
        pass
    first = _first_solution(puzzle, cache, budget, deadline)
    if first is not None:
        yield first
        yield from (s for s in _Search(puzzle, cache, deadline=deadline).search() if s != first)
