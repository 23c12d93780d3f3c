"""Keep playing through a lost page: a crashed renderer, a closed page, a browser gone.

The play loop hands every failure of a step here; when the session says the page is gone (or
no longer holds the game: a reload, a navigation, an error page), the cause is said in one
line, the page is reopened on the run's URL (its server given a minute to answer again), and
the loop goes on from the game's reset (which finds the game again and reads where it is).
Anything else, or more than `limit` recoveries in one run, ends the run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from webbot.errors import WebbotError, stop_if_ctrl_c
from webbot.words import counted

if TYPE_CHECKING:
    from webbot.debug import Recorder



class Reopenable(Protocol):
    """What a recovery needs of a run's session (webbot.session.Session, which opens its
    first page through a Recovery)."""

    recoveries: list[str]
    max_recoveries: int
    recorder: Recorder

    def lost(self) -> str | None: ...

    def reopen(self, report: Callable[[str], None]) -> None: ...


class PageLost(WebbotError):
    """The page was lost more often than a run may recover from."""


@dataclass
class Recovery:
    """At most `session.max_recoveries` (--max-recoveries) in one run."""

    session: Reopenable
    report: Callable[[str], None] = print

    @property
    def causes(self) -> list[str]:
        """Why the page was lost, each time in this run (kept by the session, for its
        records)."""
        return self.session.recoveries

    @property
    def limit(self) -> int:
        return self.session.max_recoveries

    def __call__(self, error: BaseException) -> bool:
        """True when the page was lost and has been reopened; False for any other failure.
        A page lost again while it is reopened (a crash in its first load) is another
        recovery. After a Ctrl-C (which ends the browser too) nothing is reopened: the run
        stops as interrupted."""
        stop_if_ctrl_c(error)
        cause = self.session.lost()
        if cause is None:
            return False
        while True:
            if len(self.causes) >= self.limit:
                times = f"{self.limit} recover{'y' if self.limit == 1 else 'ies'}"
                raise PageLost(f"{cause}, after {times} in this run (--max-recoveries)"
                               ) from error
            self.causes.append(cause)
            self.session.recorder.lost(cause, len(self.causes))
            self.report(f"{cause}: reopening the page and finding the game again (recovery "
                        f"{len(self.causes)} of at most {self.limit})")
            try:
                self.session.reopen(self.report)
                return True
            except WebbotError as again:
                stop_if_ctrl_c(again)
                cause, error = self.session.lost(), again
                if cause is None:
                    raise


def recovered(count: int) -> str:
    """For a run's table title: how many lost pages were got back, or nothing."""
    return f"; {counted(count, 'lost page')} recovered" if count else ""
