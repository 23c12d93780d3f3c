"""Where a run's time goes: wall time split by what it was doing at each moment, and whose
time each part is: the game's (what anyone playing it waits for: its page's load, its
animations, its answers, its next frame) or ours (the process, the browser, finding the game,
looking, deciding, moving the mouse)."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager


class Phases:
    """A stopwatch with named phases. Phases nest; time is charged to the innermost one, so
    the phases add up to the time spent inside any of them (nothing counted twice)."""

    def __init__(self) -> None:
        self.began = time.time()  # (wall clock: a process's start is told in it)
        self.seconds: dict[str, float] = defaultdict(float)
        self._stack: list[str] = []
        self._since = time.perf_counter()

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        self._charge()
        self._stack.append(name)
        try:
            yield
        finally:
            self._charge()
            self._stack.pop()

    def begin(self, name: str) -> None:
        """A phase begun without a `with` (one that an ExitStack's callbacks bound)."""
        self._charge()
        self._stack.append(name)

    def end(self, name: str) -> None:
        """The phase `name` ended, if it is the one under way (else nothing)."""
        if self._stack and self._stack[-1] == name:
            self._charge()
            self._stack.pop()

    def _charge(self) -> None:
        now = time.perf_counter()
        if self._stack:
            self.seconds[self._stack[-1]] += now - self._since
        self._since = now

    def total(self) -> float:
        return sum(self.seconds.values())


# The parts that are the game's time: what a person playing it would wait for too (Puzlogic's
# "waiting" is for its own settle and fade).
THE_GAMES = frozenset({"page load", "waiting", "waiting on the game", "the page's answers"})


def whose(part: str) -> str:
    return "the game's" if part in THE_GAMES else "ours"
