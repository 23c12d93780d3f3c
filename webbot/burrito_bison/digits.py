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
lower than the digits) and judges each against the taught glyphs (`judge`): a glyph is read as
its nearest taught glyph's label when that scores ACCEPT and is MARGIN ahead of every other
label; among labels closer than that, Tesseract's firm vote on the glyph picks one. A glyph
like none of the taught ones, and one that may be a digit the pack has no glyph for, is not
read: its number is unreadable, with the reason, rather than a guess.
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
# A glyph is read as the label of its nearest taught glyph when that scores ACCEPT and is
# MARGIN ahead of every glyph of another label; one nearer than that to more labels, or scoring
# between FLOOR and ACCEPT, when Tesseract's vote is one of them. When the pack lacks a digit,
# that digit may be what the glyph shows, however clearly it is nearer one label the pack has
# than another (a 6 can be nearer a 0 than any glyph it has), so the glyph must then score
# ALONE. MARGIN, ALONE and FLOOR are chosen by scripts/thin_packs.py on its tune part and
# measured on its test part.
ACCEPT = 0.75
MARGIN = 0.12
ALONE = 0.84
FLOOR = 0.65
# Teaching from the pips: the real game's pips correlate with its numbers' glyphs at
# 0.82-0.96 for the right digit, at most 0.77 for another (a small 5 and any 0 excepted).
PIP_ACCEPT, PIP_MARGIN = 0.78, 0.05
TALL = 0.6      # a glyph is at least this share of the tallest blob's height (a comma is less)
WIDEST = 0.95   # width / height of the widest glyph (the M of a distance is 0.7)
ZERO_LOOKALIKES = {"6", "8", "9"}
NOT_ON_PIPS = {"0", "M"}
# The M after a distance is the glyph whose thin slanted strokes a change of scale moves from
# pixel to pixel: drawn smaller than the pack's scale (a real size of 1120x540 draws at 0.82 of
# it) and brought up to it, it scored 0.61-1.0 against the M taught, under FLOOR at times (a
# 4-digit distance at 1120x540, 12345M at 1146x644). Each taught M is also kept as it is drawn
# at UNIT_SCALES and brought up, on the pixels and half a pixel over (scripts/thin_packs.py:
# the same limits chosen, no number read wrong). Digits, as taught, read at every real size.
UNIT_SCALES = (0.818, 0.9, 0.976)
DIGITS = "0123456789"
LABELS = DIGITS + "M"
TESSERACT_LABELS = "-c tessedit_char_whitelist=" + LABELS
# Labels for the glyphs a pack does not know clearly, all asked at once (None: unknown).
Fallback = Callable[[list[np.ndarray]], list[str | None]]


@dataclass(frozen=True)
class Limits:
    """How clearly a glyph must be like a taught one to be read (`judge`)."""

    margin: float = MARGIN
    alone: float = ALONE
    floor: float = FLOOR


@dataclass(frozen=True)
class Judged:
    """What a glyph reads as: its label, or None and why not (`judge`)."""

    label: str | None
    why: str = ""


def _either(labels: list[str]) -> str:
    """"a 3", "an 8 or a 6", "a 2, a 6 or a 9"."""
    named = [f"{'an' if label in '8M' else 'a'} {label}" for label in labels]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"


def judge(scores: dict[str, float], vote: str | None = None, place: int = 1,
          limits: Limits = Limits()) -> Judged:
    """A glyph's label from its scores against the pack's labels (`Glyphs.scores`) and
    Tesseract's vote on it (None: not asked or not firm); `place` numbers it in its number.

    Read: the nearest label when it scores ACCEPT and is `limits.margin` ahead of every other;
    else, when it scores `limits.floor`, Tesseract's vote if that is one of the labels within
    the margin of it. A pack that lacks a digit reads a glyph only when its nearest label
    scores `limits.alone`.
    Not read: a glyph like none of the pack's; one near more than one label, or too faintly
    like one, that the vote does not settle; one that may be a digit without a glyph."""
    glyph = f"glyph {place}"
    if not scores:
        return Judged(None, f"{glyph} has no ink to compare")
    nearest = max(scores, key=scores.__getitem__)
    score = scores[nearest]
    lacking = [digit for digit in DIGITS if digit not in scores]
    if vote is not None and vote not in scores and (vote in lacking or score < limits.floor):
        return Judged(None, f"no glyph for {vote}")
    if score < limits.floor:
        return Judged(None, f"{glyph} is like none of its glyphs")
    if lacking and score < limits.alone:
        return Judged(None, f"{glyph} may be {_either(lacking)}, which it has no glyph for")
    close = sorted(label for label, value in scores.items() if value >= score - limits.margin)
    if close == [nearest] and score >= ACCEPT:
        return Judged(nearest)
    if vote in close:
        return Judged(vote)
    if len(close) > 1:
        return Judged(None, f"{glyph} could be {_either(close)}")
    return Judged(None, f"{glyph} is too faintly like {_either(close)}")


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


