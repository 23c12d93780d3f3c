"""Draws photos of SET boards laid on a table, with the cards known: 3 to 21 cards in 3 or 4
rows or columns as people lay them, framed as people frame them (the board's longer side along
the picture's), each card a little off its place and turned up to 5 degrees, the gaps from
none to half a card; the printed card game's art (scripts/physical_cards.py) or the Daily SET
page's (scripts/render_set_cards.py), cards landscape or standing on end, on a dark, wood,
cloth or white table, taken by a phone held above it (tilt and turn in perspective) with a
camera's faults: a colour cast, uneven light and a shadow, a glare spot, blur, sensor noise and
JPEG. The measuring stick of issue 54's card finder; deterministic for a seed.

    python scripts/photo_boards.py OUT.jpg [--seed N] [--cards 12] [--art physical|page]
        [--table dark|wood|cloth|white] [--touching] [--size 960x720]

writes the picture and OUT.txt: its cards in reading order, one a line ("3 purple empty
diamonds"), as the labels of ../shared/reference/daily-set/photos/ say them.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

try:  # imported from the repository's root, as the tests do
    from scripts.physical_cards import physical_card
    from scripts.render_set_cards import card_for_number, new_card
except ModuleNotFoundError:  # run as a file from scripts/
    from physical_cards import physical_card
    from render_set_cards import card_for_number, new_card

ARTS = ("physical", "page")
TABLES = ("dark", "wood", "cloth", "white")
SIZES = ((960, 720), (4032, 3024), (3024, 4032))  # a webcam, a phone held either way
CARD = 100.0  # a card's short side on the table, in the board's own units
ASPECT = 1.53  # a card's long side / short side
MAX_JITTER_DEG = 5.0
TOUCHING_SHARE = 0.3  # of random boards


@dataclass(frozen=True)
class Board:
    """What a drawn board is. Angles in degrees."""

    seed: int
    cards: int
    art: str  # physical | page
    table: str  # dark | wood | cloth | white
    touching: bool  # two or more cards edge to edge
    orientation: str  # landscape | portrait: the cards as laid, long side across or up
    size: tuple[int, int]  # the picture's width, height
    columns: int
    turn: float  # the board turned in the picture (in-plane)
    tilt: float  # the camera's tilt from straight above
    faults: bool  # the camera's faults drawn (cast, light, glare, blur, noise, JPEG)


@dataclass(frozen=True)
class PlacedCard:
    """A card of a drawn board: what it is and where it lies in the picture."""

    card: dict  # count, shape, color, fill (as scripts/render_set_cards.py)
    number: int  # the Daily SET site's card number (1-81)
    corners: np.ndarray  # 4x2 float: the card's top-left, top-right, bottom-right and
    # bottom-left in the picture, as its art stands (landscape, shapes upright); pixel
    # coordinates with (0, 0) the top-left pixel's centre


def label(card: dict) -> str:
    """The card in words, as the reference labels say it: "1 red striped oval"."""
    plural = "s" if int(card["count"]) > 1 else ""
    return f"{card['count']} {card['color']} {card['fill']} {card['shape']}{plural}"


def draw_board(seed: int, cards: int | None = None, art: str | None = None,
               table: str | None = None, touching: bool | None = None,
               orientation: str | None = None, size: tuple[int, int] | None = None,
               columns: int | None = None, max_turn: float = 15.0, max_tilt: float = 25.0,
               faults: bool = True) -> tuple[np.ndarray, list[PlacedCard], Board]:
    """A photo of a board (BGR uint8), its cards in reading order (rows of the board as laid,
    top row first, each left to right, before the camera turns and tilts it) and what the
    board is. What is not given is drawn at random from `seed`; `max_turn` bounds the board's
    in-plane turn (180: any way round)."""
    rng = np.random.default_rng(seed)
    count = int(rng.integers(3, 22)) if cards is None else cards
    if not 3 <= count <= 21:
        raise ValueError(f"a board has 3 to 21 cards, not {count}")
    drawn_art, drawn_table = _pick(rng, ARTS, art), _pick(rng, TABLES, table)
    drawn_touching = bool(rng.random() < TOUCHING_SHARE) if touching is None else touching
    drawn_orientation = _pick(rng, ("landscape", "portrait"), orientation)
    drawn_size = tuple(SIZES[int(rng.integers(len(SIZES)))]) if size is None else tuple(size)
    lines = int(rng.choice([3, 4]))
    board = Board(
        seed=seed, cards=count, art=drawn_art, table=drawn_table, touching=drawn_touching,
        orientation=drawn_orientation, size=drawn_size,
        columns=min(count, _framed(count, lines, drawn_orientation, drawn_size)
                    if columns is None else columns),
        turn=float(rng.uniform(-max_turn, max_turn)), tilt=float(rng.uniform(0, max_tilt)),
        faults=faults)
    numbers = rng.choice(81, count, replace=False) + 1
    layout = _lay(board, rng)
    to_picture = _camera(board, layout, rng)
    picture, placed = _photograph(board, numbers, layout, to_picture, rng)
    return picture, placed, board


def _framed(count: int, lines: int, orientation: str, size: tuple[int, int]) -> int:
    """The columns of a board laid in `lines` rows or columns (3 or 4, as players lay SET),
    whichever way its longer side lies along the picture's longer side: a person frames a
    long board so, turning the phone or laying the rows across in front of a webcam."""
    width, height = (ASPECT, 1.0) if orientation == "landscape" else (1.0, ASPECT)
    picture = np.log(size[0] / size[1])

    def misfit(columns: int) -> float:
        rows = -(-count // columns)
        return abs(np.log(columns * width / (rows * height)) - picture)

    return min((lines, -(-count // lines)), key=misfit)


def _pick(rng: np.random.Generator, choices: tuple[str, ...], given: str | None) -> str:
    drawn = choices[int(rng.integers(len(choices)))]
    if given is not None and given not in choices:
        raise ValueError(f"{given!r} is not one of {', '.join(choices)}")
    return drawn if given is None else given


@dataclass
class _Spot:
    """A card's place on the table, in the board's units."""

    x: float
    y: float
    angle: float  # degrees: the jitter plus the art's quarter turns (0, 90, 180, 270)
    jitter: float
    dx: float
    dy: float

    def rectangle(self, width: float, height: float, margin: float = 0.0) -> np.ndarray:
        """The card's corners as laid (4x2 float32), grown by `margin` on every side."""
        w, h = width / 2 + margin, height / 2 + margin
        turn = np.radians(self.jitter)
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        corners = np.array([(-w, -h), (w, -h), (w, h), (-w, h)]) @ rotation.T
        return (corners + (self.x + self.dx, self.y + self.dy)).astype(np.float32)


