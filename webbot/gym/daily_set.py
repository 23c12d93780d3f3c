"""The Daily SET as a Gymnasium environment: the bundled replica in headless Chromium, a puzzle
generated from the seed, and as the observation what the bot perceives of the page: its 12
card pictures (RGB, each scaled to the current page's 190x124) and the page's last message.
The action names three cards (0-11, page order), clicked as the bot clicks them; one naming a
card twice changes nothing. The episode ends when the page has confirmed 6 different sets,
says all were found before, or leaves for its completion page. No reward here: the replica's
judge is for a wrapper to read, never the agent."""

from __future__ import annotations

import string
from typing import Any

import cv2
import gymnasium as gym
import numpy as np
from gymnasium import spaces

from webbot import answer
from webbot.daily_set.act import Hands
from webbot.daily_set.answers import Answer
from webbot.daily_set.bot import (
    COMPLETION_WAIT_S,
    TILE,
    cards_picture,
    layout_name,
    player,
)
from webbot.daily_set.bundled import BUNDLED_PAGES as LAYOUTS
from webbot.daily_set.page import Board
from webbot.gym.browser_env import BrowserEnv, ToPage
from webbot.options import BrowserOptions
from webbot.set_cards.model import DAILY_SETS

CARDS = 12
MESSAGE_CHARS = string.printable[:95]  # letters, digits, punctuation and the space
MESSAGE_LENGTH = 200
SHOT_MS = 10_000.0
LOOK_S = 0.05  # one look at the page's title and address


class DailySetEnv(BrowserEnv):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}
    REPLICA = "webbot.daily_set.replica"  # its judge, for webbot.gym.judge alone
    RAW_SIZE = BrowserOptions().viewport  # the page's window, as the bot's browser opens it

    def __init__(self, render_mode: str | None = None, url: str | None = None) -> None:
        super().__init__(render_mode, url)
        self.observation_space = spaces.Dict({
            "cards": spaces.Box(0, 255, (CARDS, TILE[1], TILE[0], 3), np.uint8),
            "message": spaces.Text(MESSAGE_LENGTH, min_length=0, charset=MESSAGE_CHARS)})
        self.action_space = spaces.MultiDiscrete([CARDS] * 3)
        self._forget()

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """`options={"layout": "old" | "2022" | "current"}` picks the page (current unless
        said)."""
        super().reset(seed=seed)
        self._bundled_only(options, "layout")
        layout = (options or {}).get("layout", "current")
        if layout not in LAYOUTS:
            raise ValueError(f"no Daily SET layout {layout!r}: one of {', '.join(LAYOUTS)}")
        puzzle = int(self.np_random.integers(1_000_000))
        self._on_browser_thread(lambda: self._open_puzzle(f"{LAYOUTS[layout]}?seed={puzzle}"))
        return self._observation(), self._info()

    def step(self, action: np.ndarray) -> tuple[dict[str, Any], float, bool, bool,
                                                 dict[str, Any]]:
        triple = tuple(sorted(int(card) for card in action))
        if self._board is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if len(set(triple)) == 3 and not self._terminated:
            self._on_browser_thread(lambda: self._click(triple))
        return self._observation(), 0.0, self._terminated, False, self._info()

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array" or self._images is None:
            return None
        return np.ascontiguousarray(cards_picture(self._images).image[..., ::-1])

    # ---- on the browser's thread -------------------------------------------------------------

    def _open_puzzle(self, page: str) -> None:
        bot = player(self._open(page)).bot  # (its eyes are the agent's)
        native = bot.open_board()
        self._hands, self._board = bot.hands, bot.board
        self._layout = layout_name(self._board, native)
        self._images = [_scaled(image) for image in native]

    def _click(self, triple: tuple[int, int, int]) -> None:
        assert self._board is not None and self._hands is not None
        heard = self._hands.click_set([self._board.slots[i] for i in triple])
        self._message = _printable(heard.text)
        if heard.great and not heard.already:
            self._confirmed.add(triple)
        if _ends(heard, len(self._confirmed)):
            self._terminated = True
            self._completion = self._hands.wait_done(COMPLETION_WAIT_S)

    def _raw_picture(self) -> tuple[np.ndarray, ToPage, bool]:
        """The page's window (the puzzle is the page), and whether it says it is done."""
        assert self._session is not None and self._hands is not None
        png = answer.answered(self._session.page, lambda own: answer.with_defaults(
            own.screenshot, animations="allow", caret="hide", timeout=SHOT_MS), "a screenshot")
        image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
        width, height = self.RAW_SIZE
        if image.shape[:2] != (height, width):
            image = cv2.resize(image, self.RAW_SIZE, interpolation=cv2.INTER_AREA)
        over = self._hands.wait_done(LOOK_S) is not None
        return (np.ascontiguousarray(image[..., ::-1]), lambda x, y: (x, y), over)

    def _forget(self) -> None:
        self._board: Board | None = None
        self._hands: Hands | None = None
        self._images: list[np.ndarray] | None = None
        self._layout = ""
        self._message = ""
        self._confirmed: set[tuple[int, int, int]] = set()
        self._terminated = False
        self._completion: str | None = None

    # ---- what the agent gets ------------------------------------------------------------------

    def _observation(self) -> dict[str, Any]:
        assert self._images is not None
        cards = np.stack([image[..., ::-1] for image in self._images])
        return {"cards": np.ascontiguousarray(cards, dtype=np.uint8), "message": self._message}

    def _info(self) -> dict[str, Any]:
        return {"layout": self._layout, "confirmed": len(self._confirmed),
                "completion": self._completion}  # (no timing: registered deterministic)


def _scaled(image: np.ndarray) -> np.ndarray:
    """A card picture at the current page's size (the old page's are half, 2022's larger)."""
    if image.shape[1::-1] == TILE:
        return image
    shrink = image.shape[1] > TILE[0]
    return cv2.resize(image, TILE, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def _printable(text: str) -> str:
    """The page's message as the observation space holds it: one line of printable ASCII."""
    kept = "".join(c if c in MESSAGE_CHARS else " " for c in " ".join(text.split()))
    return kept[:MESSAGE_LENGTH]


def _ends(heard: Answer, confirmed: int) -> bool:
    """Whether the page's answer ends the puzzle: every set confirmed, every set found before,
    or the page gone on (to its completion page)."""
    return confirmed >= DAILY_SETS or heard.all_found_before or heard.left_page is not None
