"""The one error type the command line turns into a one-line message and a non-zero exit, and
the user's Ctrl-C told apart from what it broke."""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType

from webbot.shown import shown_name


class WebbotError(Exception):
    """A failure the user can act on; its message is a single line."""

    exit_code = 1


class WaitTimeout(WebbotError):
    """The screen never reached the awaited state."""

    def __init__(self, message: str, last_grab=None) -> None:
        super().__init__(message)
        self.last_grab = last_grab


def first_line(error: BaseException) -> str:
    """The first non-empty line of an exception's message (Playwright's run to many lines)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def say_error(message: str) -> None:
    """`webbot: error: MESSAGE` on stderr, the message kept on its line (a file's name in it
    may hold a newline: see webbot.shown): the line a failed run ends with, and the line a
    command over many files says of each one it could not answer."""
    print(f"webbot: error: {shown_name(message)}", file=sys.stderr)


_ctrl_c = threading.Event()


def _heard(signum: int, frame: FrameType | None) -> None:
    _ctrl_c.set()
    raise KeyboardInterrupt


def hear_ctrl_c() -> None:
    """Remember a Ctrl-C as well as raising KeyboardInterrupt. A terminal's Ctrl-C goes to the
    browser too, which dies with it; Python may drop the KeyboardInterrupt (raised inside a
    callback it ignores errors of), and the run would take the browser's end for a lost page
    to recover from. Main thread only, and only where Python's own handler is in place."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
        signal.signal(signal.SIGINT, _heard)


def ctrl_c_heard() -> bool:
    return _ctrl_c.is_set()


def stop_if_ctrl_c(cause: BaseException | None = None) -> None:
    """KeyboardInterrupt when Ctrl-C was heard: a failure that follows it is its doing."""
    if _ctrl_c.is_set():
        raise KeyboardInterrupt from cause


def quiet_driver_pipes_at_exit() -> None:
    """Keep one message of asyncio's off stderr: Playwright's driver's pipes found unclosed
    once its loop has closed (a Ctrl-C, or a driver ended by its pid, on a busy machine, before
    the loop saw it exit) and closed at exit through that loop. The driver is gone by then;
    Python would print a traceback after our one line. Every other unraisable is printed."""
    default = sys.unraisablehook

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        closing_pipes = getattr(unraisable.object, "__qualname__", "").endswith(
            "Transport.__del__")
        if not (closing_pipes and isinstance(unraisable.exc_value, RuntimeError)
                and str(unraisable.exc_value) == "Event loop is closed"):
            default(unraisable)

    sys.unraisablehook = hook
