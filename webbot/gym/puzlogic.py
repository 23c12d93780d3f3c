"""Puzlogic as a Gymnasium environment: the bundled replica in headless Chromium, a level
generated from the seed, the game's 800x600 picture (RGB) as the observation, and as the
action a tray piece (its slot, left to right) dropped on a board cell (row, column). An action
naming no piece in the tray or no free cell changes nothing. No reward yet: the replica's judge
is for a wrapper to read, never the agent.

Each environment keeps its browser on a thread of its own, so environments side by side in one
thread (Gymnasium's checker makes a second one) each have their own Playwright."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any, TypeVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from webbot.options import RunOptions
from webbot.puzlogic.bot import PuzlogicBot
from webbot.puzlogic.decide import Action, Kind
from webbot.puzlogic.model import HEIGHT, WIDTH, Observation, Placement
from webbot.session import game_session

MAX_PIECES, MAX_SIDE = 16, 8  # the tray slots and board sides an action may name
SIDES = (3, 5)  # the generated boards' sides, drawn from the seed
T = TypeVar("T")


class PuzlogicEnv(gym.Env):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, render_mode: str | None = None) -> None:
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 255, (HEIGHT, WIDTH, 3), np.uint8)
        self.action_space = spaces.MultiDiscrete([MAX_PIECES, MAX_SIDE, MAX_SIDE])
        self._browser_thread = ThreadPoolExecutor(1, thread_name_prefix="webbot-env")
        self._closed = False
        self._stack: ExitStack | None = None
        self._bot: PuzlogicBot | None = None
        self._seen: Observation | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        level_seed = int(self.np_random.integers(1_000_000))
        side = int(self.np_random.integers(SIDES[0], SIDES[1] + 1))
        self._on_browser_thread(lambda: self._open(level_seed, side))
        return self._pixels(), self._info()

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        placement = self._placement(*(int(value) for value in action))
        if placement is not None:
            self._on_browser_thread(lambda: self._drop(placement))
        terminated = self._observed().screen == "completed"
        return self._pixels(), 0.0, terminated, False, self._info()

    def render(self) -> np.ndarray | None:
        return self._pixels() if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        """The browser ended (within its bounded stop), and its thread; again, nothing."""
        if not self._closed:
            self._closed = True
            self._on_browser_thread(self._end)
            self._browser_thread.shutdown()

    # ---- on the browser's thread -------------------------------------------------------------

    def _open(self, level_seed: int, side: int) -> None:
        self._end()
        self._stack = ExitStack()
        page = f"puzlogic/index.html?generate={level_seed}&size={side}&level=1"
        session = self._stack.enter_context(game_session(RunOptions(), page))
        self._bot = PuzlogicBot(session, report=lambda line: None)
        self._bot.reset()
        self._seen = self._bot.step(Action(Kind.OPEN, level=1))

    def _drop(self, placement: Placement) -> None:
        assert self._bot is not None
        seen = self._observed()
        last = seen.view is not None and len(seen.view.tray) == 1
        self._seen = self._bot.place(seen, (placement,), last)

    def _end(self) -> None:
        if self._stack is not None:
            self._stack.close()
        self._stack, self._bot, self._seen = None, None, None

    # ---- what the agent gets ------------------------------------------------------------------

    def _on_browser_thread(self, call: Callable[[], T]) -> T:
        return self._browser_thread.submit(call).result()

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
        return {"screen": seen.screen,
                "tray": len(seen.view.tray) if seen.view is not None else 0}
