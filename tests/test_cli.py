"""The `webbot` command, run as a real child process."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import requests

from tests import processes
from tests.conftest import run_webbot
from webbot import __version__
from webbot.browser import BrowserOptions, chromium_for
from webbot.cli import STACKS_END
from webbot.registry import games
from webbot.server import fixtures_root


def one_line_error(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def test_help_lists_the_game_commands():
    result = run_webbot("--help")
    assert result.returncode == 0
    for command in ("puzlogic", "daily-set", "burrito-bison", "serve", "trace"):
        assert f"  {command} " in result.stdout


def test_version():
    result = run_webbot("--version")
    assert result.returncode == 0 and __version__ in result.stdout


def test_rounds_and_minutes_do_not_go_together():
    result = run_webbot("burrito-bison", "--rounds", "2", "--minutes", "1")
    assert result.returncode == 2
    assert "--rounds or --minutes, not both" in one_line_error(result)


def test_bad_option_is_a_usage_error():
    result = run_webbot("puzlogic", "--slow-mo", "fast")
    assert result.returncode == 2 and "Invalid value" in result.stderr


def test_check_runs_the_whole_chain(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)  # (pytest-xdist sets 80)
    result = run_webbot("check")
    assert result.returncode == 0, result.stderr
    assert "all good" in result.stdout and "tesseract" in result.stdout
    # Piped, the table is as wide as its rows: the consent library's path whole, on its line.
    assert "…" not in result.stdout
    assert re.search(r"│ consent +│ .*\(/\S+/autoconsent\) +│\n", result.stdout), result.stdout
    # It names the browser it started: headless, the shell where installed.
    started = chromium_for(BrowserOptions())
    assert re.search(rf"│ chromium +│ [\d.]+, {re.escape(started)} +│\n", result.stdout), \
        result.stdout


def test_debug_dir_keeps_frames_annotations_and_trace(tmp_path):
    result = run_webbot("check", "--debug-dir", str(tmp_path / "debug"))
    assert result.returncode == 0, result.stderr
    saved = sorted(p.name for p in (tmp_path / "debug").iterdir())
    assert "0001-page.png" in saved and "0002-words-annotated.png" in saved
    assert "trace.zip" in saved and (tmp_path / "debug" / "trace.zip").stat().st_size > 1000


def test_failure_leaves_last_frame_and_reason(pages_url, short_tmp):
    # A page that is not what the check expects: the run fails and says where it left the frame.
    tmp_path = short_tmp
    result = run_webbot("check", "--url", f"{pages_url}plain.html", env={"TMPDIR": str(tmp_path)})
    assert result.returncode == 1
    line = one_line_error(result)
    assert "does not show the 'webbot' heading" in line
    [folder] = tmp_path.glob("webbot-failure-*")
    assert str(folder) in line and "(last frame, page and reason saved in " in line
    assert (folder / "last-frame.png").stat().st_size > 0
    assert (folder / "page.png").stat().st_size > 0
    assert "heading" in (folder / "reason.txt").read_text()
    details = (folder / "details.txt").read_text()  # where in the bot it ended
    assert details.startswith("Traceback") and "webbot/" in details


def test_failure_with_debug_dir_is_kept_there(pages_url, tmp_path):
    result = run_webbot("check", "--url", f"{pages_url}plain.html", "--debug-dir", str(tmp_path))
    assert result.returncode == 1
    assert (tmp_path / "failure" / "last-frame.png").exists()
    assert (tmp_path / "trace.zip").exists()


def test_unusable_debug_dir():
    # Checked before anything starts, by writing there: a usage error.
    result = run_webbot("check", "--debug-dir", "/proc/webbot")
    assert result.returncode == 2
    assert "Invalid value for '--debug-dir': /proc/webbot: cannot be written" in \
        one_line_error(result)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def wedged_port() -> Iterator[int]:
    """A port that takes connections and never answers on them (a wedged endpoint)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)  # the kernel accepts for us; nothing ever reads or writes
        yield server.getsockname()[1]


