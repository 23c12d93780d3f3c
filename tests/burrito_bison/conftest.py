"""Shared Burrito Bison test set-up: the real reference screens and pack, when present."""

from __future__ import annotations

import pytest

from tests.conftest import REFERENCE

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
