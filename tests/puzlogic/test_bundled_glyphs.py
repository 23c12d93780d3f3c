"""The bundled digit templates (webbot/puzlogic/glyphs, scripts/learn_puzlogic_glyphs.py): a
first run reads the replica from them without teaching itself, and reads the real game as it
did (right, never wrong); a reader that does have to learn says so once."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scripts.parts import PUZLOGIC_PAGES
from tests.conftest import REFERENCE
from tests.puzlogic.conftest import bundled_levels, comparable, needs_reference, reference_levels
from tests.puzlogic.replica import open_game
from tests.puzlogic.test_perceive import REAL_LEVELS, grab_page
from webbot.puzlogic.perceive import GLYPHS, Reader, normalise
from webbot.vision import digits as digits_module
from webbot.vision.digits import DigitReader

REAL = REFERENCE / "puzlogic"
TEST_PAGE = PUZLOGIC_PAGES["test"][0]


def first_run_reader(cache) -> Reader:
    """A first run's reader: the bundled templates, nothing learned, nothing to be learned."""
    return Reader(DigitReader(cache, learn=False, seeds=GLYPHS))


@pytest.mark.parametrize("dpr", [1, 2])
def test_a_first_run_reads_the_replica_from_the_bundled_templates(browser, fixtures_url,
                                                                  tmp_path, dpr):
    reader = first_run_reader(tmp_path)
    context = browser.new_context(device_scale_factor=dpr,
                                  viewport={"width": 1100, "height": 760})
    page = context.new_page()
    try:
        for number in (1, 6, 10, 15):  # dark, white and blue sums; the most digits
            open_game(page, fixtures_url, f"level={number}", leaves=0)
            view = reader.read_level(normalise(grab_page(page)))
            assert view.level == number
            assert comparable(view.puzzle().to_json()) == comparable(
                bundled_levels()[number - 1])
    finally:
        context.close()
    assert reader.digits.tesseract_calls == 0  # every digit from a bundled template


def test_a_first_run_reads_levels_of_the_test_part_exactly(browser, fixtures_url, tmp_path):
    """Generated levels that nothing was learned or tuned on (Puzlogic's test part,
    scripts/parts.py), blue sums among them, as a clean capture shows them."""
    reader = first_run_reader(tmp_path)
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    try:
        for number in (1, 5, 6):
            open_game(page, fixtures_url, f"generate={TEST_PAGE}&level={number}", leaves=0)
            page.wait_for_function("window.__puzlogicTest.state().screen === 'level'")
            view = reader.read_level(normalise(grab_page(page)))
            shown = page.evaluate(f"window.__puzlogicTest.level({number})")
            assert view.doubts == []
            assert comparable(view.puzzle().to_json()) == comparable(shown)
    finally:
        page.close()


@needs_reference
@pytest.mark.parametrize("name", sorted(REAL_LEVELS))
def test_the_real_game_reads_exactly_from_the_bundled_templates(tmp_path, name):
    number = REAL_LEVELS[name]
    view = first_run_reader(tmp_path).read_level(normalise(cv2.imread(str(REAL / name))))
    assert view.doubts == []
    assert comparable(view.puzzle().to_json()) == comparable(reference_levels()[number - 1])


def test_learning_is_said_once_when_it_takes_time(tmp_path, monkeypatch):
    monkeypatch.setattr(digits_module, "LEARNING_SAID_AFTER_S", 0.0)
    heard = []
    reader = DigitReader(tmp_path, on_learning=heard.append)
    glyphs = [np.pad(np.eye(16, dtype=np.float32)[:, ::-1], 4), np.ones((20, 4), np.float32)]
    for glyph in glyphs * 2:
        reader.read(glyph, "regular")
    assert reader.tesseract_calls > 1
    assert heard == [tmp_path]  # once, with where it is kept


def test_a_reader_that_may_not_learn_says_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(digits_module, "LEARNING_SAID_AFTER_S", 0.0)
    heard = []
    reader = DigitReader(tmp_path, learn=False, on_learning=heard.append)
    reader.read(np.ones((20, 4), np.float32), "regular")
    assert reader.tesseract_calls and heard == []


def test_a_picture_s_new_digits_are_taught_together(browser, fixtures_url, tmp_path,
                                                     monkeypatch):
    """One Tesseract process per try for all the digits of a picture a reader has not seen,
    not one per digit; and they read as they would one by one."""
    page = browser.new_page()
    try:
        open_game(page, fixtures_url, "level=6", leaves=0)
        picture = normalise(grab_page(page))
    finally:
        page.close()
    processes = []
    asked = digits_module.read_texts
    monkeypatch.setattr(digits_module, "read_texts",
                        lambda pages, config: processes.append(len(pages)) or asked(pages,
                                                                                      config))
    reader = Reader(DigitReader(tmp_path))  # nothing bundled, nothing learned
    view = reader.read_level(picture)
    assert comparable(view.puzzle().to_json()) == comparable(bundled_levels()[5])
    tries = len(digits_module.TESSERACT_TRIES) + len(digits_module.SECOND_TRIES)
    assert len(processes) <= tries < reader.digits.tesseract_calls
