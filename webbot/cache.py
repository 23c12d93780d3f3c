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


def keep_node_compile_cache() -> None:
    """Playwright's driver (Node.js, started by this process) keeps the code it compiles in
    webbot's cache, so that every start after the first skips compiling it (Node's
    NODE_COMPILE_CACHE: a fifth of the driver's start, scripts/bench_browser_start.py). Left
    as it is when the user set it, or when the folder cannot be webbot's own."""
    if "NODE_COMPILE_CACHE" in os.environ:
        return
    from webbot.folders import NotOurs, private_folder

    try:
        default_cache_dir().mkdir(parents=True, exist_ok=True)
        folder = private_folder(default_cache_dir() / "node")
    except (OSError, NotOurs):
        return
    os.environ["NODE_COMPILE_CACHE"] = str(folder)
