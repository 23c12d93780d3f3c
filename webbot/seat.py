"""What a game's bot sees of its run: a small face of the session (webbot.session.Session is
one), so a game reaches no further than its screen, its mouse and its recorder."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from webbot.answer import Soon
    from webbot.debug import Recorder
    from webbot.finder import Found
    from webbot.game import GameSpec
    from webbot.mouse import Mouse
    from webbot.screen import Screen


class Seat(Protocol):
    """What a game's bot sees of its run (a webbot.session.Session is one; only a game's
    factory, `player`, is handed the whole session): the game found on the page, as a Screen
    or as its frame; the top page's HTML, and the browser's copy of what it loaded; the mouse
    made for it; the recorder; a wait with the page running; and how often the page was
    reopened (a bot finds its game again on a new one)."""

    recorder: Recorder
    mouse: Mouse

    @property
    def reopened(self) -> int: ...

    def top_html(self) -> tuple[str, str]: ...

    def top_resources(self, urls: list[str], most_bytes: int) -> Soon: ...

    def find_game(self, spec: GameSpec, report: Callable[[str], None] = ...) -> Found: ...

    def game_screen(self, spec: GameSpec, timeout_s: float = ..., *, fast: bool = ...,
                    streamed: bool = ..., stream_format: str | None = ...,
                    report: Callable[[str], None] = ...) -> Screen: ...

    def wait(self, seconds: float) -> None: ...
