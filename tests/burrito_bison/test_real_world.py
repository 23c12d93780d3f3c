"""Burrito Bison on real material it was not built from: the original bot's 2018 template
folder as a pack, a pack cut from the real screens, each real screen rescaled and saved as
JPEG, put into other portals' page grabs at every real size, and drawn where our layout does
not put things. Every reading is right or a refusal, never wrong."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tests.burrito_bison.conftest import needs_reference
from tests.conftest import made_once, run_folder, sweep
from tests.real_world import (
    BURRITO,
    BURRITO_SHOTS,
    ORIGINAL_TEMPLATES,
    PERTURBATIONS,
    burrito_outcome,
    burrito_screens,
    cut_from_reference,
    expected,
    game_scene,
    portal_grab,
)
from webbot.burrito_bison.bot import pack_sized
from webbot.burrito_bison.layout import PLACES
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.perceive import classify, classify_picture, fitted
from webbot.screen import Box, Grab

pytestmark = needs_reference
# The 2018 build's screens (the 2022 ones have no crop in the original folder).
SCREENS_2018 = ("ring", "rocket_ready", "pinata", "missions", "results", "shop")


@pytest.fixture(scope="module")
def original():
    return TemplatePack(ORIGINAL_TEMPLATES)


@pytest.fixture(scope="module")
def cut(tmp_path_factory):
    # Cut once a run (Tesseract's votes take seconds), whichever test process asks first.
    made = made_once(run_folder(tmp_path_factory) / "cut-from-reference", cut_from_reference)
    return TemplatePack(made / "pack", required=())


@pytest.fixture(scope="module")
def screens():
    return burrito_screens()


def test_the_original_folder_is_a_pack_as_it_is(original):
    # 11 crops, two of them (the heads) no screen needs; no manifest, no digits.
    assert len(list(ORIGINAL_TEMPLATES.glob("*.png"))) == 11
    assert "bison-head" not in original and "shop-hud" not in original


@pytest.mark.parametrize("shot", SCREENS_2018)
def test_the_original_folder_reads_every_real_2018_screen_as_the_bot_sees_it(original, screens,
                                                                             shot):
    """In the page grab, and in the bot's own frame of the game (a canvas at the pack's scale,
    classified with the last screen as a hint): the shop, for which the folder has no crop,
    is known by its Next arrow, which is not where the results show theirs."""
    want = "results" if shot == "shop" else shot
    assert classify_picture(original, screens[shot]).screen == want
    game = game_scene(screens[shot])
    grab = pack_sized(Grab(game, Box(0, 0, game.shape[1], game.shape[0])))
    for hint in (None, want, "flight"):
        sighting = classify(original, grab.image, hint, framed=True)
        assert sighting.screen == want
    if shot in ("shop", "results"):
        x, y = sighting.targets["next"]
        arrow = (972, 502) if shot == "shop" else PLACES["next-button"][:2]
        assert arrow[0] < x < arrow[0] + 160 and arrow[1] < y < arrow[1] + 117


def test_the_original_folder_refuses_what_it_has_no_crop_for(original, screens):
    """The 2022 screens: unknown, not the dimmed shop's arrow under the piñata cards (which
    correlates 0.96 but at a fifth of the arrow's contrast)."""
    for shot in ("title", "comic", "flash_sale", "cards"):
        sighting = classify_picture(original, screens[shot])
        assert sighting.screen == "unknown", shot
    assert sighting.matches["next-button"].score > 0.9
    assert sighting.matches["next-button"].contrast < 0.3


# CI: as saved and through JPEG; --full: rescaled too
@pytest.mark.parametrize("perturbation", sweep(list(PERTURBATIONS),
                                                {"as saved", "JPEG 70"}.__contains__))
@pytest.mark.parametrize("pack_name", ["original", "cut"])
def test_every_real_screen_reads_right_rescaled_and_as_jpeg(request, screens, pack_name,
                                                           perturbation):
    pack = request.getfixturevalue(pack_name)
    outcomes = {shot: burrito_outcome(pack, PERTURBATIONS[perturbation](picture), shot)
                for shot, picture in screens.items()}
    assert outcomes == dict.fromkeys(screens, "right")


@pytest.mark.parametrize(("size", "framed"), sweep(
    [((1120, 540), False), ((1146, 644), True), ((1280, 768), False), ((1173, 660), False)],
    lambda case: case[0] == (1120, 540)))  # CI: the smallest
def test_a_real_screen_in_another_portals_page_grab_at_every_real_size(original, cut, screens,
                                                                       size, framed):
    """Under a toolbar, beside a sidebar, not framed in black (or framed): the game is found
    at its scale and the targets are points of the grab, on the things to click
    (scripts/regression_real.py classifies every screen in every portal grab)."""
    for shot in ("ring", "results", "shop"):
        grab = portal_grab(game_scene(screens[shot]), size, framed)
        for pack in (original, cut):
            sighting = classify_picture(pack, grab)
            assert sighting.screen == expected(pack, shot), shot
            role, name = ("launch", "left-goalpost") if shot == "ring" else \
                ("next", "next-button")
            x, y = sighting.targets[role]
            place = _in_grab(PLACES[name], size)
            if shot == "shop":  # the shop's arrow is not where the results' is
                place = _in_grab((972, 502, 160, 117), size)
            left, top, right, bottom = place
            assert left < x < right and top < y < bottom, (shot, role)


