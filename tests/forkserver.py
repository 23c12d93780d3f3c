"""`webbot` runs for tests, each a process of its own forked from a server that imported the
command's libraries once: the run's own pid, process group, streams, signals and exit code,
without an interpreter's start and its libraries' imports (0.3 s) each time.

The server (`python -m tests.forkserver SOCKET`, one per test process, started at its first
run) takes a request on a Unix socket in a folder only this user can enter: the arguments,
the environment, the working folder, and the three file descriptors to use as standard
input, output and error. It forks; the child becomes `python -m webbot.cli ARGS` (its own
session, so its group's id is its pid, as `processes.start` gives) and ends as the
interpreter does. The server reaps it and sends its exit status back.

What a fresh interpreter does differently is tested on fresh processes: which libraries a
command loads (tests/test_startup.py), an environment that changes the interpreter's start
(PYTHON* variables), the memory a run's processes held (`fresh=True` in `run_webbot`).
"""

from __future__ import annotations

import io
import json
import os
import runpy
import select
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from contextlib import suppress
from pathlib import Path

from tests import processes

# The libraries `webbot GAME` imports, loaded once in the server. Not webbot's own modules:
# some keep what they found at import (the console's width from COLUMNS, say), which a child
# with another environment must find anew, as a fresh process does.
PRELOADED = ("numpy", "cv2", "playwright.sync_api", "pydantic", "z3", "bs4", "requests",
             "rich.console", "rich.table", "rich.progress", "click", "psutil", "PIL.Image",
             "pytesseract", "asyncio", "concurrent.futures", "zipfile")
STARTED_S = 60.0  # for the server to say it listens; it imports for about a second


# ---- the test's side ----------------------------------------------------------------------

