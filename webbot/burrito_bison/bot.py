"""The Burrito Bison bot as a game of the play loop: each look is a screenshot classified,
many a second; each step carries out one action (a launch, a click, reading the results, a
visit to the shop) and looks again. It plays rounds until a limit says enough, and stops
clearly when the game does not move on."""

from __future__ import annotations

import contextlib
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from playwright.sync_api import Error

from webbot.burrito_bison.act import Hands
from webbot.burrito_bison.decide import (
    DEFAULT_PATIENCE_S,
    RECOVERY_LIMIT,
    Action,
    Decider,
    Kind,
    patience_s,
)
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.model import DEFAULT_ROUNDS, Observation, Round, Sighting
from webbot.burrito_bison.perceive import SearchPace, classify, fitted
from webbot.burrito_bison.readout import (
    NUMBERS_STILL_S,
    ResultsReading,
    read_results,
    results_numbers,
)
from webbot.burrito_bison.shopping import Visit
from webbot.burrito_bison.tally import Tally
from webbot.errors import WebbotError
from webbot.game import Candidate, GameSpec
from webbot.play import Playable
from webbot.screen import Grab, MovedSinceSeen, Screen
from webbot.seat import Seat
from webbot.session import Session
from webbot.vision.marks import Mark
from webbot.vision.still import Stillness
from webbot.wrappers import Watched, limited

CANVAS = "canvas"


@dataclass
class Stats:
    """The latest 2000 looks, each in phases (ms): `picture_ms` getting the picture (a pull,
    or waiting for a new frame of the screencast and cutting the game from it), `classify_ms`
    reading it, `look_ms` from the picture's arrival to the decision (a pull counts from
    its asking), `age_ms` from the moment the picture shows to the decision (a streamed
    frame's time on screen, which reaches the bot some frames later; a pull's asking).
    `stale`: decisions made on a picture no newer than the one decided on before;
    `as_before`: decisions on a frame sent again as it was, read as the one before (its
    reading ~0 ms)."""

    decisions: int = 0
    stale: int = 0
    as_before: int = 0
    last_shown: float = -math.inf  # the moment the last picture decided on showed
    look_ms: deque[float] = field(default_factory=lambda: deque(maxlen=2000))
    age_ms: deque[float] = field(default_factory=lambda: deque(maxlen=2000))
    picture_ms: deque[float] = field(default_factory=lambda: deque(maxlen=2000))
    classify_ms: deque[float] = field(default_factory=lambda: deque(maxlen=2000))
    started: float = field(default_factory=time.monotonic)

    @property
    def per_second(self) -> float:
        return self.decisions / max(1e-9, time.monotonic() - self.started)


class Reading(NamedTuple):
    """A picture read: the grab at the pack's scale, its screen, whether it was searched over
    scales (classify's `search`)."""

    grab: Grab
    sighting: Sighting
    searched: bool


def pack_sized(grab: Grab) -> Grab:
    """The grab at the scale the pack's crops were cut at, whatever the game's size on the
    page and the device pixel ratio. Points found in the returned grab map to page points
    through it (Grab.to_page)."""
    return replace(grab, image=fitted(grab.image, grab.box.width, grab.box.height))


def game_spec(pack: TemplatePack) -> GameSpec:
    """Burrito Bison as the page search knows it: a canvas showing a screen of the pack."""
    def recognises(candidate: Candidate) -> bool:
        return classify(pack, pack_sized(candidate.grab()).image, framed=True).screen != "unknown"

    return GameSpec("Burrito Bison", CANVAS, recognises, needs_focus=True)


