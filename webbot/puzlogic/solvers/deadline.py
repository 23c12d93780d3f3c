"""A time limit that every solver backend checks as it searches."""

from __future__ import annotations

import math
import time

from webbot.errors import WebbotError


class SolverTimeout(WebbotError):
    """The search ran past its time limit."""


class Deadline:
    """Raises SolverTimeout from `check` once `seconds` have passed (never when None)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds if seconds else math.inf

    def check(self) -> None:
        if time.monotonic() > self.end:
            raise SolverTimeout(f"the search ran past its {self.seconds:g} s limit")

    def left(self) -> float | None:
        """Seconds left (at least a millisecond), or None without a limit."""
        return None if self.end == math.inf else max(0.001, self.end - time.monotonic())


UNLIMITED = Deadline(None)
