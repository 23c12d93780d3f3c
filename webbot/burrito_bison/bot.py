"""The Burrito Bison bot: a loop of look (screenshot + classify), decide, act, many times a
second, that plays rounds until it has played enough, and stops clearly when the game does
not move on."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from webbot.burrito_bison.act import Hands
from webbot.burrito_bison.decide import (
    DEFAULT_PATIENCE_S,
    RECOVERY_LIMIT,
    Action,
    Decider,
    Watchdog,
)
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.model import Round, Sighting
from webbot.burrito_bison.readout import ResultsReading, read_results, results_numbers
from webbot.burrito_bison.screens import classify, fitted
from webbot.burrito_bison.shopping import Visit
from webbot.errors import WebbotError
from webbot.game import Candidate, GameSpec
from webbot.screen import Frame, Screen
from webbot.session import Session

CANVAS = "canvas"
NUMBERS_STILL_S = 0.3    # the results' numbers count up; they are read once they stop


class Stuck(WebbotError):
    """The game stayed on one screen (or on none the bot knows) through every recovery."""


@dataclass(frozen=True)
class Look:
    frame: Frame       # at the pack's scale (see pack_sized)
    image: np.ndarray  # its picture
    sighting: Sighting
    ms: float          # screenshot + classification


@dataclass
class Stats:
    decisions: int = 0
    look_ms: deque[float] = field(default_factory=lambda: deque(maxlen=2000))  # the latest
    started: float = field(default_factory=time.monotonic)

    @property
    def per_second(self) -> float:
        return self.decisions / max(1e-9, time.monotonic() - self.started)


def pack_sized(frame: Frame) -> Frame:
    """The frame at the scale the pack's crops were cut at, whatever the game's size on the
    page and the device pixel ratio. Points found in the returned frame map to page points
    through it (Frame.to_page)."""
    return replace(frame, image=fitted(frame.image, frame.box.width, frame.box.height))


def game_spec(pack: TemplatePack) -> GameSpec:
    """Burrito Bison as the page search knows it: a canvas showing a screen of the pack."""
    def recognises(candidate: Candidate) -> bool:
        return classify(pack, pack_sized(candidate.grab()).image, framed=True).screen != "unknown"

    return GameSpec("Burrito Bison", CANVAS, recognises, needs_focus=True)


class BurritoBot:
    def __init__(self, session: Session, pack: TemplatePack, *, shop: bool = True,
                 stuck_after: float = DEFAULT_PATIENCE_S, pace_s: float = 0.0,
                 report: Callable[[str], None] = print,
                 status: Callable[[str], None] = lambda line: None) -> None:
        self.session = session
        self.pack = pack
        self.screen: Screen = session.game_screen(game_spec(pack), fast=True, report=report)
        self.hands = Hands(session.mouse)
        self.decider = Decider(shop=shop)
        self.watchdog = Watchdog(stuck_after)
        self.pace_s = pace_s  # at least this long between looks (a benchmark's slow baseline)
        self.report = report
        self.status = status
        self.rounds: list[Round] = []
        self.stats = Stats()
        self.total: int | None = None     # coins, as last read
        self.cheapest: int | None = None  # the cheapest upgrade seen in the shop
        self.spent = 0                    # since the last results screen
        self.round_started = time.monotonic()
        self.rockets = 0
        self.events: list[str] = []
        self._numbers: tuple[dict[str, np.ndarray], float] = ({}, 0.0)
        self._rocket_clicked = False
        self._last_screen: str | None = None
        self._looked = 0.0

    # -- looking ---------------------------------------------------------------------------
    def look(self) -> Look:
        if self.pace_s and self.stats.look_ms:
            wait_ms = self.pace_s * 1000 - (time.perf_counter() - self._looked) * 1000
            if wait_ms > 0:
                self.session.page.wait_for_timeout(wait_ms)
        self._looked = started = time.perf_counter()
        frame = pack_sized(self.screen.look())
        sighting = classify(self.pack, frame.image, self._last_screen, framed=True)
        self._last_screen = sighting.screen
        ms = (time.perf_counter() - started) * 1000
        self.stats.look_ms.append(ms)
        return Look(frame, frame.image, sighting, ms)

    # -- the loop --------------------------------------------------------------------------
    def play(self, *, rounds: int | None = None, minutes: float | None = None) -> list[Round]:
        """Play until `rounds` results screens have been read, or the first one after
        `minutes`."""
        deadline = time.monotonic() + minutes * 60 if minutes is not None else None
        wanted = rounds if rounds is not None else (None if deadline else 3)
        previous: Look | None = None
        while True:
            look = self.look()
            now = time.monotonic()
            self.stats.decisions += 1
            if self._rocket_clicked and look.sighting.screen != "rocket_ready":
                self._rocket_clicked = False
                if look.sighting.screen == "flight":  # the full bar went: the slam happened
                    self.rockets += 1
            if self.watchdog.seen(look.sighting.screen, now):
                self.recover(look)
            action = self.decider.decide(look.sighting,
                                         previous.sighting if previous else None, now)
            if action.kind == "read_results":
                if not self._numbers_still(look, now):
                    action = Action("wait")  # the coins are still counting up
                else:
                    self.finish_round(look)
                    if (wanted is not None and len(self.rounds) >= wanted) or \
                            (deadline is not None and now >= deadline):
                        return self.rounds
                    continue
            self.act(look, action, now)
            self.show(look)
            previous = look

    def act(self, look: Look, action: Action, now: float) -> None:
        screen = look.sighting.screen
        if action.kind == "wait":
            return
        self.decider.acted(screen, now)
        if action.kind == "launch":
            self.round_started = time.monotonic()
            self.hands.launch(look.frame, action.at, action.end)
        elif action.kind == "click":
            if action.role == "rocket":
                self._rocket_clicked = True
            elif action.role == "cancel":
                self._event("piñata dismissed")
            elif action.role == "continue" and screen == "unlocked":
                self._event("card unlocked")
            elif action.role == "close":
                self._event("flash sale closed")
            elif action.role == "pick":
                self._event("piñata card picked")
            self.hands.click(look.frame, action.at)
        elif action.kind == "shop":
            self.shop(look)

    def _numbers_still(self, look: Look, now: float) -> bool:
        """The results' numbers have not changed for NUMBERS_STILL_S."""
        crops = results_numbers(look.image, look.sighting)
        before, since = self._numbers
        same = bool(crops) and crops.keys() == before.keys() and all(
            crops[k].shape == before[k].shape and np.array_equal(crops[k], before[k])
            for k in crops)
        if not same:
            self._numbers = (crops, now)
        return same and now - since >= NUMBERS_STILL_S

    def _event(self, text: str) -> None:
        if not self.events or self.events[-1] != text:
            self.events.append(text)

    # -- results and shop ------------------------------------------------------------------
    def finish_round(self, look: Look) -> None:
        reading: ResultsReading = read_results(look.image, look.sighting, self.pack.digits)
        number = len(self.rounds) + 1
        expected = None if self.total is None or reading.coins is None \
            else self.total - self.spent + reading.coins
        total = reading.total
        if expected is not None and total is not None and total != expected:
            self.report(f"round {number}: the total reads {total:,} but the last total, "
                        f"purchases and this round's coins make {expected:,}; kept as read")
        done = Round(number, reading.distance, reading.coins, total,
                     time.monotonic() - self.round_started, self.rockets, self.events)
        self.rounds.append(done)
        self.total = total if total is not None else expected
        self.spent, self.rockets, self.events = 0, 0, []
        self.decider.results_read = True
        self.decider.want_shop = self.total is not None and (
            self.cheapest is None or self.total >= self.cheapest)
        self.session.recorder.keep(look.frame, f"round-{number}-results")
        self.report(round_line(done))

    def shop(self, look: Look) -> None:
        """A visit to the shop (shopping.Visit), then out by the Next arrow."""
        budget = self.total - self.spent if self.total is not None else None
        visit = Visit(self)
        look = visit.run(look, budget)
        for purchase in visit.bought:
            self.spent += purchase.price
            if self.rounds:  # bought with the coins of the round just finished
                self.rounds[-1].events.append(f"bought {purchase.name.lower()} "
                                              f"({purchase.price:,})")
        self.cheapest = visit.cheapest() or self.cheapest
        self.decider.want_shop = False
        self.decider.acted("shop", time.monotonic())
        if look.sighting.screen == "shop" and "next" in look.sighting.targets:
            self.hands.click(look.frame, look.sighting.targets["next"])

    # -- stuck -----------------------------------------------------------------------------
    def recover(self, look: Look) -> None:
        """Save what the bot sees, then try, in turn: the screen's own target again, a click
        in the middle, Escape. After RECOVERY_LIMIT alarms the run stops."""
        screen = look.sighting.screen
        alarm = self.watchdog.alarms
        seconds = self.watchdog.stuck_for(time.monotonic())
        saved = self.session.recorder.save_frame(look.frame, f"stuck-{screen}-{alarm}")
        if alarm > RECOVERY_LIMIT:
            raise Stuck(f"stuck on the {screen} screen for {seconds:.0f} s; {RECOVERY_LIMIT} "
                        f"recovery attempts did not move the game on")
        self.report(f"  no progress on the {screen} screen for {seconds:.0f} s "
                    f"(frame saved as {saved}); recovery attempt {alarm}")
        height, width = look.image.shape[:2]
        targets = list(look.sighting.targets.values())
        if alarm == 1 and targets:
            self.hands.click(look.frame, targets[0])
        elif alarm <= 2:
            self.hands.click(look.frame, (width / 2, height / 2))
        else:
            self.session.page.keyboard.press("Escape")
            self.hands.click(look.frame, (width / 2, height * 0.9))

    # -- progress --------------------------------------------------------------------------
    def show(self, look: Look) -> None:
        coins = f"{self.total:,}" if self.total is not None else "?"
        self.status(f"round {len(self.rounds) + 1} · {look.sighting.screen} · coins {coins} · "
                    f"{self.stats.per_second:.0f} decisions/s")


def round_line(done: Round) -> str:
    def number(value: int | None, unit: str = "") -> str:
        return "?" if value is None else f"{value:,}{unit}"

    extras = f" ({', '.join(done.events)})" if done.events else ""
    return (f"round {done.number}: {number(done.distance, ' m')}, {number(done.coins)} coins, "
            f"total {number(done.total)}, {done.rockets} rocket slams, "
            f"{done.seconds:.1f} s{extras}")
