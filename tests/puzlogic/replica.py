"""Driving the bundled Puzlogic replica from tests: real mouse events, the test hook for asserts.

Game coordinates are the 800x600 canvas's own; the helpers turn them into page coordinates.
"""

from __future__ import annotations

import cv2
import numpy as np
from playwright.sync_api import Page

HOOK = "window.__puzlogicTest"
GRID_X, GRID_Y, PITCH, CELL = 18, 38, 48, 44


def open_game(page: Page, base_url: str, query: str = "", leaves: int = 0) -> None:
    page.goto(f"{base_url}puzlogic/index.html?leaves={leaves}&{query}")
    page.wait_for_function(f"{HOOK} && {HOOK}.state().screen !== 'loading'")


def state(page: Page) -> dict:
    return page.evaluate(f"{HOOK}.state()")


def wait_screen(page: Page, screen: str) -> None:
    page.wait_for_function(f"{HOOK}.state().screen === {screen!r}")


def wait_settled(page: Page) -> None:
    page.wait_for_function(f"!{HOOK}.state().moving")


def layout(page: Page) -> dict:
    return page.evaluate(f"{HOOK}.layout()")


def level(page: Page, number: int) -> dict:
    return page.evaluate(f"{HOOK}.level({number})")


def to_page(page: Page, x: float, y: float) -> tuple[float, float]:
    box = page.locator("canvas").bounding_box()
    return box["x"] + x * box["width"] / 800, box["y"] + y * box["height"] / 600


def click(page: Page, x: float, y: float, button: str = "left") -> None:
    page.mouse.click(*to_page(page, x, y), button=button)


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*to_page(page, *start))
    page.mouse.down()
    page.mouse.move(*to_page(page, *end), steps=6)
    page.mouse.up()
    wait_settled(page)


def centre(box: dict) -> tuple[float, float]:
    return box["x"] + CELL / 2, box["y"] + CELL / 2


def cell_box(lay: dict, row: int, col: int) -> dict:
    return next(c for c in lay["cells"] if (c["row"], c["col"]) == (row, col))


def play_placements(page: Page, placements: list) -> None:
    """Drag a piece of each placement's value and colour from the tray onto its cell."""
    lay = layout(page)
    free_slots = list(lay["slots"])
    for row, col, value, color in placements:
        code = f"{value}{color[0]}"
        slot = next(s for s in free_slots if s["code"] == code)
        free_slots.remove(slot)
        drag(page, centre(slot), centre(cell_box(lay, row, col)))


def grab(page: Page) -> np.ndarray:
    """The canvas as a BGR picture (800x600 at device scale 1)."""
    png = page.locator("canvas").screenshot()
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)


def rgb(picture: np.ndarray, x: int, y: int) -> tuple[int, int, int]:
    b, g, r = picture[y, x]
    return int(r), int(g), int(b)


def hex_rgb(code: str) -> tuple[int, int, int]:
    return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)


def near(colour: tuple[int, int, int], want: str | tuple[int, int, int],
         tolerance: int = 6) -> bool:
    """Whether a colour is within `tolerance` per channel of `want` ("#rrggbb" or RGB)."""
    want = hex_rgb(want) if isinstance(want, str) else want
    return all(abs(a - b) <= tolerance for a, b in zip(colour, want, strict=True))


def red_pixels(picture: np.ndarray, x: int, y: int, w: int, h: int) -> int:
    b, g, r = (picture[y:y + h, x:x + w, k].astype(int) for k in range(3))
    return int(((r > 200) & (g < 90) & (b < 90)).sum())


def ink_pixels(picture: np.ndarray, x: int, y: int, w: int, h: int, code: str,
               tolerance: int = 40) -> int:
    want = np.array(hex_rgb(code)[::-1])
    patch = picture[y:y + h, x:x + w].astype(int)
    return int((np.abs(patch - want).sum(axis=2) < tolerance).sum())