def _in_grab(box: tuple[int, int, int, int], size: tuple[int, int]) -> tuple[float, ...]:
    """A box of the 1173x660 scene in portal_grab's page (the game at 40,120)."""
    width, height = size
    scale = min(width / 1173, height / 660)
    left, top = 40 + (width - 1173 * scale) / 2, 120 + (height - 660 * scale) / 2
    x, y, w, h = box
    return left + x * scale, top + y * scale, left + (x + w) * scale, top + (y + h) * scale


def test_the_classify_command_reads_a_grab_with_the_game_under_a_toolbar(webbot_here, original,
                                                                        screens, tmp_path):
    grab = portal_grab(game_scene(screens["ring"]), (1120, 540))
    cv2.imwrite(str(tmp_path / "ring.png"), grab)
    done = webbot_here("burrito-bison", "classify", str(tmp_path / "ring.png"), "--templates",
                      str(ORIGINAL_TEMPLATES))
    assert done.returncode == 0, done.stderr
    assert ": ring (bison-health-bar" in done.stdout and "launch at (" in done.stdout


def _moved(scene: np.ndarray, dx: int, dy: int) -> np.ndarray:
    return cv2.warpAffine(scene, np.float32([[1, 0, dx], [0, 1, dy]]),
                          (scene.shape[1], scene.shape[0]), borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize(("shot", "dx", "dy", "zoom"), [
    ("results", -180, -60, 1.0), ("pinata", 150, -90, 1.0), ("missions", 0, -300, 1.0),
    ("ring", 90, 40, 0.9), ("results", -60, -40, 1.15)])
def test_a_build_that_draws_things_elsewhere_and_at_another_size(original, cut, screens, shot,
                                                                 dx, dy, zoom):
    """The bot's framed frame of a game whose layout is not the manifest's: nothing scores at
    its place, so each indicator is looked for over the whole frame and a range of scales."""
    scene = game_scene(screens[shot])
    if zoom != 1.0:
        matrix = cv2.getRotationMatrix2D((586, 330), 0, zoom)
        scene = cv2.warpAffine(scene, matrix, (1173, 660), borderMode=cv2.BORDER_REPLICATE)
    grab = fitted(_moved(scene, dx, dy), 1173, 660)
    for pack in (original, cut):
        assert classify(pack, grab, framed=True).screen == shot


def test_the_unlocked_card_wherever_it_sits(original, screens):
    """The original crop of the card screen's title, put where our layout does not have it,
    on a background of the game's colours."""
    crop = cv2.imread(str(BURRITO / "templates" / "unlocked.png"))
    for x, y in ((80, 500), (700, 300), (500, 60)):
        background = cv2.GaussianBlur(game_scene(screens["results"]), (0, 0), 12)
        background[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
        sighting = classify(original, background, framed=True)
        assert sighting.screen == "unlocked"
        assert (sighting.evidence.x, sighting.evidence.y) == (x, y)


# CI: a screen of each build that the grabs above leave out (every screen is read at its own
# size, rescaled and as JPEG, with this pack too, above).
@pytest.mark.parametrize("shot", sweep(list(BURRITO_SHOTS), lambda s: s in ("pinata", "cards")))
def test_a_pack_cut_from_the_real_screens_reads_them_in_another_portal(cut, shot):
    """Each screen of both builds, the game at 1120x540 under a toolbar
    (scripts/regression_real.py tries every size): right."""
    scene = game_scene(cv2.imread(str(BURRITO / "screens" / BURRITO_SHOTS[shot])))
    assert classify_picture(cut, portal_grab(scene, (1120, 540))).screen == shot


@pytest.mark.parametrize("size", [pytest.param((1173, 660), marks=pytest.mark.full), (1280, 768)])
def test_the_numbers_of_a_grab_with_the_game_under_a_toolbar(webbot_here, cut, screens, tmp_path,
                                                            size):
    """`read` finds the game in a grab without a black frame by its screen's indicator, cuts
    the scene there, and reads the same numbers as in the real grab."""
    paths = []
    for shot in ("results", "shop"):
        paths.append(tmp_path / f"{shot}.png")
        cv2.imwrite(str(paths[-1]), portal_grab(game_scene(screens[shot]), size))
    done = webbot_here("burrito-bison", "read", *map(str, paths), "--templates",
                      str(cut.folder), "--json")
    assert done.returncode == 0, done.stderr
    results, shop = (json.loads(line) for line in done.stdout.splitlines())
    assert results == {"file": str(paths[0]), "screen": "results", "distance": 774,
                       "coins": 489, "total": 5119}
    assert shop["screen"] == "shop" and shop["coins"] == 883 and shop["price"] == 6100


def test_a_grab_whose_game_is_not_found_is_one_line(webbot_here, original, tmp_path):
    page = np.full((700, 1200, 3), 236, np.uint8)
    cv2.imwrite(str(tmp_path / "page.png"), page)
    done = webbot_here("burrito-bison", "read", str(tmp_path / "page.png"), "--templates",
                      str(ORIGINAL_TEMPLATES))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "no game found in it" in done.stderr
