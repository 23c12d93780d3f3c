"""What the Burrito Bison bot knows: screen names, what a grab showed, what the policy observes,
and finished rounds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the command line reads the screens' names without loading the vision)
    import numpy as np

    from webbot.screen import Grab

# The screens the classifier tells apart, in the names of the command-line contract.
DEFAULT_ROUNDS = 3  # a run without --rounds or --minutes
SCREENS = ("title", "comic", "ring", "flight", "rocket_ready", "flash_sale", "pinata", "cards",
           "missions", "results", "unlocked", "shop", "unknown")

Point = tuple[float, float]


@dataclass(frozen=True)
class Match:
    """Where a template was found: its box in image pixels, the scale it matched at, the
    normalised correlation there (1.0 is a perfect match), and the contrast there against the
    crop's (grey standard deviations: 1.0 as drawn, about 0.2 dimmed under a popup) and how
    far its mean colour is from the crop's."""

    name: str
    score: float
    x: float
    y: float
    width: float
    height: float
    scale: float = 1.0
    contrast: float = 1.0
    colour: float = 0.0  # how far the mean colour there is from the crop's (BGR distance)

    @property
    def centre(self) -> Point:
        return self.x + self.width / 2, self.y + self.height / 2


@dataclass(frozen=True)
class Sighting:
    """One classified grab: the screen, the template that decided it, and where to click.

    `targets` maps a role ("launch", "cancel", "continue", "next", "shop", "rocket") to an
    image point; `matches` keeps every template's best match for debugging."""

    screen: str
    evidence: Match | None = None
    targets: dict[str, Point] = field(default_factory=dict)
    matches: dict[str, Match] = field(default_factory=dict)
    searched: bool = False  # found only by the search over the picture at other scales


@dataclass(frozen=True)
class Observation:
    """What the policy gets after each look: the grab (at the pack's scale, see
    bot.pack_sized), what it shows, the sighting before it, when it was taken, and what the
    bot has read so far."""

    grab: Grab
    sighting: Sighting
    previous: Sighting | None = None
    now: float = 0.0           # time.monotonic() of the look
    ms: float = 0.0            # screenshot + classification
    results_read: bool = False  # the results screen in front has been read
    affordable: bool = False   # the coins as read cover the cheapest upgrade seen (or none seen)
    rounds: int = 0            # results screens read so far
    bought: int = 0            # purchases so far (progress on the shop screen)
    hands_busy: bool = False   # a launch or click was still going out as the look began

    @property
    def image(self) -> np.ndarray:
        return self.grab.image


@dataclass
class Round:
    """One finished round, as read from its results screen; or the round under way when the
    run stopped (`stopped_on` the screen it was on), with what it had got so far."""

    number: int
    distance: int | None = None
    coins: int | None = None
    total: int | None = None
    seconds: float = 0.0
    rockets: int = 0  # slams seen: the full bar clicked, then the flight going on
    events: list[str] = field(default_factory=list)
    # Rocket clicks whose effect no frame showed (the next screen read was not the flight: it
    # had ended, a slam or not): the game's count lies between rockets and rockets plus these.
    rockets_unseen: int = 0
    stopped_on: str | None = None  # unfinished: the screen the run stopped on

    @property
    def finished(self) -> bool:
        return self.stopped_on is None

    @property
    def unseen_words(self) -> str:
        """The rocket clicks not seen to land, in words: "" or " (+1 click not seen to land)"."""
        n = self.rockets_unseen
        return f" (+{n} click{'s' if n > 1 else ''} not seen to land)" if n else ""

    @property
    def rocket_slams(self) -> str:
        """The slams, in words: "2", or "2 (+1 click not seen to land)"."""
        return f"{self.rockets}{self.unseen_words}"
