"""Decide: the policy that plays the wanted levels, from observations alone.

It opens each wanted level in turn (first the highest open level before it, while it is
locked), solves the puzzle read, places the pieces (all in one go, or one per look), drops a
piece again when it did not land, and restarts the level when the board went wrong. A reading
is trusted only when it has exactly one solution: several (a sum hidden by a right click)
mean a second reading, none a reading afresh after a restart. Pure: the solver is handed in,
and it is tested without a browser.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum

from webbot.errors import WebbotError
from webbot.puzlogic.model import (
    LevelButton,
    LevelView,
    Observation,
    Placement,
    Puzzle,
    Solution,
    UnreadableScreen,
)
from webbot.words import counted

DROP_TRIES = 2  # drags of one piece before the level is restarted
RESTARTS = 2  # restarts of one level before the run fails


class Kind(Enum):
    """What an action does. OPEN: from any screen into `level` (its puzzle read), or onto the
    level select when it is locked; PLACE: drag one piece, and those of `then` after it
    without a look between (`last`: the final drag ends the level); RESTART: the level's
    Restart button (`read`: and read the level again); REREAD: read it again."""

    OPEN = "open"
    PLACE = "place"
    RESTART = "restart"
    REREAD = "reread"


@dataclass(frozen=True)
class Solved:
    """What solving cost a decision, for the run's records: the milliseconds, the puzzle's
    pieces, and its one solution (None: none, or several)."""

    ms: float
    pieces: int
    solution: Solution | None


@dataclass(frozen=True)
class Action:
    kind: Kind
    level: int = 0
    placement: Placement | None = None
    last: bool = False
    unlocking: bool = False  # opened only to unlock a later wanted level
    read: bool = False
    then: tuple[Placement, ...] = ()
    solved: Solved | None = field(default=None, compare=False)  # solving done to decide it


def is_placed(view: LevelView, placement: Placement) -> bool:
    """Whether the placement's piece (its value and colour) sits on its cell."""
    piece = view.placed.get(placement.cell)
    return piece is not None and (piece.value, piece.color) == (placement.value,
                                                                placement.color)


def misplaced(view: LevelView, solution: Solution) -> bool:
    planned = {p.cell: (p.value, p.color) for p in solution}
    return any(planned.get(cell) != (p.value, p.color) for cell, p in view.placed.items())


def button(buttons: list[LevelButton], number: int) -> LevelButton:
    for candidate in buttons:
        if candidate.number == number:
            return candidate
    raise WebbotError(f"no button for level {number} on the level select "
                      f"(read {[b.number for b in buttons]})")


@dataclass
class Level:
    """One level under way: its puzzle, the solution being placed, and how it has gone."""

    number: int
    solve: Callable[[Puzzle], list[Solution]]
    drags_per_look: int | None = 1  # drags between two looks; None: every piece left
    puzzle: Puzzle | None = None
    found: list[Solution] = field(default_factory=list)
    solution: Solution | None = None
    fresh: bool = False  # the level has been seen as it starts (nothing placed, no error)
    checked: bool = False  # a reading without exactly one solution was read again
    placing: int = 0  # the first placement not seen on its cell
    tries: int = 0  # looks after drags of it so far
    restarts: int = 0
    cost: Solved | None = None  # solving done since the last action

    def next(self, observation: Observation) -> Action | None:
        """The next action on this level; None once it is completed."""
        if self.solution is None:
            return self._read(observation)
        if observation.screen == "completed":
            return None
        view = observation.view
        if observation.screen != "level" or view is None:
            return self._restart()
        left = [p for p in self.solution if not is_placed(view, p)]
        if self.tries:
            first = self.solution.index(left[0]) if left else len(self.solution)
            if first > self.placing:  # the look shows pieces landed: on from there
                self.placing, self.tries = first, 0
            elif view.red or misplaced(view, self.solution) or self.tries >= DROP_TRIES:
                return self._restart()
        if not left:  # the environment waits for the end itself
            raise WebbotError("every piece is on its cell, yet the level did not end")
        self.tries += 1
        drags = left[:self.drags_per_look] if self.drags_per_look else left
        return Action(Kind.PLACE, self.number, drags[0], last=len(drags) == len(left),
                      then=tuple(drags[1:]))

    def _read(self, observation: Observation) -> Action:
        """Solve the level as read; read it again when the reading is not to be trusted."""
        view, puzzle = observation.view, observation.puzzle
        if not self.fresh and view is not None:
            self.fresh = True
            if view.placed or view.red:  # left half done, or wrong: start afresh
                return Action(Kind.RESTART, self.number, read=True)
        if puzzle is None or view is None:
            return Action(Kind.REREAD, self.number)
        if not self.checked:
            self.found = self._solved(puzzle)
            if len(self.found) != 1:
                # None: misread somewhere, so read again; several: a sum hidden (by a right
                # click, say) shows again after a restart.
                self.checked, self.puzzle = True, puzzle
                return Action(Kind.RESTART, self.number, read=True) if self.found else \
                    Action(Kind.REREAD, self.number)
        elif puzzle != self.puzzle:
            self.found = self._solved(puzzle)
        if not self.found:
            raise UnreadableScreen("the board as read has no solution, so something was "
                                   "misread; least certain: " + "; ".join(view.weakest()))
        self.puzzle, self.solution = puzzle, self.found[0]
        return self.next(observation)

    def _solved(self, puzzle: Puzzle) -> list[Solution]:
        started = time.perf_counter()
        found = self.solve(puzzle)
        # (a solver that keeps its answers says what it searched since: once, whichever call
        # of it made the search)
        unreported = getattr(self.solve, "unreported_s", None)
        took_s = unreported() if callable(unreported) else time.perf_counter() - started
        ms = took_s * 1000 + (self.cost.ms if self.cost else 0.0)
        self.cost = Solved(ms, len(puzzle.pieces), found[0] if len(found) == 1 else None)
        return found

    def _restart(self) -> Action:
        if self.restarts >= RESTARTS:
            raise WebbotError(f"the board kept going wrong after {RESTARTS} restarts")
        self.restarts += 1
        self.placing, self.tries = 0, 0
        return Action(Kind.RESTART, self.number)


