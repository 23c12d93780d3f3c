"""The level select read through the drifting leaves. A leaf pales the ink under it: over a
button's bracket it once hid that button and every one after it (a run asked for level 10 then
found "no button for level 10"); over a label it can make the number unreadable. Here the
replica is served with one leaf parked where the real game's leaves only pass, so that the
moment the bot looks at the select always has it there."""

from __future__ import annotations

import json
import re
import shutil

import cv2
import numpy as np
import pytest

from tests.conftest import run_webbot
from tests.puzlogic.replica import HOOK, wait_screen
from webbot.puzlogic.perceive import classify, normalise
from webbot.server import FixtureServer, fixtures_root

BUTTON_3 = (378, 278)  # the top-left corner of level button 3 on the select (the game's 800x600)
OVER_CORNER = (BUTTON_3[0] + 4, BUTTON_3[1] + 3)
OVER_LABEL = (BUTTON_3[0] + 22, BUTTON_3[1] + 24)


def replica_with_a_leaf(folder, where: tuple[int, int]) -> FixtureServer:
    """The bundled replica served from `folder`, its leaves one still leaf at `where`: as pale
    as the game's palest (alpha 0.16) and as big as its biggest (size 18)."""
    shutil.copytree(fixtures_root() / "puzlogic", folder)
    leaf = {"x": where[0], "y": where[1], "size": 18, "vx": 0, "vy": 0, "angle": 0.5,
            "spin": 0, "alpha": 0.16}
    (folder / "leaf.js").write_text(f"Look.makeLeaves = () => [{json.dumps(leaf)}];\n")
    page = folder / "index.html"
    html = page.read_text()
    assert '<script src="game.js">' in html
    page.write_text(html.replace('<script src="game.js">',
                                 '<script src="leaf.js"></script>\n<script src="game.js">'))
    return FixtureServer(folder)


def select_picture(page, url: str):
    page.goto(url)
    page.wait_for_function(f"{HOOK} && {HOOK}.state().screen === 'title'")
    page.keyboard.press("Space")
    wait_screen(page, "select")
    picture = normalise(cv2.imdecode(np.frombuffer(page.screenshot(), np.uint8),
                                     cv2.IMREAD_COLOR))
    assert classify(picture) == "select"
    return picture


def test_a_leaf_over_a_button_s_corner_hides_no_button(page, reader, tmp_path):
    with replica_with_a_leaf(tmp_path / "game", OVER_CORNER) as server:
        view = reader.read_select(select_picture(page, f"{server.url}index.html"))
    assert [b.number for b in view.buttons] == list(range(1, 16)) and view.doubts == []
    assert [b.number for b in view.buttons if b.unlocked] == [1]


def test_a_leaf_over_a_label_is_a_doubt_not_another_number(page, reader, tmp_path):
    with replica_with_a_leaf(tmp_path / "game", OVER_LABEL) as server:
        view = reader.read_select(select_picture(page, f"{server.url}index.html"))
    assert [b.number for b in view.buttons] == [1, 2, None, *range(4, 16)]
    assert [doubt.split(":")[0] for doubt in view.doubts] == ["level button 3"]


def test_a_fresh_run_piped_unlocks_its_way_past_a_leaf_on_the_level_select(tmp_path):
    """As `webbot puzlogic --fresh --levels 10 | cat` is run: stdout a pipe, the levels before
    the one asked for played to unlock it, the select read after each."""
    with replica_with_a_leaf(tmp_path / "game", OVER_CORNER) as server:
        done = run_webbot("puzlogic", "--url", f"{server.url}index.html", "--fresh",
                          "--levels", "3")
    assert done.returncode == 0, done.stderr
    assert re.findall(r"│ (\d\d(?: \(unlock\))?) +│", done.stdout) == [
        "01 (unlock)", "02 (unlock)", "03"]
    assert done.stderr == ""


@pytest.mark.long
def test_a_label_kept_hidden_ends_the_run_in_one_line(tmp_path):
    """A select the bot cannot read is not acted on: a leaf that never moves off a label is
    waited out for a bounded time, then said."""
    with replica_with_a_leaf(tmp_path / "game", OVER_LABEL) as server:
        done = run_webbot("puzlogic", "--url", f"{server.url}index.html", "--fresh",
                          "--levels", "3")
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert lines[0].startswith("webbot: error: cannot read the level select: level button 3")
