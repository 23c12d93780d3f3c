"""The Burrito Bison bot as an agent over pixels: given what webbot/BurritoBison-v0 observes
(the game's canvas, 1173x660 RGB), the bot's next move: look again, click a point, or the
launch's drag. Its perception and policy are the bot's (perceive, decide, readout); nothing
of the page. It reads each round's results itself, as the bot does; it does not shop (a
visit to the shop is a run of looks and clicks the bot makes on its own, not yet a policy)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from webbot.burrito_bison.decide import Action, Decider, Kind
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.model import Observation, Sighting
from webbot.burrito_bison.perceive import classify
from webbot.burrito_bison.readout import (
    NUMBERS_STILL_S,
    ResultsReading,
    read_results,
    results_numbers,
)
from webbot.screen import Box, Grab
from webbot.vision.still import Stillness

LOOK, CLICK, DRAG = 0, 1, 2  # BurritoBison-v0's moves (webbot.gym.browser_env's, kept apart
# here so that an agent needs no Gymnasium)
NOWHERE = np.zeros(2, np.float32)


class BurritoAgent:
    """`rounds` holds each round's results as read (distance, coins, total)."""

    def __init__(self, pack: TemplatePack | None = None) -> None:
        self.pack = pack or TemplatePack()
        self.decider = Decider(shop=False)
        self.rounds: list[ResultsReading] = []
        self._previous: Sighting | None = None
        self._results_read = False
        self._numbers = Stillness(NUMBERS_STILL_S)

    def __call__(self, observation: np.ndarray) -> dict[str, Any]:
        image = np.ascontiguousarray(observation[..., ::-1])
        now = time.monotonic()
        grab = Grab(image, Box(0, 0, image.shape[1], image.shape[0]), taken_at=now)
        previous = self._previous
        sighting = classify(self.pack, image, previous.screen if previous else None,
                            framed=True)
        if sighting.screen != "results":
            self._results_read = False
        self._previous = sighting
        seen = Observation(grab, sighting, previous, now, 0.0, self._results_read, False,
                           len(self.rounds))
        action = self.decider(seen)
        if action.kind is Kind.READ_RESULTS:
            self._read_results(image, sighting, now)
        return _move(action, image.shape[1], image.shape[0])

    def _read_results(self, image: np.ndarray, sighting: Sighting, now: float) -> None:
        if self._numbers.still(results_numbers(image, sighting), now):
            self.rounds.append(read_results(image, sighting, self.pack.digits))
            self._results_read = True


def _move(action: Action, width: int, height: int) -> dict[str, Any]:
    """The action as BurritoBison-v0 takes it: its points as fractions of the picture."""
    def point(at: tuple[float, float] | None) -> np.ndarray:
        return NOWHERE if at is None else np.array([at[0] / (width - 1), at[1] / (height - 1)],
                                                   np.float32)

    move = {Kind.CLICK: CLICK, Kind.LAUNCH: DRAG}.get(action.kind, LOOK)
    return {"move": move, "at": point(action.at), "end": point(action.end)}
