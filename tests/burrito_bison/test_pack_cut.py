"""`webbot burrito-bison pack cut`: packs cut from screenshots of whole pages, real and replica,
the game found in them, and the crops where the real game's own crops are."""

from __future__ import annotations

import json
import re
import shutil

import cv2
import pytest

from tests.burrito_bison.conftest import REAL, REAL_TEMPLATES, needs_reference, sized_frames
from webbot import folders
from webbot.burrito_bison.bot import pack_sized
from webbot.burrito_bison.layout import MANIFEST, SHOTS
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.pack import cut_pack, scene
from webbot.burrito_bison.perceive import classify, classify_picture, read_image

REAL_SHOTS = {"ring": "round-start-beaster-bunny.png", "rocket_ready": "flight-full-rocket.png",
              "pinata": "pinata.png", "missions": "round-finished-missions.png",
              "results": "round-finished-results.png", "shop": "shop.png",
              "title": "title-2022.png", "comic": "intro-comic-2022.png",
              "flash_sale": "flash-sale-2022.png", "cards": "pinata-cards-2022.png"}
# Where the game is in the real page grabs: the 2018 build's 1920-wide page and the 2022 build's
# grabs of its 1146x644 game (within a few pixels: the grabs are not all at the same offset).
REAL_CANVAS = {"2018": (213, 194, 1173, 660), "2022": (6, 31, 1146, 645)}


@needs_reference
def test_a_pack_cut_from_real_page_grabs_of_two_builds(webbot_here, tmp_path):
    for shot, name in REAL_SHOTS.items():
        (tmp_path / f"{shot}.png").symlink_to(REAL / "screens" / name)
    done = webbot_here("burrito-bison", "pack", "cut",
                      *(str(tmp_path / f"{shot}.png") for shot in REAL_SHOTS),
                      "--out", str(tmp_path / "pack"))
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    boxes = {}
    for shot, width, height, x, y in re.findall(
            r"the game in (\w+)\.png: (\d+)x(\d+) at (\d+),(\d+) \(framed by black\)", out):
        boxes[shot] = (int(x), int(y), int(width), int(height))
        real = REAL_CANVAS["2022" if "2022" in REAL_SHOTS[shot] else "2018"]
        assert all(abs(a - b) <= 6 for a, b in zip(boxes[shot], real, strict=True)), shot
    assert boxes.keys() == REAL_SHOTS.keys()
    assert "missing: flight.png" in out and "missing: unlocked.png" in out
    assert "missing: ring.png" not in out and "not told apart" not in out
    assert "the bot needs the templates unlocked" in out

    # Each real crop of the game lies where the manifest cut from the same screen.
    real = TemplatePack(REAL_TEMPLATES)
    for cut in MANIFEST:
        if cut.shot not in REAL_SHOTS or cut.name not in real:
            continue
        game = scene(read_image(REAL / "screens" / REAL_SHOTS[cut.shot]), boxes[cut.shot])
        left, top, w, h = cut.box
        around = cv2.cvtColor(game[top - 6:top + h + 6, left - 6:left + w + 6],
                              cv2.COLOR_BGR2GRAY)
        crop = cv2.imread(str(REAL_TEMPLATES / f"{cut.name}.png"), cv2.IMREAD_GRAYSCALE)
        score = cv2.minMaxLoc(cv2.matchTemplate(around, crop, cv2.TM_CCOEFF_NORMED))[1]
        assert score > 0.9, cut.name

    # Every real screen reads right with the pack made from them (plus the real crop of the
    # unlocked card, the one screen without a screenshot), in the page grab and in the
    # command's output, with its buttons where they are.
    shutil.copy(REAL_TEMPLATES / "unlocked.png", tmp_path / "pack")
    made = TemplatePack(tmp_path / "pack")
    for shot, name in REAL_SHOTS.items():
        assert classify_picture(made, read_image(REAL / "screens" / name)).screen == \
            SHOTS[shot], shot
    done = webbot_here("burrito-bison", "classify", *(str(REAL / "screens" / name)
                                                     for name in REAL_SHOTS.values()),
                      "--templates", str(tmp_path / "pack"), "--json")
    assert [json.loads(line)["screen"] for line in done.stdout.splitlines()] == \
        [SHOTS[shot] for shot in REAL_SHOTS]
    close = classify_picture(made, read_image(REAL / "screens" / "flash-sale-2022.png"))
    x, y = close.targets["close"]
    assert 568 * 0.977 + 5 < x < (568 + 78) * 0.977 + 5 and 357 * 0.977 + 25 < y < 425 * 0.977 + 25


