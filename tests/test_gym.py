"""Puzlogic as a Gymnasium environment (webbot/gym): registered without loading the game,
passing Gymnasium's own checker, a seed naming its level, and its browser gone at close."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests import processes
from tests.test_startup import HEAVY

gym = pytest.importorskip("gymnasium")


def test_registering_loads_neither_the_game_nor_the_browser():
    game = [name for name in HEAVY if name != "numpy"] + ["webbot.puzlogic", "webbot.session"]
    script = ("import json, sys, gymnasium, webbot.gym\n"
              "print(json.dumps([m for m in json.loads(sys.argv[1]) if m in sys.modules]))")
    result = processes.run([sys.executable, "-c", script, json.dumps(game)], timeout=60,
                           env=dict(os.environ))  # (numpy is Gymnasium's own)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []
    import webbot.gym  # noqa: F401

    assert gym.spec("webbot/Puzlogic-v0").nondeterministic  # (the replica's drifting leaves)


def test_gymnasium_s_checker_passes_and_the_browsers_end_at_close():
    from gymnasium.utils.env_checker import check_env

    import webbot.gym  # noqa: F401

    before = _browsers()  # (the test process's own, pytest-playwright's, stay)
    env = gym.make("webbot/Puzlogic-v0", render_mode="rgb_array")
    try:
        env.reset(seed=1)
        assert _browsers() - before  # (the environment's browser, seen)
        check_env(env.unwrapped)  # (its render check makes and closes a second environment)
    finally:
        env.close()
    assert _browsers() - before == set()


def _browsers() -> set[int]:
    """The Chromium browsers under this test process (not their renderers and helpers)."""
    return {pid for pid in processes.descendants(os.getpid())
            if "chrom" in _command(pid) and "--type=" not in _command(pid)}


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:  # (gone since it was listed)
        return ""


def test_a_seed_names_its_level_and_an_action_drops_a_piece_or_changes_nothing():
    env = gym.make("webbot.gym:webbot/Puzlogic-v0").unwrapped

    def level() -> tuple:
        view = env._observed().view  # (the bot's reading, for the test to compare levels by)
        return tuple(sorted(view.cells.items())), tuple((p.value, p.color) for p in view.tray)

    try:
        observation, info = env.reset(seed=7)
        assert observation.shape == (600, 800, 3) and info["screen"] == "level"
        first = level()
        env.reset(seed=8)
        assert level() != first
        env.reset(seed=7)
        assert level() == first
        tray = info["tray"]
        _, _, terminated, truncated, info = env.step([15, 7, 7])  # no such piece or cell
        assert (info["tray"], terminated, truncated) == (tray, False, False)
        row, col = next(cell for cell, given in first[0] if given is None)
        _, _, terminated, _, info = env.step([0, row, col])
        assert info["tray"] == tray - 1 or terminated
    finally:
        env.close()
