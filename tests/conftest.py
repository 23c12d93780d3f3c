"""Shared test set-up: real servers on 127.0.0.1 and Debian's Chromium via pytest-playwright."""

from __future__ import annotations

import os

# OpenCV and numpy's OpenBLAS on one thread in each test process and in the runs it starts
# (read as each loads, so before anything imports them): the test processes already fill the
# machine's cores, and these threads, which wait for work busily, would only take CPU from one
# another.
os.environ.setdefault("OPENCV_FOR_THREADS_NUM", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import fcntl
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from tests import processes
from tests.forkserver import ForkServer
from webbot.browser import CHROMIUM_ARGS, find_chromium
from webbot.server import FixtureServer

T = TypeVar("T")
PAGES = Path(__file__).parent / "pages"
# Real third-party material beside the repository; tests that use it skip when it is absent.
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"


# Hypothesis keeps no example database in the checkout: a run leaves nothing behind.
settings.register_profile("webbot", database=None, deadline=None)
settings.load_profile("webbot")


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true",
                     help="also run the tests marked full: the rest of each sweep (every "
                          "vendor, level and size) and the slowest drills")


def pytest_collection_modifyitems(config, items):
    """Without --full, the tests marked `full` are left out (said as deselected): CI plays one
    case of each kind, and `bash scripts/test.sh --full` plays them all. The tests marked
    `long` go first: handed out last, one of them would keep its process busy after the
    others have finished (a sort that keeps the order otherwise: every process collects the
    same)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    if config.getoption("--full"):
        return
    left_out = [item for item in items if item.get_closest_marker("full")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not item.get_closest_marker("full")]


def sweep(cases: list, in_ci: Callable[[Any], bool]) -> list:
    """`cases` for parametrize, those `in_ci` does not pick marked `full`."""
    return [case if in_ci(case) else pytest.param(*case if isinstance(case, tuple) else
                                                  (case,), marks=pytest.mark.full)
            for case in cases]


@pytest.hookimpl(trylast=True)  # after pytest's own set-up made the temporary path factory
def pytest_configure(config):
    """Hypothesis keeps its caches in this run's pytest folder, not .hypothesis/ here."""
    factory = getattr(config, "_tmp_path_factory", None)  # pytest's own, made at configure
    if factory is not None:
        set_hypothesis_home_dir(factory.mktemp("hypothesis"))


@pytest.fixture(scope="session", autouse=True)
def temporary_folder(tmp_path_factory):
    """Everything a test or a child process puts in the temporary directory (failure folders,
    browser profiles, downloads) goes into this session's pytest folder instead of /tmp."""
    folder = tmp_path_factory.mktemp("tmp")
    before = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = str(folder), str(folder)
    yield folder
    tempfile.tempdir = before[1]
    if before[0] is None:
        del os.environ["TMPDIR"]
    else:
        os.environ["TMPDIR"] = before[0]


@pytest.fixture(autouse=True)
def own_data_folder(monkeypatch, temporary_folder):
    """Each test's runs of `webbot GAME` play in a profile of its own (webbot.profile's
    default, under $XDG_DATA_HOME), never the user's, nor one another test is using."""
    monkeypatch.setenv("XDG_DATA_HOME", tempfile.mkdtemp(prefix="data", dir=temporary_folder))


@pytest.fixture
def short_tmp(temporary_folder) -> Path:
    """A fresh folder with a short path, for a child's TMPDIR: Chromium keeps a Unix socket in
    the temporary directory, and a socket's path may not pass 107 bytes."""
    return Path(tempfile.mkdtemp(prefix="t", dir=temporary_folder))


