"""The floor any agent is measured against: one that samples its environment's action space."""

from __future__ import annotations

from typing import Any

from gymnasium import spaces


class RandomAgent:
    """Acts at random, seeded: the same seed, the same actions."""

    def __init__(self, action_space: spaces.Space, seed: int | None = None) -> None:
        self.action_space = action_space
        self.action_space.seed(seed)

    def __call__(self, observation: Any) -> Any:
        return self.action_space.sample()
