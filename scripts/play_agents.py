#!/usr/bin/env python3
"""The bundled agents played through the Gymnasium environments (webbot.gym), against a
random agent as the floor, each episode judged by the replica's own judge (webbot.gym.judge):
Puzlogic's 15 levels, Daily SET puzzles on each of its three pages, Burrito Bison rounds.
The random agent plays the same episodes, cut off after --random-steps steps (Burrito Bison:
after as long as the bundled agent took on its episode).

    .venv/bin/python scripts/play_agents.py [--puzzles 2] [--rounds 1] [--random-steps 30] [--docs]

--docs puts the table in docs/agents.md."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import gymnasium as gym

# scripts/ is on the path when this file is run as a script
from docs_table import cores, publish

import webbot.gym  # noqa: F401  (registers the environments)
from webbot.burrito_bison.agent import BurritoAgent
from webbot.daily_set.agent import DailySetAgent
from webbot.daily_set.bundled import BUNDLED_PAGES as LAYOUTS
from webbot.gym.judge import Judged
from webbot.gym.random_agent import RandomAgent
from webbot.puzlogic.agent import PuzlogicAgent

Agent = Callable[[Any], Any]


@dataclass
class Episode:
    done: bool  # the level completed, the puzzle's 6 sets found, the rounds ground
    steps: int
    reward: float
    seconds: float


@dataclass(frozen=True)
class Case:
    game: str  # the environment's id
    name: str
    seed: int
    options: dict | None = None


def cases(puzzles: int, rounds: int) -> Iterator[Case]:
    for level in range(1, 16):
        yield Case("webbot/Puzlogic-v0", f"level {level}", 0, {"level": level})
    for layout in sorted(LAYOUTS):
        for seed in range(1, puzzles + 1):
            yield Case("webbot/DailySet-v0", f"{layout} seed={seed}", seed, {"layout": layout})
    for seed in range(1, rounds + 1):
        yield Case("webbot/BurritoBison-v0", f"seed={seed}", seed)


def bundled(game: str) -> Agent:
    return {"webbot/Puzlogic-v0": PuzlogicAgent, "webbot/DailySet-v0": DailySetAgent,
            "webbot/BurritoBison-v0": BurritoAgent}[game]()


def play(env: gym.Env, case: Case, agent: Agent, max_steps: int | None = None,
         max_seconds: float | None = None) -> Episode:
    """One episode; a Burrito Bison episode ends when the judge has recorded a round."""
    started = time.perf_counter()
    observation, info = env.reset(seed=case.seed, options=case.options)
    steps, reward, terminated, truncated = 0, 0.0, False, False
    while not (terminated or truncated) and (max_steps is None or steps < max_steps) and (
            max_seconds is None or time.perf_counter() - started < max_seconds):
        observation, gained, terminated, truncated, info = env.step(agent(observation))
        steps, reward = steps + 1, reward + gained
        if case.game == "webbot/BurritoBison-v0" and info["judge"]["rounds"]:
            terminated = True
    done = terminated and not truncated and reward > 0
    return Episode(done, steps, reward, time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=2, help="Daily SET puzzles a page")
    parser.add_argument("--rounds", type=int, default=1, help="Burrito Bison games of a round")
    parser.add_argument("--random-steps", type=int, default=30)
    parser.add_argument("--docs", action="store_true", help="put the table in docs/agents.md")
    args = parser.parse_args()

    results: dict[tuple[str, str], list[Episode]] = {}
    envs: dict[str, gym.Env] = {}
    try:
        for case in cases(args.puzzles, args.rounds):
            env = envs.setdefault(case.game, Judged(gym.make(case.game)))
            mine = play(env, case, bundled(case.game))
            chance = RandomAgent(env.action_space, case.seed)
            floor = play(env, case, chance, max_seconds=mine.seconds) \
                if case.game == "webbot/BurritoBison-v0" else \
                play(env, case, chance, args.random_steps)
            for agent, episode in (("bundled", mine), ("random", floor)):
                results.setdefault((case.game, agent), []).append(episode)
            print(f"{case.game} {case.name}: bundled {_said(mine)}; random {_said(floor)}",
                  file=sys.stderr, flush=True)
    finally:
        for env in envs.values():
            env.close()
    return publish("play-agents", table(results, args), args.docs, 0)


def _said(episode: Episode) -> str:
    return (f"{'done' if episode.done else 'not done'} in {episode.steps} steps, "
            f"reward {episode.reward:g}, {episode.seconds:.1f} s")


def table(results: dict[tuple[str, str], list[Episode]], args: argparse.Namespace) -> str:
    lines = [f"Measured {date.today()} by `scripts/play_agents.py --puzzles {args.puzzles} "
             f"--rounds {args.rounds} --random-steps {args.random_steps} --docs` on {cores()} "
             "cores: the replicas in headless Chromium, each episode judged by the replica; "
             "steps/s counts the resets' browser starts in.", "",
             "| environment | agent | episodes | done | steps an episode | reward | "
             "steps/s |", "|---|---|---:|---:|---:|---:|---:|"]
    for (game, agent), episodes in results.items():
        steps = sum(e.steps for e in episodes)
        seconds = sum(e.seconds for e in episodes)
        lines.append(f"| {game} | {agent} | {len(episodes)} | "
                     f"{sum(e.done for e in episodes)} | {steps / len(episodes):.1f} | "
                     f"{sum(e.reward for e in episodes):g} | {steps / seconds:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
