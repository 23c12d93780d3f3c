#!/usr/bin/env python3
"""Benchmark of the Gymnasium environments (webbot.gym) on this machine.

Steps a second for 1, 2 and 4 environments side by side (`gymnasium.make_vec`, async: each
environment a process with its own headless Chromium), against one environment in the same
run. The agents: on Puzlogic and the Daily SET a random one (most Puzlogic actions name no
piece: a fresh look; a Daily SET action clicks three cards and hears the page), on Burrito
Bison one that only looks (a frame a step). Resets are not counted in.

What one step costs, in one environment: the capture (a step that changes nothing: Puzlogic
and Burrito Bison look again, the Daily SET has nothing to look at), the action (a step that
acts, less a capture), and the judge (webbot.gym.judge reading the replica's hook).

    .venv/bin/python scripts/bench_envs.py [--steps 40] [--counts 1,2,4] [--docs]

--docs puts the tables in docs/agents.md."""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from datetime import date
from typing import Any

import gymnasium as gym
import numpy as np

# scripts/ is on the path when this file is run as a script
from docs_table import cores, publish

import webbot.gym  # noqa: F401  (registers the environments)
from webbot.burrito_bison.agent import BurritoAgent
from webbot.daily_set.agent import DailySetAgent
from webbot.gym.judge import Judged
from webbot.puzlogic.agent import PuzlogicAgent

GAMES = ("webbot/Puzlogic-v0", "webbot/DailySet-v0", "webbot/BurritoBison-v0")
NOTHING = {"webbot/Puzlogic-v0": np.array([15, 7, 7]),
           "webbot/DailySet-v0": np.array([0, 0, 0]),
           "webbot/BurritoBison-v0": {"move": 0, "at": np.zeros(2, np.float32),
                                      "end": np.zeros(2, np.float32)}}


def looking(space: gym.Space, game: str) -> Any:
    """The agents of the steps-a-second table: random, or on Burrito Bison one that looks."""
    action = space.sample()
    if game == "webbot/BurritoBison-v0":
        action["move"][:] = 0
    return action


def steps_a_second(game: str, count: int, steps: int) -> float:
    envs = gym.make_vec(game, num_envs=count, vectorization_mode="async",
                        vector_kwargs={"context": "spawn"})
    try:
        envs.reset(seed=list(range(1, count + 1)))
        envs.action_space.seed(1)
        started = time.perf_counter()
        for _ in range(steps):
            envs.step(looking(envs.action_space, game))
        return steps * count / (time.perf_counter() - started)
    finally:
        envs.close()


def step_costs(game: str, steps: int) -> tuple[float, float, float]:
    """Median ms of a capture, of an action less a capture, and of a judge's reading: the
    bundled agent's actions (on Burrito Bison, its clicks and drags; its looks are captures)."""
    env = Judged(gym.make(game))
    base = env.unwrapped
    hook = importlib.import_module(base.REPLICA).JUDGE
    capture, acting, judge = [], [], []
    try:
        for episode in range(1, 100):
            observation, _ = env.reset(seed=episode)
            agent = AGENTS[game]()
            terminated = False
            while not terminated and len(acting) < steps:
                action = agent(observation)
                started = time.perf_counter()
                observation, _, terminated, _, _ = base.step(action)
                took = time.perf_counter() - started
                (capture if _looks(game, action) else acting).append(took)
                if game != "webbot/BurritoBison-v0" and len(capture) < len(acting):
                    started = time.perf_counter()
                    observation = base.step(NOTHING[game])[0]
                    capture.append(time.perf_counter() - started)
                started = time.perf_counter()
                base.on_page(hook)
                judge.append(time.perf_counter() - started)
            if len(acting) >= steps:
                break
    finally:
        env.close()
    look = statistics.median(capture)
    return (look * 1000, (statistics.median(acting) - look) * 1000,
            statistics.median(judge) * 1000)


def _looks(game: str, action: Any) -> bool:
    return game == "webbot/BurritoBison-v0" and int(action["move"]) == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=40, help="steps of each environment")
    parser.add_argument("--counts", default="1,2,4", help="environments side by side")
    parser.add_argument("--docs", action="store_true", help="put the tables in docs/agents.md")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]

    rows = [f"Measured {date.today()} by `scripts/bench_envs.py --steps {args.steps} --counts "
            f"{args.counts} --docs` on {cores()} cores: `gymnasium.make_vec(..., "
            "vectorization_mode=\"async\")`, each environment a process with its own headless "
            "Chromium; a random agent (Burrito Bison: one that only looks); resets not "
            "counted.", "",
            "| environment | " + " | ".join(f"{c} env{'s' if c > 1 else ''} (steps/s)"
                                          for c in counts) + " | ratio |",
            "|---|" + "---:|" * (len(counts) + 1)]
    for game in GAMES:
        rates = [steps_a_second(game, count, args.steps) for count in counts]
        print(f"{game}: {[round(r, 1) for r in rates]} steps/s", file=sys.stderr, flush=True)
        ratio = " / ".join(f"{rate / rates[0]:.2f}x" for rate in rates)
        rows.append(f"| {game} | " + " | ".join(f"{r:.1f}" for r in rates) + f" | {ratio} |")
    rows += ["", "What one step costs in one environment, median ms (the bundled agent's "
             f"actions, {args.steps} of them):", "",
             "| environment | capture | action, less a capture | judge |", "|---|---:|---:|---:|"]
    for game in GAMES:
        look, act, judge = step_costs(game, args.steps)
        rows.append(f"| {game} | {look:.0f} | {act:.0f} | {judge:.1f} |")
    return publish("bench-envs", "\n".join(rows), args.docs, 0)


AGENTS = {"webbot/Puzlogic-v0": PuzlogicAgent, "webbot/DailySet-v0": DailySetAgent,
          "webbot/BurritoBison-v0": BurritoAgent}

if __name__ == "__main__":
    sys.exit(main())