class BurritoBot:
    def __init__(self, seat: Seat, pack: TemplatePack, *, shop: bool = True,
                 stuck_after: float = DEFAULT_PATIENCE_S, pace_s: float = 0.0,
                 streamed: bool = True, report: Callable[[str], None] = print,
                 status: Callable[[str], None] = lambda line: None) -> None:
        self.seat = seat
        self.pack = pack
        self.report = report
        self.streamed = streamed  # looks at the page's screencast (False: pulled pictures)
        self.found_on: int | None = None  # the page the game was found on (its reopening)
        self.screen: Screen
        self.hands: Hands
        self.shop = shop
        self.stuck_after = stuck_after  # the watchdog's default patience
        self.pace_s = pace_s  # at least this long between looks (a benchmark's slow baseline)
        self.status = status
        self.tally = Tally(report)
        self.stats = Stats()
        self.results_read = False         # the results screen in front has been read
        self._numbers = Stillness(NUMBERS_STILL_S)
        self._looked = 0.0
        self._previous: Sighting | None = None
        self._read: Reading | None = None  # the last picture read anew
        self.screen_seen = "unknown"  # on the last look
        self._searching = SearchPace(
            lambda image, given_up: classify(pack, image, framed=True, given_up=given_up))

    @property
    def rounds(self) -> list[Round]:
        return self.tally.rounds

    def watched(self) -> Watched[Observation, Action, list[Round]]:
        """The bot under its stuck watchdog: the same screen for too long, with nothing bought
        there, is a game that is stuck (reading a round's results and buying count as moving
        on)."""
        return Watched(self, lambda seen: (f"the {seen.sighting.screen} screen",
                                           (seen.rounds, seen.bought)),
                       lambda seen: patience_s(seen.sighting.screen, self.stuck_after),
                       self.unstick, RECOVERY_LIMIT)

    # -- the game of the play loop ---------------------------------------------------------
    def reset(self) -> Observation:
        if self.found_on != self.seat.reopened:  # first, or a new page after a lost one
            if self.found_on is not None:
                self._previous, self._read, self.results_read = None, None, False
                self.tally.page_lost()
                self._numbers = Stillness(NUMBERS_STILL_S)
            self.find()
        return self.look(early=True)

    def step(self, action: Action) -> Observation:
        with contextlib.suppress(MovedSinceSeen):  # nothing done: the next look decides
            self.act(self.observation, action)
        return self.look(early=True)

    def result(self) -> list[Round]:
        # (no button left held; what the last inputs met no longer changes the rounds read)
        hands = getattr(self, "hands", None)  # (none before the game was found)
        with contextlib.suppress(Error, WebbotError):
            if hands is not None:
                hands.finish()
        return self.rounds

    # -- looking ---------------------------------------------------------------------------
    def look(self, early: bool = False) -> Observation:
        """A grab classified; the rockets and the results kept track of; the progress line.
        `early`: each new frame, those shown before the last input could show included (the
        play loop's looks: its policy waits on them, Decider); else the first that shows it
        (the shop's visit, which reads what its click did)."""
        if self.pace_s and self._looked:  # a benchmark's slow baseline
            wait_s = self.pace_s - (time.monotonic() - self._looked)
            if wait_s > 0:
                self.seat.wait(wait_s)
        self._looked = time.monotonic()
        started = time.perf_counter()
        phases = self.seat.recorder.phases
        # Inputs going out when the look begins may show half done in its picture: the
        # policy waits (and a failure among those sent before is raised here).
        self.hands.check()
        hands_busy = self.hands.busy
        search = self._searching.due(self._looked)
        read = self._read
        # A frame of the screencast comes when the game draws it: the wait is the game's. A
        # frame sent again as it was (a screen holding still: most of the shop's) is read as
        # it was the last time: its picture at the pack's scale and its screen.
        with phases("waiting on the game" if self.streamed else "taking pictures"):
            grab = self.screen.look(early)
            again = read is not None and grab.same_pixels(read.grab) and \
                (read.sighting.screen != "unknown" or read.searched or not search)
            grab = replace(grab, image=read.grab.image) if again else pack_sized(grab)
        pictured = time.perf_counter()
        previous = self._previous
        if again:
            sighting = read.sighting
            self.stats.as_before += 1
        else:
            with phases("perception"):
                sighting = classify(self.pack, grab.image,
                                    previous.screen if previous else None, framed=True,
                                    search=search)
            self._read = Reading(grab, sighting, search)
        classified_at = time.perf_counter()
        ms = (classified_at - started) * 1000
        now = time.monotonic()
        self._searching.saw(sighting, grab.image, self._looked)
        self.stats.look_ms.append((now - grab.arrived_at) * 1000)
        self.stats.age_ms.append((now - (grab.taken_at if grab.streamed else grab.arrived_at))
                                 * 1000)
        self.stats.picture_ms.append((pictured - started) * 1000)
        self.stats.classify_ms.append((classified_at - pictured) * 1000)
        self.stats.decisions += 1
        if grab.taken_at <= self.stats.last_shown:
            self.stats.stale += 1
        self.stats.last_shown = max(self.stats.last_shown, grab.taken_at)
        # (a frame read as nothing known, a fade or something over the bar, tells nothing of
        # it; nor does one shown before the rocket's click could show, or while it went out)
        if not grab.before_input and not hands_busy:
            self.tally.seen(sighting.screen)
        if sighting.screen != "results":
            self.results_read = False
        self._previous, self.screen_seen = sighting, sighting.screen
        self.observation = Observation(grab, sighting, previous, now, ms, self.results_read,
                                       self.tally.affordable, len(self.rounds),
                                       self.tally.bought, hands_busy)
        self.show(self.observation)
        return self.observation

    # -- acting ----------------------------------------------------------------------------
    def act(self, observation: Observation, action: Action) -> None:
        screen = observation.sighting.screen
        if action.kind not in (Kind.WAIT, Kind.READ_RESULTS):
            self._annotated(observation, action)
        if action.kind is Kind.LAUNCH:
            self.hands.launch(observation.grab, action.at, action.end)
            self.tally.launch()
        elif action.kind is Kind.CLICK:
            self.hands.click_soon(observation.grab, action.at)
            if action.role == "rocket":
                self.tally.rocket_clicked = True
            elif action.role == "cancel":
                self.tally.event("piñata dismissed")
            elif action.role == "continue" and screen == "unlocked":
                self.tally.event("card unlocked")
            elif action.role == "close":
                self.tally.event("flash sale closed")
            elif action.role == "pick":
                self.tally.event("piñata card picked")
        elif action.kind is Kind.READ_RESULTS:
            # The results' numbers read once they have not changed in pictures of
            # NUMBERS_STILL_S (by the times the pictures show, not the looks: a look may see
            # again a frame it saw before); until then the coins are still counting up.
            if self._numbers.still(results_numbers(observation.image, observation.sighting),
                                   observation.grab.taken_at):
                self.finish_round(observation)
        elif action.kind is Kind.SHOP:
            self.visit_shop(observation)

    def _annotated(self, observation: Observation, action: Action) -> None:
        """The frame an action was decided on, in the debug folder: the screen, the template
        that told it (with its score), and where the click or the launch's drag goes."""
        if not self.seat.recorder.wants_frames():
            return
        sighting, found = observation.sighting, []
        if sighting.evidence is not None:
            e = sighting.evidence
            found.append(Mark(e.x, e.y, e.width, e.height,
                              f"{sighting.screen}: {e.name} {e.score:.2f}", (0, 160, 0)))
        what = action.role or action.kind.value
        for point, text in ((action.at, what), (action.end, "release")):
            if point is not None:
                found.append(Mark(point[0] - 10, point[1] - 10, 20, 20, text, (0, 0, 255)))
        self.seat.recorder.annotated(
            observation.grab, f"round-{len(self.rounds) + 1}-{sighting.screen}-{what}", found)

    # -- results and shop ------------------------------------------------------------------
    def finish_round(self, observation: Observation) -> None:
        reading: ResultsReading = read_results(observation.image, observation.sighting,
                                               self.pack.digits)
        number = len(self.rounds) + 1
        self.tally.round_read(reading)
        self.results_read = True
        self.seat.recorder.keep(observation.grab, f"round-{number}-results")
        e = observation.sighting.evidence
        self.seat.recorder.annotated(observation.grab, f"round-{number}-results-read", [
            *([Mark(e.x, e.y, e.width, e.height, f"results: {e.name} {e.score:.2f}",
                    (0, 160, 0))] if e else []),
            Mark(8, 24, 0, 0, f"read: {reading.distance} m, {reading.coins} coins, total "
                              f"{reading.total}", (0, 0, 255))])

    def visit_shop(self, observation: Observation) -> None:
        """A visit to the shop (shopping.Visit), then out by the Next arrow."""
        visit = Visit(self.look, self.hands, self.pack, self.seat.recorder, self.report)
        observation = visit.run(observation, self.tally.budget())
        self.tally.shopped(visit)
        if observation.sighting.screen == "shop" and "next" in observation.sighting.targets:
            self.hands.click_soon(observation.grab, observation.sighting.targets["next"])

    # -- stuck -----------------------------------------------------------------------------
    def find(self) -> None:
        """The game found on the page: a screen on it, and hands for its mouse."""
        self.found_on = self.seat.reopened
        self.screen = self.seat.game_screen(game_spec(self.pack), fast=True,
                                            streamed=self.streamed, report=self.report)
        self.hands = Hands(self.seat.mouse)

    def unstick(self, observation: Observation, alarm: int, seconds: float) -> None:
        """What the watchdog asks of a game stuck on one screen: save what the bot sees, then
        try, in turn, the screen's own target again, a click in the middle, Escape. After
        RECOVERY_LIMIT alarms the watchdog stops the run."""
        screen = observation.sighting.screen
        saved = self.seat.recorder.save_grab(observation.grab, f"stuck-{screen}-{alarm}")
        if alarm > RECOVERY_LIMIT:
            return
        self.report(f"  no progress on the {screen} screen for {seconds:.0f} s "
                    f"(grab saved as {saved}); recovery attempt {alarm}")
        height, width = observation.image.shape[:2]
        targets = list(observation.sighting.targets.values())
        if alarm == 1 and targets:
            self.hands.click(observation.grab, targets[0])
        elif alarm <= 2:
            self.hands.click(observation.grab, (width / 2, height / 2))
        else:
            self.hands.escape()
            self.hands.click(observation.grab, (width / 2, height * 0.9))

    # -- progress --------------------------------------------------------------------------
    def show(self, observation: Observation) -> None:
        total = self.tally.total
        coins = f"{total:,}" if total is not None else "?"
        screen = observation.sighting.screen
        self.status(f"round {len(self.rounds) + 1} · {screen} · coins {coins} · "
                    f"{self.stats.per_second:.0f} decisions/s")


