"""`webbot lights`: play the toy game."""

from __future__ import annotations

import click

from tests.toy_game import REGISTRATION
from webbot.commands import console, run_options
from webbot.session import RunOptions, game_session


@click.group("lights", invoke_without_command=True)
@run_options
def command(options: RunOptions) -> None:
    """Play Lights, the tests' toy game."""
    from tests.toy_game.bot import play

    with game_session(options, REGISTRATION.page) as session:
        play(session, console.print)
