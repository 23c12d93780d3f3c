"""A hostile page against the browser around the game: the capture scale it cannot choose, the
sandbox Chromium runs in wherever it can, and the fixture server that answers any request in
a status, never a traceback (issue 51, points 3, 5 and 6)."""

from __future__ import annotations

import http.client
import os
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

import webbot.browser
from tests.conftest import in_own_thread, run_webbot
from webbot.browser import BrowserOptions, Sandbox, sandbox_plan, user_namespaces_off
from webbot.check import run_check, sandbox_row
from webbot.errors import WebbotError
from webbot.play import play
from webbot.puzlogic.act import Tempo
from webbot.puzlogic.bot import player
from webbot.screen import Camera, device_scale
from webbot.server import FixtureServer, fixtures_root
from webbot.session import RunOptions, game_session
from webbot.tabs import open_tab

SPOOF = "Object.defineProperty(window, 'devicePixelRatio', {get: () => 40});"
# The page tells every script but the game's own that its device pixel ratio is 40 (the game
# itself drawing at 40 makes a 32000x24000 canvas, which Chromium leaves blank).
SPOOF_BUT_FOR_THE_GAME = (
    "const real = Object.getOwnPropertyDescriptor(window, 'devicePixelRatio').get;"
    "Object.defineProperty(window, 'devicePixelRatio', "
    "{get: () => /game\\.js/.test(new Error().stack) ? real.call(window) : 40});")


def puzlogic_saying(folder: Path, script: str) -> Path:
    """A copy of the bundled Puzlogic whose page runs `script` first, in the game's frame."""
    shutil.copytree(fixtures_root() / "puzlogic", folder)
    page = folder / "index.html"
    page.write_text(page.read_text().replace("<head>", f"<head>\n<script>{script}</script>", 1))
    return folder


# ---- the capture scale ---------------------------------------------------------------------

