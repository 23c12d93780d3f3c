"""The one deadline helper: every bounded wait and search in webbot counts down with it."""

from __future__ import annotations

import math
import time


class Deadline:
    """A point in time `seconds` from now (never, when None)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds if seconds is not None else math.inf

    def passed(self) -> bool:
        return time.monotonic() >= self.end

    def left(self) -> float | None:
        """Seconds left (at least a millisecond), or None without a limit."""
        return None if self.end == math.inf else max(0.001, self.end - time.monotonic())
