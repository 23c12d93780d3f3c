"""Tesseract asked about many pictures at once reads each as it would alone."""

from __future__ import annotations

import cv2
import numpy as np

from webbot.vision.digits import WHITELIST, DigitReader
from webbot.vision.ocr import read_text, read_texts

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX)


def lettering(text: str, font: int = FONTS[0], scale: float = 1.2,
              thickness: int = 3) -> np.ndarray:
    """Black text on white."""
    picture = np.full((70, 40 + 30 * len(text)), 255, np.uint8)
    cv2.putText(picture, text, (12, 50), font, scale, 0, thickness, cv2.LINE_AA)
    return picture


def test_many_pictures_read_as_each_alone():
    pages = [lettering("489"), lettering(""), lettering("7", FONTS[1]), lettering("12,345"),
             cv2.cvtColor(lettering("60", FONTS[2]), cv2.COLOR_GRAY2BGR), lettering("M")]
    alone = [read_text(page, "--psm 7") for page in pages]
    assert read_texts(pages, "--psm 7") == alone
    assert alone[0] == "489" and alone[3] == "12,345"
    assert read_texts([], "--psm 7") == [] and read_texts(pages[:1], "--psm 7") == ["489"]


def test_a_vote_on_many_glyphs_is_each_glyph_s_own_vote(tmp_path):
    """Each try asked of every open glyph in one Tesseract: the same votes as glyph by glyph,
    a glyph too small to show included."""
    digits = (0, 4, 6, 9)
    glyphs = [(255 - lettering(str(digit), FONTS[k % 3], 1.0 + k * 0.3, 1 + k % 3)
               ).astype(np.float32) / 255 for k, digit in enumerate(digits)]
    glyphs.append(np.zeros((20, 12), np.float32))  # no ink
    reader = DigitReader(tmp_path, learn=False)
    together = reader.votes(glyphs, WHITELIST)
    assert together == [reader.votes([glyph], WHITELIST)[0] for glyph in glyphs]
    assert together[-1] is None
    right = [vote == str(digit) for digit, vote in zip(digits, together[:-1], strict=True)]
    assert sum(right) >= 3, together


def test_a_digit_one_reader_learned_is_read_by_another_sharing_its_cache(tmp_path):
    """Two bot processes on one machine (a soak's workers) share the cache: what one learned
    from Tesseract the other reads from the template, without asking Tesseract again."""
    glyph = (255 - lettering("7", FONTS[1])).astype(np.float32) / 255
    first, second = DigitReader(tmp_path), DigitReader(tmp_path)
    assert second.nearest(glyph, "regular") == (None, 0.0)  # its templates read: none yet
    assert first.read(glyph, "regular").source == "tesseract" and first.tesseract_calls > 0
    read = second.read(glyph, "regular")
    assert (read.digit, read.source, second.tesseract_calls) == (7, "template", 0)
