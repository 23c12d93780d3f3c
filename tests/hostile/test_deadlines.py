"""Every call to a page has a deadline: a server that takes the connection and never answers,
and a page whose script never yields (`while (true) {}`), each end the run in one line (or are
recovered from and played) within bounded time, the bot's own process under 1 GB."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import psutil
import pytest

from tests import processes
from webbot import answer
from webbot.server import FixtureServer, fixtures_root

PAGES = Path(__file__).parent / "pages"
# "Within two minutes in all", with room for a slow machine; a hang is what this bounds.
BOUND_S = 150
MEMORY_BYTES = 1 << 30


@contextmanager
def silent_server() -> Iterator[str]:
    """A server on 127.0.0.1 that takes every connection and never sends a byte; its URL."""
    listener = socket.create_server(("127.0.0.1", 0))
    taken: list[socket.socket] = []
    stop = threading.Event()

    def take() -> None:
        while not stop.is_set():
            with suppress(OSError):
                taken.append(listener.accept()[0])

    thread = threading.Thread(target=take, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/silent"
    finally:
        stop.set()
        with suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
        listener.close()
        for connection in taken:
            connection.close()
        thread.join(timeout=10)


def run_bounded(*args: str) -> tuple[subprocess.CompletedProcess, float, int]:
    """`webbot ARGS` in a child process: what it printed, how long it ran and the most memory
    its own process held (sampled each second); stopped, with all it started, past BOUND_S."""
    process = processes.start([sys.executable, "-m", "webbot.cli", *args],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    started, most = time.monotonic(), 0
    try:
        while process.poll() is None and time.monotonic() - started < BOUND_S:
            with suppress(psutil.Error):
                most = max(most, psutil.Process(process.pid).memory_info().rss)
            with suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1)
        took = time.monotonic() - started
    finally:
        processes.stop(process, grace_s=2)
    out, err = process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err), took, most


def one_clean_line(result: subprocess.CompletedProcess) -> str:
    error = result.stderr.strip()
    assert "Traceback" not in result.stdout + result.stderr
    assert len(error.splitlines()) == 1, error
    return error


def test_a_server_that_never_answers_ends_in_one_line_naming_it():
    """(Its load is given up after 30 s, or sooner by a shorter --find-timeout: 5 s here.)"""
    with silent_server() as url:
        result, took, memory = run_bounded("puzlogic", "--url", url, "--find-timeout", "5")
    assert took < BOUND_S, f"still running after {BOUND_S} s"
    assert result.returncode == 1
    assert one_clean_line(result) == f"webbot: error: cannot open {url}: no answer within 5 s"
    assert memory < MEMORY_BYTES


def _played_or_one_line(result: subprocess.CompletedProcess, took: float, memory: int) -> None:
    assert took < BOUND_S, f"still running after {BOUND_S} s: {result.stdout[-2000:]}"
    assert memory < MEMORY_BYTES
    if result.returncode == 0:
        assert "completed" in result.stdout
    else:
        # (the page, or the game's own cross-site frame: "the game stopped answering")
        assert "stopped answering" in one_clean_line(result)


@pytest.mark.long
def test_a_page_whose_script_never_yields_is_recovered_or_ends_in_one_line(fixtures_url):
    """The game framed by a page that, a few seconds in, keeps its main thread for good: the
    renderer answers nothing more (no script, picture or mouse). The page is reopened, and
    after its recovery the run ends in one line (or the game was played in between). (Stuck
    on a request that is never answered, not a loop: the same to the bot, without a core
    burnt for the 40 s it waits; pages that loop are test_spinning_handlers' and, under
    --full, the game's own script below.)"""
    with FixtureServer(PAGES) as pages, silent_server() as hang:
        url = (f"{pages.url}deadline-busy-top.html?hang={hang}"
               f"&game={fixtures_url}puzlogic/index.html")
        result, took, memory = run_bounded("puzlogic", "--url", url, "--levels", "1-15",
                                           "--max-recoveries", "1")
    _played_or_one_line(result, took, memory)
    assert "the page stopped answering" in result.stdout + result.stderr
    assert result.returncode == 1  # 15 levels take longer than two spells of a few seconds


@pytest.mark.full
@pytest.mark.parametrize("framed", [False, True], ids=["top", "cross-site frame"])
def test_a_game_whose_own_script_never_yields_is_recovered_or_ends_in_one_line(tmp_path,
                                                                              framed):
    """A copy of the bundled Puzlogic whose own script loops for ever a few seconds in: as the
    page itself, and framed from another site (its frame drawn by a renderer of its own while
    the top page still answers)."""
    game = tmp_path / "puzlogic"
    shutil.copytree(fixtures_root() / "puzlogic", game)
    shutil.copy(PAGES / "deadline-busy-frame.js", game)
    index = game / "index.html"
    index.write_text(index.read_text().replace(
        "</body>", '<script src="deadline-busy-frame.js"></script>\n</body>'))
    with FixtureServer(tmp_path) as site, FixtureServer(PAGES) as pages:
        url = f"{site.url}puzlogic/index.html"
        if framed:
            url = (f"{pages.url}deadline-busy-top.html?game="
                   f"{url.replace('127.0.0.1', 'localhost')}&busy=no")
        result, took, memory = run_bounded("puzlogic", "--url", url, "--levels", "1-15",
                                           "--max-recoveries", "1")
    _played_or_one_line(result, took, memory)


def test_a_call_to_a_page_whose_script_never_yields_is_given_up(page):
    """Playwright's evaluate, a handle's box and the mouse have no timeout: each is given up
    after its deadline, with the one line that says why, and the page can still be closed."""
    page.set_content("<canvas width=300 height=200></canvas>")
    canvas = page.query_selector("canvas")
    page.evaluate("setTimeout(() => { while (true) {} }, 0)")
    for call in (lambda: answer.evaluate(page, "1", seconds=1),
                 lambda: answer.answered(canvas, lambda own: own.bounding_box(), "a box", 1),
                 lambda: answer.answered(page.mouse, lambda own: own.move(5, 5, None),
                                         "the mouse", 1)):
        with pytest.raises(answer.NoAnswer, match="^the page stopped answering: .* within 1 s$"):
            call()
    page.close()
