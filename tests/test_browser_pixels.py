"""Chromium's headless shell, which headless runs start, draws every replica's pixels as
Chromium draws them (for --headed): the bundled templates and colour limits hold for both."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from webbot import browser
from webbot.browser import CHROMIUM, CHROMIUM_ARGS, HEADLESS_SHELL, find_chromium

pytestmark = pytest.mark.skipif(not (Path(CHROMIUM).exists() and Path(HEADLESS_SHELL).exists()),
                                reason="Debian's chromium and chromium-headless-shell")

# (page, what shows the game drawn and holding still, element)
SCREENS = [
    ("puzlogic/index.html?level=3&leaves=0", "__puzlogicTest.state().screen === 'level' && "
     "!__puzlogicTest.state().moving", "canvas"),
    ("puzlogic/index.html?level=12&leaves=0", "__puzlogicTest.state().screen === 'level' && "
     "!__puzlogicTest.state().moving", "canvas"),
    ("burrito-bison/index.html?scene=shop&freeze=1&seed=1",
     "__burritoTest.ready && !__burritoTest.state().transitioning", "canvas"),
    ("daily-set/puzzle/set.htm", "document.images.length > 0 && "
     "[...document.images].every(image => image.complete)", "body"),
    ("index.html", "document.fonts.status === 'loaded'", "body"),
]


def still_picture(page, selector: str) -> np.ndarray:
    """The element's picture once two in a row are the same."""
    element = page.locator(selector).first
    last = None
    for _ in range(20):
        picture = cv2.imdecode(np.frombuffer(element.screenshot(), np.uint8), cv2.IMREAD_COLOR)
        if last is not None and np.array_equal(picture, last):
            return picture
        last = picture
    raise AssertionError(f"{selector} never held still")


@pytest.mark.parametrize("scale", [1, 2])
def test_the_headless_shell_draws_the_replicas_as_chromium_does(playwright, fixtures_url,
                                                                 scale):
    pictures = {}
    for executable in (CHROMIUM, HEADLESS_SHELL):
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800},
                                    device_scale_factor=scale)
            for url, drawn, selector in SCREENS:
                page.goto(fixtures_url + url)
                page.wait_for_function(drawn)
                pictures[executable, url] = still_picture(page, selector)
        finally:
            browser.close()
    for url, _, _ in SCREENS:
        chromium, shell = pictures[CHROMIUM, url], pictures[HEADLESS_SHELL, url]
        assert chromium.shape == shell.shape, url
        differing = int(np.count_nonzero(np.any(chromium != shell, axis=2)))
        assert differing == 0, f"{url}: {differing} pixels differ"


def test_headless_runs_start_the_shell_and_headed_ones_chromium(monkeypatch, tmp_path):
    monkeypatch.delenv("WEBBOT_CHROMIUM", raising=False)
    assert find_chromium(headless=True) == HEADLESS_SHELL
    assert find_chromium(headless=False) == CHROMIUM
    monkeypatch.setenv("WEBBOT_CHROMIUM", CHROMIUM)
    assert find_chromium(headless=True) == CHROMIUM
    # Without the shell installed, Chromium runs headless too.
    monkeypatch.delenv("WEBBOT_CHROMIUM")
    monkeypatch.setattr(browser, "HEADLESS_SHELL", str(tmp_path / "not-installed"))
    assert find_chromium(headless=True) == CHROMIUM


def test_a_profile_kept_by_one_browser_is_read_by_the_other(playwright, fixtures_url, tmp_path):
    """`webbot profile open` (a window: Chromium) and the headless runs after it (the shell)
    share the profile: what one keeps, the other reads."""
    said = []
    turns = ((CHROMIUM, "window", None), (HEADLESS_SHELL, "headless", "window"),
             (CHROMIUM, None, "headless"))
    for executable, key, seen in turns:
        context = playwright.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(f"{fixtures_url}index.html")
            if seen:
                said.append(page.evaluate("key => localStorage.getItem(key)", seen))
            if key:
                page.evaluate("key => localStorage.setItem(key, 'kept')", key)
        finally:
            context.close()
    assert said == ["kept", "kept"]
