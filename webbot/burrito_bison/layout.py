"""Where things are in Burrito Bison's 1173x660 game: the boxes the pack's crops are cut from,
the screenshot each comes from, and the ring camera's zoom. The boxes are those of the real
game's crops, found in the real 2018 screens (the replica draws them at the same places)."""

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
# survive a change of scale.
MANIFEST = (
    Cut("bison-health-bar", "ring", (440, 61, 140, 40)),
    Cut("left-goalpost", "ring", (343, 468, 30, 132)),
    Cut("pineapple-health-bar", "ring-pineapple", (425, 61, 155, 40)),
    Cut("rocket-bar", "flight", (29, 127, 29, 40)),
    Cut("full-rocket", "rocket_ready", (29, 127, 29, 391)),
    Cut("filled-with-goodies", "pinata", (531, 222, 326, 42)),
    Cut("cancel-button", "pinata", (540, 354, 81, 78)),
    Cut("tap-to-continue", "missions", (491, 585, 197, 31)),
    Cut("unlocked", "unlocked", (500, 60, 166, 40)),
    Cut("next-button", "results", (892, 510, 160, 117)),
    Cut("shop-button", "results", (715, 510, 130, 117)),
    Cut("shop-title", "shop", (500, 20, 170, 60)),
)
PLACES = {cut.name: cut.box for cut in MANIFEST}
# Screenshot name (file stem) -> the screen it shows.
SHOTS = {"ring": "ring", "ring-pineapple": "ring", "flight": "flight",
         "rocket_ready": "rocket_ready", "pinata": "pinata", "missions": "missions",
         "unlocked": "unlocked", "results": "results", "shop": "shop"}
