"""Counts in words: "1 round", "2 rounds", "2.0 MB"; a name not known, with the known one it
looks like."""

from __future__ import annotations

import difflib


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and the noun, singular for exactly one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def in_bytes(count: int) -> str:
    """A size as a person reads it: "812 bytes", "2.0 MB"."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def unknown(kind: str, name: str, known: list[str]) -> str:
    """"no game 'puzlogik': did you mean 'puzlogic'? (one of ...)", as click says it of a
    mistyped command."""
    close = difflib.get_close_matches(name, known, n=1)
    mean = f" did you mean {close[0]!r}?" if close else ""
    return f"no {kind} {name!r}:{mean} one of {', '.join(known)}"
