"""`webbot check`: proves the whole chain works on this machine.

Fixture server, Chromium, an element screenshot, Tesseract reading it: the same path every game
takes, on the bundled index page.
"""

from __future__ import annotations

import time

from webbot.browser import Sandbox, chromium_for, chromium_version
from webbot.consent.engine import find_library
from webbot.errors import WebbotError
from webbot.session import RunOptions, game_session
from webbot.vision.marks import Mark
from webbot.vision.ocr import read_words, tesseract_version

EXPECTED_WORD = "webbot"


def consent_engine() -> str:
    """The consent engine this run uses, or why there is none."""
    library = find_library()
    if library is None:
        return ("autoconsent not installed or turned off (bash scripts/setup.sh installs it); "
                "the bot's own vendors and words only")
    return f"{library.name} ({library.root})"


def sandbox_row(sandbox: Sandbox | None) -> str:
    """Whether the browser runs in its sandbox, and why not."""
    return str(sandbox) if sandbox else "as the remote browser was started (--connect)"


def browser_row(options: RunOptions) -> str:
    """Which browser was started: the executable, or none of ours (--connect)."""
    if options.browser.connect:
        return ", the remote browser (--connect)"
    return f", {chromium_for(options.browser)}"


def run_check(options: RunOptions) -> list[tuple[str, str]]:
    """Rows of (what, result); raises WebbotError when a link of the chain is broken."""
    started = time.monotonic()
    tesseract = tesseract_version()
    with game_session(options, "index.html") as session:
        grab = session.screen("body").wait_until_still(label="page")
        words = read_words(grab.image)
        session.recorder.annotated(
            grab, "words", [Mark(w.x, w.y, w.width, w.height, w.text) for w in words]
        )
        seen = " ".join(w.text for w in words)
        if EXPECTED_WORD not in seen.lower().split():
            raise WebbotError(
                f"the page at {session.url} does not show the '{EXPECTED_WORD}' heading "
                f"(Tesseract read: {seen[:60]!r})"
            )
        height, width = grab.image.shape[:2]
        return [
            ("page", session.url),
            ("chromium", f"{chromium_version(session.page)}{browser_row(options)}"),
            ("sandbox", sandbox_row(session.tab.sandbox if session.tab else None)),
            ("frame", f"{width}x{height} px at scale {grab.scale:g}"),
            ("tesseract", tesseract),
            ("consent", consent_engine()),
            ("read", seen[:60]),
            ("seconds", f"{time.monotonic() - started:.2f}"),
        ]
