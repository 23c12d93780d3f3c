"""Pieces onto cells: drag a tray piece onto its cell and look whether it landed (on the two
boxes alone where the tempo allows, else a whole reading); after the last piece, wait for
"Level Completed"; Restart when the board went wrong."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from webbot.errors import WaitTimeout, WebbotError
from webbot.phases import Phases
from webbot.puzlogic.act import Hands, Tempo
from webbot.puzlogic.decide import is_placed
from webbot.puzlogic.eyes import Eyes
from webbot.puzlogic.model import LevelView, Observation, Placement, SeenPiece, Spot
from webbot.puzlogic.perceive import hud_button, normalise, slot_empty, spot_mark
from webbot.puzlogic.records import Records
from webbot.vision.labels import Key
from webbot.vision.marks import Mark
from webbot.vision.region import GameNotFound

BOX_CHECKS = 3  # grabs in which a drop is looked for on its two boxes before a whole reading
LANDED, NOT_THERE = (0, 160, 0), (0, 0, 255)  # BGR, of the marks after a drop
ENDING = (0, 140, 255)  # BGR: the last drop's cells while the level's board fades out
DROP_LEGEND = (Key("landed", LANDED, "the piece is seen on the cell it was dropped on"),
               Key("not there", NOT_THERE, "it is not (the screen seen then)"),
               Key("level ends", ENDING, "the board fades out after the last piece: the "
                   "screen after it tells"))


class Drops:
    def __init__(self, eyes: Eyes, hands: Hands, records: Records, phases: Phases,
                 tempo: Tempo) -> None:
        self.eyes = eyes
        self.hands = hands
        self.records = records
        self.phases = phases
        self.tempo = tempo

    def restart(self, observation: Observation) -> Observation:
        if observation.screen != "level":
            observation = self.eyes.wait_for_screen("level")
        where = hud_button(observation.picture, 0)
        if where is None:
            raise WebbotError("cannot find Restart on the level screen")
        self.hands.click(observation, where)
        return self.eyes.wait_for(lambda new: new.screen == "level" and new.view is not None
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
                observation = self.eyes.wait_for(lambda new: new.screen == "completed"
                                                 or new.view is not None,
                                                 "the completed screen or the board", 5,
                                                 label=_named("frame"))
        if last and observation.screen != "completed" and (
                observation.screen not in ("level", "unknown") or observation.view is not None
                and all(is_placed(observation.view, p) for p in placements)):
            with self.phases("waiting"):  # the game's own settle and fade
                observation = self.eyes.wait_for_screen("completed", timeout_s=5, read=False)
        if observation.screen == "completed":
            self.records.completed()
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
                    landed = self.eyes.wait_for(
                        landed_clearly,
                        f"the {placement.color} {placement.value} on cell {placement.cell}",
                        2, _named("drop"))
                except WaitTimeout:
                    landed = self.eyes.wait_for_screen("level", "completed")
        self.records.drops += 1
        row, col = placement.cell
        drops = self.records.drops
        what = f"drops-{drops}-{len(ahead) + 1}-pieces" if ahead else \
            f"drop-{drops}-{placement.value}{placement.color[0]}-on-r{row + 1}c{col + 1}"
        self.eyes.annotated(landed, what, [self._drop_mark(landed, view.spots[p.cell], p)
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

    def check_boxes(self, observation: Observation, piece: SeenPiece,
                    placement: Placement) -> Observation | None:
        """A drop seen on the piece's cell and its tray slot alone, in the next few grabs:
        the level as before with the piece moved, or None (a whole reading then decides)."""
        view = observation.view
        assert view is not None
        cell: Spot = view.spots[placement.cell]
        for _ in range(BOX_CHECKS):
            grab = self.eyes.screen.look()
            try:
                picture = normalise(grab.image, like=observation.picture)
            except GameNotFound:
                return None
            found = self.eyes.reader.piece_on(picture, cell)
            if (found and (found.value, found.color) == (placement.value, placement.color)
                    and slot_empty(picture, piece.spot)):
                moved: LevelView = replace(view, placed={**view.placed, placement.cell: found},
                                           tray=[p for p in view.tray if p is not piece])
                return Observation(grab, picture, "level", moved)
        return None


def _named(label: str) -> Callable[[Observation], str]:
    """A kept look's name: `label`, or "completed" when it shows the level completed (the
    debug folder's last frame of a level says so)."""
    return lambda seen: "completed" if seen.screen == "completed" else label