@pytest.mark.full  # (slow; CI cuts packs from the real screens and the real page grabs)
def test_a_pack_cut_from_replica_page_grabs_at_one_size_reads_another(browser, fixtures_url,
                                                                       tmp_path):
    shots, canvas = [], None
    for shot, page, grab in sized_frames(browser, fixtures_url, (1120, 540), 1):
        shots.append(tmp_path / f"{shot}.png")
        page.screenshot(path=shots[-1])  # the whole window: the game with the page around it
        canvas = grab.box
    report = cut_pack(shots, tmp_path / "pack")
    wanted = (canvas.x, canvas.y, canvas.width, canvas.height)
    assert all(abs(a - b) <= 2 for a, b in zip(report.box, wanted, strict=True))
    assert all(check.ok for check in report.checks)
    assert not report.missing_shots and not report.missing_required
    assert len(report.written) == len(MANIFEST)

    pack = TemplatePack(tmp_path / "pack")
    for shot, _, grab in sized_frames(browser, fixtures_url, (1280, 768), 2,
                                       ("ring", "pinata", "results")):
        assert classify(pack, pack_sized(grab).image, framed=True).screen == SHOTS[shot], shot


@needs_reference
def test_two_screens_the_pack_cannot_tell_apart_are_a_failure(webbot_here, tmp_path):
    (tmp_path / "ring.png").symlink_to(REAL / "screens" / REAL_SHOTS["ring"])
    for shot in ("pinata", "missions"):  # the same picture under two screens' names
        (tmp_path / f"{shot}.png").symlink_to(REAL / "screens" / "pinata.png")
    done = webbot_here("burrito-bison", "pack", "cut", *map(str, sorted(tmp_path.glob("*.png"))),
                      "--out", str(tmp_path / "pack"))
    assert done.returncode == 1
    line = done.stderr.strip()
    assert "\n" not in line and "not told apart by the pack" in line
    assert "missions.png reads as pinata" in line


def test_a_cut_replaces_only_what_webbot_wrote_in_the_pack(webbot_here, browser, fixtures_url,
                                                          tmp_path):
    """A pack cut again into the same folder: the crops and glyphs of the first cut are
    replaced, a file the player put there is kept; a folder of the player's is refused, and so
    is a cut that would overwrite a file webbot did not write."""
    shots, box = [], None
    for shot, page, grab in sized_frames(browser, fixtures_url, (1120, 540), 1, ("shop",)):
        shots.append(tmp_path / f"{shot}.png")
        page.screenshot(path=shots[-1])
        box = tuple(round(v) for v in (grab.box.x, grab.box.y, grab.box.width,
                                       grab.box.height))
    pack = tmp_path / "pack"
    first = cut_pack(shots, pack, box)
    assert first.written and first.glyphs
    (pack / "digits" / "mine.png").write_bytes(b"the player's own")
    (pack / "notes.txt").write_text("the player's notes")
    stale = pack / "digits" / "0-stale-glyph.png"  # as if an earlier cut had taught it
    stale.write_bytes(first.glyphs[0].read_bytes())
    made = set(folders.made_here(pack)) | {"digits/0-stale-glyph.png"}
    folders.record(pack, folders.PACK, made)
    second = cut_pack(shots, pack, box)
    assert {path.name for path in second.written} == {path.name for path in first.written}
    assert (pack / "digits" / "mine.png").read_bytes() == b"the player's own"
    assert (pack / "notes.txt").read_text() == "the player's notes"
    assert not stale.exists()

    crop = second.written[0]
    crop.unlink()
    crop.write_bytes(b"the player's own crop")
    folders.record(pack, folders.PACK, set(folders.made_here(pack)) - {crop.name})
    with pytest.raises(folders.NotOurs, match="was not written by webbot"):
        cut_pack(shots, pack, box)
    assert crop.read_bytes() == b"the player's own crop"

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "ring.png").write_bytes(b"a template the player made by hand")
    done = webbot_here("burrito-bison", "pack", "cut", str(shots[0]), "--out", str(mine),
                      "--box", ",".join(map(str, box)))
    assert done.returncode == 2 and "is not a webbot template pack" in done.stderr
    assert (mine / "ring.png").read_bytes() == b"a template the player made by hand"
