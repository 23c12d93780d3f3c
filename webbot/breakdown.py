"""A run's parts written down for the benchmarks: `WEBBOT_PHASES=FILE` has a run write them to
FILE as JSON when it ends (scripts/bench_breakdown.py reads it): the wall-clock moments the
run started and ended, and the seconds of each part (webbot.phases). (The process's own start
is the launcher's to tell: the kernel's count of it is only as fine as a second.)"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from webbot.folders import write_private
from webbot.phases import Phases

VARIABLE = "WEBBOT_PHASES"


def write_if_asked(phases: Phases) -> None:
    """The run's parts, to the file WEBBOT_PHASES names (nothing when it is not set; a file
    that cannot be written is said in one line, and the run goes on)."""
    path = os.environ.get(VARIABLE)
    if not path:
        return
    record = {"run_started": phases.began, "run_ended": time.time(),
              "seconds": dict(phases.seconds)}
    try:
        write_private(Path(path), json.dumps(record).encode())
    except OSError as exc:
        print(f"webbot: {VARIABLE}: cannot write {path}: {exc.strerror or exc}",
              file=sys.stderr)
