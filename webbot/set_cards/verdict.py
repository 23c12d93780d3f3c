"""When a card read from a photo is an answer: the camera's rules and the learned reader name
the same card, and the learned reader is at least SURE of each attribute, SURE_ALONE of a fill
or a count the rules only guess (a striping where glare falls: glare.py; a shape broken) and
SURE_COLOUR_ALONE of a colour they only guess (ink too faint to judge: there the colour is
the learned reader's alone, the rules' nearest no reading to disagree with, unless the faint
tint points away from it: camera.points_away). Otherwise it is
refused, and the reason names the attribute in doubt in words: `unsure of the fill: striped or
empty?`.

The limits are chosen by `scripts/bench_photo_cards.py --choose --boards 1000` on the tune part
of scripts/parts.py: the lowest sureness at which no card of that part is read wrong, a step up.
"""

from __future__ import annotations

from dataclasses import replace

from webbot.set_cards.camera import points_away
from webbot.set_cards.learned import VALUES, Learned
from webbot.set_cards.model import ATTRIBUTES, Card, Reading
from webbot.set_cards.perceive import Unclear

# 0.8 until the fill was judged per shape and a striping's lines were looked for: the tune part
# then held no card read wrong at 0.5 (`--choose`), so the step up is 0.7.
SURE = 0.7
# Where the rules only guess the fill or the count (doubt 1), the learned reader's word alone,
# chosen on the tune part's cards whose fill or count the rules guess by
# `scripts/bench_photo_cards.py --choose --boards 1000` (the lowest limit with none read wrong
# there, a step up): a solid washed out by glare was read striped 0.96 sure (board 464; 0.997
# by the network trained before 2026-12-03, when this limit was 0.999).
SURE_ALONE = 0.99
# What the rules may only guess (doubt 1) and the learned reader must be SURE_ALONE of: a fill
# (a striping where glare falls), a count (a shape broken or sizes unlike).
GUESSED = ("count", "fill")
# A colour the rules only guess (ink too faint: grey in poor light, thin outlines whose colour
# JPEG smears), chosen likewise on the tune part's cards whose colour the rules guess: thin red
# outlines compressed hard were read purple up to 0.874 sure.
SURE_COLOUR_ALONE = 0.95


def agreed(rules: Card, doubts: dict[str, float], learned: Learned, sure: float = SURE,
           sure_alone: float | None = None, sure_colour_alone: float | None = None,
           tint: tuple[float, float] | None = None) -> Reading:
    """The card both readers name, where the learned reader is at least `sure` of each
    attribute, `sure_alone` (by default SURE_ALONE) of a fill or count the rules only guess
    (doubt 1) and `sure_colour_alone` (SURE_COLOUR_ALONE) of a colour they only guess (that
    colour the learned reader's alone: the rules' nearest to a faint ink is no reading, but its
    `tint` may rule a colour out); else Unclear, naming each attribute in doubt and its two
    likeliest values."""
    alone = dict.fromkeys(GUESSED, SURE_ALONE if sure_alone is None else sure_alone)
    alone["color"] = SURE_COLOUR_ALONE if sure_colour_alone is None else sure_colour_alone
    if doubts.get("color", 0.0) >= 1.0:  # ink too faint: the rules' nearest colour says nothing
        if points_away(tint, learned.card.color):
            raise Unclear(unsure_of("color", rules.color, learned.card.color))
        rules = replace(rules, color=learned.card.color)
    differ = [name for name in ATTRIBUTES if getattr(rules, name) != getattr(learned.card, name)]
    if differ:
        raise Unclear("; ".join(unsure_of(name, getattr(rules, name), getattr(learned.card, name))
                                for name in differ))
    name: str | None = learned.least
    if learned.sure[learned.least] >= sure:  # and of what the rules only guess, surer still
        name = next((guessed for guessed, limit in alone.items()
                     if doubts.get(guessed, 0.0) >= 1.0 and learned.sure[guessed] < limit), None)
    if name is not None:
        second = learned.second[name] if learned.second else "another"
        raise Unclear(unsure_of(name, getattr(learned.card, name), second))
    doubtful = max(doubts, key=doubts.__getitem__)
    return Reading(rules, round(max(doubts[doubtful], 2 * (1 - learned.sure[learned.least])), 3),
                   doubtful)


def unsure_of(attribute: str, one: object, other: object) -> str:
    """`unsure of the fill: striped or empty?` (the values in the deck's order; a count as a
    number of shapes)."""
    one, other = sorted((one, other), key=list(VALUES[attribute]).index)
    if attribute == "count":
        return f"unsure of the count: {one} or {other} shapes?"
    word = "colour" if attribute == "color" else attribute
    return f"unsure of the {word}: {one} or {other}?"
