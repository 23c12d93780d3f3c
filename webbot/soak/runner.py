"""Spreading a soak over Dask workers: one task a game, in a browser of its own.

By default a LocalCluster of worker processes on this machine (one per core, one game at a
time each); with a scheduler address, the workers of an existing Dask cluster, on as many
machines as it has (each with webbot installed: a task starts its own fixture server and
browser where it runs). The runner keeps every worker busy with one game and no more, so a
soak of `--minutes` stops taking new games on time and Ctrl-C leaves little under way. A game
that fails is tried once more, on another worker when there is one; both tries are kept.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import statistics
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from webbot.deadline import Deadline
from webbot.errors import WebbotError, first_line
from webbot.soak.games import Case, Played, make_case, play_case
from webbot.words import counted

TRIES = 2
SCHEDULER_TIMEOUT_S = 10.0
CHECK_S = 1.0  # how often a soak waiting for its games looks at its scheduler
CLOSE_S = 10.0  # a local cluster closes within this, or its workers are killed


@dataclass(frozen=True)
class Plan:
    game: str
    count: int | None = None      # games to play, or
    minutes: float | None = None  # ... for how long to start new ones
    workers: int | None = None    # local worker processes (default: one per core)
    seed: int = 0
    scheduler: str | None = None  # tcp://host:port of an existing Dask cluster
    connect: tuple[str, ...] = ()  # Playwright endpoints, used in turn by the games
    query: str = ""               # extra replica parameters for every game
    options: dict = field(default_factory=dict)  # the game's own soak options (its replica's)
    passed_before: frozenset[int] = frozenset()  # case numbers recorded as passed before (--resume)
    report: bool = False  # each try's report page comes back with it (--report)


@dataclass(frozen=True)
class Try:
    worker: str
    played: Played


@dataclass
class GameRecord:
    case: Case
    tries: list[Try] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.tries) and self.tries[-1].played.passed

    @property
    def seconds(self) -> float:
        return sum(t.played.seconds for t in self.tries)

    @property
    def recoveries(self) -> int:
        return sum(t.played.recoveries for t in self.tries)

    @classmethod
    def from_json(cls, data: dict) -> GameRecord:
        """A record as `as_json` wrote it (the case's page is not kept)."""
        tries = [Try(t["worker"], Played(t["outcome"] == "passed", float(t["seconds"]),
                                         t.get("reason", ""), t.get("frames", ""),
                                         int(t.get("recoveries", 0))))
                 for t in data["tries"]]
        return cls(Case(data["game"], int(data["number"]), data["case"], ""), tries)

    def as_json(self) -> dict:
        last = self.tries[-1]
        return {"game": self.case.game, "case": self.case.name, "number": self.case.number,
                "outcome": "passed" if self.passed else "failed", "attempts": len(self.tries),
                "seconds": round(self.seconds, 2), "reason": last.played.reason,
                "worker": last.worker, "recoveries": self.recoveries,
                "tries": [{"worker": t.worker, "outcome": "passed" if t.played.passed
                           else "failed", "seconds": round(t.played.seconds, 2),
                           "reason": t.played.reason, "frames": t.played.frames,
                           "recoveries": t.played.recoveries}
                          for t in self.tries]}


@dataclass
class SoakResult:
    records: list[GameRecord]
    seconds: float
    interrupted: bool = False
    workers: int = 0
    lost_workers: int = 0  # workers that left the cluster while the soak ran (killed, say)
    scheduler_lost: str | None = None  # why the soak stopped short, its scheduler gone


def attempt(case: Case, connect: str | None, options: dict, report: bool = False
            ) -> tuple[Played, str]:
    """One try of a case, run on a Dask worker: how it went, and which worker played it."""
    from distributed import get_worker

    if os.getpgrp() != os.getpid():
        # The browsers a worker starts go into a session of the worker's own, out of reach of
        # a Ctrl-C meant for the soak (the Playwright driver would die of it mid-game).
        os.setsid()
    try:
        name = str(get_worker().name)
    except ValueError:  # not on a worker (called directly)
        name = f"pid {os.getpid()}"
    return play_case(case, connect, options, report), name


@contextmanager
def dask_client(plan: Plan) -> Iterator:
    """A Dask client on the plan's cluster: an existing scheduler, or a LocalCluster of worker
    processes started here (and stopped on the way out)."""
    from distributed import Client, LocalCluster

    if plan.scheduler:
        with _connected(plan.scheduler) as client:
            yield client
        return
    workers = plan.workers or os.cpu_count() or 1
    # Ctrl-C in a terminal reaches every process of the group: the worker processes (and
    # their browsers) are started with SIGINT ignored, so that only this one hears it, stops
    # the soak and prints its summary, instead of each worker dying with a traceback.
    # Dask's own logs stay quiet below CRITICAL: a worker whose heartbeat meets the scheduler
    # closing at the end of a soak logs an ERROR with a traceback, which is noise; what went
    # wrong in a game is in its record.
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
    finally:
        signal.signal(signal.SIGINT, handler)
    try:
        with Client(cluster) as client:
            yield client
    finally:
        _close(cluster)


def _close(cluster) -> None:
    """Close a LocalCluster within CLOSE_S: a worker stopped in the middle of a game (Ctrl-C)
    may not close by itself for a minute on a busy machine; what is left is killed."""
    with suppress(Exception):  # a timeout, or a cluster half gone: the kill below ends it
        cluster.close(timeout=CLOSE_S)
    for child in multiprocessing.active_children():  # the worker processes started here
        child.kill()
        child.join(timeout=5)


def _connected(address: str, timeout_s: float = SCHEDULER_TIMEOUT_S):
    """A client of the scheduler at `address`. Dask's own timeout does not cover a scheduler
    that takes the connection and never answers (its handshake waits for good), so the
    connection is made in a thread of its own and given up on after `timeout_s` and a grace."""
    from distributed import Client

    made: dict = {}

    def connect() -> None:
        try:
            made["client"] = Client(address, timeout=f"{timeout_s:g}s")
        except Exception as exc:  # handed to the caller below
            made["error"] = exc

    thread = threading.Thread(target=connect, daemon=True, name="dask-connect")
    thread.start()
    thread.join(timeout_s + 5)
    if thread.is_alive():
        raise WebbotError(f"the Dask scheduler at {address} took the connection but did not "
                          f"answer within {timeout_s + 5:g} s")
    error = made.get("error")
    if isinstance(error, (OSError, TimeoutError)):
        raise WebbotError(f"cannot reach the Dask scheduler at {address}: "
                          f"{first_line(error)}") from None
    if error is not None:
        raise error
    return made["client"]


def dashboard(client) -> str | None:
    """The Dask dashboard's address, when the scheduler serves one."""
    services = client.scheduler_info().get("services", {})
    return client.dashboard_link if "dashboard" in services else None


def run_soak(plan: Plan, client, on_record: Callable[[GameRecord], None] = lambda r: None
             ) -> SoakResult:
    """Play the plan's games on the client's workers; `on_record` hears of each game as it
    ends. Ctrl-C cancels what is under way and returns what was played."""
    from distributed import as_completed, wait
    from distributed.client import FuturesCancelledError

    started = time.monotonic()
    deadline = Deadline(plan.minutes * 60 if plan.minutes else None)
    address = client.scheduler.address  # (once it is lost, the client no longer knows it)
    workers = list(client.scheduler_info()["workers"])
    if not workers:
        try:
            client.wait_for_workers(1, timeout=30)
        except TimeoutError:
            raise WebbotError(f"the Dask scheduler at {address} has no "
                              "workers (waited 30 s): start some with `dask worker ADDRESS "
                              "--nthreads 1`") from None
        workers = list(client.scheduler_info()["workers"])
    slots = sum(info.get("nthreads", 1) for info in client.scheduler_info()["workers"].values())
    running: dict = {}
    records: list[GameRecord] = []
    pending = as_completed()
    numbers = iter(range(plan.count if plan.count is not None else 10**9))

    def submit(record: GameRecord, avoid: str | None = None) -> None:
        case = record.case
        connect = plan.connect[case.number % len(plan.connect)] if plan.connect else None
        others = [worker for worker, info in client.scheduler_info()["workers"].items()
                  if str(info.get("name")) != avoid] if avoid else None
        # Another worker is a wish, not a must: a task held to workers that all die before it
        # starts (a restarted worker comes back at a new address) would wait for ever.
        future = client.submit(attempt, case, connect, plan.options, plan.report, pure=False,
                               key=f"{case.game}-{case.number}-{uuid.uuid4().hex[:8]}",
                               workers=others or None, allow_other_workers=bool(others))
        running[future] = record
        pending.add(future)

    def start_next() -> None:
        if deadline.passed():
            return
        number = next(numbers, None)
        while number is not None and number in plan.passed_before:  # recorded as passed before
            number = next(numbers, None)
        if number is not None:
            submit(GameRecord(make_case(plan.game, plan.seed, number, plan.query, plan.options)))

    seen, gone = set(workers), set()

    def lost_workers() -> int:
        """Workers seen during the soak that left it (a restarted one has a new address)."""
        try:
            now = set(client.scheduler_info()["workers"])
        except Exception:  # the scheduler is gone too: what was counted stands
            return len(gone)
        seen.update(now)
        gone.update(seen - now)
        return len(gone)

    interrupted, scheduler_lost = False, None
    cut_off = Deadline(None)  # since when the client has been without its scheduler
    try:
        for _ in range(max(1, slots)):
            start_next()
        while running:
            # A bounded wait, so that a scheduler gone for good is noticed (its games would
            # never end, and as_completed would wait for them for ever).
            finished = pending.next_batch(block=False)
            if not finished:
                if client.status != "running":
                    if cut_off.seconds is None:
                        cut_off = Deadline(SCHEDULER_TIMEOUT_S)
                    elif cut_off.passed():
                        scheduler_lost = _scheduler_lost(address, len(running))
                        break
                else:
                    cut_off = Deadline(None)
                    for future in [f for f in running if f.cancelled()]:  # back: again
                        submit(running.pop(future))
                alive = [f for f in running if not f.cancelled()]
                if alive:
                    # (A timeout, or the futures cancelled as the scheduler went: the loop
                    # looks at them and at the scheduler again.)
                    with suppress(TimeoutError, FuturesCancelledError):
                        wait(alive, timeout=CHECK_S, return_when="FIRST_COMPLETED")
                else:
                    time.sleep(CHECK_S)  # only games cut off: look at the scheduler again
                continue
            for future in finished:
                record = running.pop(future)
                try:
                    played, worker = future.result()
                except Exception as exc:  # the worker died, or the task could not run there
                    if future.cancelled() and client.status != "running":
                        running[future] = record  # cut off from the scheduler: not played
                        continue
                    played, worker = (Played(False, 0.0, f"the task failed: "
                                                         f"{first_line(exc)}"), "?")
                record.tries.append(Try(worker, played))
                if not played.passed and len(record.tries) < TRIES:
                    submit(record, avoid=worker)
                    continue
                records.append(record)
                lost_workers()
                on_record(record)
                start_next()
    except KeyboardInterrupt:
        interrupted = True
        client.cancel(list(running))
    return SoakResult(records, time.monotonic() - started, interrupted, len(workers),
                      lost_workers(), scheduler_lost)


def _scheduler_lost(address: str, under_way: int) -> str:
    return (f"lost the Dask scheduler at {address} (no answer for {SCHEDULER_TIMEOUT_S:g} s); "
            f"{counted(under_way, 'game')} under way not recorded: run the same "
            "command with --resume to play what is left")


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]
