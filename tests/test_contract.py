"""Every registered game keeps the contract (webbot.registry.check on paper, and played a few
steps on its replica by webbot.contract), and a fourth game, the tests' toy Lights
(tests/toy_game: a page, a package and one registration), plays through the command line and
through `webbot soak` with nothing else changed."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import in_own_thread, run_webbot
from tests.toy_game import REGISTRATION as LIGHTS
from tests.toy_game import SITE
from tests.toy_game.unlit import REGISTRATION as UNLIT
from webbot import registry
from webbot.contract import plays
from webbot.soak.games import make_case

ROOT = Path(__file__).resolve().parents[1]
# The toy game registered by the environment, as a plugin would be; its page served alone.
TOY = {"WEBBOT_GAMES": "tests.toy_game:REGISTRATION", "WEBBOT_FIXTURES": str(SITE),
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_registered_game_keeps_the_contract(name):
    assert registry.check(registry.game(name)) == []


def test_the_soak_and_the_command_line_name_no_game():
    sources = [ROOT / "webbot" / "cli.py", ROOT / "webbot" / "commands.py",
               *(ROOT / "webbot" / "soak").glob("*.py")]
    for game in registry.games().values():
        for source in sources:
            text = source.read_text()
            assert game.name not in text and game.title not in text, (source, game.name)


def test_a_broken_registration_is_found():
    broken = registry.Registration("lights", "Lights", "nowhere.html",
                                   "tests.toy_game.cli:command", "tests.toy_game.nothing", "-")
    problems = registry.check(broken)
    assert any("nowhere.html" in p for p in problems)
    assert any("tests.toy_game.nothing: cannot load" in p for p in problems)


def test_the_toy_game_keeps_the_contract(monkeypatch):
    monkeypatch.setenv("WEBBOT_FIXTURES", str(SITE))
    assert registry.check(LIGHTS) == []


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_registered_game_plays_through_its_contract(name):
    """Its player built on its replica: reset, a few steps, result, each returning its kind."""
    assert in_own_thread(plays, registry.game(name)) == []


def test_burrito_bison_s_contract_plays_what_its_command_ships():
    """Its player's game is the bot under the stuck watchdog and its policy under the limits,
    as `webbot burrito-bison` plays them, not the bare bot and policy."""
    from webbot.burrito_bison.bot import BurritoBot, player
    from webbot.session import RunOptions, game_session
    from webbot.wrappers import Watched

    def built() -> tuple[str, str, str]:
        with game_session(RunOptions(), "burrito-bison/index.html?seed=1") as session:
            playable = player(session)
            return (type(playable.game).__name__, type(playable.bot).__name__,
                    playable.policy.__name__)

    assert in_own_thread(built) == (Watched.__name__, BurritoBot.__name__, "limited_policy")


def test_a_game_whose_step_returns_no_observation_is_caught(monkeypatch):
    monkeypatch.setenv("WEBBOT_FIXTURES", str(SITE))
    assert in_own_thread(plays, LIGHTS) == []
    (problem,) = in_own_thread(plays, UNLIT)
    assert re.fullmatch(r"step\(\d\) returned NoneType, not an observation as reset\(\) "
                        r"returned \(int\)", problem)
    nowhere = replace(LIGHTS, player="tests.test_contract:no_such_player")
    assert in_own_thread(plays, nowhere)[0].startswith(
        "its player tests.test_contract:no_such_player: cannot load")


def test_webbot_games_check_plays_each_game_and_says_so():
    done = run_webbot("games", "--check", "lights", env=TOY, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() \
        == "lights: keeps the contract (reset, 3 steps and result played on its replica)"
    unlit = {**TOY, "WEBBOT_GAMES": "tests.toy_game.unlit:REGISTRATION"}
    done = run_webbot("games", "--check", "lights", env=unlit, timeout=120)
    assert done.returncode == 1
    assert done.stdout.startswith("lights: step(") and "returned NoneType" in done.stdout
    assert done.stderr.strip() == "webbot: error: the contract is not kept by lights (see above)"
    done = run_webbot("games", "chess")
    assert done.returncode == 2 and "no game 'chess': one of" in done.stderr


def test_a_registration_that_does_not_load_is_one_clear_line():
    done = run_webbot("--help", env={"WEBBOT_GAMES": "tests.no_such_game:GAME"})
    assert done.returncode == 1
    assert done.stderr.strip().startswith("webbot: error: cannot load the game registered as "
                                          "'tests.no_such_game:GAME'")


def test_the_toy_game_plays_from_the_command_line():
    done = run_webbot("lights", env=TOY)
    assert done.returncode == 0, done.stderr
    assert "lights: 5 clicks, the board is green" in done.stdout


@pytest.mark.full  # (CI soaks the Daily SET; the toy game plays from the command line above)
def test_the_toy_game_plays_through_the_soak(short_tmp, monkeypatch):
    jsonl = short_tmp / "games.jsonl"
    done = run_webbot("soak", "lights", "--count", "2", "--workers", "1", "--jsonl", str(jsonl),
                      env={**TOY, "TMPDIR": str(short_tmp)}, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    games = [json.loads(line) for line in jsonl.read_text().splitlines()]
    monkeypatch.setenv("WEBBOT_GAMES", TOY["WEBBOT_GAMES"])
    registry._registered.cache_clear()
    try:
        expected = [make_case("lights", 0, n).name for n in range(2)]
    finally:
        registry._registered.cache_clear()
    assert sorted(g["case"] for g in games) == sorted(expected)
    assert [g["outcome"] for g in games] == ["passed"] * 2


def test_webbot_games_lists_every_registered_game():
    assert run_webbot("games").stdout.split() == sorted(registry.games())
    assert "lights" in run_webbot("games", env=TOY).stdout.split()
