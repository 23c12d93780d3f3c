"""The card classifier on pixels: the replica's 81 GIF and PNG cards at several scales and noise
levels, the real cards of the old site, and pictures that are not cards."""

from __future__ import annotations

import json
import sys

import cv2
import numpy as np
import pytest

from tests import processes
from tests.daily_set.conftest import FIXTURES, IMAGES, REAL, needs_reference, site_card
from webbot.set_cards.model import Card, all_cards
from webbot.set_cards.perceive import (
    RING,
    CardError,
    _white_balanced,
    as_bgr,
    classify,
    decode,
    load,
)

NUMBERS = range(1, 82)
SCALES = (0.75, 1.0, 1.6, 2.5)
NOISE = (0.0, 6.0, 10.0)  # standard deviation of Gaussian pixel noise


def small_gif(number: int) -> np.ndarray:
    return load(IMAGES / "small" / f"{number:02d}.gif")


def new_png(number: int) -> np.ndarray:
    return load(IMAGES / "new" / f"{number}.png")


def vary(image: np.ndarray, scale: float, noise: float, seed: int) -> np.ndarray:
    size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
    shrink = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    picture = cv2.resize(image, size, interpolation=shrink).astype(np.float32)
    picture += np.random.default_rng(seed).normal(0, noise, picture.shape)
    return np.clip(picture, 0, 255).astype(np.uint8)


def misreads(pictures: dict[str, tuple[np.ndarray, Card]]) -> list[str]:
    wrong = []
    for name, (picture, truth) in pictures.items():
        try:
            seen = classify(picture).card
        except CardError as exc:
            seen = exc
        if seen != truth:
            wrong.append(f"{name}: {seen} (is {truth})")
    return wrong


def test_the_rendered_deck_is_the_whole_deck():
    assert sorted(map(str, (site_card(n) for n in NUMBERS))) == sorted(map(str, all_cards()))


@pytest.mark.parametrize("noise", NOISE)
@pytest.mark.parametrize("scale", SCALES)
def test_every_small_gif_card(scale, noise):
    pictures = {f"{n:02d}.gif": (vary(small_gif(n), scale, noise, n), site_card(n))
                for n in NUMBERS}
    assert misreads(pictures) == []


@pytest.mark.parametrize("noise", (0.0, 10.0))
@pytest.mark.parametrize("scale", (0.5, 1.0))
def test_every_new_png_card(scale, noise):
    pictures = {f"{n}.png": (vary(new_png(n), scale, noise, n), site_card(n)) for n in NUMBERS}
    assert misreads(pictures) == []


def test_jpeg_copies_read_the_same():
    pictures = {}
    for n in NUMBERS:
        ok, data = cv2.imencode(".jpg", vary(small_gif(n), 2.0, 0, n),
                                [cv2.IMWRITE_JPEG_QUALITY, 80])
        assert ok
        pictures[f"{n:02d}.jpg"] = (decode(data.tobytes()), site_card(n))
    assert misreads(pictures) == []


# What the real cards show, read by eye (the file names are not used by the bot).
REAL_TRUTH = {
    "05.gif": Card(2, "squiggle", "purple", "solid"),
    "07.gif": Card(1, "squiggle", "green", "solid"),
    "09.gif": Card(3, "squiggle", "green", "solid"),
    "10.gif": Card(1, "diamond", "red", "solid"),
    "16.gif": Card(1, "diamond", "green", "solid"),
    "37.gif": Card(1, "diamond", "red", "striped"),
    "39.gif": Card(3, "diamond", "red", "striped"),
    "43.gif": Card(1, "diamond", "green", "striped"),
    "57.gif": Card(3, "squiggle", "red", "empty"),
    "70.gif": Card(1, "diamond", "green", "empty"),
    "77.gif": Card(2, "oval", "purple", "empty"),
    "79.gif": Card(1, "oval", "green", "empty"),
}


@needs_reference
def test_the_real_cards():
    assert sorted(p.name for p in (REAL / "cards").glob("*.gif")) == sorted(REAL_TRUTH)
    pictures = {name: (load(REAL / "cards" / name), card) for name, card in REAL_TRUTH.items()}
    assert misreads(pictures) == []
    for name in REAL_TRUTH:
        assert classify(pictures[name][0]).doubt < 0.6, name