def test_dead_url(short_tmp):
    tmp_path = short_tmp
    url = f"http://127.0.0.1:{closed_port()}/"
    result = run_webbot("check", "--url", url, env={"TMPDIR": str(tmp_path)})
    assert result.returncode == 1
    assert one_line_error(result) == f"webbot: error: cannot open {url}: connection refused " \
                                     "(is the server running?)"
    assert not list(tmp_path.iterdir())  # no frame was taken: no failure folder to look at


def test_missing_page_is_an_http_error(pages_url):
    result = run_webbot("check", "--url", f"{pages_url}nope.html")
    assert "HTTP 404" in one_line_error(result)


def test_dead_browser_endpoint():
    endpoint = f"ws://127.0.0.1:{closed_port()}/"
    result = run_webbot("check", "--connect", endpoint)
    assert result.returncode == 1
    assert one_line_error(result) == (f"webbot: error: browser endpoint {endpoint}: nothing "
                                      "answers there (connection refused)")


def test_an_endpoint_that_is_no_browser_is_said_in_our_words(fixtures_url):
    for endpoint in (fixtures_url, fixtures_url.replace("http://", "ws://")):
        result = run_webbot("check", "--connect", endpoint)
        assert result.returncode == 1
        assert one_line_error(result).startswith(
            f"webbot: error: browser endpoint {endpoint}: no browser endpoint at that address")


def test_no_chromium():
    result = run_webbot("check", env={"WEBBOT_CHROMIUM": "/nonexistent/chromium"})
    assert result.returncode == 1
    assert "Chromium not found at /nonexistent/chromium" in one_line_error(result)


def test_headed_without_display_says_why():
    result = run_webbot("check", "--headed", env={"DISPLAY": ""})
    assert result.returncode == 1
    assert "no display for --headed" in one_line_error(result)


def test_a_profile_window_without_display_does_not_speak_of_headed():
    result = run_webbot("profile", "open", env={"DISPLAY": ""})
    assert result.returncode == 1
    line = one_line_error(result)
    assert "no display for its window (run it under xvfb-run)" in line and "headed" not in line


@pytest.mark.skipif(not shutil.which("xvfb-run"), reason="needs xvfb-run (scripts/setup.sh)")
def test_headed_under_a_virtual_display():
    result = processes.run(
        ["xvfb-run", "-a", sys.executable, "-m", "webbot.cli", "check", "--headed",
         "--slow-mo", "5"], timeout=120)
    assert result.returncode == 0, result.stderr
    assert "all good" in result.stdout


