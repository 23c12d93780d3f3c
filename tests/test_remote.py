"""A remote browser: a real `playwright run-server`, and Chromium's own DevTools endpoint."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
import requests

from tests import processes
from tests.conftest import run_webbot
from tests.test_screen import red_centre
from tests.test_stream import SPINNER
from webbot.browser import CHROMIUM_ARGS, BrowserOptions, find_chromium, open_browser
from webbot.errors import WebbotError
from webbot.mouse import Mouse
from webbot.screen import Screen
from webbot.stream import FrameStream


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, what: str, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout_s} s")
        time.sleep(0.1)


def port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=1).ok
    except requests.RequestException:
        return False


@pytest.fixture
def playwright_server():
    port = free_port()
    playwright_cli = Path(sys.executable).with_name("playwright")
    # A short grace: on SIGTERM, run-server's node child can hang in its graceful shutdown
    # after the wrapper has gone, and the SIGKILL to the group ends it.
    with processes.started([str(playwright_cli), "run-server", "--host", "127.0.0.1", "--port",
                            str(port), "--unsafe"], grace_s=3,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        wait_for(lambda: port_open(port), "playwright run-server listening")
        yield f"ws://127.0.0.1:{port}/"


@pytest.fixture
def devtools_chromium():
    port = free_port()
    with tempfile.TemporaryDirectory() as profile, processes.started(
            [find_chromium(), "--headless", f"--remote-debugging-port={port}",
             f"--user-data-dir={profile}", "--no-sandbox", *CHROMIUM_ARGS, "about:blank"],
            grace_s=3, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        url = f"http://127.0.0.1:{port}"
        wait_for(lambda: answers(f"{url}/json/version"), "Chromium DevTools answering")
        yield url


# pytest-playwright already runs Playwright in this process, so the tests use its `playwright`
# fixture with open_browser; open_page itself is exercised by the CLI tests in child processes.
def grab_through(playwright, endpoint: str, page_url: str):
    browser = open_browser(playwright, BrowserOptions(connect=endpoint))
    try:
        page = browser.new_page()
        page.goto(page_url)
        return Screen(page, "#stage").grab()
    finally:
        browser.close()


def test_connect_to_playwright_run_server(playwright, playwright_server, pages_url):
    grab = grab_through(playwright, playwright_server, f"{pages_url}geometry.html")
    assert grab.image.shape[:2] == (200, 300)


def test_connect_over_devtools(playwright, devtools_chromium, pages_url):
    grab = grab_through(playwright, devtools_chromium, f"{pages_url}geometry.html")
    assert grab.image.shape[:2] == (200, 300)


@pytest.mark.parametrize("scheme", ["ws", "http"])
def test_dead_endpoint_is_a_one_line_error(playwright, scheme):
    endpoint = f"{scheme}://127.0.0.1:{free_port()}/"
    with pytest.raises(WebbotError, match=f"browser endpoint {endpoint}: nothing answers there "
                       r"\(connection refused\)") as caught:
        open_browser(playwright, BrowserOptions(connect=endpoint))
    assert "\n" not in str(caught.value)


def test_check_command_through_a_remote_browser(playwright_server):
    result = run_webbot("check", "--connect", playwright_server)
    assert result.returncode == 0, result.stderr
    assert "all good" in result.stdout


@pytest.mark.parametrize("endpoint", ["playwright_server", "devtools_chromium"])
def test_a_remote_browser_streams_the_pictures_it_would_give_pulled(playwright, request,
                                                                     pages_url, endpoint):
    browser = open_browser(playwright, BrowserOptions(connect=request.getfixturevalue(endpoint)))
    try:
        page = browser.new_page()
        page.goto(f"{pages_url}geometry.html")
        page.evaluate(SPINNER)
        pulled = Screen(page, "#stage").grab()
        stream = FrameStream(page)
        assert stream.start()
        screen = Screen(page, "#stage", stream=stream)
        seen = next(look for look in (screen.look() for _ in range(20)) if look.streamed)
        assert np.array_equal(seen.image, pulled.image)
        Mouse(page).click(*seen.to_page(*red_centre(seen.image)))
        assert page.evaluate("window.hits") == ["marker"]
        stream.stop()
    finally:
        browser.close()


@pytest.fixture
def users_chromium(pages_url):
    """A Chromium of the user's: its own profile, a window the games fit in, and a tab of
    theirs open (plain.html)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as profile, processes.started(
            [find_chromium(), "--headless", f"--remote-debugging-port={port}",
             f"--user-data-dir={profile}", "--no-sandbox", "--window-size=1280,800",
             *CHROMIUM_ARGS, f"{pages_url}plain.html"],
            grace_s=3, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as browser:
        url = f"http://127.0.0.1:{port}"
        wait_for(lambda: answers(f"{url}/json/version"), "Chromium DevTools answering")
        yield url, browser


@pytest.mark.long
def test_two_runs_in_the_user_s_own_browser_carry_the_coins_and_leave_it_as_it_was(
        users_chromium, fixtures_url, playwright):
    """--connect to the user's Chromium: the bot plays in its context (storage and all), in a
    tab of its own that it closes at the end; the browser and the user's tab stay, and the
    consent engine never ran in the user's tab."""
    endpoint, browser = users_chromium
    # (Rounds from the ring on, intro=0: the title and the comic are test_bot's.)
    game = (f"{fixtures_url}burrito-bison/index.html?seed=3&flight=0.25&pinata=never"
            "&sale=never&unlocked=never&cards=never&intro=0")
    runs = [run_webbot("burrito-bison", "--rounds", "1", "--no-shop", "--connect", endpoint,
                       "--url", game, env={"COLUMNS": "200"}, timeout=240) for _ in range(2)]
    for done in runs:
        assert done.returncode == 0, done.stderr
    ended = re.search(r"started with 0 coins, ended with ([\d,]+) coins", runs[0].stdout)
    assert ended, runs[0].stdout
    assert f"started with {ended[1]} coins, ended with " in runs[1].stdout
    assert browser.poll() is None  # the user's browser is still running
    tabs = [tab["url"] for tab in requests.get(f"{endpoint}/json/list", timeout=5).json()
            if tab.get("type") == "page"]
    assert tabs and all(url.endswith("plain.html") for url in tabs), tabs
    users = playwright.chromium.connect_over_cdp(endpoint)
    try:
        [tab] = users.contexts[0].pages
        tab.reload()  # (an init script of the bot's would run in a new document)
        assert tab.evaluate("typeof window.autoconsentSendMessage") == "undefined"
    finally:
        users.close()
