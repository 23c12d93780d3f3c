"""Reading the shop's grid and detail panel: the real shop (with a pack cut from it) and the
replica's, whose state the test hook confirms."""

from __future__ import annotations

import cv2

from tests.burrito_bison.conftest import REAL, needs_reference
from webbot.burrito_bison.bot import pack_sized
from webbot.burrito_bison.layout import SHOP_COLUMNS, SHOP_ROWS
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.pack import cut_pack, scene
from webbot.burrito_bison.perceive import framed_game, read_image
from webbot.burrito_bison.shop import coins, grid_cards, read_detail, read_name
from webbot.screen import Screen

GAME = "burrito-bison/index.html"


@needs_reference
def test_the_real_shop_reads_its_locks_name_level_and_price(tmp_path):
    # (the shop alone teaches no 1 but its pips', which the price's 1 is not clearly like)
    (tmp_path / "shop.png").symlink_to(REAL / "screens" / "shop.png")
    (tmp_path / "results.png").symlink_to(REAL / "screens" / "round-finished-results.png")
    cut_pack([tmp_path / "results.png", tmp_path / "shop.png"], tmp_path / "pack")
    pack = TemplatePack(tmp_path / "pack", required=())
    grab = read_image(REAL / "screens" / "shop.png")
    game = scene(grab, framed_game(grab))
    cards = grid_cards(game, pack)
    assert [c.slot for c in cards] == list(range(15))  # the last slot is empty
    assert [c.slot for c in cards if c.locked] == [7, 9, 10, 11, 12, 13, 14]
    detail = read_detail(game, pack.digits)
    assert (detail.name, detail.level, detail.price) == ("ELASTIC CABLES", 1, 6100)
    assert not detail.buyable and not detail.maxed  # 883 coins: the button is grey


def shop_frame(page, fixtures_url, query):
    page.goto(f"{fixtures_url}{GAME}?seed=5&scene=shop&{query}")
    page.wait_for_function("window.__burritoTest && window.__burritoTest.ready")
    return pack_sized(Screen(page, "canvas").wait_until_still(max_changed=0.02)).image


def test_the_replica_shop_reads_as_the_game_holds_it(page, fixtures_url):
    pack = TemplatePack()
    image = shop_frame(page, fixtures_url, "coins=300")
    cards = grid_cards(image, pack)
    assert [c.slot for c in cards] == list(range(15))
    # Every card but the first of its row is locked until that one reaches level 2.
    assert [c.slot for c in cards if not c.locked] == [0, 4, 8, 12]
    detail = read_detail(image, pack.digits)
    assert (detail.name, detail.level, detail.price, detail.buyable) == \
        ("ELASTIC CABLES", 0, 100, True)
    assert coins(image, pack.digits) == page.evaluate("__burritoTest.state().coins") == 300

    poor = read_detail(shop_frame(page, fixtures_url, "coins=60"), pack.digits)
    assert (poor.price, poor.buyable) == (100, False)


def test_every_upgrade_s_name_reads_the_same_through_jpeg(page, fixtures_url):
    """A name is read from its red lettering, and JPEG (the screencast's pictures) keeps colour
    at half the resolution, smearing it between letters: the bot once read the screencast's
    COIN MAGNET as COM MAGNET. Every card's name reads through JPEG 70 as drawn."""
    shop_frame(page, fixtures_url, "coins=300")
    box = page.locator("canvas").bounding_box()
    drawn, through_jpeg = [], []
    for slot in range(15):
        page.mouse.click(box["x"] + SHOP_COLUMNS[slot % 4] * box["width"] / 1173,
                         box["y"] + SHOP_ROWS[slot // 4] * box["height"] / 660)
        image = pack_sized(Screen(page, "canvas").wait_until_still(max_changed=0.02)).image
        drawn.append(read_name(image))
        through_jpeg.append(read_name(cv2.imdecode(
            cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 70])[1], cv2.IMREAD_COLOR)))
    assert len(set(drawn)) == 15 and all(drawn), drawn
    assert through_jpeg == drawn
