"""SET cards (four attributes, each with three values), a card as read, and what the policy
observes."""

from __future__ import annotations

from dataclasses import asdict, dataclass

COUNTS = (1, 2, 3)
SHAPES = ("diamond", "oval", "squiggle")
COLORS = ("red", "green", "purple")
FILLS = ("solid", "striped", "empty")
ATTRIBUTES = ("count", "shape", "color", "fill")


@dataclass(frozen=True)
class Card:
    count: int
    shape: str
    color: str
    fill: str

    def __post_init__(self) -> None:
        for name, allowed in zip(ATTRIBUTES, (COUNTS, SHAPES, COLORS, FILLS), strict=True):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, not {getattr(self, name)!r}")

    def __str__(self) -> str:
        plural = "s" if self.count > 1 else ""
        return f"{self.count} {self.color} {self.fill} {self.shape}{plural}"

    def as_dict(self) -> dict[str, int | str]:
        return asdict(self)


@dataclass(frozen=True)
class Reading:
    """A card as read, with how close the least certain attribute came to another value."""

    card: Card
    doubt: float  # 0 = every attribute far from a boundary; 1 = on a boundary
    doubtful: str  # the attribute behind `doubt`

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True)
class Observation:
    """The cards as read and the sets clicked so far (card indices, 0-based)."""

    readings: tuple[Reading, ...]
    clicked: tuple[tuple[int, int, int], ...] = ()


def attribute_word(name: str) -> str:
    """An attribute's name in words: `colour` for `color`."""
    return "colour" if name == "color" else name


def all_cards() -> list[Card]:
    """The 81 cards of the deck."""
    return [Card(n, s, c, f) for n in COUNTS for s in SHAPES for c in COLORS for f in FILLS]
