"""Real material the project never built from, as a user would bring it: every real screenshot
in ../shared/reference at its own size, rescaled 0.75x and 1.25x, and saved as JPEG 70; and
real Burrito Bison screens put into page grabs of other portals (the game at another real
size under a toolbar, beside a sidebar, framed in black or not). Shared by the tests and
scripts/regression_real.py, which prints the table docs/real-world.md shows."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from tests.conftest import REFERENCE
from webbot.burrito_bison.layout import PACK_GAME_SIZE
from webbot.burrito_bison.matching import TemplatePack
from webbot.burrito_bison.pack import cut_pack, scene
from webbot.burrito_bison.perceive import RULES, classify_picture, framed_game, read_image

BURRITO = REFERENCE / "burrito-bison"
ORIGINAL_TEMPLATES = BURRITO / "templates"  # the original bot's 2018 crops, no manifest
# The screens, named as `pack cut` wants them, and what each shows.
BURRITO_SHOTS = {"ring": "round-start-beaster-bunny.png", "rocket_ready": "flight-full-rocket.png",
                 "pinata": "pinata.png", "missions": "round-finished-missions.png",
                 "results": "round-finished-results.png", "shop": "shop.png",
                 "title": "title-2022.png", "comic": "intro-comic-2022.png",
                 "flash_sale": "flash-sale-2022.png", "cards": "pinata-cards-2022.png"}
PUZLOGIC = REFERENCE / "puzlogic"
PUZLOGIC_LEVELS = {"puzlogic-map-1.png": 1, "puzlogic-map-2.png": 2, "puzlogic-map-3.png": 3,
                   "puzlogic-with-sums.png": 6, "puzlogic-map-10.png": 10}

Perturbation = Callable[[np.ndarray], np.ndarray]


def through_jpeg(image: np.ndarray, quality: int = 70, shift: int = 0) -> np.ndarray:
    """The picture through JPEG; `shift` px of its edge before it, above and left, so that
    JPEG's 8 and 16 px blocks fall elsewhere on it (a screencast encodes the whole window)."""
    padded = cv2.copyMakeBorder(image, shift, 0, shift, 0, cv2.BORDER_REPLICATE)
    _, data = cv2.imencode(".jpg", padded, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)[shift:, shift:]


PERTURBATIONS: dict[str, Perturbation] = {
    "as saved": lambda image: image,
    "0.75x": lambda image: cv2.resize(image, None, fx=0.75, fy=0.75,
                                      interpolation=cv2.INTER_AREA),
    "1.25x": lambda image: cv2.resize(image, None, fx=1.25, fy=1.25,
                                      interpolation=cv2.INTER_LINEAR),
    "JPEG 70": through_jpeg,
}


def burrito_screens() -> dict[str, np.ndarray]:
    """Each real screen (by the name `pack cut` gives it) as saved."""
    return {shot: read_image(BURRITO / "screens" / name) for shot, name in BURRITO_SHOTS.items()}


def cut_from_reference(out: Path) -> TemplatePack:
    """A pack cut into `out`/pack from the real screens the way docs/burrito-bison.md tells a
    player to."""
    shots = out / "shots"
    shots.mkdir(parents=True)
    for shot, name in BURRITO_SHOTS.items():
        (shots / f"{shot}.png").symlink_to(BURRITO / "screens" / name)
    cut_pack(sorted(shots.glob("*.png")), out / "pack")
    return TemplatePack(out / "pack", required=())


def game_scene(grab: np.ndarray) -> np.ndarray:
    """The 1173x660 scene of a real page grab whose game is framed by black."""
    box = framed_game(grab)
    assert box is not None, "the real grab's game is framed by black"
    return scene(grab, box)


def portal_grab(scene: np.ndarray, size: tuple[int, int], framed: bool = False) -> np.ndarray:
    """A page grab of another portal: the scene fitted and centred in a game of `size` (the
    bands beside it continue its edges), under a 33 px toolbar, beside a sidebar of text, on a
    light page; a black frame around the game only when `framed`."""
    width, height = size
    scale = min(width / PACK_GAME_SIZE[0], height / PACK_GAME_SIZE[1])
    fitted = cv2.resize(scene, (round(PACK_GAME_SIZE[0] * scale),
                                round(PACK_GAME_SIZE[1] * scale)), interpolation=cv2.INTER_AREA)
    left, top = (width - fitted.shape[1]) // 2, (height - fitted.shape[0]) // 2
    game = cv2.copyMakeBorder(fitted, top, height - fitted.shape[0] - top, left,
                              width - fitted.shape[1] - left, cv2.BORDER_REPLICATE)
    border = 8 if framed else 0
    page = np.full((height + 200, width + 380, 3), 236, np.uint8)
    x, y = 40, 120
    cv2.rectangle(page, (0, 0), (page.shape[1], 56), (90, 60, 40), -1)  # the site's header
    cv2.putText(page, "games portal", (20, 38), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
    cv2.rectangle(page, (x, y - 33), (x + width, y), (214, 214, 214), -1)  # the game's toolbar
    cv2.putText(page, "Full screen   Instructions   Rate   Favorite   Playlist", (x + 10, y - 11),
                cv2.FONT_HERSHEY_SIMPLEX, 0.5, (40, 40, 40), 1, cv2.LINE_AA)
    if framed:
        cv2.rectangle(page, (x - border, y - border),
                      (x + width + border - 1, y + height + border - 1), (0, 0, 0), -1)
    page[y:y + height, x:x + width] = game
    side = x + width + 30
    cv2.rectangle(page, (side, y - 33), (page.shape[1] - 20, y + height), (255, 255, 255), -1)
    for line in range(12):
        cv2.putText(page, f"chat line {line}: good game", (side + 12, y + 10 + 30 * line),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.5, (60, 60, 60), 1, cv2.LINE_AA)
    return page


def expected(pack: TemplatePack, screen: str) -> str:
    """What a pack can say of a screen: the screen itself when it has one of its indicators;
    a pack without the shop's crop knows the shop by its Next arrow, as the results; any other
    screen it has no crop for, it cannot know (`unknown` is then the right answer)."""
    indicators = dict(RULES)
    if any(name in pack for name in indicators.get(screen, ())):
        return screen
    if screen == "shop" and "next-button" in pack:
        return "results"
    return "unknown"


def burrito_outcome(pack: TemplatePack, picture: np.ndarray, screen: str) -> str:
    """right, refused (`unknown` where the pack could have known) or wrong."""
    read = classify_picture(pack, picture).screen
    if read == expected(pack, screen):
        return "right"
    return "refused" if read == "unknown" else "wrong"
