"""Puzlogic's menus: from whatever screen the game shows into a level, through the title,
the level select (its buttons read with no leaf over them) and "Level Completed" (Next or
Menu, once its overlay has settled)."""

from __future__ import annotations

from dataclasses import replace

from webbot.errors import WaitTimeout, WebbotError
from webbot.phases import Phases
from webbot.puzlogic.act import Hands
from webbot.puzlogic.decide import Action
from webbot.puzlogic.eyes import Eyes
from webbot.puzlogic.model import LevelButton, Observation, UnreadableScreen
from webbot.puzlogic.perceive import (
    completed_buttons,
    hud_button,
    overlay_settled,
    overlay_shown_fully,
)
from webbot.puzlogic.records import Records

SELECT_CLEAR_S = 15  # to wait for a look at the level select with no leaf over a button
# Between looks at a level select a leaf covers: a leaf takes seconds to cross a button, so
# looking at every frame (60 a second) would only burn the machine's CPU.
SELECT_LOOK_S = 0.2


class Menus:
    def __init__(self, eyes: Eyes, hands: Hands, records: Records, phases: Phases) -> None:
        self.eyes = eyes
        self.hands = hands
        self.records = records
        self.phases = phases
        # The overlay judged in at full strength from one picture (its words pure white); a
        # press it let through too early and ignored by the game goes back to two pictures
        # alike for the rest of the run.
        self.one_look_settles = True

    def open(self, observation: Observation, action: Action) -> Observation:
        """From any screen, into level `action.level`; or the level select with its buttons
        read when that level is locked."""
        with self.phases("menus"):
            return self._opened(observation, action.level, action.unlocking)

    def _opened(self, observation: Observation, number: int, unlocking: bool) -> Observation:
        missed = 0  # menu clicks that led nowhere in time
        while True:
            if observation.screen == "level" and observation.view is None:
                observation = self.eyes.read_level(observation)  # (its first reading on a
                # thread while the second picture is taken)
            view = observation.view
            if observation.screen == "level" and view and view.level == number:
                self.records.started(number, unlocking)
                return observation
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
                # A click lost on a busy page: look again, click again.
                observation = self.eyes.look()

    def read_select(self, observation: Observation) -> Observation:
        """The level select with its buttons read without doubts: a leaf drifting over a
        button's label or bracket is waited out (the leaves cross a button in seconds)."""
        read: list[Observation] = []  # the last reading
        doubts: list[str] = []

        def clear(new: Observation) -> bool:
            if new.screen != "select":
                return False
            view = self.eyes.reader.read_select(new.picture)
            read[:], doubts[:] = [replace(new, buttons=view.buttons)], view.doubts
            return not view.doubts

        if not clear(observation):
            try:
                self.eyes.wait_for(clear, "a clear look at the level select", SELECT_CLEAR_S,
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
            after = self.records.last_played == number - 1
            return self.press_completed(observation, "next" if after else "menu")
        if observation.screen == "title":
            self.hands.click(observation, (400, 300))
            return self.eyes.wait_for_screen("select", "level")
        if observation.screen == "level":
            quit_at = hud_button(observation.picture, 1)
            if quit_at is None:
                raise WebbotError("cannot find Quit on the level screen")
            self.hands.click(observation, quit_at)
            return self.eyes.wait_for_screen("select")
        assert button is not None
        self.hands.click(observation, button.spot_centre)
        return self.eyes.wait_for(lambda new: new.screen == "level" and new.view is not None
                                  and new.view.level == number, f"level {number}")

    def press_completed(self, observation: Observation, which: str) -> Observation:
        """Press Menu or Next on the completed screen until the screen changes."""
        with self.phases("waiting"):  # the game ignores the buttons while the overlay fades in
            observation = self.settled(observation)
        for _ in range(5):
            buttons = completed_buttons(observation.picture)
            if which not in buttons:  # a popup come over the game a moment ago may hide it
                observation = self.eyes.look(self.eyes.screen.grab_uncovered("completed"),
                                             read=False)
                buttons = completed_buttons(observation.picture)
            if which not in buttons:
                raise WebbotError(f"cannot find '{which.title()}' on the completed screen")
            self.hands.click(observation, buttons[which])
            try:
                return self.eyes.wait_for(lambda new: new.screen in ("select", "level"),
                                          "the screen after Level Completed", 2, read=False)
            except WaitTimeout:  # the overlay was still fading in: clicks are ignored then
                self.one_look_settles = False
                observation = self.eyes.look()
                if observation.screen != "completed":
                    return self.eyes.wait_for_screen("select", "level")
        raise WebbotError(f"'{which.title()}' on the completed screen does nothing")

    def settled(self, observation: Observation) -> Observation:
        """The completed screen once its overlay has stopped fading in: shown at full
        strength, or two pictures alike."""
        previous = observation
        if observation.screen == "completed" and self.one_look_settles \
                and overlay_shown_fully(observation.picture):
            return observation

        def still(new: Observation) -> bool:
            nonlocal previous
            over = new.screen == "completed" and (
                self.one_look_settles and overlay_shown_fully(new.picture)
                or previous.screen == "completed"
                and overlay_settled(previous.picture, new.picture))
            previous = new
            return over or new.screen != "completed"

        try:
            return self.eyes.wait_for(still, "the Level Completed overlay to settle", 3,
                                      "completed", read=False)
        except WaitTimeout:
            # On a busy machine grabs come far apart and the leaves drifting under the overlay
            # keep two pictures apart; 3 s outlasts the fade, and an ignored press is retried.
            return previous
