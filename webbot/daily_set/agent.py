"""The Daily SET bot as an agent over pixels: given what webbot/DailySet-v0 observes (the 12
card pictures, RGB, and the page's last message), the three cards to click next. Its
perception and decision are the bot's (set_cards.perceive, decide); nothing of the page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from webbot.daily_set.answers import Answer
from webbot.daily_set.decide import Misread, todays_sets
from webbot.set_cards.model import least_certain
from webbot.set_cards.perceive import classify


class DailySetAgent:
    """Reads a board's cards once, then names today's sets one by one. A set it named that the
    page calls no set is a misread: it stops there (Misread) rather than guess on."""

    def __init__(self) -> None:
        self._board = b""
        self._sets: list[tuple[int, int, int]] = []
        self._named = 0

    def __call__(self, observation: Mapping[str, Any]) -> np.ndarray:
        cards = np.asarray(observation["cards"])
        if cards.tobytes() != self._board:  # a new puzzle: read its cards
            readings = [classify(np.ascontiguousarray(card[..., ::-1])) for card in cards]
            self._board, self._sets, self._named = cards.tobytes(), todays_sets(readings), 0
            self._readings = readings
        elif Answer(str(observation["message"])).rejected:
            raise Misread(f"the page says cards {_shown(self._sets[self._named - 1])} are not "
                          f"a set; least certain: {least_certain(self._readings)}")
        triple = self._sets[self._named % len(self._sets)]
        self._named += 1
        return np.array(triple)


def _shown(triple: tuple[int, int, int]) -> str:
    return ", ".join(str(i + 1) for i in triple)
