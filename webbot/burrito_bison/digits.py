"""The game's own digits (perceive): numbers read glyph by glyph against glyphs taught from the
pack, Tesseract only where a glyph matches none.

The game writes its numbers in a display font of its own, which Tesseract misreads (the real
results' "489" as 4484, "774M" as 14, the shop's "883" as 33). A pack cut by `pack cut` keeps the
glyphs of its screenshots' numbers under `digits/`, each file named after what it shows
(`7-results-distance-1.png`). They are labelled without the player's help: the shop's level pips
show 1 to 9 in that order in the game's font, always, so they are labelled by their place; a
number's glyph that matches one pip clearly better than any other takes its label, and one
that matches none clearly (a 0, which no pip shows, the M of a distance, a small 5) takes
Tesseract's vote over several modes and sizes, or stays unlabelled.

Reading cuts a number's ink into glyphs (a connected blob each; commas and specks are much
lower than the digits) and takes each glyph's nearest taught glyph when it scores ACCEPT and
is clearly nearer than any glyph of another label; one glyph short of that, and the number is
left to Tesseract whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from webbot import folders, inputs
from webbot.vision.digits import DigitReader, GlyphTemplates, normalise

FOLDER = "digits"
ACCEPT = 0.75   # a glyph read from the pack scores at least this with its nearest
MARGIN = 0.08   # ... and this much more than the nearest of another label
# Teaching from the pips: the real game's pips correlate with its numbers' glyphs at
# 0.82-0.96 for the right digit, at most 0.77 for another (a small 5 and any 0 excepted).
PIP_ACCEPT, PIP_MARGIN = 0.78, 0.05
TALL = 0.6      # a glyph is at least this share of the tallest blob's height (a comma is less)
WIDEST = 0.95   # width / height of the widest glyph (the M of a distance is 0.7)
ZERO_LOOKALIKES = {"6", "8", "9"}
NOT_ON_PIPS = {"0", "M"}
LABELS = "0123456789M"
TESSERACT_LABELS = "-c tessedit_char_whitelist=" + LABELS
# Labels for the glyphs a pack does not know clearly, all asked at once (None: unknown).
Fallback = Callable[[list[np.ndarray]], list[str | None]]


@dataclass(frozen=True)
class Glyph:
    label: str         # "0".."9" or "M"
    ink: np.ndarray    # float32 mask of the glyph cut to its ink
    source: str        # where it was taught: "shop-pip", "results-coins-2", ...


def blobs(ink: np.ndarray) -> list[np.ndarray]:
    """The glyphs of a number's ink mask, left to right: its connected blobs that do not touch
    the crop's edge (a panel's outline passing through) and stand at least TALL of the tallest."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8),
                                                               connectivity=8)
    height, width = ink.shape[:2]
    found = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if x > 0 and y > 0 and x + w < width and y + h < height and area >= 6:
            found.append((x, h, (labels[y:y + h, x:x + w] == i).astype(np.float32)))
    if not found:
        return []
    tallest = max(h for _, h, _ in found)
    glyphs = [glyph for x, h, glyph in sorted(found, key=lambda item: item[0])
              if h >= TALL * tallest and h >= 6]
    return [part for glyph in glyphs for part in _split(glyph)]