@dataclass
class Player:
    """The policy: each wanted level in order, through the levels that unlock it. Wanted
    None: the levels the level select does not show as finished (`before`), or all of them
    again when every one is; `said` hears which."""

    wanted: list[int] | None
    solve: Callable[[Puzzle], list[Solution]]
    drags_per_look: int | None = 1  # see Level
    said: Callable[[str], None] = lambda line: None
    before: set[int] = field(default_factory=set)
    completed: set[int] = field(default_factory=set)
    level: Level | None = None
    _next: int = 0  # index of the wanted level to play next
    _opening: Action | None = None
    _resumed: bool = False
    _select_asked: bool = False  # the way to the level select was asked for (wanted None)

    def resume(self) -> None:
        """The page was lost and reopened: the level under way is opened again from the
        start, and levels completed before may be locked again (the game may have forgotten
        them)."""
        self.level = None
        self.completed.clear()
        self._resumed = True
        self._select_asked = False

    def __call__(self, observation: Observation) -> Action | None:
        if self.wanted is None:
            return self._choose(observation)
        if self._resumed:
            self._resumed = False
            if self._opening is not None:
                return self._opening
        if self.level is not None:
            action = self.level.next(observation)
            if action is not None:
                return self._with_cost(action)
            self.completed.add(self.level.number)
            if self._opening is not None and not self._opening.unlocking:
                self._next += 1
            self.level = None
        elif self._opening is not None:
            action = self._opened(observation)
            if action is not None:
                return action
        if self._next >= len(self.wanted):
            return None
        self._opening = Action(Kind.OPEN, self.wanted[self._next])
        return self._opening

    def _choose(self, observation: Observation) -> Action | None:
        """The wanted levels, from the level select's buttons (level 0 is on no button: the
        way to it ends on the level select, its buttons read)."""
        buttons = [b for b in observation.buttons if b.number is not None]
        if observation.screen != "select" or not buttons:
            if self._select_asked and observation.screen == "select":
                raise UnreadableScreen("the level select, read, shows no level's button")
            self._select_asked = True
            return Action(Kind.OPEN, 0)
        self.before = {b.number for b in buttons if b.finished}
        self.wanted = [b.number for b in buttons if not b.finished]
        if not self.wanted:
            self.wanted = [b.number for b in buttons]
            self.said(f"all {len(self.wanted)} levels were done before this run: playing them "
                      "all again")
        elif self.before:
            self.said(f"{counted(len(self.before), 'level')} done before this run (kept in the "
                      f"profile): playing the {len(self.wanted)} not done")
        return self(observation)

    def _with_cost(self, action: Action | None) -> Action | None:
        """The action, with what solving cost its decision (the level's records hear of it
        when it is carried out)."""
        level = self.level
        if action is None or level is None or level.cost is None:
            return action
        action, level.cost = replace(action, solved=level.cost), None
        return action

    def _opened(self, observation: Observation) -> Action | None:
        """After an open: the level to play, or the level that unlocks it."""
        assert self._opening is not None
        number = self._opening.level
        view = observation.view
        if observation.screen == "level" and view is not None and view.level == number:
            self.level = Level(number, self.solve, self.drags_per_look)
            return self._with_cost(self.level.next(observation))
        target = button(observation.buttons, number)
        if target.unlocked:
            raise WebbotError(f"level {number} is open on the level select but did not start")
        opened = [b.number for b in observation.buttons
                  if b.unlocked and b.number and b.number < number]
        if not opened:
            raise WebbotError(f"level {number} is locked and no earlier level is open")
        before = max(opened)
        if before in self.completed:
            raise WebbotError(f"level {number} is still locked after level {before} was "
                              "completed")
        self._opening = Action(Kind.OPEN, before, unlocking=True)
        return self._opening
