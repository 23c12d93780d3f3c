"""Every call into a page has a deadline, and a new one cannot slip in: read from the source.

A page is untrusted: its script may never yield, and a Playwright call that waits on it without
a deadline hangs the run for good (a focus, an element's text, a frame's title did). So the
calls that go to the browser and wait for its answer (a *round trip*: the sync API's methods
that run a coroutine of the driver, told apart by their own source) are made in the few
modules that own the browser, each with a deadline of its own (`timeout=`) or raced against
one (`webbot.answer.answered`); every other module goes through them.
"""

from __future__ import annotations

import ast
import asyncio
import concurrent.futures
import functools
import inspect
import io
import re
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import click
import numpy as np
import psutil
import pytest
import requests
from playwright.sync_api import _generated

WEBBOT = Path(__file__).parent.parent / "webbot"

# The modules that own the browser, and why each may call it.
OWNERS = {
    "answer.py": "every call into a page, raced against its deadline",
    "playwright_inside.py": "Playwright's internals that the deadlines are built on",
    "browser.py": "starts and ends browsers, contexts and pages, and navigates",
    "tabs.py": "follows the page a run plays in: its crash, its context, its browser's end",
    "screen.py": "takes the game's pictures over DevTools",
    "stream.py": "the screencast over DevTools",
    "consent/engine.py": "installs the consent engine on a context and hears its messages",
}
# The calls that may run without a deadline of their own, where they are, and why.
UNBOUNDED = {
    ("consent/engine.py", "expose_binding"): "installed before the page opens anything",
    ("consent/engine.py", "add_init_script"): "installed before the page opens anything",
}
# The names of webbot's own objects' methods that a round trip shares (`self.hands.click`),
# told apart by what they are called on: a call of these on an object named as the
# Playwright objects are in webbot is a round trip.
PLAYWRIGHT_NOUNS = {"page", "frame", "element", "handle", "locator", "context", "browser",
                    "dialog", "keyboard", "tracing", "cdp", "button", "holder", "target", "own",
                    "playwright", "chromium", "route", "worker"}
# Deadlines: the wrappers a round trip may be handed to, as a lambda or a coroutine.
BOUNDERS = {"answered", "run", "in_background", "wait_for"}


def _round_trips() -> dict[str, bool]:
    """Each method of the sync API that waits on the driver, by name: whether every one of
    that name takes a `timeout`."""
    found: dict[str, bool] = {}
    for _, cls in inspect.getmembers(_generated, inspect.isclass):
        if cls.__module__ != _generated.__name__:
            continue
        for name, method in vars(cls).items():
            if name.startswith("_") or not callable(method):
                continue
            if "_sync(" in inspect.getsource(method):
                timed = "timeout" in inspect.signature(method).parameters
                found[name] = found.get(name, True) and timed
    return found


ROUND_TRIPS = _round_trips()


@functools.cache
def _modules() -> tuple[tuple[str, ast.Module], ...]:
    return tuple((path.relative_to(WEBBOT).as_posix(), ast.parse(path.read_text()))
                 for path in sorted(WEBBOT.rglob("*.py")) if "node_modules" not in path.parts)


@functools.cache
def _shared_names() -> set[str]:
    """The round trips' names that other objects' methods share: every function and method
    webbot defines, and the methods of the Python and library objects it works with (a dict's
    `get`, a match's `group`, a thread's `start`)."""
    own = {node.name for _, tree in _modules() for node in ast.walk(tree)
           if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    others = (dict, list, set, str, bytes, re.Match, re.Pattern, Path, io.TextIOWrapper,
              threading.Thread, threading.Event, threading.Timer, subprocess.Popen,
              asyncio.Future, asyncio.AbstractEventLoop, concurrent.futures.Executor,
              click.Group, click.Context, psutil.Process, requests.Session, requests.Response,
              np.ndarray, socket.socket)
    return (own | {name for kind in others for name in dir(kind)}) & set(ROUND_TRIPS)


def _noun(receiver: ast.expr) -> str:
    """What a call is made on, by its last name: `self.page.mouse` -> "mouse"."""
    if isinstance(receiver, ast.Attribute):
        return receiver.attr
    if isinstance(receiver, ast.Name):
        return receiver.id
    if isinstance(receiver, ast.Call):
        return _noun(receiver.func)
    if isinstance(receiver, ast.Subscript):
        return _noun(receiver.value)
    return ""


def _is_playwright(call: ast.Call, shared: set[str]) -> bool:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in ROUND_TRIPS:
        return False
    if func.attr not in shared:
        return True
    noun = _noun(func.value).lstrip("_").lower()
    if noun == "mouse":  # webbot's own Mouse is `self.mouse`; the page's is `page.mouse`
        return _noun(func.value.value) in PLAYWRIGHT_NOUNS \
            if isinstance(func.value, ast.Attribute) else False
    return noun in PLAYWRIGHT_NOUNS or noun.rsplit("_", 1)[-1] in PLAYWRIGHT_NOUNS


def _bounded(call: ast.Call, parents: dict[ast.AST, ast.AST]) -> bool:
    """A deadline of its own (`timeout=`, or wait_for_timeout's), or handed to a bounder."""
    if any(keyword.arg == "timeout" for keyword in call.keywords):
        return True
    if call.func.attr == "wait_for_timeout":
        return True
    node = call
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Call) and _noun(node.func) in BOUNDERS:
            return True
    return False


def _round_trips_in(tree: ast.AST) -> Iterator[tuple[int, str, bool]]:
    """(line, method, bounded) of every round trip in `tree`."""
    shared = _shared_names()
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_playwright(node, shared):
            yield node.lineno, node.func.attr, _bounded(node, parents)


def _calls() -> Iterator[tuple[str, int, str, bool]]:
    """(module, line, method, bounded) of every round trip in webbot."""
    for module, tree in _modules():
        for line, method, bounded in _round_trips_in(tree):
            yield module, line, method, bounded


def test_no_playwright_call_is_made_outside_the_modules_that_own_the_browser():
    outside = [f"webbot/{module}:{line}: .{method}()" for module, line, method, _ in _calls()
               if module not in OWNERS]
    assert not outside, ("Playwright calls outside the modules that own the browser (go "
                         "through webbot.answer, or add the module to OWNERS with why):\n"
                         + "\n".join(outside))


def test_every_call_into_the_browser_has_a_deadline():
    unbounded = [f"webbot/{module}:{line}: .{method}()"
                 for module, line, method, bounded in _calls()
                 if not bounded and (module, method) not in UNBOUNDED]
    assert not unbounded, ("Playwright calls without a deadline (give timeout=, or race them "
                           "with webbot.answer.answered):\n" + "\n".join(unbounded))


@pytest.mark.parametrize("source", [
    "def f(frame):\n    return frame.title()\n",
    "def f(holder):\n    holder.focus()\n",
    "def f(self):\n    self.page.mouse.click(1, 2)\n",
    "def f(cover):\n    cover.button.click()\n",
    "def f(element):\n    return element.inner_text()\n",
])
def test_the_reading_catches_a_call_that_slips_in(source):
    """The test above would catch these, were they in a module of webbot."""
    assert [bounded for _, _, bounded in _round_trips_in(ast.parse(source))] == [False]


@pytest.mark.parametrize("source", [
    "def f(self):\n    self.hands.click(1, 2)\n",
    "def f(self):\n    self.mouse.click(1, 2)\n",
    "def f(which):\n    return which.title()\n",
    "def f(page):\n    answer.focus(page)\n",
])
def test_the_reading_lets_webbots_own_methods_be(source):
    assert not list(_round_trips_in(ast.parse(source)))