class ForkServer:
    """The server of this test process, started when first asked."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.folder: str | None = None
        self._starting = threading.Lock()  # (tests start runs from threads too)

    @property
    def address(self) -> str:
        with self._starting:
            if self.process is None or self.process.poll() is not None:
                self.stop()  # (one that died: its folder goes)
                self._start()
            return os.path.join(self.folder, "socket")

    def _start(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="fork")  # mode 0700: this user's only
        self.process = processes.start(
            [sys.executable, "-m", "tests.forkserver", os.path.join(self.folder, "socket")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None,
            cwd=Path(__file__).resolve().parents[1])
        ready, _, _ = select_one(self.process.stdout, STARTED_S)
        line = self.process.stdout.readline() if ready else b""
        if line.strip() != b"listening":
            self.stop()
            raise RuntimeError(f"the fork server did not start within {STARTED_S:g} s")

    def stop(self) -> None:
        if self.process is not None:
            with suppress(OSError):
                self.process.stdin.close()  # the server ends at the end of its input
            processes.stop(self.process, grace_s=5)
            self.process = None
        if self.folder is not None:
            with suppress(OSError):
                os.unlink(os.path.join(self.folder, "socket"))
                os.rmdir(self.folder)
            self.folder = None

    def popen(self, args: list[str], **kwargs) -> subprocess.Popen:
        """`webbot ARGS` as a subprocess.Popen (its pipes, wait, communicate, pid, returncode)
        forked by the server."""
        return Forked(self.address, args, **kwargs)


def select_one(stream, timeout: float):
    return select.select([stream], [], [], timeout)


class Forked(subprocess.Popen):
    """A Popen whose child the fork server makes and reaps: its exit status comes over the
    server's socket. Its pid is a real process's, in a group of its own."""

    def __init__(self, address: str, args: list[str], **kwargs) -> None:
        self._address = address
        self._status: socket.socket | None = None
        env = kwargs.pop("env", None)
        self._child_env = dict(os.environ if env is None else env)
        kwargs.pop("start_new_session", None)  # (the server's child always is)
        super().__init__(["webbot", *args], **kwargs)

    def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd, env,
                       startupinfo, creationflags, shell, p2cread, p2cwrite, c2pread,
                       c2pwrite, errread, errwrite, *rest) -> None:
        if preexec_fn is not None or pass_fds:
            raise ValueError("a forked webbot takes no preexec_fn or pass_fds")
        fds = [p2cread if p2cread != -1 else 0, c2pwrite if c2pwrite != -1 else 1,
               errwrite if errwrite != -1 else 2]
        request = json.dumps({"args": list(args[1:]), "env": self._child_env,
                              "cwd": os.fspath(cwd) if cwd is not None else os.getcwd()})
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.settimeout(STARTED_S)
            connection.connect(self._address)
            socket.send_fds(connection, [request.encode() + b"\n"], fds)
            reply = _line(connection)
            connection.settimeout(None)
        except BaseException:
            connection.close()
            raise
        finally:
            self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)
        if not reply.isdigit():
            connection.close()
            raise OSError(f"the fork server could not start webbot: {reply}")
        self.pid = int(reply)
        self._child_created = True
        self._status = connection

    def _internal_poll(self, _deadstate=None, **_ignored):
        if self.returncode is None:
            self._read_status(0)
        return self.returncode

    def _wait(self, timeout):
        if self.returncode is None and not self._read_status(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode

    def _read_status(self, timeout: float | None) -> bool:
        """The exit status, if it came within `timeout` (None: for ever)."""
        connection = self._status
        if connection is None:
            return self.returncode is not None
        if timeout is not None:
            ready, _, _ = select_one(connection, max(timeout, 0))
            if not ready:
                return False
        line = _line(connection)
        connection.close()
        self._status = None
        # A server gone before the child ended: the child is gone with its group, or is
        # stopped by the test's own bound; either way it is not waited for.
        self.returncode = int(line) if line.lstrip("-").isdigit() else -signal.SIGKILL
        return True


def _line(connection: socket.socket) -> str:
    """One line of the connection, and not a byte of the next: the server may have sent the
    child's exit code right after its pid (a child that ends at once, a usage error), and a
    larger read took both as the pid (CI once: "2951\n2")."""
    data = b""
    while not data.endswith(b"\n"):
        byte = connection.recv(1)
        if not byte:
            break
        data += byte
    return data.decode().strip()


# ---- the server's side --------------------------------------------------------------------

class _Child(Exception):  # noqa: N818 (not an error: the forked child leaving the loop)
    def __init__(self, request: dict, fds: list[int]) -> None:
        super().__init__()
        self.request, self.fds = request, fds


def serve(address: str) -> None:
    """Forks a child per request until its standard input ends; the child raises _Child."""
    for name in PRELOADED:
        __import__(name)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(64)
    events = selectors.DefaultSelector()
    events.register(listener, selectors.EVENT_READ, "request")
    events.register(sys.stdin.buffer, selectors.EVENT_READ, "parent")
    print("listening", flush=True)
    children: dict[int, tuple[int, socket.socket]] = {}  # pidfd: (pid, its connection)
    while True:
        for key, _ in events.select():
            if key.data == "parent":
                if not os.read(sys.stdin.fileno(), 4096):
                    return  # the test process ended
            elif key.data == "request":
                connection, _ = listener.accept()
                try:
                    request, fds = _request(connection)
                except (OSError, ValueError) as exc:
                    with suppress(OSError):
                        connection.sendall(f"bad request: {exc}\n".encode())
                    connection.close()
                    continue
                started, in_session = os.pipe()
                pid = os.fork()
                if pid == 0:
                    os.setsid()  # (before its pid is told: a signal to its group reaches it)
                    os.close(started)
                    os.close(in_session)
                    events.close()
                    listener.close()
                    connection.close()
                    for pidfd, (_, other) in children.items():
                        os.close(pidfd)
                        other.close()
                    raise _Child(request, fds)
                for fd in fds:
                    os.close(fd)
                os.close(in_session)
                os.read(started, 1)  # the child's end closed: it has its session
                os.close(started)
                pidfd = os.pidfd_open(pid)
                children[pidfd] = (pid, connection)
                events.register(pidfd, selectors.EVENT_READ, "child")
                with suppress(OSError):
                    connection.sendall(f"{pid}\n".encode())
            else:
                pidfd = key.fd
                pid, connection = children.pop(pidfd)
                events.unregister(pidfd)
                os.close(pidfd)
                _, status = os.waitpid(pid, 0)
                with suppress(OSError):
                    connection.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
                connection.close()


def _request(connection: socket.socket) -> tuple[dict, list[int]]:
    connection.settimeout(10)
    data, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
    while not data.endswith(b"\n"):
        more = connection.recv(1 << 20)
        if not more:
            raise ValueError("cut short")
        data += more
    if len(fds) != 3:
        for fd in fds:
            os.close(fd)
        raise ValueError(f"{len(fds)} file descriptors, not 3")
    connection.settimeout(None)
    return json.loads(data), fds


def become_webbot(request: dict, fds: list[int]) -> None:
    """In the forked child: `python -m webbot.cli ARGS` as a fresh interpreter would run it."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in set(fds) - {0, 1, 2}:
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    tempfile.tempdir = None  # (found again from TMPDIR, as a fresh process would)
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        stream = _stream(fd, getattr(sys, name))
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    sys.path[0] = os.getcwd()  # (what `python -m` puts first)
    sys.argv = ["-m", *request["args"]]
    runpy.run_module("webbot.cli", run_name="__main__", alter_sys=True)


def _stream(fd: int, like: io.TextIOWrapper) -> io.TextIOWrapper:
    """A standard stream on `fd` as Python makes one at its start (line-buffered on a
    terminal, stderr always)."""
    raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
    buffered = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
    return io.TextIOWrapper(buffered, encoding=like.encoding, errors=like.errors,
                            line_buffering=fd == 2 or (fd == 1 and raw.isatty()))


if __name__ == "__main__":
    try:
        serve(sys.argv[1])
        forked = None
    except _Child as child:
        forked = child.request, child.fds
    if forked is not None:  # (outside the except: the run must not start in its context)
        become_webbot(*forked)