def run_folder(tmp_path_factory) -> Path:
    """The folder this run's test processes share: xdist's workers share their base folders'
    parent."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(folder: Path, make: Callable[[Path], object]) -> Path:
    """`folder`, made by `make` once a run: the first test process to ask makes it while the
    others wait (an exclusive lock on a file beside it), then all of them use it."""
    with open(folder.with_name(folder.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # let go when the file closes
        done = folder / ".made"
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a half-made one, its maker failed
            folder.mkdir(parents=True)
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session", autouse=True)
def glyph_cache(tmp_path_factory):
    """Learned digit templates go to a fresh folder, for this process and the webbot children
    it starts, never to the user's cache: tests must not depend on earlier runs."""
    # One folder for the session's test processes: Tesseract teaches each digit once a run,
    # not once a worker. Its writes are atomic (a temporary file renamed), so workers learning
    # at once do no harm.
    folder = run_folder(tmp_path_factory) / "webbot-cache"
    folder.mkdir(exist_ok=True)
    before = os.environ.get("WEBBOT_CACHE_DIR")
    os.environ["WEBBOT_CACHE_DIR"] = str(folder)
    yield folder
    if before is None:
        del os.environ["WEBBOT_CACHE_DIR"]
    else:
        os.environ["WEBBOT_CACHE_DIR"] = before


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    headless = browser_type_launch_args.get("headless", True)
    return {**browser_type_launch_args, "executable_path": find_chromium(headless=headless),
            "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def pages_url():
    """Base URL of tests/pages on a real fixture server."""
    with FixtureServer(PAGES) as server:
        yield server.url


@pytest.fixture(scope="session")
def reader(glyph_cache):
    """One Puzlogic reader for the session, learning its digits into the session's fresh cache
    (the one the webbot children read): Tesseract teaches them once (about 10 s), not once per
    test or process."""
    from webbot.puzlogic.perceive import Reader
    from webbot.vision.digits import DigitReader

    return Reader(DigitReader(glyph_cache / "glyphs"))


@pytest.fixture(scope="session")
def fixtures_url():
    """Base URL of the bundled games (fixtures/) on a real fixture server."""
    with FixtureServer() as server:
        yield server.url


def in_own_thread(function: Callable[..., T], *args, **kwargs) -> T:
    """Run `function` on a thread of its own and return its result (or raise its error). An
    in-process bot starts its own sync Playwright, which refuses a thread where the `page`
    fixture's Playwright (pytest-playwright's, kept for the session) already runs a loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args, **kwargs).result()


NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH")


def run_node(module: Path, script: str, data: Any = None) -> Any:
    """Runs `script` in node with G = require(module) and `input` = data; returns the JSON it
    prints."""
    program = (f"const G = require({json.dumps(str(module))});\n"
               "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n" + script)
    done = processes.run([NODE, "-e", program], input=json.dumps(data), timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def webbot_here(capfd) -> Callable[..., subprocess.CompletedProcess]:
    """`webbot ARGS` run in this test's process (its output captured), for a command whose
    process is not what the test is about (a picture read, a puzzle solved): the same code
    path as the command's, without a second of interpreter and imports each time. What a
    process adds (its streams, signals, exit at a closed pipe) is tested with run_webbot."""
    from webbot.cli import main

    def run(*args: str) -> subprocess.CompletedProcess:
        capfd.readouterr()  # (what the test printed before is not the command's)
        code = in_own_thread(main, list(args))
        out, err = capfd.readouterr()
        return subprocess.CompletedProcess(["webbot", *args], code, out, err)

    return run


FORKS = ForkServer()


@pytest.fixture(scope="session", autouse=True)
def fork_server():
    """This test process's fork server (tests/forkserver.py), stopped at its end."""
    yield FORKS
    FORKS.stop()


def run_webbot(*args: str, env: dict | None = None, timeout: float = 120, fresh: bool = False):
    """Run the real `webbot` command in a child process of its own (stopped, with all it
    started, if it runs past `timeout`): forked from a server that has its libraries loaded,
    or with `fresh` (or an environment that changes how Python starts) a new interpreter."""
    command = [sys.executable, "-m", "webbot.cli", *args]
    env = {**os.environ, **(env or {})}
    if fresh or any(name.startswith("PYTHON") and env[name] != os.environ.get(name)
                    for name in env):
        return processes.run(command, timeout=timeout, env=env)
    return processes.run(args, timeout=timeout, env=env,
                         spawn=lambda args, **kwargs: FORKS.popen(list(args), **kwargs))
