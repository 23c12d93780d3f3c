"""The classifier with the real game's template pack on the real game's screens."""

from __future__ import annotations

import json
import shutil

import cv2
import pytest

from tests.burrito_bison.conftest import (
    REAL,
    REAL_SCREENS,
    REAL_TEMPLATES,
    hidden_at_places,
    needs_reference,
)
from webbot.burrito_bison.matching import REQUIRED, Matcher, TemplatePack
from webbot.burrito_bison.perceive import classify, read_image
from webbot.errors import WebbotError

pytestmark = needs_reference
CANVAS = (213, 194, 1173, 660)  # where the game sits in the real 1920-wide page grabs


@pytest.fixture(scope="module")
def real_pack():
    return TemplatePack(REAL_TEMPLATES)


@pytest.mark.parametrize(("name", "screen"), REAL_SCREENS.items())
def test_real_screens_are_classified_in_page_grabs_and_canvas_crops(real_pack, name, screen):
    grab = read_image(REAL / "screens" / name)
    assert classify(real_pack, grab).screen == screen
    x, y, width, height = CANVAS
    for dx in (-1, 0, 1):  # the grabs are not all at the same offset
        crop = grab[y + dx:y + height, x:x + width + dx]
        assert classify(real_pack, crop).screen == screen
        assert classify(real_pack, crop, framed=True).screen == screen
        assert not hidden_at_places(real_pack, crop)


def test_real_targets_are_where_the_buttons_are(real_pack):
    def target(name, role):
        return classify(real_pack, read_image(REAL / "screens" / name)).targets[role]

    cancel_x, cancel_y = target("pinata.png", "cancel")
    assert 751 < cancel_x < 832 and 546 < cancel_y < 624  # the red X
    next_x, next_y = target("round-finished-results.png", "next")
    assert 1105 < next_x < 1265 and 704 < next_y < 821   # the curved arrow
    post_x, post_y = target("round-start-beaster-bunny.png", "launch")
    assert 556 < post_x < 586 and 662 < post_y < 794     # the left ring post


@pytest.mark.parametrize("zoom", [0.95, 1.05, 1.12, 1.2])
def test_the_ring_post_is_found_at_every_camera_zoom(real_pack, zoom):
    """The real camera zooms about the bottom centre; zoom a real ring the same way."""
    ring = read_image(REAL / "screens" / "round-start-beaster-bunny.png")
    x, y, width, height = CANVAS
    canvas = ring[y:y + height, x:x + width]
    centre = (width / 2, height)
    matrix = cv2.getRotationMatrix2D(centre, 0, zoom)
    zoomed = cv2.warpAffine(canvas, matrix, (width, height), flags=cv2.INTER_LINEAR)
    post = Matcher(real_pack, zoomed).find("left-goalpost")
    expected_x = centre[0] + (343 - centre[0]) * zoom
    expected_y = centre[1] + (468 - centre[1]) * zoom
    assert post.score > 0.8
    assert abs(post.x - expected_x) <= 3 and abs(post.y - expected_y) <= 3
    assert abs(post.scale - zoom) <= 0.03


def test_classify_command_prints_the_contract_json(webbot_here):
    screens = [str(REAL / "screens" / name) for name in REAL_SCREENS]
    done = webbot_here("burrito-bison", "classify", *screens, "--templates",
                      str(REAL_TEMPLATES), "--json")
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert printed == [{"file": path, "screen": screen}
                       for path, screen in zip(screens, REAL_SCREENS.values(), strict=True)]


def test_a_pack_missing_templates_is_refused_in_one_line(webbot_here, tmp_path):
    for name in REQUIRED[:-1]:
        shutil.copy(REAL_TEMPLATES / f"{name}.png", tmp_path)
    with pytest.raises(WebbotError, match=f"lacks {REQUIRED[-1]}.png"):
        TemplatePack(tmp_path)
    done = webbot_here("burrito-bison", "classify", str(REAL / "screens" / "pinata.png"),
                      "--templates", str(tmp_path))
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "lacks unlocked.png" in done.stderr
