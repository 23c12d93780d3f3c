"""Ways a capture of Puzlogic differs from a clean render, at the game's own scale: colour drift
(gamma, a cast, brightness), JPEG and a slight blur, alone and mixed; and how a reading of a
perturbed picture turns out (exact, refused with a reason, or wrong)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tests.puzlogic.conftest import comparable
from webbot.errors import WebbotError
from webbot.puzlogic.vision import Reader, normalise

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
    "gamma 1.25 + cast + JPEG 70": mix(gamma(1.25), cast(1.1, 1.0, 0.9), jpeg(70)),
    "brightness -10 + blur 0.6 + JPEG 80": mix(brightness(-10), blur(0.6), jpeg(80)),
}


def outcome(reader: Reader, image: np.ndarray, level: dict) -> str:
    """exact, refused (the reader said why) or wrong."""
    try:
        puzzle = reader.read_level(normalise(image)).puzzle()
    except WebbotError:
        return "refused"
    return "exact" if comparable(puzzle.to_json()) == comparable(level) else "wrong"


def tally(reader: Reader, pictures: list[tuple[np.ndarray, dict]],
          names: tuple[str, ...] = tuple(PERTURBATIONS)) -> dict[str, dict[str, int]]:
    """perturbation -> {exact, refused, wrong} over the pictures."""
    counts = {}
    for name in names:
        results = [outcome(reader, PERTURBATIONS[name](image), level)
                   for image, level in pictures]
        counts[name] = {kind: results.count(kind) for kind in ("exact", "refused", "wrong")}
    return counts
