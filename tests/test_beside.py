"""Work beside a loop (webbot.beside): its answer, or its error, comes through the future."""

from __future__ import annotations

import threading

import pytest

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
