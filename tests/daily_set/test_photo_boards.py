"""The photographed-board renderer (scripts/photo_boards.py) and its printed card art
(scripts/physical_cards.py), the measuring stick of the card finder on photos: its truth (the
cards, their order and their corners in the picture) must be right for a board to measure
anything."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from scripts import photo_boards
from scripts.photo_boards import TABLES, draw_board, label
from scripts.physical_cards import CARD_ASPECT, INKS, PAPER, physical_card
from scripts.render_set_cards import card_for_number

SMALL = (640, 480)


def _ink_blobs(card_picture: np.ndarray) -> list[np.ndarray]:
    """The outer outlines of the ink on a card picture (BGR), the card's white left out."""
    gray = cv2.cvtColor(card_picture, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    ink = (gray < 0.8 * float(np.median(gray))).astype(np.uint8)
    ink[: h // 12], ink[-h // 12:], ink[:, : w // 12], ink[:, -w // 12:] = 0, 0, 0, 0
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [c for c in contours if cv2.contourArea(c) > 0.01 * h * h]


def _hue(bgr) -> int:
    return int(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 0])


@pytest.mark.parametrize("number", range(1, 82))
def test_a_printed_card_shows_its_count_in_its_ink(number):
    card = card_for_number(number)
    art = physical_card(card, 120)
    assert art.shape[2] == 4 and abs(art.shape[1] / art.shape[0] - CARD_ASPECT) < 0.01
    assert art[0, 0, 3] == 0 and art[60, 90, 3] == 255  # a rounded corner, an opaque middle
    face = art[..., :3]
    blobs = _ink_blobs(face)
    assert len(blobs) == card["count"]
    ink = np.abs(face.astype(int) - PAPER).sum(axis=2) > 150
    mean = face[ink].mean(axis=0)
    hue_gap = abs(_hue(mean) - _hue(INKS[card["color"]]))
    assert min(hue_gap, 180 - hue_gap) <= 8
    for blob in blobs:  # shapes stand upright
        _, _, w, h = cv2.boundingRect(blob)
        assert h > 1.5 * w


def test_a_seed_draws_the_same_board_and_another_seed_another():
    first, cards, board = draw_board(3, size=SMALL, art="physical")
    again, cards_again, board_again = draw_board(3, size=SMALL, art="physical")
    other, *_ = draw_board(4, size=SMALL, art="physical")
    assert np.array_equal(first, again) and board == board_again
    pairs = zip(cards, cards_again, strict=True)
    assert all(np.array_equal(a.corners, b.corners) for a, b in pairs)
    assert not np.array_equal(first, other)


def _no_two_overlap(cards) -> None:
    for a, b in itertools.combinations(cards, 2):
        area, _ = cv2.intersectConvexConvex(a.corners.astype(np.float32),
                                            b.corners.astype(np.float32))
        assert area < 0.003 * cv2.contourArea(a.corners.astype(np.float32))


def _least_distance(a: np.ndarray, b: np.ndarray) -> float:
    """The least distance between two convex quadrilaterals that do not overlap."""
    def to_edges(points, polygon):
        return min(abs(cv2.pointPolygonTest(polygon.astype(np.float32),
                                            tuple(map(float, p)), True)) for p in points)
    return min(to_edges(a, b), to_edges(b, a))


@pytest.mark.parametrize("seed", range(10))
def test_the_truth_lies_in_the_picture_without_overlap(seed):
    art = "page" if seed == 0 else "physical"  # the page's art is slow to draw
    picture, cards, board = draw_board(seed, size=SMALL, art=art, cards=None if seed else 5)
    assert picture.shape == (SMALL[1], SMALL[0], 3) and picture.dtype == np.uint8
    assert len(cards) == board.cards and 3 <= board.cards <= 21
    for placed in cards:
        assert placed.corners.shape == (4, 2)
        assert (placed.corners >= -0.5).all()
        assert (placed.corners <= np.array(SMALL) - 0.5).all()
        assert label(placed.card) == label(card_for_number(placed.number))
    assert len({c.number for c in cards}) == len(cards)
    _no_two_overlap(cards)


@pytest.mark.parametrize("seed,orientation", [(1, "landscape"), (2, "portrait")])
def test_cards_are_in_rows_as_laid_and_their_corners_as_their_art_stands(seed, orientation):
    _, cards, board = draw_board(seed, cards=14, art="physical", size=(960, 720),
                                 orientation=orientation,
                                 max_turn=0, max_tilt=0, columns=4)
    centres = np.array([c.corners.mean(axis=0) for c in cards])
    rows = [centres[i:i + 4] for i in range(0, 14, 4)]
    assert [len(r) for r in rows] == [4, 4, 4, 2]
    for row in rows:
        assert (np.diff(row[:, 0]) > 0).all()  # left to right
    for upper, lower in zip(rows, rows[1:], strict=False):
        assert upper[:, 1].max() < lower[:, 1].min()  # top row first
    for placed in cards:
        top = np.linalg.norm(placed.corners[1] - placed.corners[0])
        side = np.linalg.norm(placed.corners[3] - placed.corners[0])
        assert abs(top / side - CARD_ASPECT) < 0.05  # the art's long side first
        across = abs(placed.corners[1] - placed.corners[0])
        assert (across[0] > across[1]) == (orientation == "landscape")


def test_the_cards_cut_out_by_their_corners_are_the_cards_told():
    picture, cards, _ = draw_board(5, cards=12, art="physical", table="wood", size=(960, 720),
                                   max_turn=180, faults=False)
    target = np.float32([(0, 0), (153, 0), (153, 100), (0, 100)]) - 0.5
    for placed in cards:
        homography = cv2.getPerspectiveTransform(placed.corners.astype(np.float32), target)
        straight = cv2.warpPerspective(picture, homography, (153, 100))
        blobs = _ink_blobs(straight)
        assert len(blobs) == placed.card["count"], label(placed.card)
        for blob in blobs:  # upright: the corners' order follows the art
            _, _, w, h = cv2.boundingRect(blob)
            assert h > 1.3 * w


@pytest.mark.parametrize("table", [t for t in TABLES if t != "white"])
def test_cards_are_brighter_than_the_table(table):
    picture, cards, _ = draw_board(21, table=table, art="physical", size=SMALL)
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    on_cards = np.zeros(gray.shape, np.uint8)
    for placed in cards:
        cv2.fillConvexPoly(on_cards, np.round(placed.corners).astype(np.int32), 255)
    table_area = cv2.dilate(on_cards, np.ones((15, 15), np.uint8)) == 0
    for placed in cards:
        inside = np.zeros(gray.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(placed.corners).astype(np.int32), 255)
        inside = cv2.erode(inside, np.ones((5, 5), np.uint8)) > 0
        assert np.median(gray[inside]) > np.percentile(gray[table_area], 90) + 30


def test_a_white_table_is_close_to_the_cards_white():
    picture, cards, board = draw_board(8, table="white", art="physical", size=SMALL,
                                       faults=False)
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    on_cards = np.zeros(gray.shape, np.uint8)
    for placed in cards:
        cv2.fillConvexPoly(on_cards, np.round(placed.corners).astype(np.int32), 255)
    table_level = np.median(gray[cv2.dilate(on_cards, np.ones((15, 15), np.uint8)) == 0])
    assert 170 < table_level < 225 and np.median(gray[on_cards > 0]) > table_level


def test_touching_boards_have_cards_edge_to_edge_and_others_none():
    shares = [draw_board(seed, size=(320, 240), art="physical", faults=False)[2].touching
              for seed in range(40)]
    assert 0.1 < np.mean(shares) < 0.6  # a share of random boards
    for seed in range(4):
        _, cards, board = draw_board(seed, size=SMALL, art="physical", touching=True)
        assert board.touching
        distances = [_least_distance(a.corners, b.corners)
                     for a, b in itertools.combinations(cards, 2)]
        assert min(distances) < 1.0
        _, cards, board = draw_board(seed, size=SMALL, art="physical", touching=False)
        distances = [_least_distance(a.corners, b.corners)
                     for a, b in itertools.combinations(cards, 2)]
        assert not board.touching and min(distances) > 0.5


def test_counts_out_of_range_are_refused():
    with pytest.raises(ValueError, match="3 to 21 cards"):
        draw_board(0, cards=22)
    with pytest.raises(ValueError, match="'felt' is not one of"):
        draw_board(0, table="felt")


def test_the_command_writes_the_picture_and_its_labels(tmp_path, monkeypatch):
    out = tmp_path / "board.jpg"
    monkeypatch.setattr("sys.argv", ["photo_boards.py", str(out), "--seed", "4", "--cards",
                                     "6", "--art", "physical", "--table", "cloth",
                                     "--touching", "--size", "480x360"])
    photo_boards.main()
    picture = cv2.imread(str(out))
    assert picture.shape == (360, 480, 3)
    _, cards, _ = draw_board(4, cards=6, art="physical", table="cloth", touching=True,
                             size=(480, 360))
    lines = out.with_suffix(".txt").read_text().splitlines()
    assert lines == [label(c.card) for c in cards]
    assert all(len(line.split()) == 4 for line in lines)
