"""Reading single digits: a glyph matcher that learns from the game's own digits, taught by
Tesseract.

A glyph is an ink picture of one digit (floats, 1 = full ink). It is cut to its ink, scaled to a
fixed height and compared by correlation with the templates of its style (a game may draw
regular and bold digits). A glyph that no template matches well enough goes to Tesseract, as a
padded black-on-white crop with a digit whitelist, in several modes and sizes that must
agree; what it reads
becomes a new template, kept on disk, so from then on that digit reads in microseconds.

A game may bundle templates of its own (`seeds`): learned from its replica by a committed script,
they spare a first run most of its teaching. They are read beside the learned ones, under the
same rules: a glyph none of them matches well enough still goes to Tesseract.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from webbot import inputs
from webbot.cache import default_cache_dir
from webbot.shown import shown
from webbot.vision.ocr import read_texts

T = TypeVar("T")
GLYPH_HEIGHT, GLYPH_WIDTH = 24, 20
ACCEPT = 0.92  # correlation with the best template needed to take its digit
CONFLICT = 0.88  # a template this close must agree with what Tesseract teaches (other
# digits of the game correlate up to 0.85: 8 and 6 in bold, 8 and 3 in regular)
CONFIRM = 0.7  # with `agree`: how close the nearest template must be for Tesseract to confirm
# it (on the tune part's JPEG-broken blue cores, those both misread lay under 0.66)
MAX_TEMPLATES = 8  # per digit and style; more would only slow matching
MAX_TEMPLATE_BYTES = 64 << 10  # a glyph's file is under 1 kB
# Tesseract modes, glyph heights and soft or sharp (thresholded) edges, asked in turn: at any
# one of them it now and then reads nothing or another digit, so the answer is a vote.
TESSERACT_TRIES = ((6, 28, False), (6, 36, False), (10, 32, False), (6, 28, True),
                   (10, 32, True), (7, 32, True), (7, 28, False))
# A second look when those leave no answer: other modes and sizes, for glyphs the first
# leaves undecided (thin ones at unusual scales).
SECOND_TRIES = ((6, 24, False), (7, 24, False), (10, 24, False), (6, 44, False),
                (8, 44, False), (13, 44, False), (8, 24, True))
WHITELIST = "-c tessedit_char_whitelist=0123456789"


@dataclass(frozen=True)
class DigitRead:
    digit: int | None  # None: unreadable
    score: float  # correlation with the nearest template (0 when there is none yet)
    source: str  # "template", "tesseract" or "none"


def normalise(glyph: np.ndarray) -> np.ndarray | None:
    """The glyph cut to its ink and scaled to GLYPH_HEIGHT, centred in a fixed box (floats)."""
    ys, xs = np.nonzero(glyph > 0.25)
    if len(ys) < 4:
        return None
    ink = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    height, width = ink.shape
    new_width = max(1, min(GLYPH_WIDTH, round(width * GLYPH_HEIGHT / height)))
    scaled = cv2.resize(ink, (new_width, GLYPH_HEIGHT), interpolation=cv2.INTER_AREA)
    box = np.zeros((GLYPH_HEIGHT, GLYPH_WIDTH), np.float32)
    left = (GLYPH_WIDTH - new_width) // 2
    box[:, left:left + new_width] = scaled
    return box


def has_ink(glyph: np.ndarray) -> bool:
    """Enough ink to be shown to Tesseract."""
    return np.count_nonzero(glyph > 0.25) >= 4


def padded_page(glyph: np.ndarray, height: int) -> np.ndarray | None:
    """The glyph as Tesseract likes it: black on white, `height` px tall, a 20 px margin."""
    if not has_ink(glyph):
        return None
    ys, xs = np.nonzero(glyph > 0.25)
    ink = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    width = max(1, round(ink.shape[1] * height / ink.shape[0]))
    big = cv2.resize(ink, (width, height), interpolation=cv2.INTER_CUBIC)
    page = np.full((height + 40, width + 40), 255, np.uint8)
    page[20:20 + height, 20:20 + width] = 255 - np.clip(big * 255, 0, 255)
    return page


def unit_vector(box: np.ndarray) -> np.ndarray:
    """A normalised glyph as a zero-mean unit vector: dot products are correlations."""
    vector = box.ravel() - box.mean()
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


class GlyphTemplates:
    """The one glyph matcher: labelled templates (normalised glyphs) and, for a glyph, the
    nearest one by correlation. The Puzlogic digit reader keeps one per style; a Burrito Bison
    pack one for its digits."""

    def __init__(self) -> None:
        self.labels: list = []
        self._vectors = np.zeros((0, GLYPH_HEIGHT * GLYPH_WIDTH), np.float32)
        self._codes = np.zeros(0, np.int32)  # each template's label as a number, for numpy

    def __len__(self) -> int:
        return len(self.labels)

    def add(self, label, box: np.ndarray) -> None:
        """A template from a normalised glyph (see `normalise`)."""
        code = self.labels.index(label) if label in self.labels else len(self.labels)
        self.labels.append(label)
        self._codes = np.append(self._codes, np.int32(code))
        self._vectors = np.vstack([self._vectors, unit_vector(box)[None, :]])

    def nearest(self, glyph: np.ndarray) -> tuple[object | None, float, float]:
        """The nearest template's label, its correlation, and by how much it beats every
        template of another label ((None, 0, 0) without templates or ink)."""
        box = normalise(glyph)
        if box is None or not self.labels:
            return None, 0.0, 0.0
        scores = self._vectors @ unit_vector(box)
        best = int(np.argmax(scores))
        others = scores[self._codes != self._codes[best]]  # templates of other labels
        rival = float(others.max()) if others.size else 0.0
        return self.labels[best], float(scores[best]), float(scores[best]) - rival

    def scores(self, glyph: np.ndarray) -> dict:
        """Each label's best correlation with the glyph ({} without templates or ink)."""
        box = normalise(glyph)
        if box is None or not self.labels:
            return {}
        best: dict = {}
        for label, score in zip(self.labels, (self._vectors @ unit_vector(box)).tolist(),
                                strict=True):
            best[label] = max(best.get(label, -1.0), score)
        return best