def _drawn_at(ink: np.ndarray, scale: float) -> list[np.ndarray]:
    """A glyph's ink as a game drawn at `scale` of the pack's shows it once a frame is brought
    up to the pack's scale: on the pixels, and half a pixel over."""
    drawn = []
    for phase in (0.0, 0.5):
        small = cv2.resize(ink, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        shift = np.float32([[1, 0, phase], [0, 1, phase]])
        small = cv2.warpAffine(small, shift, (small.shape[1] + 1, small.shape[0] + 1))
        back = cv2.resize(small, None, fx=1 / scale, fy=1 / scale,
                          interpolation=cv2.INTER_LINEAR) > 0.5
        if back.any():
            drawn.append(_to_ink(back.astype(np.float32)))
    return drawn


class Glyphs:
    """A pack's taught glyphs, matched by correlation of their normalised pictures."""

    def __init__(self, glyphs: list[Glyph] | tuple[Glyph, ...] = ()) -> None:
        drawn_smaller = [Glyph("M", ink, f"{glyph.source} at {scale}") for glyph in glyphs
                         if glyph.label == "M" for scale in UNIT_SCALES
                         for ink in _drawn_at(glyph.ink, scale)]
        self.glyphs = tuple(glyph for glyph in (*glyphs, *drawn_smaller)
                            if normalise(glyph.ink) is not None)
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

    def scores(self, ink: np.ndarray) -> dict[str, float]:
        """Each label's best score with a glyph ({} for no ink)."""
        return self._templates.scores(ink)

    def read(self, ink: np.ndarray, fallback: Fallback | None = None) -> str | None:
        """The labels of a number's glyphs ("774M"), or None when a glyph is not read
        (`judge`)."""
        judged = self.judged(ink, fallback)
        return "".join(one.label for one in judged) \
            if judged and all(one.label is not None for one in judged) else None

    def judged(self, ink: np.ndarray, fallback: Fallback | None = None) -> list[Judged]:
        """Each glyph of a number judged, left to right, `fallback` voting on those the
        taught glyphs leave unread."""
        glyphs = blobs(ink)
        return judge_all([self.scores(glyph) for glyph in glyphs],
                         (lambda unread: fallback([glyphs[k] for k in unread]))
                         if fallback else None)


def judge_all(scores: list[dict[str, float]],
              votes: Callable[[list[int]], list[str | None]] | None = None,
              whole: Callable[[], str] | None = None, limits: Limits = Limits()
              ) -> list[Judged]:
    """Each glyph of a number judged from its scores; those left unread judged again with the
    vote `votes` gives on each (by their places, from 0), and those Tesseract did not vote on
    with the character another reader gives them in its reading of the whole number (`whole`),
    when that has one for every glyph and agrees with every glyph read."""
    found = [judge(one, None, k, limits) for k, one in enumerate(scores, 1)]
    unread = [k for k, one in enumerate(found) if one.label is None]
    if votes is None or not unread:
        return found
    voted = dict(zip(unread, votes(unread), strict=True))
    for k, vote in voted.items():
        found[k] = judge(scores[k], vote, k + 1, limits)
    unvoted = [k for k in unread if found[k].label is None and voted[k] is None]
    if whole is not None and unvoted:
        text = whole()
        if len(text) == len(found) and all(
                one.label in (None, char) for one, char in zip(found, text, strict=True)):
            for k in unvoted:
                found[k] = judge(scores[k], text[k], k + 1, limits)
    return found


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
          reader: DigitReader | None = None, limits: Limits = Limits()
          ) -> tuple[list[Glyph], list[str]]:
    """Glyphs labelled from the pips (pip k shows k + 1) and from the numbers' inks (name ->
    mask), and the names of the glyphs left unlabelled.

    A number's glyph takes the label of the pip it matches clearly. The pips show no 0 and no
    M: a glyph no pip matches clearly is shown to Tesseract, and taken when its firm vote is one
    of those two (its other votes are not trusted: on the real font it reads a 9 as a 4). A 0
    can pass for the pips' 6, 8 or 9 (it does in the replica's font), so those are shown to
    Tesseract too and a firm 0 wins; without those pips a 0 is not told from them (Tesseract
    votes a 9 of the replica a 0), and no glyph is taken for a 0. Then what is still unlabelled
    is judged against every glyph labelled so far (`judge`: the second 0 of "6,100" is the
    first one's twin)."""
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
    if not by_pips.labels >= ZERO_LOOKALIKES:  # no pips to tell a 0 from them
        voted = {k: None if vote == "0" else vote for k, vote in voted.items()}
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
        label = judge(Glyphs(taught).scores(glyph), limits=limits).label
        if label is not None:
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
