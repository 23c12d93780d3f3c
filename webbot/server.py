"""Serves the bundled game replicas (fixtures/) over HTTP on 127.0.0.1."""

from __future__ import annotations

import functools
import os
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

from webbot.errors import WebbotError


def fixtures_root() -> Path:
    """The folder holding the game replicas: $WEBBOT_FIXTURES, the installed copy, or the repo's."""
    override = os.environ.get("WEBBOT_FIXTURES")
    candidates = [Path(override)] if override else []
    here = Path(__file__).resolve().parent
    candidates += [here / "fixtures", here.parent / "fixtures"]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise WebbotError(f"fixtures folder not found (looked in {', '.join(map(str, candidates))})")


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        pass

    def send_head(self):  # (the stdlib's: an open file, or None once answered)
        try:
            return super().send_head()
        except ValueError:  # a NUL or a lone surrogate in the path: no file has that name
            self.send_error(HTTPStatus.BAD_REQUEST, "No file can have that name")
            return None

    def list_directory(self, path: str | os.PathLike) -> None:
        """A folder without an index page is not shown."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")

    def end_headers(self) -> None:
        # The replicas change while they are developed; a stale cached script is a confusing bug.
        self.send_header("Cache-Control", "no-store")
        # A replica may load a level file from another local server (?levels=URL).
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    # A browser opens six connections at once and more for a page's frames: the standard
    # library's backlog of 5 let the kernel drop a connection now and then, which the browser
    # tried again only after a second (a page's load of 0.1 s took 1.1 s).
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:
        # A browser that closes a page mid-download is normal; anything else is said in one
        # line, without the request's words (anyone's input) and without a traceback.
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError):
            print(f"fixture server: a request from {client_address[0]} failed "
                  f"({type(error).__name__})", file=sys.stderr)


# How often the serving thread looks whether it is asked to stop: a stop waits for that look
# (the standard library's half second, paid at the end of every run).
STOP_POLL_S = 0.02


class FixtureServer:
    """A real HTTP server for a folder, on a background thread. Use as a context manager."""

    def __init__(self, root: Path | None = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.root = Path(root) if root else fixtures_root()
        if not self.root.is_dir():
            raise WebbotError(f"cannot serve {self.root}: not a folder")
        handler = functools.partial(_QuietHandler, directory=str(self.root))
        try:
            self._httpd = _QuietServer((host, port), handler)
        except OSError as exc:
            raise WebbotError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> FixtureServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": STOP_POLL_S}, daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._httpd.serve_forever()

    def stop(self) -> None:
        if self._thread:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> FixtureServer:
        return self.start()

    def __exit__(
        self, exc_type: type | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
