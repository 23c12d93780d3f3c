"""Burrito Bison as a Gymnasium environment: the bundled replica in headless Chromium, a game
seeded from the seed, and as the observation the game's canvas as the bot sees it: the
newest frame of the page's screencast (the first one after an action's input), at the scale
of the bot's templates, 1173x660 RGB. The action is the bot's: look again, click a point, or
drag from a point to another (the launch); points as fractions of the picture's width and
height (0-1). The game has no end:
an episode ends by its step limit. No reward here: the replica's judge is for a wrapper to
read (webbot.gym.judge), never the agent."""

from __future__ import annotations

import contextlib
from enum import IntEnum
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from webbot.burrito_bison.act import Hands
from webbot.burrito_bison.bot import game_spec, pack_sized
from webbot.burrito_bison.layout import PACK_GAME_SIZE
from webbot.burrito_bison.matching import TemplatePack
from webbot.gym.browser_env import BrowserEnv, ToPage
from webbot.screen import Grab, MovedSinceSeen, Screen

WIDTH, HEIGHT = PACK_GAME_SIZE


class Move(IntEnum):
    LOOK = 0  # nothing done: the next frame
    CLICK = 1  # at `at`
    DRAG = 2  # pressed at `at`, pulled to `end`, let go


class BurritoBisonEnv(BrowserEnv):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 15}
    REPLICA = "webbot.burrito_bison.replica"  # its judge, for webbot.gym.judge alone
    RAW_SIZE = (WIDTH, HEIGHT)


    def __init__(self, render_mode: str | None = None, url: str | None = None) -> None:
        super().__init__(url)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 255, (HEIGHT, WIDTH, 3), np.uint8)
        self.action_space = spaces.Dict({
            "move": spaces.Discrete(len(Move)),
            "at": spaces.Box(0.0, 1.0, (2,), np.float32),
            "end": spaces.Box(0.0, 1.0, (2,), np.float32)})
        self._forget()

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """`options={"flight": 0.25}` scales the flights' length (the replica's own setting, for
        quick rounds); `{"intro": False}` skips the title's intro."""
        super().reset(seed=seed)
        self._bundled_only(options, "flight", "intro")
        game = int(self.np_random.integers(1_000_000))
        page = f"burrito-bison/index.html?seed={game}&size={WIDTH}x{HEIGHT}{_extra(options)}"
        self._on_browser_thread(lambda: self._start(page))
        return self._pixels(), {}

    def step(self, action: dict[str, Any]) -> tuple[np.ndarray, float, bool, bool,
                                                     dict[str, Any]]:
        move = Move(int(action["move"]))
        at, end = _point(action["at"]), _point(action["end"])
        self._on_browser_thread(lambda: self._act(move, at, end))
        return self._pixels(), 0.0, False, False, {}

    def render(self) -> np.ndarray | None:
        return self._pixels() if self.render_mode == "rgb_array" else None

    # ---- on the browser's thread -------------------------------------------------------------

    def _start(self, page: str) -> None:
        session, pack = self._open(page), TemplatePack()
        self._screen = session.game_screen(game_spec(pack), fast=True, streamed=True)
        self._hands = Hands(session.mouse)
        self._look()

    def _act(self, move: Move, at: tuple[float, float], end: tuple[float, float]) -> None:
        assert self._hands is not None and self._grab is not None
        with contextlib.suppress(MovedSinceSeen):  # the game moved on the page: nothing done
            if move is Move.CLICK:
                self._hands.click(self._grab, at)
            elif move is Move.DRAG:
                self._hands.launch(self._grab, at, end)
        self._look()

    def _look(self) -> None:
        assert self._screen is not None
        self._grab = pack_sized(self._screen.look())

    def _raw_picture(self) -> tuple[np.ndarray, ToPage, bool]:
        self._look()
        assert self._grab is not None
        return self._pixels(), self._grab.to_page, False

    def _forget(self) -> None:
        self._screen: Screen | None = None
        self._hands: Hands | None = None
        self._grab: Grab | None = None

    # ---- what the agent gets ------------------------------------------------------------------

    def _pixels(self) -> np.ndarray:
        if self._grab is None:
            raise gym.error.ResetNeeded("call reset() before step() or render()")
        image = self._grab.image[..., ::-1]
        if image.shape[:2] != (HEIGHT, WIDTH):  # (a page zoomed by the user: never here)
            raise RuntimeError(f"the game's picture is {image.shape[1]}x{image.shape[0]}")
        return np.ascontiguousarray(image, dtype=np.uint8)


def _extra(options: dict | None) -> str:
    """The replica's settings an episode's options name, as the page's query."""
    extra = ""
    options = dict(options or {})
    flight = options.pop("flight", None)
    if flight is not None:
        if not (isinstance(flight, (int, float)) and 0 < flight <= 100):
            raise ValueError(f"flight {flight!r}: a scale of the flights, over 0 and up to 100")
        extra += f"&flight={flight:g}"
    if options.pop("intro", True) is False:
        extra += "&intro=0"
    if options:
        raise ValueError(f"no Burrito Bison option {', '.join(map(repr, options))}: flight, "
                         "intro")
    return extra


def _point(values: Any) -> tuple[float, float]:
    """A point of the picture, from its fractions of the width and height."""
    x, y = np.clip(np.asarray(values, dtype=np.float64).reshape(2), 0.0, 1.0)
    return float(x) * (WIDTH - 1), float(y) * (HEIGHT - 1)
