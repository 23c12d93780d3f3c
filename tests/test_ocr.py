"""Tesseract asked about many pictures at once reads each as it would alone."""

from __future__ import annotations

import cv2
import numpy as np

from webbot.vision import ocr
from webbot.vision.digits import WHITELIST, DigitReader
from webbot.vision.ocr import forget_readings, read_text, read_texts

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
    forget_readings()
    assert read_texts(pages, "--psm 7") == alone
    assert alone[0] == "489" and alone[3] == "12,345"
    assert read_texts([], "--psm 7") == [] and read_texts(pages[:1], "--psm 7") == ["489"]


def test_a_picture_read_before_is_not_shown_to_tesseract_again(monkeypatch):
    asked = []
    real = ocr.pytesseract.image_to_string
    monkeypatch.setattr(ocr.pytesseract, "image_to_string",
                        lambda *args, **options: asked.append(1) or real(*args, **options))
    forget_readings()
    picture, other = lettering("489"), lettering("489")
    other[35, 5] = 0  # one pixel apart: another picture
    assert read_text(picture, "--psm 7") == "489" and len(asked) == 1
    assert read_text(picture.copy(), "--psm 7") == "489" and len(asked) == 1
    assert read_text(picture, "--psm 8") == "489" and len(asked) == 2  # another config
    assert read_texts([picture, other, lettering("72")], "--psm 7") == ["489", "489", "72"]
    assert len(asked) == 3  # the two unread ones, in one Tesseract
    assert read_texts([other, picture], "--psm 7") == ["489", "489"] and len(asked) == 3


def test_a_vote_on_many_glyphs_is_each_glyph_s_own_vote(tmp_path):
    """Each try asked of every open glyph in one Tesseract: the same votes as glyph by glyph,
    a glyph too small to show included."""
    digits = (0, 4, 6, 9)
    glyphs = [(255 - lettering(str(digit), FONTS[k % 3], 1.0 + k * 0.3, 1 + k % 3)
               ).astype(np.float32) / 255 for k, digit in enumerate(digits)]
    glyphs.append(np.zeros((20, 12), np.float32))  # no ink
    reader = DigitReader(tmp_path, learn=False)
    together = reader.votes(glyphs, WHITELIST)
    alone = []
    for glyph in glyphs:
        forget_readings()
        alone.append(reader.votes([glyph], WHITELIST)[0])
    assert together == alone
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


def test_a_template_file_that_is_no_glyph_is_skipped_and_said_once(tmp_path):
    """The learned templates are files like any other: one that is another kind of picture
    (an HDR, which OpenCV would decode at any size), that declares a huge size, or that is not
    a glyph's size is skipped, said once, and the others are read."""
    from tests.test_bad_input import png_header, radiance

    glyph = (255 - lettering("7", FONTS[1])).astype(np.float32) / 255
    DigitReader(tmp_path).read(glyph, "regular")  # learned from Tesseract: a template file
    folder = tmp_path / "regular"
    assert [path.name[0] for path in folder.glob("*.png")] == ["7"]
    (folder / "3-hdr.png").write_bytes(radiance(200, 200))
    (folder / "4-huge.png").write_bytes(png_header(100_000, 100_000))
    cv2.imwrite(str(folder / "5-small.png"), np.zeros((22, 20), np.uint8))
    said: list[str] = []
    reader = DigitReader(tmp_path, learn=False, warn=said.append)
    read = reader.read(glyph, "regular")
    assert (read.digit, read.source) == (7, "template")
    assert sorted(said) == [
        f"a learned digit skipped: {folder}/3-hdr.png is not an image that can be decoded "
        "(PNG, JPEG, GIF, BMP, WebP)",
        f"a learned digit skipped: {folder}/4-huge.png is too large a picture "
        "(100000x100000); the most read is 480 pixels",
        f"a learned digit skipped: {folder}/5-small.png is 20x22, not a glyph"]
    reader._load("regular")  # read again (another process learned something): not said again
    assert len(said) == 3
