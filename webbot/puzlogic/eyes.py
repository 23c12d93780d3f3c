"""The bot's eyes on Puzlogic: a grab classified and, on a level, read; waits for what should
show (no fixed sleeps); a level read twice alike; what was read or done drawn on the frame it
was seen on, for the debug folder."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from webbot.debug import Recorder
from webbot.phases import Phases
from webbot.puzlogic.act import Tempo
from webbot.puzlogic.model import Observation, Puzzle, UnreadableScreen
from webbot.puzlogic.perceive import READ_LEGEND, Reader, classify, marks, normalise
from webbot.puzlogic.records import Records
from webbot.screen import Grab, Screen
from webbot.vision.labels import Key
from webbot.vision.marks import Mark
from webbot.vision.region import GameNotFound

READ_TRIES = 5  # grabs to try when a reading has doubts (a drifting leaf, say)


# Given a level's first reading, what to do while the second is read (None: nothing).
Meanwhile = Callable[[Observation], Callable[[], object] | None]


class Eyes:
    def __init__(self, screen: Screen, reader: Reader, tempo: Tempo, records: Records,
                 recorder: Recorder, phases: Phases) -> None:
        self.screen = screen
        self.reader = reader
        self.tempo = tempo
        self.records = records
        self.recorder = recorder
        self.phases = phases
        self.last_read: Observation | None = None  # the level as last read, for its solution

    def look(self, grab: Grab | None = None, label: str = "frame",
             read: bool = True, then: bool = False) -> Observation:
        """What a grab shows; on a level, the board read too unless `read` is False. `then`:
        the next picture asked as soon as this one is taken (a level's second reading)."""
        grab = grab or self.screen.grab(label, then=then)
        started = time.perf_counter()
        picture = normalise(grab.image)
        screen = classify(picture)
        view = self.reader.read_level(picture) if screen == "level" and read else None
        self.records.perceived((time.perf_counter() - started) * 1000)
        return Observation(grab, picture, screen, view)

    def read(self, observation: Observation) -> Observation:
        """A look at a level, its board read (a look taken with `read` False)."""
        if observation.view is not None or observation.screen != "level":
            return observation
        started = time.perf_counter()
        view = self.reader.read_level(observation.picture)
        self.records.perceived((time.perf_counter() - started) * 1000)
        return replace(observation, view=view)

    def wait_for(self, test: Callable[[Observation], bool], what: str, timeout_s: float = 10,
                 label: str | Callable[[Observation], str] = "frame", read: bool = True,
                 poll_s: float | None = None, then: bool = False) -> Observation:
        """Look again and again until `test` holds (no fixed sleeps), `poll_s` (the tempo's
        by default) between looks. The look that holds is kept (the debug folder) under
        `label`, or the name `label` gives it."""
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

        self.screen.wait_until(condition, what=what, timeout_s=timeout_s,
                               label=lambda _: label(found[-1]) if callable(label) else label,
                               poll_s=self.tempo.poll_s if poll_s is None else poll_s,
                               then=then)
        return found[-1]

    def wait_for_screen(self, *screens: str, timeout_s: float = 10, read: bool = True,
                        then: bool = False) -> Observation:
        return self.wait_for(lambda observation: observation.screen in screens,
                             f"the {' or '.join(screens)} screen", timeout_s, screens[0], read,
                             then=then)

    def read_level(self, first: Observation | None = None,
                   meanwhile: Meanwhile | None = None) -> Observation:
        """A level screen read twice alike and without doubts, with its puzzle. `first`: a
        look at the level already taken, the first reading (one not read yet is read while
        Chromium takes the second picture, when it was asked with `first`). `meanwhile` is
        given that first reading, and what it returns runs before the second picture is waited
        for (the hand made ready for what the reading says; nothing the game takes)."""
        previous: Puzzle | None = None
        doubts: list[str] = []
        with self.phases("reading"):
            looks = self._first_two(first, meanwhile) if first is not None else []
            for _ in range(READ_TRIES * 2):
                observation, why = looks.pop(0) if looks else \
                    (self.wait_for_screen("level"), "")
                if observation is None:  # no board to read on it: the next look is read
                    doubts = [why]
                    continue
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
                    self.annotated(observation, "read",
                                   marks(observation.view, observation.picture), READ_LEGEND)
                    self.last_read = replace(observation, puzzle=puzzle)
                    return self.last_read
                previous = puzzle
        raise UnreadableScreen("cannot read the level: " + "; ".join(doubts or ["it kept "
                                                                                 "changing"]))

    def _first_two(self, first: Observation, meanwhile: Meanwhile | None
                   ) -> list[tuple[Observation | None, str]]:
        """`first` and the next look at the level, read (each None, and why, when it shows no
        board to read): the picture asked right after `first` when it was (Screen.grab's
        `then`), which Chromium takes while `first` is read (reading it on a thread instead
        slowed both: the interpreter's lock). What `meanwhile` returned runs before the second
        is waited for: the hand's moves go out while it comes (Hands.ready)."""
        if first.view is not None or first.screen != "level":
            return [self._readable(first)]
        read, _ = self._readable(first)
        if read is None:  # no board on it
            return [self._readable(self.wait_for_screen("level", read=False))]
        move = meanwhile(read) if meanwhile is not None and read.view is not None else None
        if move is not None:
            move()
        return [(read, ""), self._readable(self.wait_for_screen("level", read=False))]

    def _readable(self, observation: Observation) -> tuple[Observation | None, str]:
        """`observation` read; None (and why) when it shows no board to read: a look at a
        level screen taken as the board fades in, or with something over it (a portal's
        banner coming in), which the next look may not show."""
        try:
            return self.read(observation), ""
        except UnreadableScreen as exc:
            return None, str(exc)

    def annotated(self, observation: Observation, what: str, found: list[Mark],
                  legend: Sequence[Key] = ()) -> None:
        """The frame with what was read or done on it drawn, named after the level."""
        current = self.records.current  # (a level read before its records start: its own)
        level = observation.view and observation.view.level or \
            (current.level if current is not None else None)
        self.recorder.annotated(observation.grab, f"level-{level or 0:02d}-{what}", found,
                                legend)
