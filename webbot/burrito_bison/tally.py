"""The run's tally: each round as its results screen read it (distance, coins, total, the
rocket slams seen, what happened on the way), the coins the game keeps as last read less
what the shop took since, and what is worth a visit to the shop."""

from __future__ import annotations

import time
from collections.abc import Callable

from webbot.burrito_bison.model import Round
from webbot.burrito_bison.readout import ResultsReading
from webbot.burrito_bison.shopping import Visit


class Tally:
    def __init__(self, report: Callable[[str], None]) -> None:
        self.report = report
        self.rounds: list[Round] = []
        self.total: int | None = None     # coins, as last read
        self.started_with: int | None = None  # coins before the first round (from its results)
        self.cheapest: int | None = None  # the cheapest upgrade seen in the shop
        self.spent = 0                    # since the last results screen
        self.bought = 0                   # purchases, all told
        self.affordable = False           # the coins cover the cheapest upgrade: worth a visit
        self.round_started = time.monotonic()
        self.rockets = 0
        self.rockets_unseen = 0  # rocket clicks whose effect no frame showed
        self.rocket_clicked = False
        self.events: list[str] = []
        self.launched = 0  # the last round said to be launched

    def launch(self) -> None:
        """A launch: the round's clock starts; the round's first launch is said."""
        self.round_started = time.monotonic()
        if self.launched <= len(self.rounds):
            self.launched = len(self.rounds) + 1
            self.report(f"round {self.launched} launched")

    def seen(self, screen: str) -> None:
        """A frame read as `screen`: a rocket clicked before it slammed or came too late."""
        if self.rocket_clicked and screen not in ("rocket_ready", "unknown"):
            self.rocket_clicked = False
            if screen == "flight":  # the full bar went: the slam happened
                self.rockets += 1
            else:  # the flight was over by the next frame read: a slam or a click too late
                self.rockets_unseen += 1

    def event(self, text: str) -> None:
        if not self.events or self.events[-1] != text:
            self.events.append(text)

    def page_lost(self) -> None:
        """The round under way went with the lost page: the new page's round is counted from
        zero, so its rocket slams match what its results screen will report."""
        self.rockets, self.rockets_unseen, self.rocket_clicked = 0, 0, False
        self.events.append("page lost and reopened")

    def round_read(self, reading: ResultsReading) -> Round:
        """A results screen read: the round recorded, the coins brought up to date."""
        number = len(self.rounds) + 1
        expected = None if self.total is None or reading.coins is None \
            else self.total - self.spent + reading.coins
        total = reading.total
        if number == 1 and total is not None and reading.coins is not None:
            # The coins the game had kept from earlier runs, less what was bought with them.
            self.started_with = total - reading.coins + self.spent
        if expected is not None and total is not None and total != expected:
            self.report(f"round {number}: the total reads {total:,} but the last total, "
                        f"purchases and this round's coins make {expected:,}; kept as read")
        finished = Round(number, reading.distance, reading.coins, total,
                         time.monotonic() - self.round_started, self.rockets, self.events,
                         self.rockets_unseen)
        self.rounds.append(finished)
        self.total = total if total is not None else expected
        self.spent, self.rockets, self.rockets_unseen, self.events = 0, 0, 0, []
        self.affordable = self.total is not None and (
            self.cheapest is None or self.total >= self.cheapest)
        self.report(round_line(finished))
        return finished

    def shopped(self, visit: Visit) -> None:
        """A visit to the shop over: what it bought and the cheapest upgrade it saw."""
        for purchase in visit.bought:
            self.spent += purchase.price
            self.bought += 1
            if self.rounds:  # bought with the coins of the round just finished
                self.rounds[-1].events.append(f"bought {purchase.name.lower()} "
                                              f"({purchase.price:,})")
        self.cheapest = visit.cheapest() or self.cheapest
        self.affordable = False

    def budget(self) -> int | None:
        return self.total - self.spent if self.total is not None else None

    def under_way(self, screen: str) -> Round | None:
        """The round launched and not finished (its results not read), with what it got so
        far, for a run stopped in the middle of it on `screen`; None when none is."""
        if self.launched <= len(self.rounds):
            return None
        return Round(self.launched, seconds=time.monotonic() - self.round_started,
                     rockets=self.rockets, events=list(self.events),
                     rockets_unseen=self.rockets_unseen, stopped_on=screen)

    def coins_now(self) -> int | None:
        """The coins the game keeps now, as last read (None: no total read yet)."""
        return None if self.total is None else self.total - self.spent

    def coins_line(self) -> str | None:
        """The coins the run started and ended with, in words, when both were read."""
        ended = self.coins_now()
        if self.started_with is None or ended is None:
            return None
        return (f"started with {self.started_with:,} coins, ended with {ended:,} coins "
                f"({ended - self.started_with:+,})")


def round_line(finished: Round) -> str:
    def number(value: int | None, unit: str = "") -> str:
        return "?" if value is None else f"{value:,}{unit}"

    extras = f" ({', '.join(finished.events)})" if finished.events else ""
    return (f"round {finished.number}: {number(finished.distance, ' m')}, "
            f"{number(finished.coins)} coins, total {number(finished.total)}, "
            f"{finished.rockets} rocket slams{finished.unseen_words}, "
            f"{finished.seconds:.1f} s{extras}")