def _footprint(board: Board) -> tuple[float, float]:
    """A card's width and height on the table as laid."""
    return (CARD * ASPECT, CARD) if board.orientation == "landscape" else (CARD, CARD * ASPECT)


def _lay(board: Board, rng: np.random.Generator) -> list[_Spot]:
    """Cards in rows of `columns`, the last row short and from the left; gaps, jitter and the
    touching cards at random. No two cards overlap; on a board not touching, none touch."""
    width, height = _footprint(board)
    gap_x, gap_y = rng.uniform(0.05, 0.5, 2) * width
    spots = []
    for i in range(board.cards):
        row, column = divmod(i, board.columns)
        quarter = (0 if board.orientation == "landscape" else 90) + 180 * int(rng.integers(2))
        jitter = float(rng.uniform(-MAX_JITTER_DEG, MAX_JITTER_DEG))
        dx, dy = rng.uniform(-0.04, 0.04, 2) * CARD
        spots.append(_Spot(column * (width + gap_x), row * (height + gap_y), quarter + jitter,
                           jitter, float(dx), float(dy)))
    touching: set[tuple[int, int]] = set()
    if board.touching:
        touching = _make_touch(board, spots, rng, width, height, gap_y)
    _settle(spots, touching, width, height)
    return spots


def _make_touch(board: Board, spots: list[_Spot], rng: np.random.Generator, width: float,
                height: float, gap_y: float) -> set[tuple[int, int]]:
    """Lays a run of cards in a row edge to edge, or two cards of a column; returns the pairs."""
    rows = -(-board.cards // board.columns)
    full_row = [r for r in range(rows) if min(board.columns, board.cards - r * board.columns) > 1]
    if rows > 1 and (not full_row or rng.random() < 0.4):  # two of a column, each half the gap
        row = int(rng.integers(rows - 1))
        column = int(rng.integers(min(board.columns, board.cards - (row + 1) * board.columns)))
        pair = (row * board.columns + column, (row + 1) * board.columns + column)
        for index, shift in zip(pair, (gap_y / 2, -gap_y / 2), strict=True):
            _straighten(spots[index])
            spots[index].y += shift
        return {pair}
    row = full_row[int(rng.integers(len(full_row)))]
    in_row = min(board.columns, board.cards - row * board.columns)
    length = int(rng.integers(2, in_row + 1))
    start = row * board.columns + int(rng.integers(in_row - length + 1))
    for k in range(length):
        _straighten(spots[start + k])
        spots[start + k].x = spots[start].x + k * width
    return {(start + k, start + k + 1) for k in range(length - 1)}


def _straighten(spot: _Spot) -> None:
    spot.angle -= spot.jitter
    spot.jitter = spot.dx = spot.dy = 0.0


def _settle(spots: list[_Spot], touching: set[tuple[int, int]], width: float,
            height: float) -> None:
    """Puts back on its place (no jitter) each card that would overlap or touch another,
    but for the pairs meant to touch: cards on their places are a gap apart."""
    margin = 0.01 * CARD  # half the least gap kept between cards not meant to touch
    moved = True
    while moved:
        moved = False
        for i in range(len(spots)):
            for j in range(i + 1, len(spots)):
                if (i, j) in touching:
                    continue
                area, _ = cv2.intersectConvexConvex(spots[i].rectangle(width, height, margin),
                                                    spots[j].rectangle(width, height, margin))
                if area > 0 and (spots[i].jitter or spots[i].dx or spots[j].jitter
                                 or spots[j].dx):
                    _straighten(spots[i])
                    _straighten(spots[j])
                    moved = True


def _camera(board: Board, spots: list[_Spot], rng: np.random.Generator) -> np.ndarray:
    """The homography from the table (board units) to the picture: the board turned, seen
    from a camera tilted `board.tilt` from straight above, filling most of the picture."""
    width, height = _footprint(board)
    corners = np.vstack([spot.rectangle(width, height) for spot in spots])
    low, high = corners.min(0) - 0.1 * CARD, corners.max(0) + 0.1 * CARD
    box = np.array([low, (high[0], low[1]), high, (low[0], high[1])])
    centred = box - (low + high) / 2
    turn = np.radians(board.turn)
    c, s = np.cos(turn), np.sin(turn)
    flat = centred @ np.array([[c, -s], [s, c]]).T
    axis = rng.uniform(0, 2 * np.pi)  # the tilt's axis, in the table's plane
    ax, ay = np.cos(axis), np.sin(axis)
    tilt = np.radians(board.tilt)
    along = flat @ (ax, ay)
    across = flat @ (-ay, ax)
    # the table turned about the axis: `across` shrinks by cos(tilt) and rises by sin(tilt)
    depth = across * np.sin(tilt)
    across = across * np.cos(tilt)
    distance = float(rng.uniform(1.1, 1.8)) * float(np.ptp(flat, axis=0).max())
    seen = np.stack([along * ax - across * ay, along * ay + across * ax], 1)
    seen = seen * distance / (distance + depth[:, None])
    out_w, out_h = board.size
    span = np.ptp(seen, axis=0)
    fill = float(rng.uniform(0.7, 0.95))
    scale = fill * min(out_w / span[0], out_h / span[1])
    placed = (seen - seen.min(0)) * scale
    slack = np.array([out_w, out_h]) - 1 - np.ptp(placed, axis=0)
    placed += slack * rng.uniform(0.2, 0.8, 2)
    return cv2.getPerspectiveTransform(box.astype(np.float32), placed.astype(np.float32))


def _photograph(board: Board, numbers: np.ndarray, spots: list[_Spot], to_picture: np.ndarray,
                rng: np.random.Generator) -> tuple[np.ndarray, list[PlacedCard]]:
    card_px = _card_height_px(to_picture, spots[0])
    picture = _table(board, to_picture, card_px, rng)
    placed, faces = [], []
    shade = np.ones(picture.shape[:2], np.float32)  # a soft shadow round each card
    for spot, number in zip(spots, numbers, strict=True):
        card = card_for_number(int(number))
        if board.art == "physical":
            art = physical_card(card, int(np.clip(card_px * 1.3, 40, 900)))
            h, w = art.shape[:2]
            frame = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64)
        else:
            art = _page_card(int(number))  # a rounded card 1 px inside its picture
            h, w = art.shape[:2]
            frame = np.array([(1, 1), (w - 1, 1), (w - 1, h - 1), (1, h - 1)], np.float64)
        frame -= 0.5  # the edges of the pixels, not their centres
        corners = cv2.perspectiveTransform(_art_on_table(spot, frame)[None], to_picture)[0]
        placed.append(PlacedCard(card=card, number=int(number), corners=corners))
        faces.append((art, cv2.getPerspectiveTransform(frame.astype(np.float32),
                                                       corners.astype(np.float32))))
        cv2.fillConvexPoly(shade, np.round(corners + 0.02 * card_px).astype(np.int32), 0.8)
    picture *= cv2.GaussianBlur(shade, (0, 0), max(1.0, card_px * 0.03))[..., None]
    for art, homography in faces:
        _paste(picture, art, homography, float(rng.uniform(0.93, 1.0)))
    if board.faults:
        return _camera_faults(picture, placed, rng), placed
    return np.clip(np.round(picture), 0, 255).astype(np.uint8), placed


