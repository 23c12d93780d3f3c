"""Lights, a toy fourth game used only by the tests: a 3x3 board where one square at a time is
lit; click it, and the next one lights; after the last, the board turns green. It is a whole
game to webbot (a registration, a command, a bot that sees only pixels, a replica with a soak
case and a judge) and touches nothing outside this folder:
`WEBBOT_GAMES=tests.toy_game:REGISTRATION` registers it and `WEBBOT_FIXTURES` serves its page."""

from pathlib import Path

from webbot.registry import Registration

SITE = Path(__file__).parent / "site"
REGISTRATION = Registration(
    name="lights", title="Lights", page="lights/index.html",
    commands="tests.toy_game.cli:command", replica="tests.toy_game.replica",
    soak="a seeded board of 5 lights",
    player="tests.toy_game.bot:player")
