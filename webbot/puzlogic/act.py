"""Act: the bot's hands on the Puzlogic canvas. Points are in the game's 800x600 coordinates,
turned into page points through the grab they were seen in, so any scale or zoom works."""

from __future__ import annotations

from dataclasses import dataclass, field

from webbot.mouse import Mouse
from webbot.puzlogic.model import Observation
from webbot.stream import FORMATS

Point = tuple[float, float]
CAMERAS = ("pulled", *FORMATS)


@dataclass(frozen=True)
class Tempo:
    """How the bot paces its hands and eyes. SLOW_PACE is a deliberately slow setting of it
    (many mouse moves, one drag per look, whole readings) for benchmarks to compare the default
    against: a setting of today's bot, not the bot of any earlier date."""

    # Mouse moves to reach a piece or a button, and to drag a piece (each costs a page frame,
    # ~16 ms; the game needs a press, a move and a release). None: SLOW_PACE's, a move per 80
    # game px (per 12 px for clicks).
    reach_steps: int | None = 1
    drag_steps: int | None = 1
    # Pieces dragged between two looks: None, all a level still needs, one after another as a
    # player's hand runs ahead of the eye (a look after the last says which landed; inputs
    # reach the game in order, so the last one seen landed means all were taken).
    drags_per_look: int | None = None
    # A lone drop is checked on the piece's cell and its tray slot alone; False: a whole
    # reading (after several drags, a whole reading always).
    check_boxes: bool = True
    # Pause between grabs while waiting (a grab itself waits for the page's next frame).
    poll_s: float = 0.0
    # Chromium's quicker PNG encoding for grabs (the same pixels).
    fast_grabs: bool = True
    # Where pictures come from: "pulled" one at a time, or the page's screencast ("png"; JPEG
    # blurs the small blue sums into digits refused). Pulled by default: on a small machine a
    # PNG screencast of the whole window, 60 frames a second under the drifting leaves, slows
    # the drags and checks.
    camera: str = "pulled"

    def __post_init__(self) -> None:
        if self.drags_per_look is not None and self.drags_per_look < 1:
            raise ValueError(f"drags_per_look is None (all) or at least 1, not "
                             f"{self.drags_per_look}")
        if self.camera not in CAMERAS:
            raise ValueError(f"camera is one of {', '.join(CAMERAS)}, not {self.camera!r}")


SLOW_PACE = Tempo(reach_steps=None, drag_steps=None, drags_per_look=1, check_boxes=False,
                  poll_s=0.05, fast_grabs=False)


@dataclass
class Hands:
    mouse: Mouse
    tempo: Tempo = field(default_factory=Tempo)

    def click(self, observation: Observation, point: Point) -> None:
        self.mouse.click(*observation.page_point(point), steps=self.tempo.reach_steps)

    def ready(self, observation: Observation, point: Point, *, check_now: bool = False
              ) -> None:
        """The mouse onto `point` for a press to come, not pressed: the way there checked as
        before a press (Mouse.guard, at most every half second: the press then finds it
        checked; `check_now`, whenever it was last checked) and the mouse moved (unless it
        rests there already) while the caller goes on (the press waits for it; a picture
        asked before it still stands: Mouse.hover_soon)."""
        x, y = observation.page_point(point)
        if self.mouse.guard:
            self.mouse.guard(x, y, **({"every_s": 0} if check_now else {}))
        self.mouse.hover_soon(x, y, steps=self.tempo.reach_steps)

    def drag(self, observation: Observation, start: Point, end: Point) -> None:
        """A quick hand (a piece follows the pointer)."""
        page_px_per_game_px = observation.picture.region.width / observation.grab.scale / 800
        self.mouse.drag(*observation.page_points(start, end),
                        step_px=80 * page_px_per_game_px,
                        steps=(self.tempo.reach_steps, self.tempo.drag_steps))
