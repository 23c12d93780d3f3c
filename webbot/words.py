"""Counts in words: "1 round", "2 rounds"."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and the noun, singular for exactly one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