@lru_cache(maxsize=81)
def _page_card(number: int) -> np.ndarray:
    return new_card(card_for_number(number))


def _art_on_table(spot: _Spot, frame: np.ndarray) -> np.ndarray:
    """The art's corners (in its pixels) laid on the table at the spot, in board units: its
    long side CARD * ASPECT, its short side CARD."""
    scale = np.array([CARD * ASPECT, CARD]) / np.ptp(frame, axis=0)
    turn = np.radians(spot.angle)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    return (frame - frame.mean(0)) * scale @ rotation.T + (spot.x + spot.dx, spot.y + spot.dy)


def _card_height_px(to_picture: np.ndarray, spot: _Spot) -> float:
    """About how many pixels a card's short side takes in the picture."""
    ends = np.array([[(spot.x, spot.y), (spot.x, spot.y + CARD)]], np.float64)
    a, b = cv2.perspectiveTransform(ends, to_picture)[0]
    return float(np.hypot(*(a - b)))


def _paste(picture: np.ndarray, art: np.ndarray, homography: np.ndarray, light: float) -> None:
    """Lays the BGRA art into the picture (float BGR) by the homography, within its box."""
    corners = cv2.perspectiveTransform(
        np.array([[(0, 0), (art.shape[1], 0), art.shape[1::-1], (0, art.shape[0])]],
                 np.float64), homography)[0]
    x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + 2, picture.shape[1::-1])
    move = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    warped = cv2.warpPerspective(art, move @ homography, (int(x1 - x0), int(y1 - y0)),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=(0, 0, 0, 0)).astype(np.float32)
    alpha = warped[..., 3:] / 255
    area = picture[y0:y1, x0:x1]
    area[:] = warped[..., :3] * light * alpha + area * (1 - alpha)