def player(session: Session, rounds: int | None = None, minutes: float | None = None, *,
           pack: TemplatePack | None = None, shop: bool = True,
           stuck_after: float = DEFAULT_PATIENCE_S, pace_s: float = 0.0, streamed: bool = True,
           report: Callable[[str], None] = lambda line: None,
           status: Callable[[str], None] = lambda line: None
           ) -> Playable[Observation, Action, list[Round]]:
    """Burrito Bison's one factory (its registration's player): the bot on `session`'s page
    (the bundled templates unless given a pack) under its watchdog, and its policy under its
    limits (`rounds` results read, or the first after `minutes`; DEFAULT_ROUNDS when neither
    is given), as `webbot burrito-bison` plays them."""
    bot = BurritoBot(session, pack or TemplatePack(), shop=shop, stuck_after=stuck_after,
                     pace_s=pace_s, streamed=streamed, report=report, status=status)
    return playable(session, bot, rounds, minutes)


def playable(session: Session, bot: BurritoBot, rounds: int | None = None,
             minutes: float | None = None) -> Playable[Observation, Action, list[Round]]:
    """`bot` (made on `session`) as `player` makes it playable."""
    wanted = rounds if rounds is not None else (None if minutes is not None else
                                                DEFAULT_ROUNDS)
    policy = limited(Decider(shop=bot.shop), lambda observation: observation.rounds,
                     count=wanted, minutes=minutes)
    return Playable.on(session, bot.watched(), policy, bot.report)