@needs_reference
@pytest.mark.parametrize("noise", NOISE)
@pytest.mark.parametrize("scale", SCALES)
def test_the_real_cards_rescaled_and_noisy(scale, noise):
    pictures = {name: (vary(load(REAL / "cards" / name), scale, noise, i), card)
                for i, (name, card) in enumerate(REAL_TRUTH.items())}
    assert misreads(pictures) == []


def test_a_transparent_png_is_read_on_white():
    data = (IMAGES / "new" / "41.png").read_bytes()
    picture = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert picture.shape[2] == 4 and picture[0, 0, 3] == 0  # its corners are see-through
    assert classify(decode(data)).card == site_card(41)


def test_transparency_laid_on_white_in_integers_is_the_float_formula():
    """Every colour level at every opacity: the same 8-bit value as c a + 255 (1 - a) in
    floats, rounded."""
    level, opacity = np.meshgrid(np.arange(256), np.arange(256))
    picture = np.zeros((256, 256, 4), np.uint8)
    picture[..., 0], picture[..., 1], picture[..., 2] = level, 255 - level, level // 2
    picture[..., 3] = opacity
    alpha = picture[..., 3:4].astype(np.float32) / 255
    floats = np.round(picture[..., :3].astype(np.float32) * alpha + 255 * (1 - alpha))
    assert np.array_equal(as_bgr(picture), floats.astype(np.uint8))


def tinted(image: np.ndarray, rgb: tuple[int, int, int]) -> np.ndarray:
    """The card printed on paper of this colour (white becomes it, inks darken with it)."""
    return np.round(image * (np.array(rgb[::-1]) / 255)).astype(np.uint8)


def framed(image: np.ndarray, rgb: tuple[int, int, int], width: int) -> np.ndarray:
    picture = image.copy()
    for edge in (np.s_[:width], np.s_[-width:], np.s_[:, :width], np.s_[:, -width:]):
        picture[edge] = rgb[::-1]
    return picture


@pytest.mark.parametrize(("change", "name"), [
    (lambda im: tinted(im, (255, 250, 225)), "cream paper"),
    (lambda im: tinted(im, (220, 235, 255)), "light blue paper"),
    (lambda im: framed(im, (255, 0, 0), 1), "a red 1 px frame"),
    (lambda im: framed(im, (153, 1, 204), 2), "a purple 2 px frame"),
    (lambda im: framed(im, (255, 213, 79), 3), "a yellow 3 px frame"),
    (lambda im: cv2.resize(im, (37, 24), interpolation=cv2.INTER_AREA), "24 px high"),
])
def test_tints_frames_and_small_sizes(change, name):
    pictures = {f"{n:02d}.gif": (change(small_gif(n)), site_card(n)) for n in NUMBERS}
    assert misreads(pictures) == [], name


@pytest.mark.parametrize(("change", "reason"), [
    (lambda im: tinted(im, (255, 213, 79)), "background is too dark or too colourful"),
    (lambda im: tinted(im, (90, 90, 90)), "background is too dark"),
    (lambda im: cv2.resize(im, (18, 12), interpolation=cv2.INTER_AREA), "12 px high"),
    (lambda im: cv2.resize(im, (4000, 62)), "not shaped like a card"),
    (lambda im: cv2.resize(im, (40, 62)), "not shaped like a card"),
])
def test_pictures_that_cannot_be_read_well_are_refused(change, reason):
    for n in (1, 41, 81):
        with pytest.raises(CardError, match=reason):
            classify(change(small_gif(n)))


@pytest.mark.parametrize("alpha", (False, True))
def test_sixteen_bit_pngs(alpha):
    raw = cv2.imread(str(IMAGES / "new" / "50.png"), cv2.IMREAD_UNCHANGED)  # BGRA
    picture = raw.astype(np.uint16) * 257
    if not alpha:
        picture = picture[..., :3]
    assert picture.shape[2] == (4 if alpha else 3)
    ok, data = cv2.imencode(".png", picture)
    assert ok
    assert classify(decode(data.tobytes())).card == site_card(50)


def test_an_empty_file_is_not_an_image():
    with pytest.raises(CardError, match="not an image"):
        decode(b"", "empty.gif")