def _table(board: Board, to_picture: np.ndarray, card_px: float,
           rng: np.random.Generator) -> np.ndarray:
    """The table top filling the picture (float BGR), its texture lying on the table: drawn
    in the table's plane at about the picture's scale, then seen through the camera."""
    out_w, out_h = board.size
    corners = np.array([[(0, 0), (out_w, 0), (out_w, out_h), (0, out_h)]], np.float64)
    seen = cv2.perspectiveTransform(corners, np.linalg.inv(to_picture))[0]
    low, high = seen.min(0), seen.max(0)
    scale = card_px / CARD  # texture pixels a board unit: about the picture's
    width, height = (int(v) + 2 for v in (high - low) * scale)
    texture = _texture(board.table, width, height, card_px, rng)
    to_texture = np.array([[scale, 0, -low[0] * scale], [0, scale, -low[1] * scale], [0, 0, 1]])
    return cv2.warpPerspective(texture, to_picture @ np.linalg.inv(to_texture), (out_w, out_h),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _texture(kind: str, width: int, height: int, card: float,
             rng: np.random.Generator) -> np.ndarray:
    """A table top's texture (float BGR): its colour with a grain; `card` is a card's short
    side in its pixels."""
    def grain(sigma: float, shape: tuple[int, int] = (height, width)) -> np.ndarray:
        """Noise of unit spread, smooth over about `sigma` px (a coarse one drawn small)."""
        shrink = max(1.0, sigma / 2)
        small = (max(2, int(shape[0] / shrink)), max(2, int(shape[1] / shrink)))
        noise = rng.normal(0, 1, small).astype(np.float32)
        blurred = cv2.GaussianBlur(noise, (0, 0), sigma / shrink)
        blurred = cv2.resize(blurred, shape[::-1], interpolation=cv2.INTER_CUBIC)
        return blurred / max(float(blurred.std()), 1e-6)

    if kind == "dark":
        base = rng.uniform(12, 45) * rng.uniform(0.85, 1.15, 3)
        level = base + (3 * grain(1.0) + 3 * grain(0.5 * card))[..., None]
    elif kind == "wood":
        colour = np.array((rng.uniform(40, 70), rng.uniform(75, 110), rng.uniform(110, 160)))
        # the grain runs along x: noise stretched along it, rings as waves across it
        streaks = cv2.resize(grain(0.7, (height, max(2, width // 40))), (width, height))
        y = np.arange(height, dtype=np.float32)[:, None] + 0.08 * card * grain(0.6 * card)
        rings = (np.sin(y / (card * rng.uniform(0.02, 0.06)))
                 + np.sin(y / (card * rng.uniform(0.15, 0.4)))) / 2
        planks = np.floor(y / (card * rng.uniform(1.5, 4))) % 2 * rng.uniform(-0.12, 0.12)
        level = colour * (1 + 0.12 * rings + 0.06 * streaks + planks)[..., None]
    elif kind == "cloth":
        cloths = ((50, 110, 40), (120, 70, 30), (40, 40, 120), (90, 90, 90), (70, 40, 80))
        colour = np.array(cloths[int(rng.integers(len(cloths)))], np.float32)
        level = colour * (1 + 0.08 * grain(0.6) + 0.05 * grain(0.3 * card))[..., None]
    else:  # a white or light grey table, close to the cards' white
        level = rng.uniform(185, 215) + 3 * grain(1.0) + 4 * grain(0.4 * card)
        level = np.repeat(level[..., None], 3, axis=2)
    return np.clip(level, 0, 255).astype(np.float32)


def _camera_faults(picture: np.ndarray, placed: list[PlacedCard],
                   rng: np.random.Generator) -> np.ndarray:
    """Light and lens: a colour cast, a light falling off across the picture, a soft shadow,
    maybe a glare spot, blur, sensor noise and JPEG (BGR uint8)."""
    height, width = picture.shape[:2]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    side = float(min(width, height))
    direction = rng.uniform(0, 2 * np.pi)
    along = (np.cos(direction) * x + np.sin(direction) * y) / side
    light = 1 - rng.uniform(0, 0.3) * (along - along.min()) / max(float(np.ptp(along)), 1e-6)
    cx, cy = rng.uniform(0, width), rng.uniform(0, height)  # a shadow blob (the phone's)
    reach = rng.uniform(0.2, 0.5) * side
    inside = np.exp(-(((x - cx) ** 2 + (y - cy) ** 2) / reach ** 2) ** 2)
    light *= 1 - rng.uniform(0.0, 0.4) * inside
    picture = picture * (light * rng.uniform(0.7, 1.05))[..., None]
    if rng.random() < 0.3:  # glare: a bright spot on a card, towards white
        gx, gy = placed[int(rng.integers(len(placed)))].corners.mean(0)
        spread = rng.uniform(0.03, 0.1) * side
        spot = np.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * spread ** 2))
        picture += (255 - picture) * (rng.uniform(0.2, 0.6) * spot)[..., None]
    warm = rng.uniform(-1, 1)  # < 0 cold light, > 0 warm
    tint = rng.uniform(-0.05, 0.05, 3)
    picture *= np.array((1 - 0.12 * warm + tint[0], 1 + tint[1], 1 + 0.12 * warm + tint[2]),
                        np.float32)
    blur = rng.uniform(0.0, 1.2) * side / 720
    if blur > 0.3:
        picture = cv2.GaussianBlur(picture, (0, 0), blur)
    picture += rng.normal(0, rng.uniform(1, 6), picture.shape).astype(np.float32)
    picture = np.clip(np.round(picture), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 93))])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected WIDTHxHEIGHT, as 960x720") from None
    return width, height


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the picture to write (.jpg or .png)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cards", type=int, help="3 to 21 (default: at random)")
    parser.add_argument("--art", choices=ARTS)
    parser.add_argument("--table", choices=TABLES)
    parser.add_argument("--orientation", choices=("landscape", "portrait"))
    parser.add_argument("--touching", action=argparse.BooleanOptionalAction,
                        help="cards edge to edge, or --no-touching (default: at random)")
    parser.add_argument("--size", type=_size, help="WIDTHxHEIGHT (default: a webcam or phone)")
    parser.add_argument("--turn", type=float, default=15.0,
                        help="the most the board is turned in the picture, degrees (180: any)")
    parser.add_argument("--clean", action="store_true", help="no camera faults")
    args = parser.parse_args()
    try:
        picture, cards, board = draw_board(
            args.seed, cards=args.cards, art=args.art, table=args.table, touching=args.touching,
            orientation=args.orientation, size=args.size, max_turn=args.turn,
            faults=not args.clean)
    except ValueError as error:
        raise SystemExit(f"photo_boards: error: {error}") from None
    if not cv2.imwrite(str(args.out), picture):
        raise SystemExit(f"photo_boards: error: cannot write {args.out}")
    args.out.with_suffix(".txt").write_text("".join(label(c.card) + "\n" for c in cards))
    print(f"wrote {args.out} and its .txt: {board}")


if __name__ == "__main__":
    main()
