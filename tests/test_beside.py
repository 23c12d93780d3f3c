"""Work beside a loop (webbot.beside): its answer, or its error, comes through the future."""

from __future__ import annotations

import sys
import textwrap
import threading

import pytest

from tests import processes
from webbot.beside import on_a_thread


def test_a_call_beside_the_loop_answers_through_its_future_on_a_daemon_thread():
    where = []

    def call() -> int:
        where.append(threading.current_thread())
        return 42

    assert on_a_thread(call, "webbot-test").result(timeout=10) == 42
    assert where[0] is not threading.current_thread() and where[0].daemon
    assert where[0].name == "webbot-test"


def test_an_error_beside_the_loop_is_raised_to_whoever_waits_for_it():
    def call() -> int:
        raise ValueError("unreadable")

    with pytest.raises(ValueError, match="unreadable"):
        on_a_thread(call).result(timeout=10)


def test_a_process_ending_while_work_beside_the_loop_runs_ends_with_its_own_code():
    """A daemon thread caught in OpenCV's C++ by the interpreter's end was unwound through
    it, and the process aborted (CI: `webbot burrito-bison` stopped with Ctrl-C as a search
    ran beside the loop, "terminate called without an active exception", exit -6)."""
    script = textwrap.dedent("""
        import sys, time
        import cv2, numpy as np
        from webbot.beside import on_a_thread
        image = np.random.default_rng(1).integers(0, 255, (300, 300), np.uint8)
        def search():
            end = time.monotonic() + 1.0
            while time.monotonic() < end:
                cv2.matchTemplate(image, image[:40, :40].copy(), cv2.TM_CCOEFF_NORMED)
        on_a_thread(search, "webbot-search")
        time.sleep(0.1)
        sys.exit(130)
    """)
    done = processes.run([sys.executable, "-c", script], timeout=60)
    assert done.returncode == 130 and "terminate" not in done.stderr, done.stderr
