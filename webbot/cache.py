"""Where webbot keeps what it learns or downloads between runs."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """$WEBBOT_CACHE_DIR, else $XDG_CACHE_HOME/webbot, else ~/.cache/webbot."""
    if os.environ.get("WEBBOT_CACHE_DIR"):
        return Path(os.environ["WEBBOT_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "webbot"


def home_relative(path: Path) -> str:
    """The path as a user would write it: under their home folder as ~/..."""
    try:
        return str(Path("~") / Path(path).resolve().relative_to(Path.home().resolve()))
    except ValueError:
        return str(path)
