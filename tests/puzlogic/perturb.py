"""Ways a capture of Puzlogic differs from a clean render: colour drift (gamma, a cast,
brightness), JPEG, a slight blur, another scale (shrunk or enlarged, by area or cubic
interpolation), pale leaves drifting over the cells, alone and mixed; and how a reading of a
perturbed picture turns out (exact, refused with a reason, or wrong)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tests.puzlogic.conftest import comparable
from webbot.errors import WebbotError
from webbot.puzlogic.perceive import Reader, normalise
from webbot.vision.region import find_game

Perturbation = Callable[[np.ndarray], np.ndarray]


def gamma(value: float) -> Perturbation:
    table = (255 * (np.arange(256) / 255) ** value).clip(0, 255).astype(np.uint8)
    return lambda image: cv2.LUT(image, table)


def cast(blue: float, green: float, red: float) -> Perturbation:
    factors = np.array([blue, green, red], np.float32)
    return lambda image: (image * factors).clip(0, 255).astype(np.uint8)


def brightness(shift: int) -> Perturbation:
    return lambda image: (image.astype(np.int16) + shift).clip(0, 255).astype(np.uint8)


def jpeg(quality: int) -> Perturbation:
    def apply(image: np.ndarray) -> np.ndarray:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    return apply


def blur(sigma: float) -> Perturbation:
    return lambda image: cv2.GaussianBlur(image, (0, 0), sigma)


def scale(factor: float, interpolation: int) -> Perturbation:
    return lambda image: cv2.resize(image, None, fx=factor, fy=factor,
                                    interpolation=interpolation)


def leaves(count: int, seed: int = 3) -> Perturbation:
    """Pale leaves over the game, 10-20% white (the real game's drift across cells, a little
    stronger than the replica's 8-16%)."""
    def apply(image: np.ndarray) -> np.ndarray:
        game = find_game(image, 4 / 3)  # over the game, not the black around it
        top, left, bottom, right = game.y, game.x, game.y + game.height, game.x + game.width
        unit = game.width / 800
        rng = np.random.default_rng(seed)
        for _ in range(count):
            x = int(rng.uniform(left + 30 * unit, right - 30 * unit))
            y = int(rng.uniform(top + 30 * unit, bottom - 30 * unit))
            axes = (int(rng.uniform(8, 18) * unit), int(rng.uniform(4, 9) * unit))
            cover = image.copy()
            cv2.ellipse(cover, (x, y), axes, rng.uniform(0, 180), 0, 360, (255, 255, 255), -1,
                        cv2.LINE_AA)
            alpha = rng.uniform(0.1, 0.2)
            image = cv2.addWeighted(image, 1 - alpha, cover, alpha, 0)
        return image
    return apply


def mix(*steps: Perturbation) -> Perturbation:
    def apply(image: np.ndarray) -> np.ndarray:
        for step in steps:
            image = step(image)
        return image
    return apply


PERTURBATIONS: dict[str, Perturbation] = {
    "none": lambda image: image,
    "gamma 0.8": gamma(0.8),
    "gamma 1.25": gamma(1.25),
    "cast +10% blue": cast(1.1, 1.0, 0.9),
    "cast +10% red": cast(0.9, 1.0, 1.1),
    "cast +10% green": cast(0.92, 1.1, 0.92),
    "brightness +10": brightness(10),
    "brightness -10": brightness(-10),
    "JPEG 90": jpeg(90),
    "JPEG 70": jpeg(70),
    "JPEG 50": jpeg(50),
    "blur 0.7": blur(0.7),
    "scale 0.5 (area)": scale(0.5, cv2.INTER_AREA),
    "scale 0.6 (area)": scale(0.6, cv2.INTER_AREA),
    "scale 0.75 (area)": scale(0.75, cv2.INTER_AREA),
    "scale 0.75 (cubic)": scale(0.75, cv2.INTER_CUBIC),
    "scale 1.25 (area)": scale(1.25, cv2.INTER_AREA),
    "scale 1.5 (cubic)": scale(1.5, cv2.INTER_CUBIC),
    "scale 1.7 (cubic)": scale(1.7, cv2.INTER_CUBIC),
    "scale 2 (cubic)": scale(2.0, cv2.INTER_CUBIC),
    "12 leaves": leaves(12),
    "gamma 1.25 + cast + JPEG 70": mix(gamma(1.25), cast(1.1, 1.0, 0.9), jpeg(70)),
    "brightness -10 + blur 0.6 + JPEG 80": mix(brightness(-10), blur(0.6), jpeg(80)),
    "scale 0.75 + JPEG 80 + leaves": mix(scale(0.75, cv2.INTER_AREA), jpeg(80), leaves(8)),
    "scale 1.5 + cast + blur 0.8": mix(scale(1.5, cv2.INTER_CUBIC), cast(0.95, 1.0, 1.08),
                                       blur(0.8)),
}


def read_puzzle(reader: Reader, image: np.ndarray) -> dict | None:
    """The puzzle read from a picture (its JSON), or None when the reader refused it."""
    try:
        return reader.read_level(normalise(image)).puzzle().to_json()
    except WebbotError:
        return None


def judged(puzzle: dict | None, level: dict) -> str:
    """exact, refused (the reader said why) or wrong."""
    if puzzle is None:
        return "refused"
    return "exact" if comparable(puzzle) == comparable(level) else "wrong"


def outcome(reader: Reader, image: np.ndarray, level: dict) -> str:
    return judged(read_puzzle(reader, image), level)


def misread(puzzle: dict, level: dict) -> str:
    """What a wrong reading got wrong, in words: each part read otherwise than the level has."""
    said = []
    for part, read, truth in zip(("cells", "pieces", "sums"), comparable(puzzle),
                                 comparable(level), strict=True):
        extra = [item for item in read if item not in truth]
        missing = [item for item in truth if item not in read]
        if extra or missing:
            said.append(f"{part} read {extra} where the level has {missing}")
    return "; ".join(said)


def tally(reader: Reader, pictures: list[tuple[np.ndarray, dict]],
          names: tuple[str, ...] = tuple(PERTURBATIONS), wrong: list[str] | None = None
          ) -> dict[str, dict[str, int]]:
    """perturbation -> {exact, refused, wrong} over the pictures; each wrong reading said in
    `wrong` (given) as "perturbation, picture N: what was misread"."""
    counts = {}
    for name in names:
        results = []
        for number, (image, level) in enumerate(pictures, 1):
            puzzle = read_puzzle(reader, PERTURBATIONS[name](image))
            results.append(judged(puzzle, level))
            if results[-1] == "wrong" and wrong is not None:
                wrong.append(f"{name}, picture {number}: {misread(puzzle, level)}")
        counts[name] = {kind: results.count(kind) for kind in ("exact", "refused", "wrong")}
    return counts
