"""The command answers its help, its usage errors and `webbot profile` without loading what
plays the games: the browser's driver, the vision, the solvers, the scrapers (each imported
where it is used). The time it takes is `scripts/bench_startup.py`'s (no test asserts a
speed); what it loads is checked here, in a fresh process each."""

from __future__ import annotations

import json
import os
import sys

import pytest

from tests import processes
from webbot.server import fixtures_root

HEAVY = ("playwright", "cv2", "numpy", "z3", "pydantic", "bs4", "requests", "distributed",
         "onnxruntime", "pytesseract")

# A fresh interpreter runs the command's main (or only imports the command line), then says
# on its last line which of the heavy libraries it had loaded.
SCRIPT = """
import json, sys
import webbot.cli
args = json.loads(sys.argv[1])
code = None if args is None else webbot.cli.main(args)
print()
print(json.dumps([name for name in json.loads(sys.argv[2]) if name in sys.modules]))
"""


def loaded(args: list[str] | None) -> list[str]:
    result = processes.run([sys.executable, "-c", SCRIPT, json.dumps(args), json.dumps(HEAVY)],
                           timeout=60, env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_importing_the_command_line_loads_none_of_the_games_machinery():
    assert loaded(None) == []


@pytest.mark.parametrize("args", [
    ["--help"], [], ["puzlogic", "--help"], ["daily-set", "--help"],
    ["burrito-bison", "--help"], ["burrito-bison", "pack", "cut", "--help"],
    ["soak", "--help"], ["soak", "burrito-bison", "--help"], ["profile"],
    ["puzlogic", "--levels", "20"], ["daily-set", "read"], ["puzlogik"],
], ids=" ".join)
def test_help_usage_errors_and_the_profile_load_none_of_it(args):
    assert loaded(args) == []


def test_a_command_that_reads_loads_the_vision_it_needs():
    """(The check above could pass by never loading anything: a reading does load it.)"""
    card = fixtures_root() / "daily-set/images/setcards/small/28.gif"
    assert {"cv2", "numpy"} <= set(loaded(["daily-set", "classify", str(card)]))
