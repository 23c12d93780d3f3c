"""Shared Burrito Bison test set-up: the real reference screens and pack, when present, and
the replica's screens at any size."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import cv2
import numpy as np
import pytest
from playwright.sync_api import Page

from tests.conftest import REFERENCE
from webbot.burrito_bison.layout import SHOTS
from webbot.burrito_bison.matching import FINE_BLUR, ZOOMED, Matcher, TemplatePack, _place
from webbot.screen import Grab, Screen
from webbot.stream import JPEG_QUALITY

REAL = REFERENCE / "burrito-bison"
REAL_TEMPLATES = REAL / "templates"
REAL_SCREENS = {
    "pinata.png": "pinata",
    "round-finished-missions.png": "missions",
    "round-finished-results.png": "results",
    "round-start-beaster-bunny.png": "ring",
}
needs_reference = pytest.mark.skipif(not REAL_TEMPLATES.is_dir(),
                                     reason="../shared/reference/burrito-bison is absent")

GAME = "burrito-bison/index.html"
# What the bot reads is checked through JPEG at this quality: the screencast's, or harsher.
JPEG = min(70, JPEG_QUALITY)
# Where JPEG's blocks fall on a picture moves what it smears (tests.real_world.through_jpeg).
JPEG_SHIFTS = (0, 5, 11)


def shot_query(shot: str) -> str:
    """The replica's query that opens the screen of a pack's screenshot, settled."""
    if shot.startswith("ring"):
        return f"scene=ring&player={'pineapple' if shot == 'ring-pineapple' else 'bison'}"
    return f"scene={shot}"


def sized_frames(browser, fixtures_url: str, size: tuple[int, int], dpr: float,
                 shots: Iterable[str] = SHOTS) -> Iterator[tuple[str, Page, Grab]]:
    """(shot name, page, canvas frame) for every screen a pack is cut from, the game drawn at
    `size`, frozen; the page stays open until the next one is taken."""
    context = browser.new_context(device_scale_factor=dpr, viewport={"width": 1400,
                                                                      "height": 900})
    try:
        page = context.new_page()
        for shot in shots:
            page.goto(f"{fixtures_url}{GAME}?seed=5&{shot_query(shot)}&freeze=1"
                      f"&opponent=gummy-bear&size={size[0]}x{size[1]}")
            page.wait_for_function("window.__burritoTest && window.__burritoTest.ready")
            page.wait_for_function("!__burritoTest.state().transitioning")
            yield shot, page, Screen(page, "canvas").wait_until_still(max_changed=0.05)
    finally:
        context.close()


def hidden_at_places(pack: TemplatePack, image: np.ndarray) -> list[str]:
    """The crops a framed matcher does not find at their places (Matcher.find) though the
    full-size match there scores 0.5 or more (places ask 0.6 at the least): its half-size
    look first must hide none. Each with its scores, for a failure's message."""
    matcher, hidden = Matcher(pack, image, framed=True), []
    soft = cv2.GaussianBlur(matcher.gray, (0, 0), FINE_BLUR)
    for name, template in pack.templates.items():
        region = _place(name, matcher.offset, matcher.gray.shape)
        if name in ZOOMED or region is None:
            continue
        left, top, right, bottom = region
        full = cv2.matchTemplate(soft[top:bottom, left:right], template.fine[1.0],
                                 cv2.TM_CCOEFF_NORMED).max()
        found = matcher.find(name)
        if full >= 0.5 and found.score != pytest.approx(full, abs=1e-4):
            hidden.append(f"{name}: {found.score:.3f} against {full:.3f} at full size")
    return hidden