@pytest.mark.parametrize("dpr", [1, 2])
def test_the_capture_scale_is_the_browser_s_not_what_the_page_says(browser, dpr):
    context = browser.new_context(device_scale_factor=dpr,
                                  viewport={"width": 640, "height": 480})
    page = context.new_page()
    page.set_content(f"<script>{SPOOF}Object.defineProperty(Window.prototype, "
                     "'devicePixelRatio', {get: () => 40});</script><body style='margin:0'>"
                     "<div style='width:100px;height:50px;background:red'></div>")
    assert page.evaluate("devicePixelRatio") == 40  # what the page's scripts see

    assert device_scale(page) == dpr
    picture = cv2.imdecode(np.frombuffer(Camera(page).shoot(
        {"x": 0, "y": 0, "width": 100, "height": 50}), np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (50 * dpr, 100 * dpr)
    context.close()


@pytest.mark.parametrize("viewport", [{"width": 640, "height": 480}, None],
                         ids=["emulated window", "the browser's own window"])
def test_a_picture_larger_than_the_window_is_refused(browser, viewport):
    context = browser.new_context(viewport=viewport, no_viewport=viewport is None)
    page = context.new_page()
    page.set_content("<canvas width=20000 height=20000></canvas>")
    with pytest.raises(WebbotError, match=r"larger than the \d+x\d+ window: refused"):
        Camera(page).shoot({"x": 0, "y": 0, "width": 20000, "height": 20000})
    context.close()


def test_puzlogic_saying_its_device_pixel_ratio_is_40_is_played(tmp_path):
    game = puzlogic_saying(tmp_path / "puzlogic", SPOOF_BUT_FOR_THE_GAME)
    with FixtureServer(game) as server:
        result = run_webbot("puzlogic", "--levels", "1", "--url", f"{server.url}index.html")
    assert result.returncode == 0, result.stderr
    assert "1 of 1 level completed" in result.stdout


def test_the_screencast_plays_it_too(tmp_path, reader):
    # The screencast's frames are in CSS pixels whatever the scale: the page's word changes
    # nothing there either.
    game = puzlogic_saying(tmp_path / "puzlogic", SPOOF_BUT_FOR_THE_GAME)

    def run():
        with FixtureServer(game) as server, \
                game_session(RunOptions(url=f"{server.url}index.html"), "") as session:
            playable = player(session, [1], reader=reader,
                              tempo=Tempo(camera="png", drags_per_look=1))
            bot = playable.bot
            play(playable)
            return [r.result for r in bot.results], bot.screen.stream.frames

    results, frames = in_own_thread(run)
    assert results == ["completed"] and frames > 0


def test_a_game_drawn_at_the_page_s_word_ends_in_one_line_with_the_browser_kept(tmp_path):
    # Said to everyone, the game itself draws a canvas too large to show: no game to be seen,
    # and a clean end (this page used to lose the browser three times, or, in a short search,
    # fail to be captured at all).
    game = puzlogic_saying(tmp_path / "puzlogic", SPOOF)
    with FixtureServer(game) as server:
        result = run_webbot("puzlogic", "--levels", "1", "--find-timeout", "5",
                            "--url", f"{server.url}index.html")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("webbot: error: no frame of ") and "Traceback" not in \
        result.stderr
    # (its picture was taken, at the browser's scale, and shown to the game's eyes)
    assert "canvas#game 800x600 in the top page: not Puzlogic" in lines[-1]
    assert "browser is gone" not in result.stderr + result.stdout


# ---- the sandbox ---------------------------------------------------------------------------

def test_the_sandbox_is_planned_wherever_chromium_can_have_it():
    assert sandbox_plan(euid=0) == Sandbox(False, "running as root")
    assert sandbox_plan(euid=1000) == Sandbox(True)
    off = sandbox_plan(euid=1000, namespaces_off="no user namespaces here: x is 0")
    assert str(off) == "off (no user namespaces here: x is 0)"
    assert str(sandbox_plan(euid=0)) == "off (running as root)" and str(Sandbox(True)) == "on"


def test_user_namespaces_are_read_from_the_kernel_s_switches(tmp_path, monkeypatch):
    switch = tmp_path / "max_user_namespaces"
    monkeypatch.setattr(webbot.browser, "USER_NAMESPACE_SWITCHES",
                        {str(switch): "user.max_user_namespaces",
                         str(tmp_path / "absent"): "kernel.absent"})
    switch.write_text("63000\n")
    assert user_namespaces_off() is None
    switch.write_text("0\n")
    assert user_namespaces_off() == "no user namespaces here: user.max_user_namespaces is 0"


def test_chromium_s_own_reason_is_taken_from_a_failed_launch():
    log = """BrowserType.launch: Target page, context or browser has been closed
Browser logs:
Chromium sandboxing failed!
Call log:
  - <launching> /usr/bin/chromium --disable-gpu --user-data-dir=/tmp/x
  - [pid=7][err] [7:7:1128/060241.922888:ERROR:zygote_host_impl_linux.cc:103] Running as \
root without --no-sandbox is not supported. See https://crbug.com/638180."""
    assert webbot.browser._sandbox_reason(log) == (
        "Running as root without --no-sandbox is not supported. See https://crbug.com/638180.")
    assert webbot.browser._sandbox_reason("Chromium sandboxing failed!\n") == \
        "Chromium sandboxing failed!"
    assert webbot.browser._sandbox_reason("error while loading shared libraries") is None


@pytest.mark.skipif(os.geteuid() != 0, reason="Chromium refuses its sandbox only to root")
def test_a_sandbox_that_cannot_start_is_said_once_and_the_run_goes_on(monkeypatch):
    # As root the sandbox cannot start: told to try, the bot says so once and goes on.
    monkeypatch.setattr(webbot.browser, "sandbox_plan", lambda **_: Sandbox(True))
    monkeypatch.setattr(webbot.browser, "_sandbox_refused", None)
    said: list[str] = []

    def run():
        kept = []
        for _ in range(2):  # a second browser (a recovery's) neither tries again nor says it
            with open_tab(BrowserOptions(), report=said.append) as tab:
                assert tab.page.evaluate("1 + 1") == 2
                kept.append(tab.sandbox)
        return kept

    sandboxes = in_own_thread(run)
    assert said == ["the browser's sandbox could not start here (Running as root without "
                    "--no-sandbox is not supported. See https://crbug.com/638180.): going on "
                    "without it"]
    assert [s.on for s in sandboxes] == [False, False]
    assert str(sandboxes[0]).startswith("off (it could not start here: Running as root")


def test_check_says_whether_the_sandbox_is_on():
    assert sandbox_row(None) == "as the remote browser was started (--connect)"
    rows = dict(in_own_thread(run_check, RunOptions()))
    expected = sandbox_plan(namespaces_off=user_namespaces_off())
    if os.geteuid() == 0:
        assert rows["sandbox"] == "off (running as root)"
    else:
        assert rows["sandbox"] == str(expected) or rows["sandbox"].startswith(
            "off (it could not start here")


# ---- the fixture server --------------------------------------------------------------------

def ask(server: FixtureServer, path: str) -> tuple[int, bytes]:
    host, port = server.url.removeprefix("http://").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("path", ["/..%00/etc/passwd", "/index.html%00.txt", "/%ED%A0%80",
                                  "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                                  "/" + "a" * 5000, "/nothing-here.html"])
def test_what_the_server_cannot_serve_is_a_400_or_404_never_a_traceback(capfd, path):
    with FixtureServer() as server:
        status, body = ask(server, path)
        assert ask(server, "/index.html")[0] == 200  # and it goes on serving
    assert status in (400, 404)
    assert b"root:" not in body
    assert capfd.readouterr().err == ""


def test_a_folder_without_an_index_page_is_not_listed(tmp_path, capfd):
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "secret-name.txt").write_text("x")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "index.html").write_text("<p>the game</p>")
    with FixtureServer(tmp_path) as server:
        answers = {path: ask(server, path) for path in ["/", "/bare/", "/bare", "/game/"]}
    assert answers["/"][0] == 404 and answers["/bare/"][0] == 404
    assert answers["/bare"][0] in (301, 404)  # (to /bare/, a 404)
    assert all(b"secret-name" not in body for _, body in answers.values())
    assert answers["/game/"] == (200, b"<p>the game</p>")
    assert capfd.readouterr().err == ""
