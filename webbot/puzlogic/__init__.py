"""Puzlogic: place numbered pieces on a grid so no row or column repeats and sums hit targets."""

from webbot.registry import Registration

REGISTRATION = Registration(
    name="puzlogic", title="Puzlogic", page="puzlogic/index.html",
    commands="webbot.puzlogic.cli:command", replica="webbot.puzlogic.replica",
    soak="a generated level (3 to 12 pieces, every sum kind)",
    player="webbot.puzlogic.bot:player")
