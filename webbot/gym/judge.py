"""Reward from the replica's own judge: a wrapper for training and checking agents on the
bundled replicas. The environments give no reward (a real site has no judge to ask); this
wrapper asks the replica's test hook after each reset and step, gives as reward what its count
rose by (Puzlogic: levels finished; Daily SET: sets found) and puts what it said in
`info["judge"]`. The observation passes untouched: an agent acts on pixels alone, with or
without the judge."""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium as gym

from webbot.gym.browser_env import BrowserEnv


class Judged(gym.Wrapper, gym.utils.RecordConstructorArgs):
    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)  # (so Gymnasium can make it again)
        gym.Wrapper.__init__(self, env)
        if not isinstance(env.unwrapped, BrowserEnv) or not env.unwrapped.REPLICA:
            raise ValueError(f"{env.unwrapped} has no replica judge to ask")
        self._base: BrowserEnv = env.unwrapped
        if self._base.url is not None:
            raise ValueError(f"a real site ({self._base.url}) has no judge to ask: reward comes "
                             "from the bundled replicas alone")
        self._replica = importlib.import_module(self._base.REPLICA)  # (the testers' module)
        self._score = 0.0

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        judged = self._base.on_page(self._replica.JUDGE)
        self._score = self._replica.judged_score(judged)
        return observation, {**info, "judge": judged}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        judged = self._base.on_page(self._replica.JUDGE)
        score = self._replica.judged_score(judged)
        reward, self._score = float(reward) + score - self._score, score
        return observation, reward, terminated, truncated, {**info, "judge": judged}
