"""Decide: the policy (what to do about the screen just seen), and how long each screen may
last before the game counts as stuck.

Pure: it gets an observation and hands back an action, so it is tested without a browser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum

from webbot.burrito_bison.model import Observation, Point, Sighting

LAUNCH_DRAG = (-200.0, 10.0)  # press on the left post, pull this far, let go
RETRY_S = 0.6      # a screen that ignored a click (still in its intro) gets another after this
ROCKET_RETRY_S = 0.3
# A launch's ring holds still for a while after the release it took (the replica's for about
# 0.6 s before the flight's screen comes), so a launch is tried again only this long after it.
LAUNCH_RETRY_S = 1.0
# A screen is acted on once its indicator and targets have stood within SETTLE_PX of one place
# for SETTLE_S, by the times its frames show: an intro that eases its art in moves it less than
# a pixel a frame well before it ends (and the game ignores a press until then), so one frame
# against the next says nothing at 60 looks a second.
SETTLE_PX = 1.5
SETTLE_S = 0.15
# How long a screen may last before the bot calls it stuck, in units of the default: a run
# lasts a while by itself.
DEFAULT_PATIENCE_S = 10.0
PATIENCE = {"flight": 12.0}
RECOVERY_LIMIT = 3
# Screens left by one click on their target: screen, role.
CLICKS = (("title", "start"), ("comic", "continue"), ("flash_sale", "close"), ("cards", "pick"))


class Kind(Enum):
    """What an action does: wait for the next look, launch (a drag from `at` to `end`),
    click (at `at`), read the results screen, visit the shop."""

    WAIT = "wait"
    LAUNCH = "launch"
    CLICK = "click"
    READ_RESULTS = "read results"
    SHOP = "shop"


@dataclass(frozen=True)
class Action:
    """`at` is an image point; `end` the launch drag's release point; `role` the target
    clicked (rocket, continue, ...)."""

    kind: Kind
    at: Point | None = None
    end: Point | None = None
    role: str = ""


WAIT = Action(Kind.WAIT)


@dataclass
class Decider:
    """The policy: turns observations into actions, without acting twice on one screen too
    fast, and visits the shop once per stay in it. It never says the game is done: limits on
    rounds or time wrap it (webbot.wrappers)."""

    shop: bool = True
    last_acted: dict[str, float] = field(default_factory=dict)
    shopped: bool = False  # the shop in front has been visited
    _visiting: bool = False  # the visit is the step under way: its end starts the clock
    _acted_on: str | None = None  # the screen of the last action
    # The screen, where its art stood, and since when (the time its frame showed).
    _still: tuple[str, dict[str, Point], float] | None = None

    def _ready(self, screen: str, now: float, retry_s: float = RETRY_S) -> bool:
        return now - self.last_acted.get(screen, -math.inf) >= retry_s

    def __call__(self, observation: Observation) -> Action:
        if observation.hands_busy and self._acted_on is not None:
            # (an action's retry counts from when its inputs were all out: a launch's drag
            # takes half a second)
            self.last_acted[self._acted_on] = observation.now
        action = self.decide(observation)
        if action.kind not in (Kind.WAIT, Kind.READ_RESULTS):
            self.last_acted[observation.sighting.screen] = observation.now
            self._acted_on = observation.sighting.screen
        return action

    def still_for(self, sighting: Sighting, shown: float) -> float:
        """How long (s, by the times the frames show) the screen's indicator and targets have
        stood where they are now, each within SETTLE_PX."""
        points = dict(sighting.targets)
        if sighting.evidence is not None:
            points[""] = sighting.evidence.centre
        held = self._still
        if held is None or held[0] != sighting.screen or held[1].keys() != points.keys() or \
                any(math.dist(point, held[1][role]) > SETTLE_PX
                    for role, point in points.items()):
            self._still = (sighting.screen, points, shown)
            return 0.0
        return shown - held[2]

    def decide(self, observation: Observation) -> Action:
        sighting, now = observation.sighting, observation.now
        screen, targets = sighting.screen, sighting.targets
        # A click is tried again only on a frame the game showed RETRY_S after the click was
        # decided, not one merely looked at then: a busy machine's frames arrive late, and one
        # drawn before the click took effect still shows the screen it left, whose button may
        # lie over the next screen's (CI: a flash sale's Close clicked twice, the second on
        # the piñata that followed, cancelling it).
        shown = min(now, observation.grab.taken_at)
        still_s = self.still_for(sighting, shown)
        # The last input is not on screen yet, or still going out: none more.
        if observation.grab.before_input or observation.hands_busy:
            return WAIT
        if screen != "shop":
            self.shopped = self._visiting = False
        if screen == "rocket_ready" and "rocket" in targets:
            return Action(Kind.CLICK, targets["rocket"], role="rocket") \
                if self._ready(screen, shown, ROCKET_RETRY_S) else WAIT
        if screen in ("flight", "unknown") or still_s < SETTLE_S:
            return WAIT
        if not self._ready(screen, shown, LAUNCH_RETRY_S if screen == "ring" else RETRY_S):
            return WAIT
        if screen == "ring" and "launch" in targets:
            x, y = targets["launch"]
            return Action(Kind.LAUNCH, (x, y), (x + LAUNCH_DRAG[0], y + LAUNCH_DRAG[1]), "launch")
        if screen == "pinata" and "cancel" in targets:
            return Action(Kind.CLICK, targets["cancel"], role="cancel")
        # The flash sale is priced in the portal's money (Kreds, bought with real money): the
        # bot spends only the game's coins, so it always closes it.
        for screen_name, role in CLICKS:
            if screen == screen_name and role in targets:
                return Action(Kind.CLICK, targets[role], role=role)
        if screen in ("missions", "unlocked") and "continue" in targets:
            return Action(Kind.CLICK, targets["continue"], role="continue")
        if screen == "results":
            if not observation.results_read:
                return Action(Kind.READ_RESULTS)
            if self.shop and observation.affordable and "shop" in targets:
                return Action(Kind.CLICK, targets["shop"], role="shop")
            if "next" in targets:
                return Action(Kind.CLICK, targets["next"], role="next")
        if screen == "shop":
            if not self.shopped:
                self.shopped = self._visiting = True
                return Action(Kind.SHOP)
            if self._visiting:  # the first look after the visit: its Next gets its time
                self._visiting = False
                self.last_acted[screen] = now
                return WAIT
            if "next" in targets:  # the visit's own click on Next was not taken
                return Action(Kind.CLICK, targets["next"], role="next")
        return WAIT


def patience_s(screen: str, default_s: float = DEFAULT_PATIENCE_S) -> float:
    """How long a screen may last before the game counts as stuck: a flight lasts a while by
    itself."""
    return PATIENCE.get(screen, 1.0) * default_s
