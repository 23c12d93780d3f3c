"""Puzlogic as a game of the play loop, through the screen and the mouse only.

Each step is one intent of the policy (decide.py): open a level from whatever screen the game
shows (through the level select; Next or the menu on "Level Completed"), and read it until two
readings agree; drag pieces (all the level needs, or one) and look which landed (and, when they
end the level, wait for "Level Completed"); press Restart; read the level again. Every wait is
for something seen.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from webbot.cache import home_relative
from webbot.errors import WaitTimeout, WebbotError
from webbot.game import GameSpec
from webbot.phases import Phases
from webbot.play import play
from webbot.puzlogic.act import Hands, Tempo
from webbot.puzlogic.decide import Action, Kind, Player, is_placed
from webbot.puzlogic.model import (
    LevelButton,
    LevelView,
    Observation,
    Placement,
    Puzzle,
    SeenPiece,
    Solution,
    Spot,
    UnreadableScreen,
)
from webbot.puzlogic.perceive import (
    GLYPHS,
    READ_LEGEND,
    SOLUTION_LEGEND,
    Reader,
    classify,
    completed_buttons,
    hud_button,
    marks,
    normalise,
    overlay_settled,
    recognises,
    slot_empty,
    solution_marks,
    spot_mark,
)
from webbot.puzlogic.solvers import solutions
from webbot.recovery import Recovery
from webbot.screen import Grab, Screen
from webbot.session import Session
from webbot.vision.digits import DigitReader
from webbot.vision.labels import Key
from webbot.vision.marks import Mark
from webbot.vision.region import GameNotFound

READ_TRIES = 5  # grabs to try when a reading has doubts (a drifting leaf, say)
BOX_CHECKS = 3  # grabs in which a drop is looked for on its two boxes before a whole reading
SELECT_CLEAR_S = 15  # to wait for a look at the level select with no leaf over a button
# Between looks at a level select a leaf covers: a leaf takes seconds to cross a button, so
# looking at every frame (60 a second) would only burn the machine's CPU.
SELECT_LOOK_S = 0.2
SCREENS = ("title", "select", "level", "completed")
LANDED, NOT_THERE = (0, 160, 0), (0, 0, 255)  # BGR, of the marks after a drop
ENDING = (0, 140, 255)  # BGR: the last drop's cells while the level's board fades out
DROP_LEGEND = (Key("landed", LANDED, "the piece is seen on the cell it was dropped on"),
               Key("not there", NOT_THERE, "it is not (the screen seen then)"),
               Key("level ends", ENDING, "the board fades out after the last piece: the "
                   "screen after it tells"))
GAME = GameSpec("Puzlogic", "canvas", lambda candidate: recognises(candidate.grab().image))


class LevelFailed(WebbotError):
    """A level could not be completed; the run stops there."""


@dataclass
class LevelResult:
    level: int
    pieces: int = 0
    perception_ms: list[float] = field(default_factory=list)
    solve_ms: float = 0.0
    seconds: float = 0.0
    result: str = "not played"
    unlocking: bool = False  # played only to open a later wanted level
    restarts: int = 0
    recoveries: int = 0  # times the page was lost and reopened during the level

    @property
    def completed(self) -> bool:
        return self.result == "completed"

    @property
    def median_perception_ms(self) -> float:
        return statistics.median(self.perception_ms) if self.perception_ms else 0.0


class PuzlogicBot:
    def __init__(self, session: Session, *, solver: str = "auto", reader: Reader | None = None,
                 report: Callable[[str], None] = print, tempo: Tempo | None = None) -> None:
        self.session = session
        self.report = report
        self.tempo = tempo or Tempo()
        self.recovery = Recovery(session, report)
        self.screen: Screen
        self.hands: Hands
        self.recovery.attempt(self._find)
        self.reader = reader or Reader(DigitReader(seeds=GLYPHS, on_learning=self._learning))
        self.solver = solver
        self.results: list[LevelResult] = []
        self._current: LevelResult | None = None
        self._started = 0.0
        self._drops = 0  # on the level under way
        self._read: Observation | None = None  # the level as last read, for its solution
        self.phases = Phases()  # where the time goes (scripts/bench_puzlogic.py)

    def play(self, wanted: list[int]) -> list[LevelResult]:
        """Play the wanted levels in order; stops at the first level that fails."""
        with self.phases("menus"):
            try:
                return play(self, Player(list(wanted), self.solve,
                                                   self.tempo.drags_per_look), self.recovery,
                            self.session.recorder.phases, self.session.settle)
            except WebbotError as exc:
                if self._current is None:
                    raise
                self._current.result = f"failed: {exc}"
                raise LevelFailed(f"level {self._current.level}: {exc}") from None
            finally:
                if self._current is not None:  # the level under way, however the run ended
                    self._level_over()

    def level_select(self) -> list[LevelButton]:
        """The level select's buttons, each finished or not (the game keeps that in the page's
        storage: earlier runs on the profile), looked at before playing. (Level 0 is on no
        button: the way to it ends on the level select, its buttons read.)"""
        with self.phases("menus"):
            self.observation = self.open(self.reset(), Action(Kind.OPEN, level=0))
        return [b for b in self.observation.buttons if b.number is not None]

    # ---- the game of the play loop -----------------------------------------------------------

    def _find(self) -> None:
        """The game found on the session's page: a screen on it, and hands for its mouse."""
        camera = self.tempo.camera
        self.screen = self.session.game_screen(GAME, timeout_s=15, report=self.report,
                                               fast=self.tempo.fast_grabs,
                                               streamed=camera != "pulled", stream_format=camera)
        self.hands = Hands(self.session.mouse, self.tempo)

    def reset(self) -> Observation:
        if self.screen.page is not self.session.page:  # a new page, after a recovery
            self._find()
            if self._current is not None:
                self._current.recoveries += 1
        self.observation = self.wait_for(lambda observation: observation.screen in SCREENS,
                                  "a Puzlogic screen (title, level select, level)", 20, "start")
        return self.observation

    def step(self, action: Action) -> Observation:
        if action.kind is Kind.OPEN:
            self.observation = self.open(self.observation, action)
        elif action.kind is Kind.PLACE:
            assert action.placement is not None
            self.observation = self.place(self.observation, (action.placement, *action.then),
                                          action.last)
        elif action.kind is Kind.RESTART:
            self.observation = self.restart(self.observation)
            if self._current is not None and not action.read:
                self._current.restarts += 1
            if action.read:
                self.observation = self.read_level(self.observation)
        elif action.kind is Kind.REREAD:  # a look not read yet counts as the first reading
            unread = self.observation if self.observation.puzzle is None else None
            self.observation = self.read_level(unread)
        return self.observation

    def result(self) -> list[LevelResult]:
        return self.results

    def solve(self, puzzle: Puzzle) -> list[Solution]:
        """At most two solutions (one is the answer; two, a reading not to trust), timed."""
        started = time.perf_counter()
        with self.phases("solving"):
            found = solutions(puzzle, self.solver, limit=2)
        if self._current is not None:
            self._current.solve_ms += (time.perf_counter() - started) * 1000
            self._current.pieces = len(puzzle.pieces)
        read = self._read
        if found and read is not None and read.view is not None and read.puzzle == puzzle:
            self._annotated(read, "solution", solution_marks(read.view, read.picture, found[0]),
                            SOLUTION_LEGEND)
        return found

    # ---- looking ---------------------------------------------------------------------------

    def look(self, grab: Grab | None = None, label: str = "frame",
             read: bool = True) -> Observation:
        """What a grab shows; on a level, the board read too unless `read` is False."""
        grab = grab or self.screen.grab(label)
        started = time.perf_counter()
        picture = normalise(grab.image)
        screen = classify(picture)
        view = self.reader.read_level(picture) if screen == "level" and read else None
        if self._current is not None:
            self._current.perception_ms.append((time.perf_counter() - started) * 1000)
        return Observation(grab, picture, screen, view)

    def wait_for(self, test: Callable[[Observation], bool], what: str, timeout_s: float = 10,
                 label: str = "frame", read: bool = True, poll_s: float | None = None
                 ) -> Observation:
        """Look again and again until `test` holds (no fixed sleeps), `poll_s` (the tempo's
        by default) between looks."""
        found: list[Observation] = []

        def condition(grab: Grab) -> bool:
            try:
                observation = self.look(grab, read=read)
            except (GameNotFound, UnreadableScreen):
                return False
            if test(observation):
                found.append(observation)
                return True
            return False

        self.screen.wait_until(condition, what=what, timeout_s=timeout_s, label=label,
                               poll_s=self.tempo.poll_s if poll_s is None else poll_s)
        return found[-1]

    def wait_for_screen(self, *screens: str, timeout_s: float = 10,
                        read: bool = True) -> Observation:
        return self.wait_for(lambda observation: observation.screen in screens,
                             f"the {' or '.join(screens)} screen", timeout_s, screens[0], read)

    def read_level(self, first: Observation | None = None) -> Observation:
        """A level screen read twice alike and without doubts, with its puzzle. `first`: a
        look at the level already taken, the first reading."""
        previous: Puzzle | None = None
        doubts: list[str] = []
        with self.phases("reading"):
            for _ in range(READ_TRIES * 2):
                observation, first = first or self.wait_for_screen("level"), None
                if observation.view is None:
                    continue
                if observation.view.doubts:  # a leaf over a digit, say: look again
                    doubts = observation.view.doubts
                    continue
                try:
                    puzzle = observation.view.puzzle()
                except UnreadableScreen as exc:  # pieces that do not fit the cells (one
                    doubts = [str(exc)]  # between two places, say): look again
                    continue
                if puzzle == previous:
                    self._annotated(observation, "read",
                                    marks(observation.view, observation.picture), READ_LEGEND)
                    self._read = replace(observation, puzzle=puzzle)
                    return self._read
                previous = puzzle
        raise UnreadableScreen("cannot read the level: " + "; ".join(doubts or ["it kept "
                                                                                 "changing"]))

    # ---- menus -----------------------------------------------------------------------------

    def open(self, observation: Observation, action: Action) -> Observation:
        """From any screen, into level `action.level`; or the level select with its buttons
        read when that level is locked."""
        number = action.level
        missed = 0  # menu clicks that led nowhere in time
        while True:
            view = observation.view
            if observation.screen == "level" and view and view.level == number:
                return self._level_started(number, action.unlocking, observation)
            button = None
            if observation.screen not in ("completed", "title", "level"):  # the level select
                observation = self.read_select(observation)
                wanted = [b for b in observation.buttons if b.number == number and b.unlocked]
                if not wanted:
                    return observation
                button = wanted[0]
            try:
                observation = self._menu_step(observation, number, button)
            except WaitTimeout:
                missed += 1
                if missed > 1:
                    raise
                observation = self.look()  # a click lost on a busy page: look again, click again

    def read_select(self, observation: Observation) -> Observation:
        """The level select with its buttons read without doubts: a leaf drifting over a
        button's label or bracket is waited out (the leaves cross a button in seconds)."""
        read: list[Observation] = []  # the last reading
        doubts: list[str] = []

        def clear(new: Observation) -> bool:
            if new.screen != "select":
                return False
            view = self.reader.read_select(new.picture)
            read[:], doubts[:] = [replace(new, buttons=view.buttons)], view.doubts
            return not view.doubts

        if not clear(observation):
            try:
                self.wait_for(clear, "a clear look at the level select", SELECT_CLEAR_S,
                              "select", read=False, poll_s=SELECT_LOOK_S)
            except WaitTimeout:
                if not doubts:
                    raise
                raise UnreadableScreen("cannot read the level select: "
                                       + "; ".join(doubts)) from None
        return read[-1]

    def _menu_step(self, observation: Observation, number: int, button: LevelButton | None
                   ) -> Observation:
        """One move through the menus toward level `number` (`button`: its button on the
        level select): the screen it led to."""
        if observation.screen == "completed":
            return self.press_completed(observation, "next" if self._last_played == number - 1
                                        else "menu")
        if observation.screen == "title":
            self.hands.click(observation, (400, 300))
            return self.wait_for_screen("select", "level")
        if observation.screen == "level":
            quit_at = hud_button(observation.picture, 1)
            if quit_at is None:
                raise WebbotError("cannot find Quit on the level screen")
            self.hands.click(observation, quit_at)
            return self.wait_for_screen("select")
        assert button is not None
        self.hands.click(observation, button.spot_centre)
        return self.wait_for(lambda new: new.screen == "level" and new.view is not None
                             and new.view.level == number, f"level {number}")

    def _level_started(self, number: int, unlocking: bool,
                       observation: Observation) -> Observation:
        if self._current is not None:  # a level left when the page was lost
            if self._current.level == number:
                return observation  # and opened again: it goes on
            self._current.result = "interrupted"
            self._level_over()
        self.results.append(LevelResult(number, unlocking=unlocking))
        self._current = self.results[-1]
        self._started = time.perf_counter()
        self._drops = 0
        return observation

    def _level_over(self) -> None:
        assert self._current is not None
        self._current.seconds = time.perf_counter() - self._started
        self.report(self.progress_line(self._current))
        self._current = None

    @property
    def _last_played(self) -> int | None:
        return self.results[-1].level if self.results else None

    def press_completed(self, observation: Observation, which: str) -> Observation:
        """Press Menu or Next on the completed screen until the screen changes."""
        with self.phases("waiting"):  # the game ignores the buttons while the overlay fades in
            observation = self.settled(observation)
        for _ in range(5):
            buttons = completed_buttons(observation.picture)
            if which not in buttons:  # a popup come over the game a moment ago may hide it
                observation = self.look(self.screen.grab_uncovered("completed"), read=False)
                buttons = completed_buttons(observation.picture)
            if which not in buttons:
                raise WebbotError(f"cannot find '{which.title()}' on the completed screen")
            self.hands.click(observation, buttons[which])
            try:
                return self.wait_for(lambda new: new.screen in ("select", "level"),
                                     "the screen after Level Completed", 2)
            except WaitTimeout:  # the overlay was still fading in: clicks are ignored then
                observation = self.look()
                if observation.screen != "completed":
                    return self.wait_for_screen("select", "level")
        raise WebbotError(f"'{which.title()}' on the completed screen does nothing")

    def settled(self, observation: Observation) -> Observation:
        """The completed screen once its overlay has stopped fading in."""
        previous = observation

        def still(new: Observation) -> bool:
            nonlocal previous
            over = new.screen == previous.screen == "completed" and overlay_settled(
                previous.picture, new.picture)
            previous = new
            return over or new.screen != "completed"

        try:
            return self.wait_for(still, "the Level Completed overlay to settle", 3, "completed",
                                 read=False)
        except WaitTimeout:
            # On a busy machine grabs come far apart and the leaves drifting under the overlay
            # keep two pictures apart; 3 s outlasts the fade, and an ignored press is retried.
            return previous

    # ---- on a level ------------------------------------------------------------------------

    def restart(self, observation: Observation) -> Observation:
        if observation.screen != "level":
            observation = self.wait_for_screen("level")
        where = hud_button(observation.picture, 0)
        if where is None:
            raise WebbotError("cannot find Restart on the level screen")
        self.hands.click(observation, where)
        return self.wait_for(lambda new: new.screen == "level" and new.view is not None
                             and not new.view.placed, "the restarted level")

    def place(self, observation: Observation, placements: tuple[Placement, ...],
              last: bool) -> Observation:
        """Drag the pieces one after another, and look. When they end the level (`last`),
        wait for "Level Completed" (the board gives way to its overlay)."""
        *ahead, placement = placements
        taken: list[SeenPiece] = []
        for early in ahead:  # looked at with the last one
            taken.append(self.tray_piece(observation, early, taken))
            with self.phases("dragging"):
                self.hands.drag(observation, taken[-1].spot.centre,
                                observation.view.spots[early.cell].centre)  # type: ignore[union-attr]
        observation = self.drop(observation, placement, last, taken, tuple(ahead))
        if last and observation.screen == "unknown":
            # The overlay fading in, or a cover (a site's popup) over the board that may have
            # taken the drag: the level is over only when its end shows.
            with self.phases("waiting"):
                observation = self.wait_for(lambda new: new.screen == "completed"
                                     or new.view is not None,
                                     "the completed screen or the board", 5)
        if last and (observation.screen not in ("level", "unknown") or observation.view is not None
                     and all(is_placed(observation.view, p) for p in placements)):
            with self.phases("waiting"):  # the game's own settle and fade
                observation = self.wait_for_screen("completed", timeout_s=5, read=False)
        if observation.screen == "completed" and self._current is not None:
            self._current.result = "completed"
            self._level_over()
        return observation

    @staticmethod
    def tray_piece(observation: Observation, placement: Placement,
                   taken: list[SeenPiece]) -> SeenPiece:
        """A piece of the placement's value and colour in the tray as seen, not yet taken."""
        assert observation.view is not None
        piece = next((p for p in observation.view.tray if p not in taken
                      and (p.value, p.color) == (placement.value, placement.color)), None)
        if piece is None:
            raise WebbotError(f"no {placement.color} {placement.value} left in the tray")
        return piece

    def drop(self, observation: Observation, placement: Placement, last: bool,
             taken: list[SeenPiece], ahead: tuple[Placement, ...]) -> Observation:
        """Drag a tray piece of the placement's value and colour onto its cell, and look
        (a whole reading when pieces were `taken` for the placements `ahead` since the look:
        it says which of them landed). After the last piece the level may be over: the board
        gives way to the overlay."""
        view = observation.view
        assert view is not None
        piece = self.tray_piece(observation, placement, taken)
        target = view.spots[placement.cell]
        with self.phases("dragging"):
            self.hands.drag(observation, piece.spot.centre, target.centre)
        with self.phases("checking drops"):
            landed = self.check_boxes(observation, piece, placement) \
                if self.tempo.check_boxes and not taken else None
            if landed is None:
                # A whole reading judges the whole board: one with doubts (a leaf over a
                # digit) is looked at again.
                def landed_clearly(new: Observation) -> bool:
                    return (last and new.screen in ("completed", "unknown")) or (
                        new.view is not None and not new.view.doubts
                        and is_placed(new.view, placement)
                        and not any(p.spot == piece.spot for p in new.view.tray))

                try:
                    landed = self.wait_for(
                        landed_clearly,
                        f"the {placement.color} {placement.value} on cell {placement.cell}",
                        2, "drop")
                except WaitTimeout:
                    landed = self.wait_for_screen("level", "completed")
        self._drops += 1
        row, col = placement.cell
        what = f"drops-{self._drops}-{len(ahead) + 1}-pieces" if ahead else \
            f"drop-{self._drops}-{placement.value}{placement.color[0]}-on-r{row + 1}c{col + 1}"
        self._annotated(landed, what, [self._drop_mark(landed, view.spots[p.cell], p)
                                       for p in (*ahead, placement)], DROP_LEGEND)
        return landed

    @staticmethod
    def _drop_mark(landed: Observation, target: Spot, placement: Placement) -> Mark:
        """The drop's cell on the frame that judged it: the piece seen there, or the level
        completed (the overlay over the board says every piece landed), or not there."""
        if landed.screen == "completed":
            return spot_mark(landed.picture, target, "landed (completed)", LANDED)
        if landed.screen == "unknown":  # (accepted only after the last piece: see drop)
            return spot_mark(landed.picture, target, "level ends", ENDING)
        held = landed.view is not None and is_placed(landed.view, placement)
        return spot_mark(landed.picture, target, "landed" if held else
                         f"not there ({landed.screen})", LANDED if held else NOT_THERE)

    def _annotated(self, observation: Observation, what: str, found: list[Mark],
                   legend: Sequence[Key] = ()) -> None:
        """The frame with what was read or done on it drawn, named after the level."""
        level = self._current.level if self._current is not None else observation.view and \
            observation.view.level
        self.session.recorder.annotated(observation.grab, f"level-{level or 0:02d}-{what}", found,
                                        legend)

    def check_boxes(self, observation: Observation, piece: SeenPiece,
                    placement: Placement) -> Observation | None:
        """A drop seen on the piece's cell and its tray slot alone, in the next few grabs:
        the level as before with the piece moved, or None (a whole reading then decides)."""
        view = observation.view
        assert view is not None
        cell: Spot = view.spots[placement.cell]
        for _ in range(BOX_CHECKS):
            grab = self.screen.look()
            try:
                picture = normalise(grab.image, like=observation.picture)
            except GameNotFound:
                return None
            found = self.reader.piece_on(picture, cell)
            if (found and (found.value, found.color) == (placement.value, placement.color)
                    and slot_empty(picture, piece.spot)):
                moved: LevelView = replace(view, placed={**view.placed, placement.cell: found},
                                           tray=[p for p in view.tray if p is not piece])
                return Observation(grab, picture, "level", moved)
        return None

    # ---- reporting -------------------------------------------------------------------------
    def _learning(self, cache: Path) -> None:
        kept = home_relative(cache.parent)
        self.report(f"learning Puzlogic's digits (new to the bot; kept in {kept})")


    @staticmethod
    def progress_line(result: LevelResult) -> str:
        tag = " (to unlock)" if result.unlocking else ""
        restarts = f", {result.restarts} restart(s)" if result.restarts else ""
        if result.recoveries:
            restarts += f", {result.recoveries} recovery(ies)"
        return (f"level {result.level:02d}{tag}: {result.pieces} pieces, perception "
                f"{result.median_perception_ms:.0f} ms/frame, solved in {result.solve_ms:.1f} ms,"
                f" {result.seconds:.1f} s{restarts}: {result.result}")


def player(session: Session) -> tuple[PuzlogicBot, Player]:
    """The game of the play loop on `session` and its policy, for level 1 (webbot.contract)."""
    bot = PuzlogicBot(session, report=lambda line: None)
    return bot, Player([1], bot.solve, bot.tempo.drags_per_look)
