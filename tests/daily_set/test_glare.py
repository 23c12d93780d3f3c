"""Glare on a photographed card: a solid washed out in its middle looks striped, so a striping
where glare falls, its lines not seen, is answered only when the learned reader is surer still
(glare.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scripts.photo_boards import draw_board
from scripts.physical_cards import physical_card
from tests.daily_set.test_learned import on_white
from webbot.set_cards import camera, verdict
from webbot.set_cards.camera import INK_SHARE, paper_divided, read_cut
from webbot.set_cards.glare import GLARE_LIFT, LINES_SEEN, glare_lift, stripe_lines
from webbot.set_cards.model import BoardError, Card
from webbot.set_cards.perceive import CardError, silhouettes
from webbot.set_cards.photo import CUT_HEIGHT, CUT_WIDTH, CutCard
from webbot.set_cards.picture import read_picture
from webbot.set_cards.read import read_twice


def lit(card: Card, glare: float) -> np.ndarray:
    """A printed card cut from a dim photo, a spot of glare `glare` of the way to white on its
    middle."""
    picture = on_white(physical_card(card.as_dict(), CUT_HEIGHT)).astype(np.float32) * 0.75
    ys, xs = np.mgrid[0:CUT_HEIGHT, 0:CUT_WIDTH]
    spot = np.exp(-((xs - CUT_WIDTH / 2) ** 2 + (ys - CUT_HEIGHT / 2) ** 2) / (2 * 20 ** 2))
    picture += (255 - picture) * (glare * spot)[..., None]
    return np.clip(picture, 0, 255).astype(np.uint8)


def shapes_of(picture: np.ndarray) -> list[np.ndarray]:
    darkness = 1 - paper_divided(picture).min(axis=2)
    return silhouettes(darkness >= INK_SHARE * np.percentile(darkness, 99.5))[0]


def test_glare_on_the_shapes_is_measured_on_the_paper_beside_them():
    card = Card(1, "diamond", "green", "solid")
    assert glare_lift(lit(card, 0.0), shapes_of(lit(card, 0.0))) < GLARE_LIFT / 2
    assert glare_lift(lit(card, 0.5), shapes_of(lit(card, 0.5))) >= GLARE_LIFT


def test_a_solid_washed_out_by_glare_is_refused_not_read_striped():
    washed = lit(Card(1, "diamond", "green", "solid"), 0.5)
    card, doubts, _ = read_cut(washed)
    assert card.fill == "striped" and doubts["fill"] == 1.0  # the look the rules cannot tell
    corners = np.float32([[0, 0], [CUT_WIDTH, 0], [CUT_WIDTH, CUT_HEIGHT], [0, CUT_HEIGHT]])
    with pytest.raises(CardError, match=r"unsure of the fill: solid or striped\?"):
        read_twice(CutCard(corners, washed))
    # A striping under glare, its lines seen, is read as such, not guessed.
    striped = Card(1, "diamond", "green", "striped")
    assert read_cut(lit(striped, 0.4))[1]["fill"] < 1.0
    assert read_twice(CutCard(corners, lit(striped, 0.4))).card == striped


def test_a_striping_under_glare_its_lines_not_seen_is_a_guess_the_learned_reader_may_answer(
        monkeypatch):
    """Where the lines are not seen, the rules only guess a striping under glare, and the
    card reads only where the learned reader is surer still (0.9998 under a spot of 0.4)."""
    monkeypatch.setattr(camera, "LINES_SEEN", float("inf"))
    striped = Card(1, "diamond", "green", "striped")
    assert read_cut(lit(striped, 0.4))[1]["fill"] == 1.0
    corners = np.float32([[0, 0], [CUT_WIDTH, 0], [CUT_WIDTH, CUT_HEIGHT], [0, CUT_HEIGHT]])
    assert read_twice(CutCard(corners, lit(striped, 0.4))).card == striped


def test_a_striping_s_lines_are_seen_where_a_washed_out_solid_is_smooth():
    """Down a shape's middle, a striping's ink share rises and falls row by row; a solid
    washed out by glare to a striping's share does not."""
    def lines(card: Card, glare: float) -> float:
        picture = lit(card, glare)
        darkness = 1 - paper_divided(picture).min(axis=2)
        shapes = shapes_of(picture)
        depths = [cv2.distanceTransform(mask, cv2.DIST_L2, 3) for mask in shapes]
        return stripe_lines(camera._coverage(darkness, shapes), depths)

    assert lines(Card(1, "diamond", "green", "solid"), 0.5) < LINES_SEEN / 3
    for glare in (0.0, 0.4):
        assert lines(Card(1, "diamond", "green", "striped"), glare) > 3 * LINES_SEEN
        assert lines(Card(2, "oval", "red", "striped"), glare) > 3 * LINES_SEEN


@pytest.mark.parametrize("seed", [
    pytest.param(139, id="fine lines blurred to an even tint, on a white table"),
    pytest.param(488, id="fine lines under glare, on a cloth"),
])
def test_a_table_with_a_striping_whose_lines_are_seen_is_read_not_refused(seed, monkeypatch):
    """Tune boards once refused (`unsure of the fill: solid or striped?`): a striping's
    share evenly spread, or under glare, was a guess the learned reader was not 0.999 sure
    of; its lines seen, it is read. Its lines not seen, the fill is a guess (refused here at
    any sureness of the learned reader's: a network trained since may be surer)."""
    picture, placed, _ = draw_board(seed, size=(960, 720))
    found = read_picture(picture, lossy=True)
    assert [c.reading.card for c in found.cards] == [Card(**card.card) for card in placed]
    monkeypatch.setattr(camera, "LINES_SEEN", float("inf"))
    monkeypatch.setattr(verdict, "SURE_ALONE", float("inf"))
    with pytest.raises(BoardError, match=r"unsure of the fill: solid or striped\?"):
        read_picture(picture, lossy=True)


@pytest.mark.parametrize("seed", [
    pytest.param(97, id="the learned reader unsure of the fill"),
    pytest.param(464, id="the learned reader 0.96 sure of striped"),
])
def test_a_table_with_a_solid_washed_out_by_glare_is_refused_not_read_wrong(seed, monkeypatch):
    """Tune boards: a solid green diamond washed out by glare, read striped by both readers
    before; the rules only guess it, and the learned reader is not SURE_ALONE sure (the network
    of 2026-12-02 was 0.997 sure of striped on board 464, that of 2026-12-03 0.96)."""
    picture, placed, _ = draw_board(seed, size=(960, 720))
    with pytest.raises(BoardError, match=r"unsure of the fill: solid or striped\?"):
        read_picture(picture, kind="table")
    if seed == 464:  # (at a limit of 0.95 it is read wrong)
        monkeypatch.setattr(verdict, "SURE_ALONE", 0.95)
        card = read_picture(picture, kind="table").cards[0].reading.card
        assert card != Card(**placed[0].card) and card.fill == "striped"
