"""The run's records: a result for each level played (its pieces, perception and solving
times, restarts, recoveries, how it ended), the level under way, and the line said when a
level is over."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from webbot.errors import WebbotError


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
    recoveries: int = 0  # times the page was lost and reopened during the level

    @property
    def completed(self) -> bool:
        return self.result == "completed"

    @property
    def median_perception_ms(self) -> float:
        return statistics.median(self.perception_ms) if self.perception_ms else 0.0


class Records:
    """The results so far and the level under way (`current`, None between levels)."""

    def __init__(self, report: Callable[[str], None]) -> None:
        self.report = report
        self.results: list[LevelResult] = []
        self.current: LevelResult | None = None
        self.drops = 0  # on the level under way
        self._started = 0.0

    @property
    def last_played(self) -> int | None:
        return self.results[-1].level if self.results else None

    def started(self, number: int, unlocking: bool) -> None:
        """Level `number` is under way (again, after a lost page: it goes on)."""
        if self.current is not None:  # a level left when the page was lost
            if self.current.level == number:
                return  # and opened again: it goes on
            self.current.result = "interrupted"
            self.over()
        self.results.append(LevelResult(number, unlocking=unlocking))
        self.current = self.results[-1]
        self._started = time.perf_counter()
        self.drops = 0

    def over(self) -> None:
        """The level under way has ended: its time kept, its line said."""
        assert self.current is not None
        self.current.seconds = time.perf_counter() - self._started
        self.report(progress_line(self.current))
        self.current = None

    def completed(self) -> None:
        if self.current is not None:
            self.current.result = "completed"
            self.over()

    def failed(self, exc: WebbotError) -> LevelFailed:
        """The level under way failed with `exc`: what the run stops with."""
        assert self.current is not None
        self.current.result = f"failed: {exc}"
        return LevelFailed(f"level {self.current.level}: {exc}")

    def perceived(self, ms: float) -> None:
        if self.current is not None:
            self.current.perception_ms.append(ms)

    def solved(self, ms: float, pieces: int) -> None:
        if self.current is not None:
            self.current.solve_ms += ms
            self.current.pieces = pieces

    def restarted(self) -> None:
        if self.current is not None:
            self.current.restarts += 1

    def recovered(self) -> None:
        if self.current is not None:
            self.current.recoveries += 1


def progress_line(result: LevelResult) -> str:
    tag = " (to unlock)" if result.unlocking else ""
    restarts = f", {result.restarts} restart(s)" if result.restarts else ""
    if result.recoveries:
        restarts += f", {result.recoveries} recovery(ies)"
    return (f"level {result.level:02d}{tag}: {result.pieces} pieces, perception "
            f"{result.median_perception_ms:.0f} ms/frame, solved in {result.solve_ms:.1f} ms,"
            f" {result.seconds:.1f} s{restarts}: {result.result}")
