"""`webbot puzlogic`: plays levels unattended, through the screen and the mouse only.

From whatever screen the game shows it reaches the level select, opens each wanted level (first
finishing the levels that unlock it), reads the board, solves it, drags every piece to its cell
and re-reads the screen to see that it landed, retries a drag or restarts the level when the
board is not as planned, waits for "Level Completed", and goes on with Next or the menu.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from webbot.errors import WaitTimeout, WebbotError
from webbot.game import GameSpec
from webbot.phases import Phases
from webbot.puzlogic.act import Hands, Seen, Tempo
from webbot.puzlogic.model import Placement, Puzzle, Solution
from webbot.puzlogic.solvers import solutions
from webbot.puzlogic.vision import (
    LevelButton,
    LevelView,
    Reader,
    SeenPiece,
    Spot,
    UnreadableScreen,
    classify,
    completed_buttons,
    hud_button,
    normalise,
    overlay_settled,
    recognises,
    slot_empty,
)
from webbot.screen import Frame, Screen
from webbot.session import Session
from webbot.vision.region import GameNotFound

READ_TRIES = 5  # frames to try when a reading has doubts (a drifting leaf, say)
DROP_TRIES = 2  # drags of one piece before the level is restarted
BOX_CHECKS = 3  # frames in which a drop is looked for on its two boxes before a whole reading
RESTARTS = 2  # restarts of one level before the run fails
SCREENS = ("title", "select", "level", "completed")
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

    @property
    def completed(self) -> bool:
        return self.result == "completed"

    @property
    def median_perception_ms(self) -> float:
        return statistics.median(self.perception_ms) if self.perception_ms else 0.0


@dataclass
class Look:
    """One frame, what screen it is, and (on a level) what the board holds."""

    seen: Seen
    screen: str
    view: LevelView | None = None


class PuzlogicBot:
    def __init__(self, session: Session, *, solver: str = "auto", reader: Reader | None = None,
                 report: Callable[[str], None] = print, tempo: Tempo | None = None) -> None:
        self.session = session
        self.report = report
        self.tempo = tempo or Tempo()
        self.screen: Screen = session.game_screen(GAME, timeout_s=15, report=report,
                                                  fast=self.tempo.fast_grabs)
        self.hands = Hands(session.mouse, self.tempo)
        self.reader = reader or Reader()
        self.solver = solver
        self.results: list[LevelResult] = []
        self._current: LevelResult | None = None
        self.phases = Phases()  # where the time goes (scripts/bench_puzlogic.py)

    # ---- looking ---------------------------------------------------------------------------

    def look(self, frame: Frame | None = None, label: str = "frame", read: bool = True) -> Look:
        """What a frame shows; on a level, the board read too unless `read` is False."""
        frame = frame or self.screen.grab(label)
        started = time.perf_counter()
        picture = normalise(frame.image)
        screen = classify(picture)
        view = self.reader.read_level(picture) if screen == "level" and read else None
        if self._current is not None:
            self._current.perception_ms.append((time.perf_counter() - started) * 1000)
        return Look(Seen(frame, picture), screen, view)

    def wait_for(self, test: Callable[[Look], bool], what: str, timeout_s: float = 10,
                 label: str = "frame", read: bool = True) -> Look:
        """Look again and again until `test` holds (no fixed sleeps)."""
        found: list[Look] = []

        def condition(frame: Frame) -> bool:
            try:
                look = self.look(frame, read=read)
            except (GameNotFound, UnreadableScreen):
                return False
            if test(look):
                found.append(look)
                return True
            return False

        self.screen.wait_until(condition, what=what, timeout_s=timeout_s, label=label,
                               poll_s=self.tempo.poll_s)
        return found[-1]

    def wait_for_screen(self, *screens: str, timeout_s: float = 10, read: bool = True) -> Look:
        return self.wait_for(lambda look: look.screen in screens,
                             f"the {' or '.join(screens)} screen", timeout_s, screens[0], read)

    def wait_for_level(self, number: int) -> Look:
        return self.wait_for(lambda seen: seen.screen == "level" and seen.view is not None
                             and seen.view.level == number, f"level {number}")

    def read_level(self, first: Look | None = None) -> tuple[Look, Puzzle]:
        """A level screen read twice alike and without doubts: its puzzle. `first`: a look at
        the level already taken, the first reading."""
        previous: Puzzle | None = None
        doubts: list[str] = []
        for _ in range(READ_TRIES * 2):
            look, first = first or self.wait_for_screen("level"), None
            if look.view is None:
                continue
            if look.view.doubts:  # a leaf over a digit, say: look again
                doubts = look.view.doubts
                continue
            try:
                puzzle = look.view.puzzle()
            except UnreadableScreen as exc:  # pieces that do not fit the cells (one between
                doubts = [str(exc)]  # two places, say): look again
                continue
            if puzzle == previous:
                return look, puzzle
            previous = puzzle
        raise UnreadableScreen("cannot read the level: " + "; ".join(doubts or ["it kept "
                                                                                 "changing"]))

    # ---- the run ---------------------------------------------------------------------------

    def play(self, wanted: list[int]) -> list[LevelResult]:
        """Play the wanted levels in order; stops at the first level that fails."""
        with self.phases("menus"):
            look = self.wait_for(lambda look: look.screen in SCREENS,
                                 "a Puzlogic screen (title, level select, level)", 20, "start")
            for number in wanted:
                look = self.to_level(look, number)
                look = self.play_level(number, look, unlocking=False)
        return self.results

    def to_level(self, look: Look, number: int) -> Look:
        """From any screen, into level `number` (finishing the levels that unlock it)."""
        while True:
            if look.screen == "level" and look.view and look.view.level == number:
                return look
            if look.screen == "completed":
                look = self.press_completed(look, "next" if self._last_played == number - 1
                                            else "menu")
                continue
            if look.screen == "title":
                self.hands.click(look.seen, (400, 300))
                look = self.wait_for_screen("select", "level")
                continue
            if look.screen == "level":
                quit_at = hud_button(look.seen.picture, 1)
                if quit_at is None:
                    raise WebbotError("cannot find Quit on the level screen")
                self.hands.click(look.seen, quit_at)
                look = self.wait_for_screen("select")
                continue
            buttons = self.reader.read_select(look.seen.picture)
            button = self.button(buttons, number)
            if button.unlocked:
                self.hands.click(look.seen, button.spot_centre)
                return self.wait_for_level(number)
            opened = [b.number for b in buttons if b.unlocked and b.number and b.number < number]
            if not opened:
                raise WebbotError(f"level {number} is locked and no earlier level is open")
            before = max(opened)
            if any(r.level == before and r.completed for r in self.results):
                raise WebbotError(f"level {number} is still locked after level {before} was "
                                  "completed")
            self.hands.click(look.seen, self.button(buttons, before).spot_centre)
            look = self.play_level(before, self.wait_for_level(before), unlocking=True)

    @property
    def _last_played(self) -> int | None:
        return self.results[-1].level if self.results else None

    @staticmethod
    def button(buttons: list[LevelButton], number: int) -> LevelButton:
        for button in buttons:
            if button.number == number:
                return button
        read = [b.number for b in buttons]
        raise WebbotError(f"no button for level {number} on the level select (read {read})")

    def press_completed(self, look: Look, which: str) -> Look:
        """Press Menu or Next on the completed screen until the screen changes."""
        with self.phases("waiting"):  # the game ignores the buttons while the overlay fades in
            look = self.settled(look)
        for _ in range(5):
            buttons = completed_buttons(look.seen.picture)
            if which not in buttons:
                raise WebbotError(f"cannot find '{which.title()}' on the completed screen")
            self.hands.click(look.seen, buttons[which])
            try:
                return self.wait_for(lambda seen: seen.screen in ("select", "level"),
                                     "the screen after Level Completed", 2)
            except WaitTimeout:  # the overlay was still fading in: clicks are ignored then
                look = self.look()
                if look.screen != "completed":
                    return self.wait_for_screen("select", "level")
        raise WebbotError(f"'{which.title()}' on the completed screen does nothing")

    def settled(self, look: Look) -> Look:
        """The completed screen once its overlay has stopped fading in."""
        previous = look

        def still(new: Look) -> bool:
            nonlocal previous
            done = new.screen == previous.screen == "completed" and overlay_settled(
                previous.seen.picture, new.seen.picture)
            previous = new
            return done or new.screen != "completed"

        return self.wait_for(still, "the Level Completed overlay to settle", 3, "completed",
                             read=False)

    # ---- one level -------------------------------------------------------------------------

    def play_level(self, number: int, look: Look, *, unlocking: bool) -> Look:
        """Play the level on the screen (`look`: a look at it)."""
        result = LevelResult(number, unlocking=unlocking)
        self._current = result
        self.results.append(result)
        started = time.perf_counter()
        try:
            look = self._play_level(result, look)
        except WebbotError as exc:
            result.result = f"failed: {exc}"
            raise LevelFailed(f"level {number}: {exc}") from None
        finally:
            result.seconds = time.perf_counter() - started
            self._current = None
            self.report(self.progress_line(result))
        return look

    def _play_level(self, result: LevelResult, look: Look) -> Look:
        if look.view is None:
            look = self.wait_for_screen("level")
        assert look.view is not None
        if look.view.placed or look.view.red:  # left half done, or wrong: start afresh
            look = self.restart(look)
        look, puzzle, solution = self.decide(result, look)
        for attempt in range(RESTARTS + 1):
            if attempt:
                look = self.restart(look)
                result.restarts += 1
            if self.place_all(look, solution):
                with self.phases("waiting"):  # the game's own settle and fade
                    look = self.wait_for_screen("completed", timeout_s=5, read=False)
                result.result = "completed"
                return look
            look = self.wait_for_screen("level")
        raise WebbotError(f"the board kept going wrong after {RESTARTS} restarts")

    def decide(self, result: LevelResult, first: Look) -> tuple[Look, Puzzle, Solution]:
        """Read the level (`first`: a look at it) and solve it. No solution, or several (a sum
        hidden by a right click, say), means the reading is not to be trusted: restart, read
        again, and give up only if there is still no solution."""
        with self.phases("reading"):
            look, puzzle = self.read_level(first)
        found = self.solve(puzzle, result)
        if len(found) != 1:
            with self.phases("reading"):
                look, again = self.read_level() if not found else self.read_level_afresh(look)
            if again != puzzle:
                puzzle, found = again, self.solve(again, result)
        if not found:
            assert look.view is not None
            raise UnreadableScreen("the board as read has no solution, so something was "
                                   "misread; least certain: " + "; ".join(look.view.weakest()))
        result.pieces = len(puzzle.pieces)
        return look, puzzle, found[0]

    def read_level_afresh(self, look: Look) -> tuple[Look, Puzzle]:
        """Restart (which shows hidden sums again) and read the level."""
        self.restart(look)
        return self.read_level()

    def solve(self, puzzle: Puzzle, result: LevelResult) -> list[Solution]:
        started = time.perf_counter()
        with self.phases("solving"):
            found = solutions(puzzle, self.solver, limit=2)
        result.solve_ms += (time.perf_counter() - started) * 1000
        return found

    def restart(self, look: Look) -> Look:
        where = hud_button(look.seen.picture, 0) if look.screen == "level" else None
        if where is None:
            raise WebbotError("cannot find Restart on the level screen")
        self.hands.click(look.seen, where)
        return self.wait_for(lambda seen: seen.screen == "level" and seen.view is not None
                             and not seen.view.placed, "the restarted level")

    def place_all(self, look: Look, solution: Solution) -> bool:
        """Drag every piece to its cell; False when the board went wrong (restart it)."""
        for n, placement in enumerate(solution, 1):
            last = n == len(solution)
            for _ in range(DROP_TRIES):
                look = self.drop(look, placement, last)
                if last and look.screen == "unknown":
                    # The overlay fading in, or a cover (a site's popup) over the board that
                    # may have taken the drag: the level is over only when its end shows.
                    look = self.wait_for(
                        lambda seen: seen.screen == "completed" or seen.view is not None,
                        "the completed screen or the board", 5)
                if look.screen != "level":  # the last piece ends the level
                    return last
                view = look.view
                assert view is not None
                if self._holds(view, placement):
                    break
                if view.red or self._misplaced(view, solution):
                    return False
            else:
                return False
        return True

    @staticmethod
    def _holds(view: LevelView, placement: Placement) -> bool:
        piece = view.placed.get(placement.cell)
        return piece is not None and (piece.value, piece.color) == (placement.value,
                                                                    placement.color)

    @staticmethod
    def _misplaced(view: LevelView, solution: Solution) -> bool:
        planned = {p.cell: (p.value, p.color) for p in solution}
        return any(planned.get(cell) != (p.value, p.color) for cell, p in view.placed.items())

    def drop(self, look: Look, placement: Placement, last: bool) -> Look:
        """Drag a tray piece of the placement's value and colour onto its cell, and look.
        After the last piece the level may be over: the board gives way to the overlay."""
        view = look.view
        assert view is not None
        piece = next((p for p in view.tray
                      if (p.value, p.color) == (placement.value, placement.color)), None)
        if piece is None:
            raise WebbotError(f"no {placement.color} {placement.value} left in the tray")
        target = view.spots[placement.cell]
        with self.phases("dragging"):
            self.hands.drag(look.seen, piece.spot.centre, target.centre)
        with self.phases("checking drops"):
            if self.tempo.check_boxes:
                landed = self.check_boxes(look, piece, placement)
                if landed is not None:
                    return landed
            try:
                return self.wait_for(
                    lambda seen: (last and seen.screen in ("completed", "unknown")) or (
                        seen.view is not None and self._holds(seen.view, placement)
                        and not any(p.spot == piece.spot for p in seen.view.tray)),
                    f"the {placement.color} {placement.value} on cell {placement.cell}", 2,
                    "drop")
            except WaitTimeout:
                return self.wait_for_screen("level", "completed")

    def check_boxes(self, look: Look, piece: SeenPiece, placement: Placement) -> Look | None:
        """A drop seen on the piece's cell and its tray slot alone, in the next few frames:
        the level as before with the piece moved, or None (a whole reading then decides)."""
        view = look.view
        assert view is not None
        cell: Spot = view.spots[placement.cell]
        for _ in range(BOX_CHECKS):
            frame = self.screen.look()
            try:
                picture = normalise(frame.image, like=look.seen.picture)
            except GameNotFound:
                return None
            seen = self.reader.piece_on(picture, cell)
            if (seen and (seen.value, seen.color) == (placement.value, placement.color)
                    and slot_empty(picture, piece.spot)):
                moved = replace(view, placed={**view.placed, placement.cell: seen},
                                tray=[p for p in view.tray if p is not piece])
                return Look(Seen(frame, picture), "level", moved)
        return None

    # ---- reporting -------------------------------------------------------------------------

    @staticmethod
    def progress_line(result: LevelResult) -> str:
        tag = " (to unlock)" if result.unlocking else ""
        restarts = f", {result.restarts} restart(s)" if result.restarts else ""
        return (f"level {result.level:02d}{tag}: {result.pieces} pieces, perception "
                f"{result.median_perception_ms:.0f} ms/frame, solved in {result.solve_ms:.1f} ms,"
                f" {result.seconds:.1f} s{restarts}: {result.result}")
