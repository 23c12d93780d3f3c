"""Burrito Bison as a Gymnasium environment: the bundled replica in headless Chromium, a game
seeded from the seed, and as the observation the game's canvas as the bot sees it: the
newest frame of the page's screencast (the first one after an action's input), at the scale
of the bot's templates, cut to the game's 1173x660 scene (RGB) whatever size the page draws
it at. The action is the bot's: look again, click a point, or drag from a point to another
(the launch); points as fractions of the picture's width and height (0-1). The game has no
end: an episode ends by its step limit. No reward here: the replica's judge is for a
wrapper to read (webbot.gym.judge), never the agent."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from webbot.burrito_bison.bot import pack_sized, player
from webbot.burrito_bison.layout import PACK_GAME_SIZE, REAL_SIZES
from webbot.gym.browser_env import BrowserEnv, ToPage, fraction
from webbot.screen import Screen

WIDTH, HEIGHT = PACK_GAME_SIZE


class BurritoBisonEnv(BrowserEnv):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 15}
    REPLICA = "webbot.burrito_bison.replica"  # its judge, for webbot.gym.judge alone
    RAW_SIZE = (WIDTH, HEIGHT)

    def __init__(self, render_mode: str | None = None, url: str | None = None) -> None:
        super().__init__(render_mode, url)
        self.observation_space = spaces.Box(0, 255, (HEIGHT, WIDTH, 3), np.uint8)
        self.action_space = spaces.Dict({
            "move": spaces.Discrete(3),  # look, click, drag (browser_env's LOOK, CLICK, DRAG)
            "at": spaces.Box(0.0, 1.0, (2,), np.float32),
            "end": spaces.Box(0.0, 1.0, (2,), np.float32)})
        self._forget()

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """`options={"flight": 0.25}` scales the flights' length (the replica's own setting, for
        quick rounds); `{"intro": False}` skips the title's intro; `{"size": "1280x768"}`
        draws the game at one of the real game's other sizes (1173x660 unless said)."""
        super().reset(seed=seed)
        self._bundled_only(options, "flight", "intro", "size")
        game = int(self.np_random.integers(1_000_000))
        page = f"burrito-bison/index.html?seed={game}{_extra(options)}"
        self._on_browser_thread(lambda: self._start(page))
        return self.raw_look(), self._metrics()

    def step(self, action: dict[str, Any]) -> tuple[np.ndarray, float, bool, bool,
                                                     dict[str, Any]]:
        """The move as a hand makes it (webbot.gym.raw's, without keys), then the next frame."""
        picture, _ = self.raw_step(int(action["move"]), fraction(action["at"]),
                                   fraction(action["end"]), 0)
        return picture, 0.0, False, False, self._metrics()

    def render(self) -> np.ndarray | None:
        return self._pixels() if self.render_mode == "rgb_array" else None

    # ---- on the browser's thread -------------------------------------------------------------

    def _start(self, page: str) -> None:
        bot = player(self._open(page)).bot
        bot.find()
        self._screen = bot.screen  # (its eyes are the agent's)

    def _raw_picture(self) -> tuple[np.ndarray, ToPage, bool]:
        """The newest frame, at the templates' scale, cut to the game's 1173x660 scene: a game
        drawn at another size fits its scene into its box, centred (the real game's sizes),
        so the frame is the scene with bands beside it or above and below."""
        assert self._screen is not None
        grab = pack_sized(self._screen.look())
        left = (grab.image.shape[1] - WIDTH) // 2
        top = (grab.image.shape[0] - HEIGHT) // 2
        self._scene = grab.image[top:top + HEIGHT, left:left + WIDTH]
        return self._pixels(), lambda x, y: grab.to_page(x + left, y + top), False

    def _forget(self) -> None:
        self._screen: Screen | None = None
        self._scene: np.ndarray | None = None

    # ---- what the agent gets ------------------------------------------------------------------

    def _pixels(self) -> np.ndarray:
        if self._scene is None:
            raise gym.error.ResetNeeded("call reset() before step() or render()")
        return np.ascontiguousarray(self._scene[..., ::-1], dtype=np.uint8)


def _extra(options: dict | None) -> str:
    """The replica's settings an episode's options name, as the page's query."""
    options = dict(options or {})
    size = options.pop("size", f"{WIDTH}x{HEIGHT}")
    if size not in [f"{w}x{h}" for w, h in REAL_SIZES]:
        raise ValueError(f"size {size!r}: one of the real game's, "
                         f"{', '.join(f'{w}x{h}' for w, h in REAL_SIZES)}")
    extra = f"&size={size}"
    flight = options.pop("flight", None)
    if flight is not None:
        if not (isinstance(flight, (int, float)) and 0 < flight <= 100):
            raise ValueError(f"flight {flight!r}: a scale of the flights, over 0 and up to 100")
        extra += f"&flight={flight:g}"
    if options.pop("intro", True) is False:
        extra += "&intro=0"
    if options:
        raise ValueError(f"no Burrito Bison option {', '.join(map(repr, options))}: flight, "
                         "intro, size")
    return extra
