"""What the hostile-page tests share: their pages' server, and what a terminal would obey."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from webbot.server import FixtureServer

PAGES = Path(__file__).parent / "pages"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# What a terminal would obey: ESC, BEL, CR, backspace, C1's CSI, a bidirectional override.
OBEYED = re.compile("[\x1b\x07\r\x08\x9b\u202e]")


@pytest.fixture(scope="module")
def hostile_url():
    """The hostile pages, served from another site than the bundled games (localhost, where
    they are on 127.0.0.1)."""
    with FixtureServer(PAGES) as server:
        yield server.url.replace("127.0.0.1", "localhost")


@pytest.fixture
def daily_set_copy(tmp_path):
    """A copy of the bundled Daily SET (and the portal's consent script it loads) to change."""
    for name in ("daily-set", "portal"):
        shutil.copytree(FIXTURES / name, tmp_path / name)
    return tmp_path
