"""The run's output streams, whose reader may close them (`webbot puzlogic | head -3`).

The command ends there quietly, as a filter killed by SIGPIPE would, with its status (141):
it did not finish what it was asked, so not 0; its reader chose to stop, so not a failure (1).
Python ignores SIGPIPE, so a write to a pipe with no reader raises BrokenPipeError; as the
Python docs' "Note on SIGPIPE" recommends, the stream is then sent to os.devnull (what is still
buffered goes there, not to a traceback at exit) and the run unwinds, closing its browser on
the way out.
"""

from __future__ import annotations

import os
from typing import NoReturn, TextIO

READER_GONE = 141  # 128 + SIGPIPE: the status a shell shows for a filter SIGPIPE ended


class OutputClosed(SystemExit):
    """The reader of the run's stdout or stderr has closed it. A SystemExit, so that no
    `except Exception` takes it for a failure of the game (a failure folder, a recovery),
    while every `finally` and `with` on the way out still runs."""

    def __init__(self) -> None:
        super().__init__(READER_GONE)


class Guarded:
    """A text stream (sys.stdout, sys.stderr) whose first write or flush that finds its
    reader gone sends it to os.devnull and raises OutputClosed; later writes (a summary
    printed while the run unwinds) go to os.devnull without a word."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.gone = False

    def __getattr__(self, name: str):
        return getattr(self.stream, name)

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            self._gone()

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            self._gone()

    def _gone(self) -> NoReturn:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, self.stream.fileno())
        finally:
            os.close(devnull)
        self.gone = True
        raise OutputClosed from None