def blank(colour: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    return np.full((62, 95, 3), colour, np.uint8)


@pytest.mark.parametrize(("picture", "reason"), [
    (blank(), "no coloured shape"),
    (blank((128, 128, 128)), "no coloured shape"),
    (np.full((4, 4, 3), 255, np.uint8), "4 px high"),
    (np.full((62, 95), 255, np.uint8), "8-bit colour image"),
])
def test_pictures_without_a_card_are_refused(picture, reason):
    with pytest.raises(CardError, match=reason):
        classify(picture)


def test_four_shapes_are_not_a_card():
    one = small_gif(1)[:, 31:63]  # a red solid squiggle and some white on both sides
    assert classify(np.hstack([one] * 3)).card.count == 3
    with pytest.raises(CardError, match="4 shapes"):
        classify(np.hstack([one] * 4))


@pytest.mark.parametrize("cut", (58, 64))
def test_a_broken_shape_is_doubted(cut):
    picture = small_gif(2).copy()  # two red solid squiggles
    picture[:, cut:] = 255  # the right one cut: a sliver, or half of it
    reading = classify(picture)
    assert reading.doubt > 0.9 and reading.doubtful == "count"


def test_classify_command_prints_json_per_image(webbot_here, tmp_path):
    files = [IMAGES / "small" / "05.gif", IMAGES / "new" / "77.png"]
    done = webbot_here("daily-set", "classify", *map(str, files), "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines == [{"file": str(files[0]), **site_card(5).as_dict()},
                     {"file": str(files[1]), **site_card(77).as_dict()}]


def test_classify_command_errors_are_one_line(webbot_here, tmp_path):
    text = tmp_path / "notes.gif"
    text.write_text("not a picture")
    done = webbot_here("daily-set", "classify", str(text))
    assert done.returncode == 2  # bad input
    assert done.stderr == (f"webbot: error: {text} is not an image that can be decoded (PNG, "
                           "JPEG, GIF, BMP, WebP)\n")
    done = webbot_here("daily-set", "classify", str(tmp_path / "missing.gif"))
    assert done.returncode == 2 and "missing.gif: no such file" in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_the_renderer_draws_the_bundled_cards_again(tmp_path):
    script = FIXTURES.parents[1] / "scripts" / "render_set_cards.py"
    # Three cards (all 81 take two minutes): two of the old page's, and the others' sizes.
    done = processes.run([sys.executable, str(script), "--out", str(tmp_path),
                          "--cards", "1,40,81"], timeout=300)
    assert done.returncode == 0, done.stderr
    for relative in ("setcards/small/01.gif", "setcards/small/40.gif", "setcards/new/81.png",
                     "setcards/large/40.gif", "setcards/small/empty_card.gif", "x_button.gif"):
        again = cv2.imread(str(tmp_path / relative), cv2.IMREAD_UNCHANGED).astype(int)
        bundled = cv2.imread(str(FIXTURES / "images" / relative), cv2.IMREAD_UNCHANGED)
        assert again.shape == bundled.shape
        assert np.abs(again - bundled).mean() < 1.0, relative


@pytest.mark.parametrize("seed", range(5))
def test_white_balance_by_table_is_the_per_pixel_scaling(seed):
    """Each channel scaled through a table gives the very values of scaling each pixel by the
    background's white (as floats, clipped, cut to whole levels)."""
    rng = np.random.default_rng(seed)
    picture = rng.integers(0, 256, (124, 190, 3), dtype=np.uint8)
    ring = round(RING * 124)
    picture[:3 * ring] = picture[-3 * ring:] = rng.integers(150, 256, 3, dtype=np.uint8)
    picture[:, :3 * ring] = picture[:, -3 * ring:] = picture[0, 0]  # a light, even background
    band = np.zeros(picture.shape[:2], bool)
    band[ring:-ring, ring:-ring] = True
    band[2 * ring:-2 * ring, 2 * ring:-2 * ring] = False
    scaled = np.clip(picture.astype(np.float32) * (255 / np.median(picture[band], axis=0)), 0,
                     255).astype(np.uint8)
    scaled[:ring], scaled[-ring:], scaled[:, :ring], scaled[:, -ring:] = 255, 255, 255, 255
    assert np.array_equal(_white_balanced(picture), scaled)
