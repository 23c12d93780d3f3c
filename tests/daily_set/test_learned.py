"""The learned card reader (webbot/daily_set/learned.py) and how a table's card needs it to
agree with the camera's rules."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scripts.photo_boards import draw_board
from scripts.physical_cards import physical_card
from webbot.daily_set import camera
from webbot.daily_set import picture as picture_module
from webbot.daily_set.board import BoardError
from webbot.daily_set.camera import paper_divided
from webbot.daily_set.learned import VALUES, Learned, read_learned
from webbot.daily_set.model import Card, all_cards
from webbot.daily_set.perceive import CardError, Unclear
from webbot.daily_set.picture import judged, read_picture


def on_white(card: np.ndarray) -> np.ndarray:
    """A BGRA card laid on a grey table and cut to its face, as the finder cuts it."""
    alpha = card[..., 3:4].astype(np.float32) / 255
    return (card[..., :3] * alpha + 90 * (1 - alpha)).astype(np.uint8)


def test_the_printed_cards_art_is_read_as_each_of_the_81_cards_and_surely():
    wrong, unsure = [], []
    for card in all_cards():
        picture = on_white(physical_card(card.as_dict(), 124))
        read = read_learned(paper_divided(picture))
        if read.card != card:
            wrong.append(f"{card} read as {read.card}")
        elif min(read.sure.values()) < 0.9:
            unsure.append(str(card))
    assert not wrong
    assert len(unsure) <= 2, unsure


def test_a_card_upside_down_is_read_the_same_and_as_surely():
    card = Card(2, "squiggle", "purple", "striped")
    picture = on_white(physical_card(card.as_dict(), 124))
    upright = read_learned(paper_divided(picture))
    turned = read_learned(paper_divided(cv2.rotate(picture, cv2.ROTATE_180)))
    assert upright.card == turned.card == card
    assert upright.sure == pytest.approx(turned.sure, abs=1e-4)


def test_a_table_card_the_learned_reader_names_otherwise_is_refused(monkeypatch):
    picture, placed, _ = draw_board(6, size=(960, 720), art="physical", table="dark",
                                    touching=False)
    assert [c.reading.card for c in read_picture(picture, kind="table").cards] \
        == [Card(**card.card) for card in placed]
    other = Card(3, "oval", "green", "empty")
    monkeypatch.setattr(picture_module, "read_learned",
                        lambda normal: Learned(other, dict.fromkeys(VALUES, 1.0)))
    with pytest.raises(BoardError, match=r"by its rules, and as 3 green empty ovals by the "
                                         r"learned reader"):
        read_picture(picture, kind="table")


def test_a_table_card_the_learned_reader_is_unsure_of_is_refused(monkeypatch):
    picture, _, _ = draw_board(6, size=(960, 720), art="physical", table="dark",
                               touching=False)
    real = picture_module.read_learned

    def unsure(normal: np.ndarray) -> Learned:
        read = real(normal)
        return Learned(read.card, {**read.sure, "fill": 0.4})

    monkeypatch.setattr(picture_module, "read_learned", unsure)
    with pytest.raises(BoardError, match=r"the learned reader is unsure of its fill"):
        read_picture(picture, kind="table")


def test_a_single_card_read_clearly_is_refused_where_the_learned_reader_surely_names_another(
        monkeypatch):
    card = Card(2, "squiggle", "purple", "striped")
    picture = on_white(physical_card(card.as_dict(), 124))
    assert camera.read_single(picture).card == card
    other = Card(2, "squiggle", "purple", "solid")
    monkeypatch.setattr(camera, "read_learned",
                        lambda normal: Learned(other, dict.fromkeys(VALUES, 0.95)))
    with pytest.raises(Unclear, match=r"read as 2 purple striped squiggles one way and as 2 "
                                      r"purple solid squiggles by the learned reader"):
        camera.read_single(picture)


def _rules_lean_otherwise(monkeypatch, doubts: dict[str, float], sure: float) -> None:
    """Each card's rules read it with another fill, in the doubts given; the learned reader
    names the card, `sure` of its fill."""
    real_rules, real_learned = picture_module.read_normal, picture_module.read_learned

    def rules(normal: np.ndarray, height: float) -> tuple[Card, dict[str, float]]:
        card, _ = real_rules(normal, height)
        other = next(f for f in ("empty", "striped", "solid") if f != card.fill)
        return replace(card, fill=other), {**dict.fromkeys(VALUES, 0.0), **doubts}

    def learned(normal: np.ndarray) -> Learned:
        read = real_learned(normal)
        return Learned(read.card, {**dict.fromkeys(VALUES, 1.0), "fill": sure})

    monkeypatch.setattr(picture_module, "read_normal", rules)
    monkeypatch.setattr(picture_module, "read_learned", learned)


def test_a_table_card_the_rules_doubt_is_the_learned_reader_s_where_it_outvotes_them(
        monkeypatch):
    """The rules lean a little to another fill (doubt 0.8: 0.2 leaning), the learned reader
    is 0.97 sure of the card's (doubt 0.06): together under OUTVOTED, the learned card."""
    picture, placed, _ = draw_board(6, size=(960, 720), art="physical", table="dark",
                                    touching=False)
    _rules_lean_otherwise(monkeypatch, {"fill": 0.8}, 0.97)
    assert [c.reading.card for c in read_picture(picture, kind="table").cards] \
        == [Card(**card.card) for card in placed]


@pytest.mark.parametrize(("doubts", "sure"), [({"fill": 0.8}, 0.85),  # learned too unsure
                                              ({"fill": 0.5}, 0.97),  # rules lean too much
                                              ({"fill": 0.8, "shape": 0.6}, 0.97)])
def test_a_table_card_the_readers_name_otherwise_is_refused_where_neither_outvotes(
        monkeypatch, doubts, sure):
    picture, _, _ = draw_board(6, size=(960, 720), art="physical", table="dark",
                               touching=False)
    _rules_lean_otherwise(monkeypatch, doubts, sure)
    with pytest.raises(BoardError, match=r"by its rules, and as .* by the learned reader"):
        read_picture(picture, kind="table")


def test_a_card_both_readers_name_is_answered_where_the_learned_reader_is_certain():
    """Agreed, the rules torn on the fill: the learned reader's sureness decides (CERTAIN)."""
    card = Card(1, "diamond", "green", "striped")
    doubts = {**dict.fromkeys(VALUES, 0.0), "fill": 1.0}
    certain = Learned(card, {**dict.fromkeys(VALUES, 1.0), "fill": 0.997})
    assert judged(card, doubts, certain).card == card
    with pytest.raises(CardError, match=r"read as 1 green striped diamond, but its fill is in "
                                        r"doubt \(1.00\)"):
        judged(card, doubts, replace(certain, sure={**certain.sure, "fill": 0.99}))
