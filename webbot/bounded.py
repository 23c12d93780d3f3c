"""Numbers written by others (a page's card names, alerts and headers; an option's value),
parsed with bounds: a few ASCII digits, a value in a range. Anything else is one line that names
the value, never Python's own ValueError (int() refuses a string of over 4300 digits, and takes
digits of other scripts that a page's number is not written in)."""

from __future__ import annotations

from webbot.errors import WebbotError
from webbot.shown import shown

MAX_DIGITS = 18  # a number with more is no number a page or a user means
SHOWN_DIGITS = 24  # of a refused value, in its line


class OutOfBounds(WebbotError):
    """A number that is not one, or not within the bounds its place allows."""


def whole_number(text: str, low: int, high: int, what: str) -> int:
    """`text`, at most MAX_DIGITS ASCII digits, as a whole number from `low` to `high`; else an
    OutOfBounds: "{what}: expected a whole number from {low} to {high}, got {text}"."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS and \
            low <= int(text) <= high:
        return int(text)
    got = text if text.isascii() and text.isdigit() else repr(text)
    raise OutOfBounds(f"{what}: expected a whole number from {low} to {high}, got "
                      f"{shown(got, SHOWN_DIGITS)}")
