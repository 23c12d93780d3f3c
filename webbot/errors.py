"""The one error type the command line turns into a one-line message and a non-zero exit."""


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
