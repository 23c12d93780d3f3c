#!/usr/bin/env python3
"""How the card reader (`webbot.daily_set.perceive.classify`) reads single cards photographed
(scripts/photo_cards.py): right, refused, or wrong, and how much doubt the wrong ones carried
(issue 54: a card read wrong is the one thing that must never happen; a doubt is a refusal).

    .venv/bin/python scripts/bench_photo_cards.py [--repeat 3] [--seed 0] [--save DIR] [--docs]

Each of the 81 cards is drawn `--repeat` times, each picture from its own seed; `--save` writes
the wrong ones there as PNGs named after truth and reading.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]  # this checkout's webbot and scripts, as the tests import them

from scripts.docs_table import cores, put_in_docs  # noqa: E402
from scripts.photo_cards import photo_card  # noqa: E402
from webbot.daily_set.camera import read_single  # noqa: E402
from webbot.daily_set.model import Card, Reading  # noqa: E402
from webbot.daily_set.perceive import CardError  # noqa: E402


@dataclass(frozen=True)
class Outcome:
    number: int
    seed: int
    truth: Card
    reading: Reading | None  # None: refused
    refusal: str = ""

    @property
    def right(self) -> bool:
        return self.reading is not None and self.reading.card == self.truth

    @property
    def wrong(self) -> bool:
        return self.reading is not None and self.reading.card != self.truth


def measure(repeat: int, seed: int, save: Path | None = None) -> list[Outcome]:
    outcomes = []
    for round_ in range(repeat):
        for number in range(1, 82):
            picture_seed = seed * 1_000_000 + round_ * 100 + number
            picture, truth = photo_card(number, np.random.default_rng(picture_seed))
            outcome = read_one(number, picture_seed, picture, Card(**truth))
            outcomes.append(outcome)
            if save is not None and outcome.wrong:
                save.mkdir(parents=True, exist_ok=True)
                name = (f"{picture_seed}-{outcome.truth}-as-{outcome.reading}.png"
                        .replace(" ", "_"))
                cv2.imwrite(str(save / name), picture)
    return outcomes


def read_one(number: int, seed: int, picture: np.ndarray, truth: Card) -> Outcome:
    try:
        return Outcome(number, seed, truth, read_single(picture))
    except CardError as exc:
        return Outcome(number, seed, truth, None, str(exc))


def table(outcomes: list[Outcome]) -> str:
    total = len(outcomes)
    right = sum(o.right for o in outcomes)
    wrong = sum(o.wrong for o in outcomes)
    refused = total - right - wrong
    return "\n".join([
        "| cards | right | refused | wrong |",
        "|---:|---:|---:|---:|",
        f"| {total} | {right} ({right / total:.0%}) | {refused} ({refused / total:.0%}) "
        f"| {wrong} |",
    ])


def wrong_list(outcomes: list[Outcome]) -> list[str]:
    lines = []
    for o in outcomes:
        if o.wrong:
            reading = o.reading
            lines.append(f"- seed {o.seed}: {o.truth} -> {reading.card}, doubt "
                         f"{reading.doubt:.2f} ({reading.doubtful}); wrong: "
                         f"{', '.join(_differences(o.truth, reading.card))}")
    return lines


def _differences(truth: Card, read: Card) -> list[str]:
    return [name for name in ("count", "shape", "color", "fill")
            if getattr(truth, name) != getattr(read, name)]


def refusal_kinds(outcomes: list[Outcome]) -> list[str]:
    kinds: dict[str, int] = {}
    for o in outcomes:
        if o.reading is None:
            kind = re.sub(r"read as .*, but its (\w+) is in doubt.*", r"its \1 in doubt",
                          o.refusal).split(" (")[0]
            kinds[kind] = kinds.get(kind, 0) + 1
    return [f"- {n} x {kind}" for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="pictures of each of the 81 cards")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", type=Path, help="write the wrongly read pictures here")
    parser.add_argument("--docs", action="store_true", help="write the table into its docs page")
    args = parser.parse_args()
    started = time.monotonic()
    outcomes = measure(args.repeat, args.seed, args.save)
    print(table(outcomes))
    if args.docs and not put_in_docs("bench_photo_cards", table(outcomes) + (
            f"\n\nMeasured {time.strftime('%Y-%m-%d')} on {cores()} cores in "
            f"{time.monotonic() - started:.0f} s with `scripts/bench_photo_cards.py --docs` "
            f"(the reader of `classify`; {args.repeat} pictures of each card).")):
        sys.exit(1)
    wrong = wrong_list(outcomes)
    if wrong:
        print(f"\nRead wrong ({len(wrong)}):")
        print("\n".join(wrong))
    print("\nRefused, by reason:")
    print("\n".join(refusal_kinds(outcomes)))


if __name__ == "__main__":
    main()
