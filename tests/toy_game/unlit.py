"""Lights with a broken contract: its step forgets to look again and returns nothing
(`WEBBOT_GAMES=tests.toy_game.unlit:REGISTRATION`), for the tests of webbot.contract."""

from dataclasses import replace

from tests.toy_game import REGISTRATION as LIGHTS
from tests.toy_game.bot import Lights, next_light
from webbot.play import Playable


class Unlit(Lights):
    def step(self, square: int) -> None:
        super().step(square)


def player(session):
    return Playable.on(session, Unlit(session, report=lambda line: None), next_light,
                    lambda line: None)


REGISTRATION = replace(LIGHTS, player="tests.toy_game.unlit:player")