def _split(glyph: np.ndarray) -> list[np.ndarray]:
    """Two digits whose fills touch (small lettering, after a change of scale) make one blob
    wider than tall, which no digit of the game is: cut it at its faintest column of the
    middle half."""
    height, width = glyph.shape
    if width <= WIDEST * height:
        return [glyph]
    middle = glyph[:, width // 4:width - width // 4].sum(axis=0)
    cut = width // 4 + int(np.argmin(middle))
    return [part for side in (glyph[:, :cut], glyph[:, cut + 1:]) if side.any()
            for part in _split(_to_ink(side))]


def _to_ink(glyph: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(glyph)
    return glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


class Glyphs:
    """A pack's taught glyphs, matched by correlation of their normalised pictures."""

    def __init__(self, glyphs: list[Glyph] | tuple[Glyph, ...] = ()) -> None:
        self.glyphs = tuple(glyph for glyph in glyphs if normalise(glyph.ink) is not None)
        self._templates = GlyphTemplates()
        for glyph in self.glyphs:
            self._templates.add(glyph.label, normalise(glyph.ink))

    def __len__(self) -> int:
        return len(self.glyphs)

    @property
    def labels(self) -> set[str]:
        return set(self._templates.labels)

    @classmethod
    def load(cls, pack: Path) -> Glyphs:
        """The glyphs under `pack/digits/` (none when there is no such folder)."""
        folder = pack / FOLDER
        glyphs = []
        for path in sorted(folder.glob("*.png")) if folder.is_dir() else ():
            label = path.stem.split("-", 1)[0]
            if label in LABELS:
                ink = inputs.read_image(path, cv2.IMREAD_GRAYSCALE)
                glyphs.append(Glyph(label, (ink > 127).astype(np.float32), path.stem))
        return cls(glyphs)

    def nearest(self, ink: np.ndarray) -> tuple[str | None, float, float]:
        """The nearest glyph's label, its score, and by how much it beats every glyph of
        another label."""
        return self._templates.nearest(ink)

    def read(self, ink: np.ndarray, fallback: Fallback | None = None) -> str | None:
        """The labels of a number's glyphs ("774M"), or None when a glyph is neither clearly
        one of the taught ones nor given a label by `fallback`."""
        labels = self.labels_of(ink, fallback)
        known = [label for label in labels if label is not None]
        return "".join(known) if labels and len(known) == len(labels) else None

    def labels_of(self, ink: np.ndarray, fallback: Fallback | None = None) -> list[str | None]:
        """Each glyph's label, left to right: its nearest taught glyph's when that is clear,
        else what `fallback` says of it (None: unknown)."""
        glyphs = blobs(ink)
        found: list[str | None] = []
        for glyph in glyphs:
            label, score, margin = self.nearest(glyph)
            found.append(label if label is not None and score >= ACCEPT and margin >= MARGIN
                         else None)
        unclear = [k for k, label in enumerate(found) if label is None]
        if fallback is not None and unclear:
            for k, label in zip(unclear, fallback([glyphs[k] for k in unclear]), strict=True):
                found[k] = label
        return found


def agreeing(labels: list[str | None], text: str) -> str | None:
    """`text` (another reader's digits) when it has a character for every glyph and the same
    one wherever a glyph's label is known; else None."""
    if len(text) != len(labels):
        return None
    return text if all(label in (None, char) for label, char in zip(labels, text, strict=True)) \
        else None


def number_of(text: str | None) -> int | None:
    """The number in glyph labels: the digits before a trailing unit ("774M" -> 774)."""
    match = re.fullmatch(r"(\d+)M?", text or "")
    return int(match.group(1)) if match else None


def pip_inks(pips: list[np.ndarray]) -> list[np.ndarray | None]:
    """The digit in each pip's picture: the largest blob of the pixels that differ from the
    pip's own background (a light digit on a reached pip's red disc, a darker or lighter one on
    the panel), None where there is none."""
    inks: list[np.ndarray | None] = []
    for picture in pips:
        if picture.size == 0:
            inks.append(None)
            continue
        background = np.median(picture.reshape(-1, 3), axis=0)
        away = (np.abs(picture.astype(np.int16) - background).max(axis=2) >= 40).astype(np.uint8)
        # A digit off the pip's centre may touch the rim of the red disc beside it by a pixel:
        # opening by 2x2 cuts such a thread (only when the plain mask shows no digit).
        found = blobs(away) or blobs(cv2.morphologyEx(away, cv2.MORPH_OPEN, np.ones((2, 2))))
        inks.append(max(found, key=lambda glyph: glyph.size) if found else None)
    return inks


def teach(pips: list[np.ndarray | None], numbers: dict[str, np.ndarray],
          reader: DigitReader | None = None) -> tuple[list[Glyph], list[str]]:
    """Glyphs labelled from the pips (pip k shows k + 1) and from the numbers' inks (name ->
    mask), and the names of the glyphs left unlabelled.

    A number's glyph takes the label of the pip it matches clearly. The pips show no 0 and no
    M: a glyph no pip matches clearly is shown to Tesseract, and taken when its firm vote is one
    of those two (its other votes are not trusted: on the real font it reads a 9 as a 4). A 0
    can pass for the pips' 6, 8 or 9 (it does in the replica's font), so those are shown to
    Tesseract too and a firm 0 wins. Then what is still unlabelled is matched against every
    glyph labelled so far (the second 0 of "6,100" is the first one's twin)."""
    taught = [Glyph(str(k + 1), ink, "shop-pip") for k, ink in enumerate(pips)
              if ink is not None]
    by_pips = Glyphs(taught)
    glyphs = [(f"{name}-{k}", glyph) for name, ink in numbers.items()
              for k, glyph in enumerate(blobs(ink), 1)]
    matches = [by_pips.nearest(glyph) for _, glyph in glyphs]
    clear = [label is not None and score >= PIP_ACCEPT and margin >= PIP_MARGIN
             for label, score, margin in matches]
    asked = [k for k, (label, _, _) in enumerate(matches)
             if not clear[k] or label in ZERO_LOOKALIKES]
    voted = dict(zip(asked, tesseract_labels(reader or DigitReader(learn=False),
                                             [glyphs[k][1] for k in asked]), strict=True))
    pending = []
    for k, (source, glyph) in enumerate(glyphs):
        label = matches[k][0]
        if voted.get(k) in NOT_ON_PIPS:
            label = voted[k]
        elif k in voted and not clear[k]:
            label = None
        if label is None:
            pending.append((source, glyph))
        else:
            taught.append(Glyph(label, glyph, source))
    unlabelled = []
    for source, glyph in pending:
        label, score, margin = Glyphs(taught).nearest(glyph)
        if label is not None and score >= ACCEPT and margin >= MARGIN:
            taught.append(Glyph(label, glyph, source))
        else:
            unlabelled.append(source)
    return taught, unlabelled


def tesseract_labels(reader: DigitReader, glyphs: list[np.ndarray]) -> list[str | None]:
    """Tesseract's firm vote on each glyph (a digit or the M of a distance), or None."""
    return [text if text is not None and text in LABELS else None
            for text in reader.votes(glyphs, TESSERACT_LABELS)]


def save(glyphs: list[Glyph], pack: Path) -> list[Path]:
    """Write the glyphs under `pack/digits/`, a folder of webbot's (webbot.folders); the glyphs
    an earlier cut wrote there are removed by the cut (webbot.burrito_bison.pack), not here."""
    folder = folders.private_folder(pack / FOLDER)
    written = []
    for glyph in glyphs:
        path = folder / f"{glyph.label}-{glyph.source}.png"
        image = np.where(glyph.ink > 0.5, 255, 0).astype(np.uint8)
        folders.write_private(path, cv2.imencode(".png", image)[1].tobytes())
        written.append(path)
    return written
