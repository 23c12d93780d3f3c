"""Counts in words: "1 round", "2 rounds", "2.0 MB"."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and the noun, singular for exactly one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def in_bytes(count: int) -> str:
    """A size as a person reads it: "812 bytes", "2.0 MB"."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
