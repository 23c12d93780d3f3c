"""One card picture from a file (`webbot daily-set classify`), read both ways: the page's art by
the page's reader (perceive.py) and the camera's rules, a photo by the camera's rules
(camera.py) and the learned reader (learned.py), agreed on (verdict.py); otherwise refused,
saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from webbot.set_cards.camera import Ruled, paper_divided, read_normal
from webbot.set_cards.learned import Learned, read_learned
from webbot.set_cards.model import Reading
from webbot.set_cards.perceive import CardError, Unclear, classify, load
from webbot.set_cards.photo import card_cut
from webbot.set_cards.verdict import SURE, agreed

# A card picture from a file (`webbot daily-set classify`) is an answer only below this doubt,
# in each reading that answers (the page's cards, art and captures, stay under 0.45 in the
# page's reader). The same limit as a board's picture's (read.PICTURE_DOUBT_LIMIT).
SINGLE_DOUBT_LIMIT = 0.5
# The page's art: its commonest colour grey and on ART_FLAT of the picture (photos of this
# deck: at most 0.40, and never grey; the page's art 0.45 or more). Sampled to ART_SAMPLE pixels.
ART_FLAT, ART_SAMPLE = 0.3, 250_000


def read_file(path: str | Path) -> Reading:
    """The card picture in a file read (read_single)."""
    return read_single(load(path))


def read_single(image: np.ndarray) -> Reading:
    """One card picture from a file: the page's art as the page's reader and the camera's
    rules read it, or a photo as the camera's rules and the learned reader agree on it, the
    learned reader sure of it (verdict.agreed). Otherwise refused, saying why."""
    return decided(looked_at(image))


@dataclass(frozen=True)
class Looks:
    """What each reader made of one card picture: a reading, or why it could not."""

    art: bool  # the page's flat art (white around the shapes), not a photo
    page: Reading | CardError  # the page's reader, on the picture (the page's art only)
    rules: Ruled | CardError  # the camera's rules, on the card cut
    learned: Learned | None  # on the card cut (None: no card to cut)


def looked_at(image: np.ndarray) -> Looks:
    """Every reader's look at a card picture (the page's reader on the page's art alone)."""
    art = is_page_art(image)
    page: Reading | CardError = CardError("not the page's art")
    if art:
        try:
            page = classify(image)
        except CardError as error:
            page = error
    learned = None
    try:
        cut = card_cut(image)
        normal = paper_divided(cut.picture)
        learned = read_learned(normal)
        rules: Ruled | CardError = read_normal(normal, cut.height, cut.picture)
    except CardError as error:
        rules = error
    return Looks(art, page, rules, learned)


def is_page_art(image: np.ndarray) -> bool:
    """The page's flat art (or a screenshot of it, dimmed by an overlay or not): ART_FLAT or
    more of its pixels within 2 levels of its commonest colour, and that colour grey to the
    level (white, or white under a shade). A camera's paper is neither that even nor that grey."""
    step = max(1, round((image.shape[0] * image.shape[1] / ART_SAMPLE) ** 0.5))
    pixels = image[::step, ::step].reshape(-1, 3).astype(np.int64)
    packed = (pixels[:, 0] << 16) | (pixels[:, 1] << 8) | pixels[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    commonest = pixels[int(np.flatnonzero(packed == values[counts.argmax()])[0])]
    if int(commonest.max() - commonest.min()) > 1:
        return False
    return float((np.abs(pixels - commonest).max(axis=1) <= 2).mean()) >= ART_FLAT


def decided(looks: Looks, sure: float = SURE, sure_alone: float | None = None,
            sure_colour_alone: float | None = None) -> Reading:
    """The answer the looks give, or Unclear saying why there is none."""
    if looks.art:
        return _art_reading(looks)
    if isinstance(looks.rules, CardError):
        raise looks.rules
    if looks.learned is None:  # (the rules read what the learned reader was not shown)
        raise Unclear("the learned reader has no card to read")
    card, doubts, tint = looks.rules
    return agreed(card, doubts, looks.learned, sure, sure_alone, sure_colour_alone, tint)


def _art_reading(looks: Looks) -> Reading:
    """The page's art: an answer when a reading is clear (doubt under SINGLE_DOUBT_LIMIT) and
    the other is not clearly a different card."""
    readings = [looks.page] if isinstance(looks.page, Reading) else []
    if not isinstance(looks.rules, CardError):
        card, doubts, _ = looks.rules
        doubtful = max(doubts, key=doubts.__getitem__)
        readings.append(Reading(card, round(doubts[doubtful], 3), doubtful))
    clear = [reading for reading in readings if reading.doubt < SINGLE_DOUBT_LIMIT]
    cards = {reading.card for reading in clear}
    if len(cards) > 1:
        first, second = sorted(cards, key=str)
        raise Unclear(f"not clearly one card: read as {first} one way and as {second} another")
    if clear:
        return clear[0]
    if readings:
        least = min(readings, key=lambda reading: reading.doubt)
        raise Unclear(f"read as {least.card}, but unsure of its "
                      f"{'colour' if least.doubtful == 'color' else least.doubtful}")
    raise looks.page if isinstance(looks.page, CardError) else looks.rules