LEARNING_SAID_AFTER_S = 1.0  # teaching this long is said to the user, once


def _on_stderr(line: str) -> None:
    print(f"webbot: {line}", file=sys.stderr)


class DigitReader:
    """Reads digit glyphs of named styles; learns templates under `cache_dir/<style>/`, beside
    the bundled ones under `seeds/<style>/` (when given). `on_learning` hears, once, when
    Tesseract's teaching has taken more than a second: a user should know why a first run is
    slower."""

    def __init__(self, cache_dir: Path | None = None, *, learn: bool = True,
                 seeds: Path | None = None,
                 on_learning: Callable[[Path], None] | None = None,
                 warn: Callable[[str], None] = _on_stderr) -> None:
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir() / "glyphs"
        self.learn = learn
        self.seeds = seeds
        self.on_learning = on_learning
        self._warn = warn  # told once of each template file that is skipped
        self._skipped: set[Path] = set()
        self._styles: dict[str, GlyphTemplates] = {}
        self._loaded: dict[str, int] = {}  # each style's folder's mtime when it was read
        self.tesseract_calls = 0
        self.tesseract_s = 0.0  # time spent in Tesseract (teaching, mostly)
        self._pending: list[np.ndarray] | None = None  # glyphs put off, in `batched`
        self._voted: dict[bytes, int | None] = {}  # Tesseract's answers asked in a batch

    def _templates(self, style: str) -> GlyphTemplates:
        if style not in self._styles:
            self._load(style)
        return self._styles[style]

    def _load(self, style: str) -> None:
        folder = self.cache_dir / style
        self._loaded[style] = _mtime(folder)
        templates = self._styles[style] = GlyphTemplates()
        folders = [folder] if self.seeds is None else [self.seeds / style, folder]
        for path in [path for place in folders for path in sorted(place.glob("[0-9]-*.png"))]:
            image = self._template(path)
            if image is not None:
                templates.add(int(path.name[0]), image.astype(np.float32) / 255)

    def _template(self, path: Path) -> np.ndarray | None:
        """A template file's glyph, through the input gate (a file in the cache is bytes like
        any other: no bigger than a glyph, in pixels and in bytes); None, said once, when it
        is not one."""
        try:
            image = inputs.read_image(path, cv2.IMREAD_GRAYSCALE, limit=MAX_TEMPLATE_BYTES,
                                      max_pixels=GLYPH_HEIGHT * GLYPH_WIDTH)
        except inputs.InputError as exc:
            reason = str(exc)
        else:
            if image.shape == (GLYPH_HEIGHT, GLYPH_WIDTH):
                return image
            reason = f"{path} is {image.shape[1]}x{image.shape[0]}, not a glyph"
        if path not in self._skipped:
            self._skipped.add(path)
            self._warn(f"a learned digit skipped: {shown(reason, limit=None)}")
        return None

    def _learned_elsewhere(self, style: str) -> bool:
        """Whether another reader sharing the cache (another bot process) has learned a
        template of `style` since it was read here; if so it is read again."""
        if _mtime(self.cache_dir / style) == self._loaded.get(style):
            return False
        self._load(style)
        return True

    def nearest(self, glyph: np.ndarray, style: str) -> tuple[int | None, float]:
        """The nearest template's digit and its correlation ((None, 0) without templates)."""
        digit, score, _ = self._templates(style).nearest(glyph)
        return digit, score

    def read(self, glyph: np.ndarray, style: str, agree: bool = False) -> DigitRead:
        """Template first; Tesseract (and learning) when no template matches well enough. With
        `agree` and bundled templates (`seeds`), Tesseract's answer is taken only when it is the
        digit of the nearest template, itself at least CONFIRM close, and is not learned: for
        ink Tesseract does not see as drawn (a derived core), where a template learned from a
        degraded glyph would later read other degraded glyphs alone. (A reader without seeds
        learns such a style as any other: so the bundle is learned.)"""
        closest, score = self.nearest(glyph, style)
        if score < ACCEPT and self._learned_elsewhere(style):
            closest, score = self.nearest(glyph, style)
        if score >= ACCEPT:
            return DigitRead(closest, score, "template")
        key = _key(glyph)
        if key in self._voted:
            digit = self._voted[key]
        elif self._pending is not None:  # asked later, with the others of its picture
            self._pending.append(glyph)
            return DigitRead(None, score, "none")
        else:
            digit = self.tesseract(glyph)
        confirm = agree and self.seeds is not None
        if digit is None or ((score >= CONFLICT or confirm) and closest != digit) \
                or (confirm and score < CONFIRM):
            # Tesseract unsure, or a close (or, with `agree`, the nearest) template of another
            # digit: better no answer than a wrong one, or a wrong template that would misread
            # this glyph on every later run.
            return DigitRead(None, score, "none")
        if self.learn and not confirm:
            self._add(style, digit, glyph)
        return DigitRead(digit, score, "tesseract")

    def batched(self, read: Callable[[], T]) -> T:
        """`read()`, with the glyphs it would show Tesseract one by one shown together: a first
        reading puts them off, one vote asks them all (a Tesseract process per try for the
        lot, not per glyph), and a second reading takes the answers as `read` would have
        taken them. For a reading that is the same each time it is made (one picture's)."""
        self._pending = []
        try:
            first = read()
            pending = self._pending
        finally:
            self._pending = None
        if not pending:
            return first
        answers = self.votes(pending, WHITELIST)
        self._voted = {_key(glyph): int(text) if text and text.isdigit() else None
                       for glyph, text in zip(pending, answers, strict=True)}
        try:
            return read()
        finally:
            self._voted = {}

    def tesseract(self, glyph: np.ndarray) -> int | None:
        """Tesseract's reading of one glyph, a padded black-on-white crop with a digit whitelist:
        the digit at least three of seven tries (modes and sizes) give, unless another digit
        comes up twice; else None."""
        text = self.vote(glyph, WHITELIST)
        return int(text) if text is not None and text.isdigit() else None

    def vote(self, glyph: np.ndarray, whitelist: str) -> str | None:
        """The one character at least three of seven Tesseract tries read in a glyph (modes,
        sizes, soft or sharp edges), with characters limited by `whitelist`, unless another
        comes up twice; when one came up twice only, the same asked of those and seven more
        tries; else None (and for a glyph too small)."""
        return self.votes([glyph], whitelist)[0]

    def votes(self, glyphs: list[np.ndarray], whitelist: str) -> list[str | None]:
        """`vote` on each glyph; each try is asked of all the glyphs still open at once."""
        tallies: list[Counter[str]] = [Counter() for _ in glyphs]
        inked = asking = [k for k, glyph in enumerate(glyphs) if has_ink(glyph)]
        for tried, (psm, height, sharp) in enumerate(TESSERACT_TRIES, 1):
            self._ask(glyphs, asking, psm, height, sharp, whitelist, tallies)
            if tried == 3:  # three out of three: no need to ask more
                asking = [k for k in asking
                          if not (len(tallies[k]) == 1 and max(tallies[k].values()) == 3)]
        near = [k for k in inked if _winner(tallies[k]) is None
                and max(tallies[k].values(), default=0) == 2]  # a near miss
        for psm, height, sharp in SECOND_TRIES:
            self._ask(glyphs, near, psm, height, sharp, whitelist, tallies)
        return [_winner(tallies[k]) if k in inked else None for k in range(len(glyphs))]

    def _ask(self, glyphs: list[np.ndarray], which: list[int], psm: int, height: int,
             sharp: bool, whitelist: str, tallies: list[Counter[str]]) -> None:
        """One Tesseract try at the glyphs numbered `which` (each with ink), each answer
        counted in its glyph's tally."""
        pages = []
        for k in which:
            page = padded_page(glyphs[k], height)
            pages.append(np.where(page < 128, 0, 255).astype(np.uint8) if sharp else page)
        self.tesseract_calls += len(pages)
        started = time.perf_counter()
        texts = read_texts(pages, f"--psm {psm} {whitelist}")
        said_before = self.tesseract_s > LEARNING_SAID_AFTER_S
        self.tesseract_s += time.perf_counter() - started
        if self.learn and self.on_learning and not said_before \
                and self.tesseract_s > LEARNING_SAID_AFTER_S:
            self.on_learning(self.cache_dir)
        for k, text in zip(which, texts, strict=True):
            if text:
                tallies[k][text] += 1

    def _add(self, style: str, digit: int, glyph: np.ndarray) -> None:
        box = normalise(glyph)
        templates = self._templates(style)
        if box is None or templates.labels.count(digit) >= MAX_TEMPLATES:
            return
        templates.add(digit, box)
        image = np.clip(box * 255, 0, 255).astype(np.uint8)
        folder = self.cache_dir / style
        name = f"{digit}-{hashlib.sha1(image.tobytes()).hexdigest()[:12]}.png"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(suffix=".png", dir=folder)
            os.close(handle)
            cv2.imwrite(temporary, image)
            os.replace(temporary, folder / name)
            self._loaded[style] = _mtime(folder)  # its own write is nothing new to read
        except OSError:
            pass  # a read-only cache still reads; it only forgets what it learned


def _key(glyph: np.ndarray) -> bytes:
    """A glyph's identity: its pixels and shape."""
    return hashlib.sha1(glyph.tobytes() + str(glyph.shape).encode()).digest()


def _mtime(folder: Path) -> int:
    """A folder's modification time (a template added changes it); 0 when there is none."""
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return 0


def _winner(votes: Counter[str]) -> str | None:
    """The one character read at least three times with no other read twice, else None."""
    ranked = votes.most_common(2)
    if not ranked or ranked[0][1] < 3 or (len(ranked) > 1 and ranked[1][1] > 1):
        return None
    return ranked[0][0] if len(ranked[0][0]) == 1 else None
