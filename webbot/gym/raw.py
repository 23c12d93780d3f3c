"""Raw input for any webbot environment: the game's picture as the observation and, as the
action, what a hand does: look again, click a point, drag from a point to another, or press
a key (Escape, Enter, Space, Tab, the arrows), points as fractions of the picture's width and
height. The game's own intents (a piece to a cell, three cards) give way to these; reward, if
wanted, still comes from webbot.gym.judge around it: `Judged(Raw(env))`. Raw counts its own
steps against the environment's limit (the wrappers under it see none)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from webbot.gym.browser_env import KEYS, BrowserEnv, fraction


class Raw(gym.Wrapper, gym.utils.RecordConstructorArgs):
    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)  # (so Gymnasium can make it again)
        gym.Wrapper.__init__(self, env)
        if not isinstance(env.unwrapped, BrowserEnv):
            raise ValueError(f"{env.unwrapped} is not one of webbot's environments")
        self._base: BrowserEnv = env.unwrapped
        width, height = self._base.RAW_SIZE
        self.observation_space = spaces.Box(0, 255, (height, width, 3), np.uint8)
        self.action_space = spaces.Dict({
            "move": spaces.Discrete(4),  # look, click, drag, key
            "at": spaces.Box(0.0, 1.0, (2,), np.float32),
            "end": spaces.Box(0.0, 1.0, (2,), np.float32),
            "key": spaces.Discrete(len(KEYS))})
        spec = env.spec
        self._limit = spec.max_episode_steps if spec is not None else None
        self._steps = 0

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        _, info = self.env.reset(**kwargs)
        self._steps = 0
        return self._base.raw_look(), info

    def step(self, action: dict[str, Any]) -> tuple[np.ndarray, float, bool, bool,
                                                     dict[str, Any]]:
        picture, over = self._base.raw_step(int(action["move"]), fraction(action["at"]),
                                            fraction(action["end"]), int(action["key"]))
        self._steps += 1
        return picture, 0.0, over, self._limit is not None and self._steps >= self._limit, {}

    def render(self) -> np.ndarray | None:
        return self._base.raw_look() if self._base.render_mode == "rgb_array" else None

