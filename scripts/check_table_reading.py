#!/usr/bin/env python3
"""How a table's cards are judged (webbot/daily_set/picture.judged) on drawn boards the
learned reader never saw: for each level of sureness at which it stands on its own
(learned.CERTAIN), how many cards are answered, how many of those wrong, how many refused.

The boards are drawn as scripts/photo_boards.py draws them, from seed 1,100,000 up (the
learned reader trains on boards from 1,000,000 up and holds out those from 1,100,000 on; the
benchmark draws from 0); each card is found and cut by the bot's finder and matched to the
card drawn nearest its middle.

    .venv/bin/python scripts/check_table_reading.py [--boards 300] [--levels 0.999 0.995 0.99]
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from scripts.photo_boards import draw_board  # noqa: E402
from webbot.daily_set import learned  # noqa: E402
from webbot.daily_set.camera import paper_divided, read_normal  # noqa: E402
from webbot.daily_set.model import Card  # noqa: E402
from webbot.daily_set.perceive import CardError  # noqa: E402
from webbot.daily_set.photo import find_cards  # noqa: E402
from webbot.daily_set.picture import judged  # noqa: E402

FIRST_SEED = 1_100_000


def readings(seed: int) -> list[tuple[Card, tuple | None, learned.Learned]]:
    """Each card found on the board: the card drawn there, the rules' reading (card and
    doubts; None where they refuse) and the learned reader's."""
    picture, placed, _ = draw_board(seed, size=(960, 720))
    middles = np.array([card.corners.mean(axis=0) for card in placed])
    found = []
    for cut in find_cards(picture).cards:
        distance = np.linalg.norm(middles - cut.corners.mean(axis=0), axis=1)
        nearest = int(distance.argmin())
        if distance[nearest] > 0.3 * cut.height:
            continue
        normal = paper_divided(cut.picture)
        try:
            rules = read_normal(normal, cut.height)
        except CardError:
            rules = None
        found.append((Card(**placed[nearest].card), rules, learned.read_learned(normal)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--levels", type=float, nargs="+", default=[0.999, 0.995, 0.99])
    args = parser.parse_args()
    began = time.monotonic()
    cards = []
    with Pool() as pool:
        for done, found in enumerate(pool.imap(readings, range(FIRST_SEED, FIRST_SEED
                                                                + args.boards)), 1):
            cards += found
            if done % 50 == 0:
                print(f"  {done}/{args.boards} boards, {len(cards)} cards, "
                      f"{time.monotonic() - began:.0f} s", file=sys.stderr)
    print(f"{len(cards)} cards found on {args.boards} held-out drawn boards "
          f"({time.monotonic() - began:.0f} s)")
    print("certain  answered  wrong  refused")
    for level in args.levels:
        learned.CERTAIN = level  # what Learned.certain compares with
        answered = wrong = 0
        for truth, rules, second in cards:
            if rules is None:
                continue
            try:
                card = judged(*rules, second).card
            except CardError:
                continue
            answered += 1
            wrong += card != truth
        print(f"{level:<8} {answered:>8}  {wrong:>5}  {len(cards) - answered:>7}")


if __name__ == "__main__":
    main()
