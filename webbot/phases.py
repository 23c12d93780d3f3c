"""Where a bot's time goes: wall time split by what it was doing at each moment."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager


class Phases:
    """A stopwatch with named phases. Phases nest; time is charged to the innermost one, so
    the phases add up to the time spent inside any of them (nothing counted twice)."""

    def __init__(self) -> None:
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

    def charge(self, name: str, seconds: float) -> None:
        """Time spent outside these phases (in a policy, say), charged to `name`."""
        self.seconds[name] += seconds

    def _charge(self) -> None:
        now = time.perf_counter()
        if self._stack:
            self.seconds[self._stack[-1]] += now - self._since
        self._since = now

    def total(self) -> float:
        return sum(self.seconds.values())
