"""Puzlogic as a game of the play loop, through the screen and the mouse only.

Each step is one intent of the policy (decide.py): open a level from whatever screen the game
shows (menus.py), and read it until two readings agree (eyes.py); drag pieces (all the level
needs, or one) and look which landed, and when they end the level wait for "Level
Completed"; press Restart (drops.py); read the level again. Every wait is for something seen,
but the one before pressing Next: for when the game took a press on the levels before (menus.py).
The run's records (records.py) keep how each level went.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path

from webbot.cache import home_relative
from webbot.errors import WebbotError
from webbot.game import GameSpec
from webbot.play import Playable
from webbot.puzlogic.act import Hands, Tempo
from webbot.puzlogic.decide import Action, Kind, Player, Solved
from webbot.puzlogic.drops import ENDING, LANDED, Drops
from webbot.puzlogic.eyes import Eyes
from webbot.puzlogic.menus import Menus
from webbot.puzlogic.model import Observation, Puzzle, Solution
from webbot.puzlogic.perceive import GLYPHS, SOLUTION_LEGEND, Reader, recognises, solution_marks
from webbot.puzlogic.records import LevelFailed, LevelResult, Records
from webbot.puzlogic.solvers import solutions
from webbot.screen import Screen
from webbot.seat import Seat
from webbot.session import Session
from webbot.vision.digits import DigitReader

__all__ = ["ENDING", "GAME", "LANDED", "LevelFailed", "LevelResult", "PuzlogicBot", "player"]

SCREENS = ("title", "select", "level", "completed")
# How long a first reading is solved for before the mouse is made ready on its first piece
# (the bundled levels take about a millisecond): a longer search waits for the puzzle read
# twice, the policy's, rather than hold the second reading up.
EARLY_SOLVE_S = 0.1
GAME = GameSpec("Puzlogic", "canvas", lambda candidate: recognises(candidate.grab().image))


class PuzlogicBot:
    """The game of the run loop: its rooms are the eyes (looking, reading), the menus, the
    drops and the run's records; the screen and hands are made when it finds the game, and
    anew on a page opened again."""

    def __init__(self, seat: Seat, *, reader: Reader | None = None,
                 report: Callable[[str], None] = print, tempo: Tempo | None = None,
                 solve: LastKept | None = None) -> None:
        self.seat = seat
        self.solve = solve  # the policy's solver: the hand made ready on a first reading
        self.report = report
        self.tempo = tempo or Tempo()
        self.reader = reader or Reader(DigitReader(seeds=GLYPHS, on_learning=self._learning))
        self.records = Records(report)
        self.phases = seat.recorder.phases  # the run's: its own phases nest in the loop's
        self.found_on: int | None = None  # the page the game was found on (its reopening)
        self.screen: Screen
        self.hands: Hands
        self.eyes: Eyes

    @property
    def results(self) -> list[LevelResult]:
        return self.records.results

    def ended(self, error: BaseException | None) -> BaseException | None:
        """The run's end (`error`: its failure): a level under way fails with it
        (LevelFailed), its line said either way."""
        if self.records.current is None:
            return None
        instead = self.records.failed(error) if isinstance(error, WebbotError) else None
        self.records.over()  # the level under way, however it ended
        return instead

    # ---- the game of the play loop -----------------------------------------------------------

    def find(self) -> None:
        """The game found on the page: a screen on it, hands for its mouse, and the rooms
        that use them."""
        camera = self.tempo.camera
        self.found_on = self.seat.reopened
        self.screen = self.seat.game_screen(GAME, timeout_s=15, report=self.report,
                                            fast=self.tempo.fast_grabs,
                                            streamed=camera != "pulled", stream_format=camera)
        self.hands = Hands(self.seat.mouse, self.tempo)
        self.eyes = Eyes(self.screen, self.reader, self.tempo, self.records,
                         self.seat.recorder, self.phases)
        self.menus = Menus(self.eyes, self.hands, self.records, self.phases,
                           self._hand_ready)
        self.drops = Drops(self.eyes, self.hands, self.records, self.phases, self.tempo)

    def reset(self) -> Observation:
        if self.found_on != self.seat.reopened:  # first, or a new page after a recovery
            if self.found_on is not None:
                self.records.recovered()
            self.find()
        self.observation = self.eyes.wait_for(
            lambda observation: observation.screen in SCREENS,
            "a Puzlogic screen (title, level select, level)", 20, "start")
        return self.observation

    def step(self, action: Action) -> Observation:
        if action.solved is not None:
            self._solved(action.solved)
        if action.kind is Kind.OPEN:
            self.observation = self.menus.open(self.observation, action)
        elif action.kind is Kind.PLACE:
            assert action.placement is not None
            self.observation = self.drops.place(self.observation,
                                                (action.placement, *action.then), action.last)
        elif action.kind is Kind.RESTART:
            self.observation = self.drops.restart(self.observation)
            if not action.read:
                self.records.restarted()
            if action.read:
                self.observation = self.eyes.read_level(self.observation, self._hand_ready)
        elif action.kind is Kind.REREAD:  # a look not read yet counts as the first reading
            unread = self.observation if self.observation.puzzle is None else None
            self.observation = self.eyes.read_level(unread, self._hand_ready)
        return self.observation

    def result(self) -> list[LevelResult]:
        return self.results

    def _hand_ready(self, first: Observation) -> Callable[[], None] | None:
        """The mouse made ready on the tray piece the first reading's one solution drags first
        (Hands.ready), its move going out while the second picture comes: the drag then
        starts there, a frame and the way's check sooner. A second reading that differs only
        moves the mouse elsewhere (the game takes a piece on a press, not on a hover). None
        when the policy would not drag first."""
        view = first.view
        if self.solve is None or view is None or view.placed or view.red:
            return None  # (a board left half done or wrong is restarted first)
        try:
            with self.phases("deciding"):
                found = self.solve.early(view.puzzle(), EARLY_SOLVE_S)
            piece = Drops.tray_piece(first, found[0][0], []) if found and len(found) == 1 \
                else None
        except WebbotError:  # (unreadable, no such piece: the policy says why)
            return None
        return None if piece is None else functools.partial(self.hands.ready, first,
                                                               piece.spot.centre)

    def _solved(self, solved: Solved) -> None:
        """What the policy's solving cost, in the level's records; its solution drawn on the
        reading it came from (the debug folder)."""
        self.records.solved(solved.ms, solved.pieces)  # (its time: the run loop's deciding)
        read = self.eyes.last_read
        if solved.solution is not None and read is not None and read.view is not None \
                and read.puzzle == self.observation.puzzle:
            self.eyes.annotated(read, "solution",
                                solution_marks(read.view, read.picture, solved.solution),
                                SOLUTION_LEGEND)

    def _learning(self, cache: Path) -> None:
        kept = home_relative(cache.parent)
        self.report(f"learning Puzlogic's digits (new to the bot; kept in {kept})")


def player(session: Session, levels: list[int] | None = None, *, solver: str = "auto",
           reader: Reader | None = None, tempo: Tempo | None = None,
           report: Callable[[str], None] = lambda line: None
           ) -> Playable[Observation, Action, list[LevelResult]]:
    """Puzlogic's one factory (its registration's player): the bot on `session`'s page and its
    policy for `levels` (None: those not finished, as `webbot puzlogic` plays)."""
    # (two: a doubt, see Level; the last kept: the bot solves a first reading, the policy
    # the same puzzle read twice)
    solve = LastKept(functools.partial(solutions, backend=solver, limit=2))
    bot = PuzlogicBot(session, reader=reader, report=report, tempo=tempo, solve=solve)
    policy = Player(None if levels is None else list(levels), solve, bot.tempo.drags_per_look,
                    said=report)
    return Playable.on(session, bot, policy, report, bot.ended)


class LastKept:
    """A solver (`solve(puzzle, timeout_s=...)`) with its last puzzle's answer (its solutions,
    or its error: a search that timed out is not waited for twice) kept for another call on
    an equal puzzle: the bot solves a first reading early, the policy the puzzle read twice."""

    def __init__(self, solve: Callable[..., list[Solution]]) -> None:
        self.solve = solve
        self._last: tuple[Puzzle, list[Solution] | WebbotError] | None = None
        self._unreported = 0.0  # seconds of search no call has reported yet

    def __call__(self, puzzle: Puzzle) -> list[Solution]:
        if self._last is None or self._last[0] != puzzle:
            started = time.perf_counter()
            try:
                self._last = (puzzle, self.solve(puzzle))
            except WebbotError as exc:
                self._last = (puzzle, exc)
            finally:
                self._unreported += time.perf_counter() - started
        answer = self._last[1]
        if isinstance(answer, WebbotError):
            raise answer.with_traceback(None)
        return list(answer)

    def early(self, puzzle: Puzzle, seconds: float) -> list[Solution] | None:
        """A first reading's solutions, searched for `seconds` at most: kept as a call's when
        found in time; None, and nothing kept, when the search takes longer or fails (the
        policy searches the puzzle read twice with its own time, and says why)."""
        if self._last is not None and self._last[0] == puzzle:
            answer = self._last[1]
            return None if isinstance(answer, WebbotError) else list(answer)
        started = time.perf_counter()
        try:
            found = self.solve(puzzle, timeout_s=seconds)
        except WebbotError:
            return None
        finally:
            self._unreported += time.perf_counter() - started
        self._last = (puzzle, found)
        return list(found)

    def unreported_s(self) -> float:
        """The seconds searched since the last time this was asked (the records' solving: a
        search is counted once, whichever call made it)."""
        seconds, self._unreported = self._unreported, 0.0
        return seconds
