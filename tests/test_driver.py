"""Playwright's driver started before a game's run while the bot is imported on a thread: the
run takes it over, and one the run did not take (it ended before its browser) is stopped."""

from __future__ import annotations

import sys
import textwrap

from tests import processes
from tests.conftest import in_own_thread
from webbot import driver
from webbot.errors import WebbotError
from webbot.playwright_inside import driver_pid


def test_the_driver_starts_while_the_bot_is_imported_and_the_run_takes_it_over():
    # A fresh interpreter: the test's own has imported the bot long ago.
    script = textwrap.dedent("""
        import sys
        from webbot.driver import started_early, take_started
        from webbot.browser import playwright_driver
        with started_early("webbot.daily_set.bot"):
            print(all(m in sys.modules for m in
                      ("webbot.session", "webbot.play", "webbot.daily_set.bot",
                       "PIL.PngImagePlugin")))
            with playwright_driver() as playwright:
                print(take_started() is None, playwright.chromium.name)
        """)
    done = processes.run([sys.executable, "-c", script], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "chromium"]


def test_a_driver_the_run_did_not_take_is_stopped():
    def run_that_fails_before_its_browser() -> int:
        try:
            with driver.started_early("webbot.daily_set.bot"):
                pid = driver_pid(driver._started[0][0])
                raise WebbotError("the profile is in use")
        except WebbotError:
            return pid

    pid = in_own_thread(run_that_fails_before_its_browser)
    assert pid is not None and not processes.running(pid)
    assert driver.take_started() is None
