"""Reading the shop's grid and detail panel: the real shop (with a pack cut from it) and the
replica's, whose state the test hook confirms."""

from __future__ import annotations

from tests.burrito_bison.conftest import REAL, needs_reference
from webbot.burrito_bison.bot import pack_sized
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.pack import cut_pack, scene
from webbot.burrito_bison.perceive import framed_game, read_image
from webbot.burrito_bison.shop import coins, grid_cards, read_detail
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
