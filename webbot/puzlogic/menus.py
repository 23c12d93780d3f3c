"""Puzlogic's menus: from whatever screen the game shows into a level, through the title,
the level select (its buttons read with no leaf over them) and "Level Completed" (Next or
Menu, pressed until the game takes it)."""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass, replace

from webbot import answer
from webbot.deadline import Deadline
from webbot.errors import WaitTimeout, WebbotError
from webbot.phases import Phases
from webbot.puzlogic.act import Hands
from webbot.puzlogic.decide import Action
from webbot.puzlogic.eyes import Eyes, Meanwhile
from webbot.puzlogic.model import LevelButton, Observation, UnreadableScreen
from webbot.puzlogic.perceive import completed_buttons, hud_button
from webbot.puzlogic.records import Records

SELECT_CLEAR_S = 15  # to wait for a look at the level select with no leaf over a button
# Between looks at a level select a leaf covers: a leaf takes seconds to cross a button, so
# looking at every frame (60 a second) would only burn the machine's CPU.
SELECT_LOOK_S = 0.2
# Level Completed's buttons: the game ignores presses while its overlay fades in (300 ms in the
# replica), so a button is pressed from the first picture that shows it, and again after each
# look that still shows the overlay, for this long at most.
PRESS_FOR_S = 5
# How close the pace's halving comes to the game's moment: a press's own timing wanders by a
# few milliseconds (a pause's end, the input's way to the page).
FINE_S = 0.004
FRAME_S = 1 / 60


class Menus:
    def __init__(self, eyes: Eyes, hands: Hands, records: Records, phases: Phases,
                 hand_ready: Meanwhile | None = None) -> None:
        self.eyes = eyes
        self.hand_ready = hand_ready  # given a level's first reading (Eyes.read_level)
        self.hands = hands
        self.records = records
        self.phases = phases
        # When, after a level's last drop, the game takes a press of Level Completed's button
        # (learned as the levels go): an earlier press is ignored and costs a look, a later
        # one waits for nothing.
        self.pace = PressPace()

    def open(self, observation: Observation, action: Action) -> Observation:
        """From any screen, into level `action.level`; or the level select with its buttons
        read when that level is locked."""
        with self.phases("menus"):
            return self._opened(observation, action.level, action.unlocking)

    def _opened(self, observation: Observation, number: int, unlocking: bool) -> Observation:
        missed = 0  # menu clicks that led nowhere in time
        while True:
            if observation.screen == "level" and observation.view is None:
                observation = self.eyes.read_level(observation, self.hand_ready)  # (read
                # while Chromium takes the picture asked right after it)
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
        # (read after, its first look while the second is taken; its number checked then)
        return self.eyes.wait_for(lambda new: new.screen == "level", f"level {number}",
                                  read=False, then=True)

    def press_completed(self, observation: Observation, which: str) -> Observation:
        """Press Menu or Next on the completed screen until the screen changes: from the first
        picture that shows the button (its words at 70% of their strength: the overlay fading
        in), the mouse moved onto it then, but not sooner after the level's last drop than the
        presses on the levels before say the game takes one (PressPace: a player's sense of
        the game's pace), and again after each look that still shows the overlay, as a player
        presses again a button that did not take. The screen after it, not read yet (its
        next picture asked with it: a level is read twice)."""
        def shows_button(new: Observation) -> bool:
            return new.screen != "completed" or which in completed_buttons(new.picture)

        dropped_at = self.hands.mouse.acted_at  # the input that ended the level

        # (the game's fade, its buttons shown late in it; not shown in time: looked at once
        # more below, with the way cleared)
        if not shows_button(observation):
            with self.phases("waiting"), contextlib.suppress(WaitTimeout):
                observation = self.eyes.wait_for(shows_button, f"'{which.title()}' on the "
                                                 "completed screen", 3, "completed",
                                                 read=False)
        deadline = Deadline(PRESS_FOR_S)
        while observation.screen == "completed":
            buttons = completed_buttons(observation.picture)
            if which not in buttons:  # a popup come over the game a moment ago may hide it
                observation = self.eyes.look(self.eyes.screen.grab_uncovered("completed"),
                                             read=False)
                if observation.screen != "completed":
                    break
                buttons = completed_buttons(observation.picture)
            if which not in buttons:
                raise WebbotError(f"cannot find '{which.title()}' on the completed screen")
            if deadline.passed():
                raise WebbotError(f"'{which.title()}' on the completed screen does nothing "
                                  f"(pressed for {PRESS_FOR_S} s)")
            # (moved on while still ignored; the way checked each time, within the pace's
            # wait: a popup that opens as a level ends took a press of Next once, in CI)
            self.hands.ready(observation, buttons[which], check_now=True)
            self._wait_till(dropped_at + self.pace.wait_s())
            self.hands.click(observation, buttons[which])
            waited = self.hands.mouse.pressed_at - dropped_at
            observation = self.eyes.look(read=False, then=True)  # (a level is read twice)
            if math.isfinite(waited):  # (not on a screen found completed: no drop of ours)
                self.pace.pressed(waited, taken=observation.screen != "completed")
        if observation.screen not in ("select", "level"):
            observation = self.eyes.wait_for_screen("select", "level", read=False, then=True)
        return observation

    def _wait_till(self, moment: float) -> None:
        """Until `moment` (time.monotonic()), when the game took a press on the levels before:
        a look would take longer than what is left to wait."""
        left_ms = (moment - time.monotonic()) * 1000
        if 0 < left_ms <= PRESS_FOR_S * 1000:
            with self.phases("waiting"):
                answer.pause(self.eyes.screen.page, left_ms)


@dataclass
class PressPace:
    """When the game takes a press of Level Completed's button, as the presses so far say:
    `taken_s` the shortest wait from the level's last drop after which one was taken, and
    `ignored_s` the longest at which one was ignored (the first press of a run is made from
    the first picture that shows the button, as the overlay fades in). While every press
    ignored waited less than every press taken, the game's moment lies between them; once one
    did not, the game's timing varies (it answers on its frames, say: a press a little before
    its moment is taken on some levels, not on others), and `varies`."""

    taken_s: float = math.inf
    ignored_s: float = -math.inf
    varies: bool = False

    def wait_s(self) -> float:
        """How long after the last drop to press: halfway between the two while they are
        more than FINE_S apart (a press ignored there costs a look, once; one taken is that
        much sooner on every level after), else the shortest wait taken; for a game whose
        timing varies, just past the longest wait it ignored (each press it ignores moves the
        next one past it: the latest its moment came so far)."""
        if self.varies:
            return self.ignored_s + FINE_S
        if math.isfinite(self.taken_s + self.ignored_s) and \
                self.taken_s - self.ignored_s > FINE_S:
            return (self.taken_s + self.ignored_s) / 2
        return self.taken_s

    def pressed(self, waited_s: float, taken: bool) -> None:
        """What a press `waited_s` after the level's last drop says. One ignored more than a
        frame after a wait the game took says nothing of its pace: that press was lost (a
        popup come over the button, say)."""
        if taken:
            self.taken_s = min(self.taken_s, waited_s)
        elif waited_s <= self.taken_s + FRAME_S:
            self.ignored_s = max(self.ignored_s, waited_s)
        self.varies = self.varies or self.ignored_s >= self.taken_s
