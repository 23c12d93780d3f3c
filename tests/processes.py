"""Child processes that tests start, each stopped within a bounded time whatever the machine's
load: SIGTERM to its process group, a grace period, then SIGKILL by the group, then reaped.

Every child gets a process group of its own (`start_new_session`), so stopping it also stops
what it started (Chromium under webbot, node under `playwright run-server`). A `dask worker
--no-nanny` has been seen ignoring a SIGTERM sent while its scheduler was going away; the
SIGKILL after the grace period is what bounds the wait, not the child's goodwill.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

GRACE_S = 10.0
REAP_S = 10.0


def start(command: Sequence[str], **kwargs: Any) -> subprocess.Popen:
    """Popen in a process group of its own (the group's id is the child's pid)."""
    return subprocess.Popen(list(command), start_new_session=True, **kwargs)


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    # The group may be gone already (a child that left it is reached through its own group).
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)


def stop(process: subprocess.Popen, grace_s: float = GRACE_S,
         first: int = signal.SIGTERM) -> int:
    """Stop `process` and its group: `first` (SIGTERM), `grace_s` to exit, then SIGKILL; reaped
    either way. Returns its exit code. Bounded by grace_s + REAP_S whatever the child does."""
    if process.poll() is None:
        _signal_group(process, first)
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace_s)
    _signal_group(process, signal.SIGKILL)  # whatever of the group is left, the child too
    try:
        return process.wait(timeout=REAP_S)
    except subprocess.TimeoutExpired:  # only a process stuck in the kernel gets here
        raise RuntimeError(f"pid {process.pid} survived SIGKILL for {REAP_S:g} s") from None


@contextmanager
def started(command: Sequence[str], grace_s: float = GRACE_S,
            **kwargs: Any) -> Iterator[subprocess.Popen]:
    """A child for the length of a `with` block, stopped (see stop) when the block ends."""
    process = start(command, **kwargs)
    try:
        yield process
    finally:
        stop(process, grace_s)


def run(command: Sequence[str], timeout: float, env: dict | None = None,
        input: str | bytes | None = None, stdin: Any = None,
        spawn: Callable[..., subprocess.Popen] = start) -> subprocess.CompletedProcess:
    """subprocess.run with output captured as text; past `timeout` the child's whole group is
    stopped (see stop) before TimeoutExpired is raised, so nothing it started lives on.
    `input`: what its standard input reads (bytes as they are); `stdin`: a file of the test's
    for it instead (a terminal, say); `spawn`: what starts it (`start`, or a fork server's)."""
    if stdin is None:
        stdin = subprocess.PIPE if input is not None else subprocess.DEVNULL
    process = spawn(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    env=env)
    data = input.encode() if isinstance(input, str) else input
    try:
        out, err = process.communicate(data, timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(process, grace_s=2)
        process.communicate()
        raise
    finally:
        if process.poll() is None:  # an interrupt while waiting
            stop(process, grace_s=2)
    # Whatever the child left behind in its group (a browser it did not close) goes too.
    _signal_group(process, signal.SIGKILL)
    return subprocess.CompletedProcess(process.args, process.returncode,
                                       out.decode(errors="replace"),
                                       err.decode(errors="replace"))


def descendants(pid: int) -> list[int]:
    """The pids of every process under `pid` (children, theirs, ...), from /proc. Chromium
    starts in a process group of its own, so its renderers are found by parentage."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError, IndexError, ValueError):
                # pid (comm) state ppid ...: comm may hold spaces, so split after its ")"
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def running(pid: int) -> bool:
    """Whether `pid` is a live process (not gone, nor a zombie waiting for its parent)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX"
    except (OSError, IndexError):
        return False


def kill_renderers(process: subprocess.Popen) -> list[int]:
    """SIGKILL the renderer processes of the tabs of the Chromium started under `process`
    (what an out-of-memory kill does to a tab; not the browser's own UI, which is a renderer
    too); their pids, empty when there were none."""
    killed = []
    for pid in descendants(process.pid):
        with suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes()  # a zygote's child
            # rewrites its command line into one string: look for the words in it
            if b"--type=renderer" in command and b"--top-chrome-webui" not in command:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
    return killed
