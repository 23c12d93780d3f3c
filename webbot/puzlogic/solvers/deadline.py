"""A time limit that every solver backend checks as it searches."""

from __future__ import annotations

from webbot.deadline import Deadline
from webbot.errors import WebbotError


class SolverTimeout(WebbotError):
    """The search ran past its time limit."""


class SolverDeadline(Deadline):
    """Raises SolverTimeout from `check` once `seconds` have passed (never when None or 0)."""

    def __init__(self, seconds: float | None) -> None:
        super().__init__(seconds or None)

    def check(self) -> None:
        if self.passed():
            raise SolverTimeout(f"the search ran past its {self.seconds:g} s limit")


UNLIMITED = SolverDeadline(None)