def test_serve_serves_the_bundled_games_until_ctrl_c():
    # (SIGINT heard as in a terminal: a suite started in the background has it ignored.)
    with processes.started([sys.executable, "-m", "webbot.cli", "serve", "--port", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
                           ) as process:
        first = process.stdout.readline()
        url = first.split(" at ")[1].split()[0]
        assert requests.get(url + "index.html", timeout=5).status_code == 200
        for game in games().values():  # a line for each registered game, its page served
            title, page = process.stdout.readline().strip().split(": ")
            assert (title, page) == (game.title, url + game.page)
            assert requests.get(page, timeout=5).status_code == 200
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the documented way to stop it
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0 and err == "", err
    assert out.strip().endswith("stopped")


def test_sigusr1_prints_where_the_run_is_and_it_goes_on():
    """`kill -USR1 PID` on a run that seems stuck: each thread's stack on stderr, the run
    unharmed."""
    with processes.started([sys.executable, "-m", "webbot.cli", "serve", "--port", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        url = process.stdout.readline().split(" at ")[1].split()[0]
        process.send_signal(signal.SIGUSR1)
        said = b""  # read from the pipe itself: the dump comes as one write
        deadline = time.monotonic() + 30
        while STACKS_END.encode() not in said and time.monotonic() < deadline:
            if select.select([process.stderr], [], [], 1)[0]:
                said += os.read(process.stderr.fileno(), 65536)
        dump = said.decode()
        assert dump.startswith("webbot: where the run is (SIGUSR1)") and STACKS_END in dump
        assert re.search(r'-- thread \d+ \(main\):\n(.|\n)*cli.py", line \d+, in serve\n', dump)
        assert requests.get(url + "index.html", timeout=5).status_code == 200


def test_serve_on_a_busy_port_is_a_clear_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        result = run_webbot("serve", "--port", str(port))
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in one_line_error(result)


def test_trace_serves_playwrights_viewer_that_opens_the_trace(browser, page, fixtures_url,
                                                              tmp_path):
    """`webbot trace DIR` serves the viewer for DIR/trace.zip; the real Chromium opens it and
    shows the trace's actions, and Ctrl-C ends it with exit 0."""
    context = browser.new_context()
    context.tracing.start(screenshots=True, snapshots=True)
    context.new_page().goto(fixtures_url + "index.html")
    context.tracing.stop(path=tmp_path / "trace.zip")
    context.close()
    with processes.started([sys.executable, "-m", "webbot.cli", "trace", str(tmp_path),
                            "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
                           ) as process:
        first = process.stdout.readline()
        assert first.startswith(f"Playwright's trace viewer for {tmp_path / 'trace.zip'} at "
                                "http://127.0.0.1:"), first
        page.goto(first.split(" at ")[1].split()[0])
        page.get_by_text("Navigate", exact=True).first.wait_for(timeout=30_000)
        page.get_by_text(fixtures_url.split("//")[1] + "index.html").first.wait_for()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0 and out.strip() == "stopped", err


@contextmanager
def trace_viewer(folder, *options: str) -> Iterator[tuple[subprocess.Popen, str]]:
    """`webbot trace` on a stand-in trace.zip (the viewer serves any zip), and its address once
    it listens. SIGINT is heard as in a terminal (a suite started in the background ignores
    it)."""
    import zipfile

    with zipfile.ZipFile(folder / "trace.zip", "w") as stand_in:
        stand_in.writestr("trace.trace", "")
    with processes.started([sys.executable, "-m", "webbot.cli", "trace", str(folder), *options],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
                           ) as process:
        said = process.stdout.readline()
        assert " at http://127.0.0.1:" in said, said + process.stderr.read()
        yield process, said.split(" at ")[1].split()[0]


def wait_until_gone(pids: list[int], timeout: float = 30) -> list[int]:
    deadline = time.monotonic() + timeout
    while (left := [pid for pid in pids if processes.running(pid)]) and \
            time.monotonic() < deadline:
        time.sleep(0.1)
    return left


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_trace_stopped_by_a_signal_ends_the_viewer_and_exits_0(tmp_path, signum):
    """The signal goes to webbot's own pid only (as `kill PID` sends it, or a service manager):
    the viewer's processes (Playwright's Python wrapper and its node) end with it, and the port
    is free again."""
    with trace_viewer(tmp_path, "--port", "0") as (process, url):
        viewer = processes.descendants(process.pid)
        assert viewer and requests.get(url, timeout=10).status_code == 200
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
        assert (process.returncode, out.strip().splitlines()[-1], err) == (0, "stopped", "")
        assert wait_until_gone(viewer) == []
    with pytest.raises(requests.ConnectionError):
        requests.get(url, timeout=10)


def test_trace_says_when_its_port_is_taken(tmp_path):
    with wedged_port() as port, trace_viewer(tmp_path, "--port", str(port)) as (process, url):
        assert not url.endswith(f":{port}")
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    taken = url.rsplit(":", 1)[1].rstrip("/")
    assert err.strip() == (f"note: port {port} is taken (by a trace viewer still serving?): the "
                           f"viewer is on port {taken} instead")


def test_serve_stopped_by_sigterm_exits_0():
    with processes.started([sys.executable, "-m", "webbot.cli", "serve", "--port", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        url = process.stdout.readline().split(" at ")[1].split()[0]
        assert requests.get(url + "index.html", timeout=5).status_code == 200
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    assert (process.returncode, out.strip().splitlines()[-1], err) == (0, "stopped", "")


def test_trace_without_a_trace_is_a_usage_error(tmp_path):
    done = run_webbot("trace", str(tmp_path))
    assert done.returncode == 2
    assert one_line_error(done) == (f"webbot: error: {tmp_path}: no trace here (a --debug-dir "
                                    "folder holds trace.zip)")


def test_every_command_s_help_ends_with_an_example_of_itself():
    import click

    from webbot.cli import cli

    def walk(command: click.Command, path: list[str]) -> Iterator[tuple[str, str]]:
        yield " ".join(path), command.help or ""
        if isinstance(command, click.Group):
            context = click.Context(command, info_name=path[-1])
            for name in command.list_commands(context):
                yield from walk(command.get_command(context, name), [*path, name])

    helps = dict(walk(cli, ["webbot"]))
    assert {"webbot trace", "webbot soak puzlogic", "webbot burrito-bison pack cut"} <= set(helps)
    for path, text in helps.items():
        example = text.rsplit("\n\n", 1)[-1].strip()
        # (a group's example may run its default command with options, or a subcommand)
        assert example.startswith(f"Example: {path}" if path.count(" ") > 1 or path == "webbot"
                                  else "Example: webbot"), (path, example)


def test_burrito_help_lists_every_screen_and_screenshot_the_code_knows():
    from webbot.burrito_bison.layout import SHOTS
    from webbot.burrito_bison.model import SCREENS

    classify = " ".join(run_webbot("burrito-bison", "classify", "--help").stdout.split())
    assert all(re.search(rf"\b{screen}\b", classify) for screen in SCREENS)
    cut = " ".join(run_webbot("burrito-bison", "pack", "cut", "--help").stdout.split())
    assert all(f"{shot}.png" in cut for shot in SHOTS)


def test_report_is_a_page_that_renders_with_the_run_s_figures(page, fixtures_url, tmp_path):
    """--report writes one self-contained page: opened in the real Chromium, it shows what the
    run printed (its table's figures), where the time went, and its annotated frames load; a
    failed run's report says why and shows the page it gave up on."""
    report = tmp_path / "report.html"
    done = run_webbot("puzlogic", "--levels", "1", "--report", str(report))
    assert done.returncode == 0, done.stderr
    table = next(line for line in done.stdout.splitlines() if "│ 01 " in line)
    page.goto(report.as_uri())
    text = " ".join(page.inner_text("body").replace("│", " ").split())
    assert "Finished without an error" in text and "Puzlogic: 1 of 1 level completed" in text
    assert " ".join(table.replace("│", " ").split()) in text  # the row as printed
    widths = page.evaluate("[...document.images].map(image => image.naturalWidth)")
    assert len(widths) >= 4 and all(width > 0 for width in widths)  # read, solution, drops
    assert "level-01-drops-1-2-pieces" in text  # the look after both drags
    rows = {row.split("\t")[0]: row for row in page.locator(".phases tr").all_inner_texts()}
    assert {"finding the game (ours)", "deciding (ours)", "acting (ours)", "browser start (ours)",
            "waiting (the game's)"} <= set(rows)  # where the time went, and whose it was
    assert re.search(r"\d+\.\d s \(\d+%\)", rows["acting (ours)"])
    assert page.locator(".phases .bar div").first.bounding_box()["width"] > 0

    failed = tmp_path / "failed.html"
    done = run_webbot("puzlogic", "--url", fixtures_url + "index.html", "--find-timeout", "3",
                      "--report", str(failed))
    assert done.returncode == 1
    page.goto(failed.as_uri())
    text = " ".join(page.inner_text("body").split())
    assert f"Failed: no frame of {fixtures_url}index.html shows Puzlogic" in text
    assert "looking for Puzlogic on the page" in text  # what it printed on the way
    assert page.evaluate("[...document.images].every(image => image.naturalWidth > 0)")
    assert page.get_by_text("the whole page").count() == 1


@pytest.mark.parametrize("game", ["puzlogic", "daily-set"])
def test_both_read_commands_take_annotate(game, capsys):
    """`read --annotate OUT.png` for both games; Puzlogic's old `--annotated` still works,
    unlisted."""
    from webbot.cli import main

    assert main([game, "read", "--help"]) == 0
    shown = capsys.readouterr().out
    assert "--annotate OUT.png" in shown and "--annotated" not in shown


def test_the_docs_home_page_s_commands_are_the_command_line_s(capsys):
    """docs/index.md's set-up and usage: its scripts are there, and each `webbot` line names
    commands and options the command line takes (parsed up to --help)."""
    from pathlib import Path

    from webbot.cli import main

    home = (Path(__file__).parents[1] / "docs" / "index.md").read_text()
    assert "## Set up" in home and "## Use it" in home
    code = "".join(re.findall(r"```sh\n(.*?)```", home, re.S))
    scripts = re.findall(r"^bash (scripts/\S+)", code, re.M)
    assert scripts and all((Path(__file__).parents[1] / s).is_file() for s in scripts)
    lines = [line.split("#")[0].split()[1:] for line in code.splitlines()
             if line.startswith("webbot ")]
    assert {words[0] for words in lines} == {"check", *games()}
    for words in lines:
        assert main([*words, "--help"]) == 0, words
        capsys.readouterr()


def test_every_default_is_shown_the_same_way():
    """Click's own "[default: ...]" for every option with a default, never a default in words
    in the help text."""
    import click

    from webbot.cli import cli

    def options(command: click.Command) -> Iterator[click.Option]:
        yield from (p for p in command.params if isinstance(p, click.Option))
        if isinstance(command, click.Group):
            context = click.Context(command)
            for name in command.list_commands(context):
                yield from options(command.get_command(context, name))

    for option in options(cli):
        assert "(default" not in (option.help or ""), option.opts
        valued = not option.is_flag and option.default not in (None, "", ()) and \
            type(option.default).__name__ != "Sentinel"
        assert not valued or option.show_default, option.opts
        # ... and plainly: `[default: 3]`, `[default: one per core]`, never `[default: (3)]`
        shown = option.get_help_extra(click.Context(cli)).get("default", "")
        assert not shown.startswith("("), (option.opts, shown)
        if isinstance(option.show_default, str):
            assert shown == option.show_default, option.opts


def test_keep_bounds_the_debug_folder_to_the_latest_frames(tmp_path):
    done = run_webbot("puzlogic", "--levels", "1", "--debug-dir", str(tmp_path), "--keep", "3")
    assert done.returncode == 0, done.stderr
    frames = sorted(path.name for path in tmp_path.glob("*.png"))
    # the latest three: the level's end among them (its last check's frame may come after)
    assert len(frames) == 3 and any(name.endswith("-completed.png") for name in frames)
    assert int(frames[0][:4]) > 3 and (tmp_path / "trace.zip").is_file()


def test_a_coroutine_cut_short_by_ctrl_c_is_not_reported_at_exit():
    """A Ctrl-C between a Playwright call's coroutine being made and being run leaves it never
    awaited; Python would print a RuntimeWarning after the run's one line."""
    import subprocess
    import sys

    code = ("import sys\nfrom webbot import cli\nsys.argv = ['webbot', '--help']\n"
            "cli.main()\nasync def call():\n    pass\nleft = call()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0
    assert done.stderr == ""


# The driver's pipes left open when its loop closes (a Ctrl-C on a busy machine), closed at
# exit through the closed loop; then an error of our own in a __del__, which must still show.
PIPES_LEFT_OPEN = """
import asyncio, gc, sys, threading
from webbot import cli
if sys.argv[1] == "command":
    sys.argv = ["webbot", "--help"]
    cli.main()
async def start():
    return await asyncio.create_subprocess_exec("sleep", "30", stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE)
loop = asyncio.new_event_loop()
driver = loop.run_until_complete(start())
loop.close()
driver.kill()
for thread in threading.enumerate():  # the watcher of the child, holding its pipes till it ends
    if thread is not threading.current_thread():
        thread.join(30)
del driver
gc.collect()
class Ours:
    def __del__(self):
        raise ValueError("a bug of ours")
Ours()
"""


@pytest.mark.parametrize("command", [True, False])
def test_the_driver_s_pipes_closed_after_its_loop_are_not_reported_at_exit(command):
    done = subprocess.run([sys.executable, "-c", PIPES_LEFT_OPEN,
                           "command" if command else "bare"],
                          capture_output=True, text=True, timeout=60)
    assert "ValueError: a bug of ours" in done.stderr  # any other is still said
    assert ("Event loop is closed" in done.stderr) is not command, done.stderr


def test_a_failure_after_a_ctrl_c_ends_as_interrupted(tmp_path, monkeypatch, capsys):
    """A Ctrl-C ends the browser with the bot: what fails after it is its doing, so the run
    ends as interrupted (130), not with the failure's line."""
    import json
    import threading

    from webbot import errors
    from webbot.cli import main

    puzzle = tmp_path / "p.json"
    puzzle.write_text(json.dumps({"cells": [[0, 0, None], [0, 1, 1]],
                                  "pieces": [{"value": 1, "color": "blue"}]}))
    heard = threading.Event()
    monkeypatch.setattr(errors, "_ctrl_c", heard)
    assert main(["puzlogic", "solve", str(puzzle)]) == 1
    assert "no solution" in capsys.readouterr().err
    heard.set()
    assert main(["puzlogic", "solve", str(puzzle)]) == 130
    assert capsys.readouterr().err.strip() == "webbot: error: interrupted"


def webbot_reading(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return processes.run([sys.executable, "-m", "webbot.cli", *args], timeout=120, **kwargs)


def test_a_file_named_dash_is_standard_input():
    card = fixtures_root() / "daily-set/images/setcards/small/28.gif"
    by_name = webbot_reading("daily-set", "classify", str(card))
    piped = webbot_reading("daily-set", "classify", "-", input=card.read_bytes())
    assert piped.returncode == by_name.returncode == 0, piped.stderr
    assert piped.stdout == by_name.stdout.replace(str(card), "-")
    puzzle = {"cells": [[0, 0, None], [0, 1, 2]], "pieces": [{"value": 1, "color": "blue"}]}
    solved = webbot_reading("puzlogic", "solve", "-", "--json", input=json.dumps(puzzle))
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["placements"] == [[0, 0, 1, "blue"]]


def test_standard_input_from_a_terminal_is_refused_not_waited_on():
    leader, follower = pty.openpty()
    try:
        done = webbot_reading("puzlogic", "solve", "-", stdin=follower)
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 2
    assert one_line_error(done) == ("webbot: error: -: standard input is a terminal; pipe a "
                                    "file into it (... | webbot ... -) or name the file")


def test_bare_webbot_prints_its_help_and_exits_0():
    result = run_webbot()
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("Usage: webbot [OPTIONS] COMMAND [ARGS]...")
    assert "  puzlogic " in result.stdout


@pytest.mark.parametrize(("args", "said"), [
    (("puzlogik",), "No such command 'puzlogik'. Did you mean 'puzlogic'? (see 'webbot --help')"),
    (("soak", "puzlogik"), "No such command 'puzlogik'. Did you mean 'puzlogic'? "
                           "(see 'webbot soak --help')"),
    (("profile", "claer"), "No such command 'claer'. Did you mean 'clear'? "
                           "(see 'webbot profile --help')"),
    (("games", "dailyset"), "no game 'dailyset': did you mean 'daily-set'? one of "
                            "burrito-bison, daily-set, puzlogic (see 'webbot games --help')"),
], ids=lambda value: " ".join(value) if isinstance(value, tuple) else "")
def test_a_mistyped_command_or_game_is_answered_with_the_closest(args, said):
    result = run_webbot(*args)
    assert result.returncode == 2
    assert one_line_error(result) == f"webbot: error: {said}"
