"""Playwright's internals stay in webbot.playwright_inside, at the version pinned, and another
Playwright without them is one clear line."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from webbot import playwright_inside
from webbot.playwright_inside import EXPECTED, PlaywrightMismatch

ROOT = Path(__file__).resolve().parent.parent
PRIVATE = re.compile(r"\._impl_obj\b|\._sync\(|\._loop\b|playwright\._impl")


def test_the_version_expected_is_the_one_pinned_and_installed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert f"playwright=={EXPECTED}" in project["dependencies"]
    assert version("playwright") == EXPECTED


def test_no_other_module_uses_playwright_s_internals():
    using = [str(path.relative_to(ROOT)) for path in (ROOT / "webbot").rglob("*.py")
             if PRIVATE.search(path.read_text()) and path.name != "playwright_inside.py"]
    assert using == []


@pytest.mark.parametrize("call", [playwright_inside.own, playwright_inside.future,
                                  lambda target: playwright_inside.run(target, None)])
def test_a_playwright_without_the_internals_is_one_line_naming_the_version(call):
    class Elsewhere:  # as a sync object of another Playwright might be: no _sync, no _loop
        _impl_obj = object()

    with pytest.raises(PlaywrightMismatch) as raised:
        call(Elsewhere())
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"webbot uses Playwright {EXPECTED}'s internals (_sync, _loop), "
                              f"which the installed Playwright {EXPECTED} lacks")
