"""Reading the shop's grid and detail panel: the real shop (with a pack cut from it) and the
replica's, whose state the test hook confirms."""

from __future__ import annotations

from tests.burrito_bison.conftest import JPEG, JPEG_SHIFTS, REAL, needs_reference
from tests.real_world import through_jpeg
from webbot.burrito_bison.bot import pack_sized
from webbot.burrito_bison.layout import SHOP_CARD, SHOP_COLUMNS, SHOP_ROWS
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
    assert {read_name(through_jpeg(game, JPEG, shift)) for shift in JPEG_SHIFTS} == \
        {"ELASTIC CABLES"}
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


# The replica's upgrades (game.js SHOP), as their cards name them.
UPGRADES = {"ELASTIC CABLES", "TURNBUCKLE", "FLYING LEAP", "BIG STRETCH", "COIN MAGNET",
            "PIGGY BANK", "GOLD RUSH", "SUGAR RUSH", "FAST FUEL", "ROCKET SLAM", "DOUBLE SLAM",
            "AFTERBURNER", "SOFT LANDING", "JELLY LEGS", "GUMMY GROWTH"}


def test_every_upgrade_s_name_reads_right_through_jpeg(page, fixtures_url):
    """A name is read from its red lettering, and JPEG (the screencast's pictures) keeps colour
    at half the resolution, smearing it between letters: the bot once read the screencast's
    COIN MAGNET as COM MAGNET. Every card's name reads right, as drawn and through JPEG
    wherever its blocks fall."""
    shop_frame(page, fixtures_url, "coins=300")
    box = page.locator("canvas").bounding_box()
    width, height = SHOP_CARD
    read: dict[str, set[str]] = {}
    for slot in range(15):
        page.mouse.click(
            box["x"] + (SHOP_COLUMNS[slot % 4] + width / 2) * box["width"] / 1173,
            box["y"] + (SHOP_ROWS[slot // 4] + height / 2) * box["height"] / 660)
        image = pack_sized(Screen(page, "canvas").wait_until_still(max_changed=0.02)).image
        read.setdefault("as drawn", set()).add(read_name(image))
        for shift in JPEG_SHIFTS:
            read.setdefault(f"JPEG {JPEG} shifted {shift} px", set()).add(
                read_name(through_jpeg(image, JPEG, shift)))
    assert read == dict.fromkeys(read, UPGRADES)
