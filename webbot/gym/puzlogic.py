"""Puzlogic as a Gymnasium environment: the bundled replica in headless Chromium, a level
generated from the seed (or one of the game's 15), the game's 800x600 picture (RGB) as the
observation, and as the action a tray piece (its slot, left to right) dropped on a board cell
(row, column). An action naming no piece in the tray or no free cell changes nothing in the
game: the observation is a fresh look (the agent's way to look again). No
reward here: the replica's judge is for a wrapper to read (webbot.gym.judge), never the
agent."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from webbot.gym.browser_env import BrowserEnv, ToPage
from webbot.puzlogic.bot import PuzlogicBot, player
from webbot.puzlogic.decide import Action, Kind
from webbot.puzlogic.model import HEIGHT, WIDTH, Observation, Placement

MAX_PIECES, MAX_SIDE = 16, 8  # the tray slots and board sides an action may name
SIDES = (3, 5)  # the generated boards' sides, drawn from the seed
LEVELS = 15  # the game's own


class PuzlogicEnv(BrowserEnv):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}
    REPLICA = "webbot.puzlogic.replica"  # its judge, for webbot.gym.judge alone
    RAW_SIZE = (WIDTH, HEIGHT)

    def __init__(self, render_mode: str | None = None, url: str | None = None) -> None:
        super().__init__(render_mode, url)
        self.observation_space = spaces.Box(0, 255, (HEIGHT, WIDTH, 3), np.uint8)
        self.action_space = spaces.MultiDiscrete([MAX_PIECES, MAX_SIDE, MAX_SIDE])
        self._bot: PuzlogicBot | None = None
        self._seen: Observation | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A level generated from the seed; `options={"level": n}`, the game's own level n
        (1-15) instead. On a real site (`url`), its level n (1 unless said) through its
        menus, if the site has it unlocked."""
        super().reset(seed=seed)
        level_seed = int(self.np_random.integers(1_000_000))
        side = int(self.np_random.integers(SIDES[0], SIDES[1] + 1))
        page = f"puzlogic/index.html?generate={level_seed}&size={side}&level=1"
        number = (options or {}).get("level")
        if number is not None:
            if not (isinstance(number, int) and 1 <= number <= LEVELS):
                raise ValueError(f"no Puzlogic level {number!r}: the game has 1-{LEVELS}")
            page = f"puzlogic/index.html?level={number}"
        self._on_browser_thread(lambda: self._open_level(page, number or 1))
        return self._pixels(), self._info()

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        placement = self._placement(*(int(value) for value in action))
        if placement is not None:
            self._on_browser_thread(lambda: self._drop(placement))
        else:  # nothing changed in the game: a fresh look at it (a leaf may have moved on)
            self._on_browser_thread(self._look)
        terminated = self._observed().screen == "completed"
        return self._pixels(), 0.0, terminated, False, self._info()

    def render(self) -> np.ndarray | None:
        return self._pixels() if self.render_mode == "rgb_array" else None

    # ---- on the browser's thread -------------------------------------------------------------

    def _open_level(self, page: str, number: int) -> None:
        self._bot = player(self._open(page), [number]).bot
        self._bot.reset()
        self._seen = self._bot.step(Action(Kind.OPEN, level=number))

    def _drop(self, placement: Placement) -> None:
        assert self._bot is not None
        seen = self._observed()
        last = seen.view is not None and len(seen.view.tray) == 1
        self._seen = self._bot.drops.place(seen, (placement,), last)

    def _look(self) -> None:
        assert self._bot is not None
        self._seen = self._bot.eyes.look()

    def _raw_picture(self) -> tuple[np.ndarray, ToPage, bool]:
        assert self._bot is not None
        seen = self._bot.eyes.look(read=False)
        return (np.ascontiguousarray(seen.picture.canvas[..., ::-1]),
                lambda x, y: seen.page_point((x, y)), seen.screen == "completed")

    def _forget(self) -> None:
        self._bot, self._seen = None, None

    # ---- what the agent gets ------------------------------------------------------------------

    def _observed(self) -> Observation:
        if self._seen is None:
            raise gym.error.ResetNeeded("call reset() before step() or render()")
        return self._seen

    def _placement(self, slot: int, row: int, col: int) -> Placement | None:
        """The drop an action names, or None where it names no piece or no free cell."""
        view = self._observed().view
        if view is None or slot >= len(view.tray) or view.cells.get((row, col), 0) is not None \
                or (row, col) in view.placed:
            return None
        piece = view.tray[slot]
        return None if piece.value is None else Placement(row, col, piece.value, piece.color)

    def _pixels(self) -> np.ndarray:
        return np.ascontiguousarray(self._observed().picture.canvas[..., ::-1], dtype=np.uint8)

    def _info(self) -> dict[str, Any]:
        seen = self._observed()
        view = seen.view
        return {"screen": seen.screen, "level": view.level if view is not None else None,
                "tray": len(view.tray) if view is not None else 0,
                "placed": len(view.placed) if view is not None else 0, **self._metrics()}
