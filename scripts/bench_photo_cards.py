#!/usr/bin/env python3
"""How `webbot daily-set classify` reads single cards, by part (scripts/parts.py) and source:
right, refused, or wrong (a card read wrong is the one thing that must never happen; a doubt
is a refusal). With `--choose`, the learned reader's limits of sureness are chosen on the tune
part: verdict.SURE, the lowest of LIMITS at which no tune card is read wrong, a step up (the
cards whose fill, count or colour the rules only guess left out); then verdict.SURE_ALONE on the
cards whose fill or count they guess, likewise among ALONE_LIMITS; then
verdict.SURE_COLOUR_ALONE on those whose colour they guess, among LIMITS.

    .venv/bin/python scripts/bench_photo_cards.py [--part test] [--drawn 243] [--boards 40]
        [--wrong] [--docs]
    .venv/bin/python scripts/bench_photo_cards.py --choose [--boards 1000]

Sources: the real photos of the part (../shared/reference/daily-set/real-cards, one deck: a
part is skipped when ../shared is absent), as they are and JPEG-compressed as another camera or
a messaging app would (each at JPEG_QUALITIES); single cards drawn by scripts/photo_cards.py
from the part's seeds; the cards of tables drawn by scripts/photo_boards.py from the part's
seeds, cut by the bot's finder and read as a table's card is; and, in the tune part, the page's
art (the bundled cards and the real ones in ../shared/reference/daily-set/cards), on which the
page's reader was tuned (the learned reader was trained on the bundled art too).
Exit 1 when a card of the test part is read wrong, or --choose finds other limits than
verdict.SURE, verdict.SURE_ALONE and verdict.SURE_COLOUR_ALONE.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]  # this checkout's webbot and scripts, as the tests import them

from scripts.docs_table import cores, put_in_docs  # noqa: E402
from scripts.parts import (  # noqa: E402
    BOARD_SEEDS,
    CARD_SEEDS,
    LEFT_OUT,
    REFERENCE,
    real_card_label,
    real_card_part,
)
from scripts.photo_boards import draw_board  # noqa: E402
from scripts.photo_cards import photo_card  # noqa: E402
from scripts.render_set_cards import card_for_number  # noqa: E402
from webbot.set_cards.camera import (  # noqa: E402
    FAINT_TINT,
    INK_RANGES,
    TINT_AWAY,
    Ruled,
    angle_to,
    paper_divided,
    read_normal,
)
from webbot.set_cards.learned import read_learned  # noqa: E402
from webbot.set_cards.model import Card  # noqa: E402
from webbot.set_cards.perceive import CardError, decode  # noqa: E402
from webbot.set_cards.photo import find_cards  # noqa: E402
from webbot.set_cards.single import Looks, decided, looked_at  # noqa: E402
from webbot.set_cards.verdict import (  # noqa: E402
    GUESSED,
    SURE,
    SURE_ALONE,
    SURE_COLOUR_ALONE,
)

ART = ROOT / "fixtures" / "daily-set" / "images" / "setcards"
LIMITS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.999)
ALONE_LIMITS = (0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999)
# The real photos again, compressed (OpenCV's JPEG: colour at half resolution), from a phone's
# high quality to a messaging app's low.
JPEG_QUALITIES = (90, 70, 50, 35)


@dataclass(frozen=True)
class Looked:
    source: str
    name: str
    truth: Card
    looks: Looks

    def outcome(self, sure: float = SURE, sure_alone: float = SURE_ALONE,
                sure_colour_alone: float = SURE_COLOUR_ALONE) -> tuple[str, str]:
        """'right', 'wrong' or 'refused', and what was read or why not."""
        try:
            card = decided(self.looks, sure, sure_alone, sure_colour_alone).card
        except CardError as exc:
            return "refused", str(exc)
        return ("right" if card == self.truth else "wrong"), str(card)


def pictures(part: str, drawn: int) -> Iterator[tuple[str, str, np.ndarray, Card]]:
    real = [(f"{path.parent.name}/{path.name}", decode(path.read_bytes(), path.name),
             Card(**real_card_label(path))) for path in real_card_part(part)]
    for name, picture, card in real:
        yield "real photos", name, picture, card
    for name, picture, card in real:
        for quality in JPEG_QUALITIES:
            compressed = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
            yield ("real photos, JPEG 35-90", f"{name} at {quality}",
                   cv2.imdecode(compressed, cv2.IMREAD_COLOR), card)
    for seed in CARD_SEEDS.of(part)[:drawn]:
        rng = np.random.default_rng(seed)
        picture, card = photo_card(int(rng.integers(1, 82)), rng)
        yield "drawn photos", f"seed {seed}", picture, Card(**card)
    if part == "tune":
        art = [path for folder in ("small", "new", "large") for path in
               sorted((ART / folder).iterdir()) if path.stem.isdigit()]
        real = REFERENCE / "daily-set" / "cards"
        art += sorted(real.glob("*.gif")) if real.is_dir() else []
        for path in art:
            yield ("page art", f"{path.parent.name}/{path.name}",
                   decode(path.read_bytes(), path.name), Card(**card_for_number(int(path.stem))))


def table_cards(part: str, boards: int) -> Iterator[Looked]:
    """Each card the finder cuts from boards drawn from the part's seeds, as a table's card is
    read (the camera's rules and the learned reader), with the card drawn nearest its middle."""
    for seed in BOARD_SEEDS.of(part)[:boards]:
        picture, placed, _ = draw_board(seed, size=(960, 720))
        middles = np.array([card.corners.mean(axis=0) for card in placed])
        for cut in find_cards(picture).cards:
            distance = np.linalg.norm(middles - cut.corners.mean(axis=0), axis=1)
            nearest = int(distance.argmin())
            if distance[nearest] > 0.3 * cut.height:
                continue
            normal = paper_divided(cut.picture)
            rules: Ruled | CardError
            try:
                rules = read_normal(normal, cut.height, cut.picture)
            except CardError as error:
                rules = error
            yield Looked("drawn tables' cards", f"board {seed}", Card(**placed[nearest].card),
                         Looks(False, CardError("a table's card"), rules, read_learned(normal)))


def look(part: str, drawn: int, boards: int) -> list[Looked]:
    return [Looked(source, name, truth, looked_at(picture))
            for source, name, picture, truth in pictures(part, drawn)] + \
        list(table_cards(part, boards))


def table(part: str, looked: list[Looked]) -> tuple[str, int]:
    lines = ["| part | source | cards | right | refused | wrong |", "|---|---|---:|---:|---:|---:|"]
    wrong_total = 0
    for source in dict.fromkeys(item.source for item in looked):
        outcomes = [item.outcome()[0] for item in looked if item.source == source]
        right, wrong = outcomes.count("right"), outcomes.count("wrong")
        refused = len(outcomes) - right - wrong
        wrong_total += wrong
        share = right / len(outcomes)
        lines.append(f"| {part} | {source} | {len(outcomes)} | {right} ({share:.1%}) | {refused} "
                     f"| {wrong} |")
    return "\n".join(lines), wrong_total


def choose(looked: list[Looked]) -> tuple[float, float, float]:
    """The limits: SURE on the cards whose fill, count and colour the rules do not only
    guess, SURE_ALONE (with that SURE) on those whose fill or count they do, SURE_COLOUR_ALONE
    (with both) on those whose colour they do; each a step above the lowest from which no card
    of the tune part is read wrong."""
    def guessing(names: tuple[str, ...]) -> list[Looked]:
        return [item for item in looked if not isinstance(item.looks.rules, CardError)
                and any(item.looks.rules.doubts.get(name, 0.0) >= 1.0 for name in names)]

    colour = guessing(("color",))
    tints(colour)
    guessed = [item for item in guessing(GUESSED) if not any(item is it for it in colour)]
    rest = [item for item in looked if not any(item is it for it in colour + guessed)]
    sure = lowest_clean(rest, "sureness", LIMITS, lambda item, limit: item.outcome(limit))
    alone = lowest_clean(guessed, "sureness alone (a fill or count the rules guess)", ALONE_LIMITS,
                         lambda item, limit: item.outcome(sure, limit))
    colour_alone = lowest_clean(colour, "sureness alone (a colour the rules guess)", LIMITS,
                                lambda item, limit: item.outcome(sure, alone, limit))
    return sure, alone, colour_alone


def tints(colour: list[Looked]) -> None:
    """What camera.FAINT_TINT and TINT_AWAY rest on: how far from its colour's range a faint
    ink's tint may point, and how far the learned reader's wrong colours lie from it."""
    def away(item: Looked, color: str) -> tuple[float, float]:
        chroma, angle = item.looks.rules.tint
        return chroma, angle_to(angle, *INK_RANGES[color])

    far = [away(item, item.truth.color) for item in colour]
    far = [chroma for chroma, degrees in far if degrees > TINT_AWAY]
    wrong = [away(item, item.looks.learned.card.color) for item in colour
             if item.looks.learned.card.color != item.truth.color]
    wrong = [(chroma, degrees) for chroma, degrees in wrong if degrees > TINT_AWAY]
    print(f"faint inks ({len(colour)} cards): a tint over {TINT_AWAY:g} degrees from its own "
          f"colour's range at a*b* length up to {max(far, default=0):.1f} (FAINT_TINT is "
          f"{FAINT_TINT:g}); the learned reader's colour wrong and that far from the tint on "
          f"{len(wrong)} cards, at lengths from {min((c for c, _ in wrong), default=0):.1f} and "
          f"{min((d for _, d in wrong), default=0):.0f} degrees or more\n")


def lowest_clean(looked: list[Looked], name: str, limits: tuple[float, ...],
                 outcome: Callable[[Looked, float], tuple[str, str]]) -> float:
    print(f"| {name} | read | wrong |\n|---:|---:|---:|")
    wrongs = []
    for limit in limits:
        outcomes = [outcome(item, limit)[0] for item in looked]
        wrongs.append(outcomes.count("wrong"))
        print(f"| {limit} | {len(outcomes) - outcomes.count('refused')} of {len(outcomes)} "
              f"| {wrongs[-1]} |")
    clean = next((i for i in range(len(limits)) if not any(wrongs[i:])), len(limits) - 1)
    for item in looked:  # what the lowest limit lets through wrong
        verdict, read = outcome(item, limits[0])
        if verdict == "wrong":
            sure = ", ".join(f"{name} {value:.3f}" for name, value in
                             item.looks.learned.sure.items() if value < 0.999)
            print(f"- at {limits[0]}: {item.source} {item.name}: {item.truth} read as {read}"
                  f" (the learned reader's sureness under 0.999: {sure or 'none'})")
    return limits[min(clean + 1, len(limits) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("tune", "test"), default="test")
    parser.add_argument("--drawn", type=int, default=243, help="drawn cards of the part")
    parser.add_argument("--boards", type=int, default=40, help="drawn tables of the part")
    parser.add_argument("--choose", action="store_true",
                        help="choose the learned reader's limit on the tune part")
    parser.add_argument("--wrong", action="store_true", help="list each card read wrong")
    parser.add_argument("--docs", action="store_true", help="write the table into its docs page")
    args = parser.parse_args()
    started = time.monotonic()
    part = "tune" if args.choose else args.part
    looked = look(part, args.drawn, args.boards)
    if args.choose:
        chosen = choose(looked)
        print(f"\nchosen on the tune part: {chosen[0]}, {chosen[1]} alone and {chosen[2]} alone "
              f"for a colour (verdict.SURE is {SURE}, SURE_ALONE {SURE_ALONE}, "
              f"SURE_COLOUR_ALONE {SURE_COLOUR_ALONE})")
        return 0 if chosen == (SURE, SURE_ALONE, SURE_COLOUR_ALONE) else 1
    text, wrong = table(part, looked)
    print(text)
    if args.wrong or wrong:
        for item in looked:
            verdict, read = item.outcome()
            if verdict == "wrong":
                print(f"- {item.source} {item.name}: {item.truth} read as {read}")
    if args.docs and not put_in_docs(f"bench_photo_cards_{part}", text + (
            f"\n\nMeasured {time.strftime('%Y-%m-%d')} on {cores()} cores in "
            f"{time.monotonic() - started:.0f} s with `scripts/bench_photo_cards.py --part "
            f"{part} --docs`; {len(LEFT_OUT)} real photos whose label the photo contradicts "
            "are in no part (`scripts/parts.py`).")):
        return 1
    return 1 if wrong and part == "test" else 0


if __name__ == "__main__":
    sys.exit(main())
