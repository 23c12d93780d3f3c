"""Where things are in Burrito Bison's 1173x660 game: the boxes the pack's crops are cut from,
the screenshot each comes from, and the ring camera's zoom. The boxes are where the real game
draws these crops (the replica draws them at the same places)."""

from __future__ import annotations

from dataclasses import dataclass

Box = tuple[int, int, int, int]  # x, y, width, height

PACK_GAME_SIZE = (1173, 660)  # the game's size where the pack's crops are cut
REAL_SIZES = ((1173, 660), (1146, 644), (1280, 768), (1120, 540))
# The ring's camera zooms about the bottom centre with the opponent's size (about 0.95-1.2).
CAMERA_ANCHOR = (586, 650)
ZOOM_RANGE = (0.95, 1.2)


@dataclass(frozen=True)
class Cut:
    name: str
    shot: str  # the screenshot it is cut from
    box: Box   # in the 1173x660 game


# The health bars are cut whole around the player's name: the name alone is too thin to
# survive a change of scale. The boxes of the title, the comic, the flash sale, the cards and
# the shop are the real game's, scaled to this size.
MANIFEST = (
    Cut("click-to-start", "title", (488, 588, 200, 46)),
    Cut("comic-panel", "comic", (14, 40, 300, 90)),
    Cut("bison-health-bar", "ring", (440, 61, 140, 40)),
    Cut("left-goalpost", "ring", (343, 468, 30, 132)),
    Cut("pineapple-health-bar", "ring-pineapple", (425, 61, 155, 40)),
    Cut("rocket-bar", "flight", (29, 127, 29, 40)),
    Cut("full-rocket", "rocket_ready", (29, 127, 29, 391)),
    Cut("flash-sale", "flash_sale", (518, 238, 340, 50)),
    Cut("sale-close", "flash_sale", (568, 357, 78, 68)),
    Cut("filled-with-goodies", "pinata", (531, 222, 326, 42)),
    Cut("cancel-button", "pinata", (540, 354, 81, 78)),
    Cut("card-back", "cards", (360, 262, 180, 110)),
    Cut("tap-to-continue", "missions", (491, 585, 197, 31)),
    Cut("unlocked", "unlocked", (500, 60, 166, 40)),
    Cut("next-button", "results", (892, 510, 160, 117)),
    Cut("shop-button", "results", (715, 510, 130, 117)),
    Cut("shop-hud", "shop", (38, 8, 150, 60)),
    Cut("shop-lock", "shop", (515, 274, 25, 28)),
)
PLACES = {cut.name: cut.box for cut in MANIFEST}
# Screenshot name (file stem) -> the screen it shows.
SHOTS = {"title": "title", "comic": "comic", "ring": "ring", "ring-pineapple": "ring",
         "flight": "flight", "rocket_ready": "rocket_ready", "flash_sale": "flash_sale",
         "pinata": "pinata", "cards": "cards", "missions": "missions", "unlocked": "unlocked",
         "results": "results", "shop": "shop"}

# The real shop (the replica draws it alike): a 4x4 grid of upgrade cards, each w x h at
# (SHOP_COLUMNS[i], SHOP_ROWS[j]); the detail panel of the selected card with its name, level
# pips (1-9, the levels reached in red) and "BUY FOR <price>" button; the coin counter.
SHOP_COLUMNS = (190, 289, 387, 486)
SHOP_ROWS = (110, 240, 370, 499)
SHOP_CARD = (82, 112)
SHOP_LOCK_AT = (29, 34)    # where a locked card's padlock crop sits in the card
SHOP_NAME: Box = (630, 136, 240, 42)
SHOP_PIPS = (645, 308, 24.8, 9)  # first pip's centre x, y, pitch, count
SHOP_BUY: Box = (630, 347, 222, 100)
SHOP_PRICE: Box = (690, 388, 150, 50)
SHOP_COINS: Box = (670, 17, 118, 42)
