#!/usr/bin/env python3
"""Train the learned card reader (webbot/set_cards/learned.py) on this machine's CPU.

It learns from the train parts of scripts/parts.py only:
- real photos of physical cards: the train part of ../shared/reference/daily-set/real-cards
  (1,943 labelled photos of one deck from the public repository wangtian24/set-solver, MIT),
  each as it is, through JPEG (`compressed`), and in the other VARIANTS changed as other cameras
  and decks change them: light and white balance, the ink's hue (INK_HUES: purples from
  violet-blue to magenta) and vividness, shading, blur, a lower resolution, noise, JPEG,
  perspective, a quarter turn;
- single cards drawn by scripts/photo_cards.py and boards drawn by scripts/photo_boards.py
  (each card found and cut by the bot's own finder, at full and half size);
- the page's own art (fixtures/daily-set/images/setcards: the small and large GIFs, the new
  PNGs) at random sizes, sharp or lightly blurred, some through JPEG.
Every card is cut as `webbot daily-set classify` cuts it (photo.card_cut) and divided by its
paper (camera.paper_divided). A small convolutional network with a head per attribute is
trained with PyTorch and written as ONNX, which OpenCV's dnn module runs (nothing more to
install to play).

The result is reproducible: every sample is drawn from its own seed and gathered in a fixed
order, and PyTorch runs with fixed seeds, THREADS threads and deterministic algorithms. `--check`
trains again into a temporary file and compares it with the committed one on the test parts:
the same reading of every card, and each sureness within CHECK_TOLERANCE (CPU kernels may differ
in the last bits from machine to machine).

    .venv/bin/pip install ".[train]"   # PyTorch and ONNX, only to train
    .venv/bin/python scripts/train_card_reader.py [--check] [--out FILE]

Prints the time taken and, on the tune part of the real photos, the share read right by the
network alone (the limits of sureness are chosen on tune by scripts/bench_photo_cards.py --choose).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from multiprocessing import Pool
from pathlib import Path

# One thread each for numpy's BLAS in the workers that cut cards (more only fight each other);
# PyTorch is given THREADS of its own.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from scripts.parts import (  # noqa: E402
    BOARD_SEEDS,
    CARD_SEEDS,
    real_card_label,
    real_card_part,
)
from scripts.photo_boards import draw_board  # noqa: E402
from scripts.photo_cards import photo_card  # noqa: E402
from scripts.render_set_cards import card_for_number  # noqa: E402
from webbot.set_cards.camera import paper_divided  # noqa: E402
from webbot.set_cards.learned import (  # noqa: E402
    INPUT_HEIGHT,
    INPUT_WIDTH,
    VALUES,
    model_input,
    sureness,
)
from webbot.set_cards.perceive import CardError, decode  # noqa: E402
from webbot.set_cards.photo import card_cut, find_cards, straightened  # noqa: E402

MODEL = ROOT / "webbot" / "set_cards" / "card_reader.onnx"
ART = ROOT / "fixtures" / "daily-set" / "images" / "setcards"
VARIANTS = 7  # of each real photo: as it is, compressed, and changed 5 ways at random
ART_VARIANTS = 6
SINGLES, BOARDS = 2000, 400  # drawn, from the train part's seeds
EPOCHS, BATCH, SEED, THREADS = 10, 128, 0, 2
# OpenCV hues (0-180) an ink is turned to: the decks' purples run from violet-blue (the real
# photos' deck, 103-125) to magenta (160-163); red 172-8 across the round; green 60-82.
INK_HUES = {"purple": (100.0, 164.0), "red": (-8.0, 8.0), "green": (58.0, 84.0)}
CHECK_TOLERANCE = 0.02  # of a sureness, between a network trained again and the committed one
BOARD_SIZES = ((960, 720), (1280, 960), (720, 960))


def labels_of(card: dict) -> list[int]:
    return [list(VALUES[name]).index(card[name]) for name in VALUES]


def cut_input(picture: np.ndarray) -> np.ndarray:
    """A card picture cut and divided as `classify` does it, as the network's input."""
    return model_input(paper_divided(card_cut(picture).picture))


def inks_turned(picture: np.ndarray, color: str, rng: np.random.Generator) -> np.ndarray:
    """The card's ink turned to a hue drawn from INK_HUES[color] (another deck's ink), and
    made more or less vivid."""
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV).astype(np.float32)
    value, saturation = hsv[..., 2], hsv[..., 1]
    ink = (value < 0.8 * np.percentile(value, 90)) | \
        (saturation > np.percentile(saturation, 50) + 25)
    if ink.sum() < 20:
        return picture
    angles = np.radians(hsv[..., 0][ink] * 2)
    now = np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2
    low, high = INK_HUES[color]
    hsv[..., 0] = np.where(ink, (hsv[..., 0] + rng.uniform(low, high) - now) % 180, hsv[..., 0])
    hsv[..., 1] = np.where(ink, np.clip(saturation * rng.uniform(0.7, 2.0), 0, 255), saturation)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


def changed(picture: np.ndarray, color: str, rng: np.random.Generator) -> np.ndarray:
    """A photo as another camera, light or deck might give it."""
    if rng.random() < 0.6:
        picture = inks_turned(picture, color, rng)
    out = picture.astype(np.float32)
    height, width = out.shape[:2]
    if rng.random() < 0.5:  # perspective: each corner pushed up to 4% of the width
        corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        pushed = corners + rng.uniform(-0.04, 0.04, (4, 2)).astype(np.float32) * width
        out = cv2.warpPerspective(out, cv2.getPerspectiveTransform(corners, pushed),
                                  (width, height), borderMode=cv2.BORDER_REPLICATE)
    out *= rng.uniform(0.55, 1.25)  # exposure
    out *= (1 + rng.uniform(-0.18, 0.18, 3)).astype(np.float32)  # white balance
    if rng.random() < 0.4:  # shading: a ramp across the card
        y, x = np.mgrid[0:height, 0:width].astype(np.float32)
        angle = rng.uniform(0, 2 * np.pi)
        ramp = np.cos(angle) * x / width + np.sin(angle) * y / height
        ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
        out *= (1 - rng.uniform(0.1, 0.4) * ramp)[..., None]
    if rng.random() < 0.4:  # a lower resolution
        share = rng.uniform(0.45, 0.9)
        small = cv2.resize(out, (max(8, int(width * share)), max(8, int(height * share))),
                           interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3))
    out += rng.normal(0, rng.uniform(0, 5), out.shape).astype(np.float32)
    out = np.clip(np.round(out), 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if rng.random() < 0.3:
        out = cv2.rotate(out, cv2.ROTATE_90_CLOCKWISE)
    return out


def compressed(picture: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo as it is, through JPEG at a quality from a phone's to a messaging app's
    (whose colour at half resolution washes thin stripes out)."""
    data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 91))])[1]
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def real_samples(job: tuple[Path, int]) -> tuple[list[np.ndarray], list[list[int]]]:
    path, seed = job
    picture = decode(path.read_bytes(), path.name)
    card = real_card_label(path)
    rng = np.random.default_rng(seed)
    inputs = []
    for variant in range(VARIANTS):
        try:
            inputs.append(cut_input(picture if variant == 0 else
                                    compressed(picture, rng) if variant == 1 else
                                    changed(picture, str(card["color"]), rng)))
        except CardError:
            continue
    return inputs, [labels_of(card)] * len(inputs)


def art_samples(job: tuple[Path, int]) -> tuple[list[np.ndarray], list[list[int]]]:
    path, seed = job
    picture = decode(path.read_bytes(), path.name)
    label = labels_of(card_for_number(int(path.stem)))
    rng = np.random.default_rng(seed)
    inputs = []
    for _ in range(ART_VARIANTS):
        width = int(rng.integers(60, 260))
        height = round(width * picture.shape[0] / picture.shape[1])
        out = cv2.resize(picture, (width, height), interpolation=cv2.INTER_AREA)
        if rng.random() < 0.3:
            out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 0.9))
        if rng.random() < 0.4:
            _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                                 int(rng.integers(50, 95))])
            out = cv2.imdecode(data, cv2.IMREAD_COLOR)
        try:
            inputs.append(cut_input(out))
        except CardError:
            continue
    return inputs, [label] * len(inputs)


def single_samples(seed: int) -> tuple[list[np.ndarray], list[list[int]]]:
    rng = np.random.default_rng(seed)
    picture, card = photo_card(int(rng.integers(1, 82)), rng)
    try:
        return [cut_input(picture)], [labels_of(card)]
    except CardError:
        return [], []


def board_samples(seed: int) -> tuple[list[np.ndarray], list[list[int]]]:
    """The cards found in a drawn board, each matched to the card drawn nearest its middle,
    cut at full and at half size."""
    rng = np.random.default_rng(seed)
    picture, placed, _ = draw_board(seed, size=BOARD_SIZES[int(rng.integers(len(BOARD_SIZES)))])
    half = cv2.pyrDown(picture)
    middles = np.array([card.corners.mean(axis=0) for card in placed])
    inputs, labels = [], []
    for cut in find_cards(picture).cards:
        distance = np.linalg.norm(middles - cut.corners.mean(axis=0), axis=1)
        nearest = int(distance.argmin())
        if distance[nearest] > 0.3 * cut.height:
            continue
        for picture_cut in (cut.picture, straightened(half, cut.corners / 2)):
            try:
                inputs.append(model_input(paper_divided(picture_cut)))
            except CardError:
                continue
            labels.append(labels_of(placed[nearest].card))
    return inputs, labels


def art_files() -> list[Path]:
    return [path for folder in ("small", "new", "large")
            for path in sorted((ART / folder).iterdir(), key=lambda p: p.name)
            if path.stem.isdigit()]


def gather() -> tuple[np.ndarray, np.ndarray]:
    """Every training sample, in a fixed order whatever the workers' speed."""
    jobs = [(real_samples, (path, 10_000 + i))
            for i, path in enumerate(real_card_part("train"))]
    jobs += [(art_samples, (path, 20_000 + i)) for i, path in enumerate(art_files())]
    jobs += [(single_samples, seed) for seed in CARD_SEEDS.train[:SINGLES]]
    jobs += [(board_samples, seed) for seed in BOARD_SEEDS.train[:BOARDS]]
    inputs, labels = [], []
    began = time.monotonic()
    with Pool(THREADS) as pool:
        for done, (some, theirs) in enumerate(pool.imap(_run, jobs, chunksize=8), 1):
            inputs += some
            labels += theirs
            if done % 500 == 0 or done == len(jobs):
                print(f"  {done}/{len(jobs)} pictures, {len(inputs)} cards, "
                      f"{time.monotonic() - began:.0f} s", file=sys.stderr)
    return np.stack(inputs), np.array(labels, np.int64)


def _run(job: tuple) -> tuple[list[np.ndarray], list[list[int]]]:
    cv2.setNumThreads(1)
    function, argument = job
    return function(argument)


def build_network():  # noqa: ANN201 (torch is imported only to train)
    import torch.nn as nn

    def block(inputs: int, outputs: int) -> list:
        return [nn.Conv2d(inputs, outputs, 3, padding=1), nn.BatchNorm2d(outputs), nn.ReLU(),
                nn.MaxPool2d(2)]

    return nn.Sequential(*block(3, 16), *block(16, 32), *block(32, 64), *block(64, 64),
                         nn.Flatten(), nn.Dropout(0.3),
                         nn.Linear(64 * (INPUT_HEIGHT // 16) * (INPUT_WIDTH // 16), 12))


def train(inputs: np.ndarray, labels: np.ndarray):  # noqa: ANN201
    import torch

    torch.manual_seed(SEED)
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    network = build_network()
    optimiser = torch.optim.AdamW(network.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = EPOCHS * -(-len(inputs) // BATCH)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    x_all, y_all = torch.from_numpy(inputs), torch.from_numpy(labels)
    generator = torch.Generator().manual_seed(SEED)
    for epoch in range(EPOCHS):
        network.train()
        order = torch.randperm(len(inputs), generator=generator)
        total = 0.0
        for start in range(0, len(order), BATCH):
            batch = order[start:start + BATCH]
            x, y = _augmented(x_all[batch], generator), y_all[batch]
            logits = network(x).view(-1, 4, 3)
            loss = sum(torch.nn.functional.cross_entropy(logits[:, i], y[:, i])
                       for i in range(4))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(batch)
        print(f"  epoch {epoch + 1}/{EPOCHS}: loss {total / len(inputs):.4f}", file=sys.stderr)
    network.eval()
    return network


def _augmented(x, generator):  # noqa: ANN001, ANN202
    """Turned round (a card upside down is the same card), its light a little brighter or
    dimmer, moved a pixel or two."""
    import torch

    turned = torch.rand(len(x), generator=generator) < 0.5
    x = torch.where(turned[:, None, None, None], x.flip(2, 3), x)
    gain = 0.85 + 0.3 * torch.rand(len(x), 1, 1, 1, generator=generator)
    x = (x + 1) * gain - 1
    dy, dx = (int(v) for v in torch.randint(-2, 3, (2,), generator=generator))
    return torch.roll(x, shifts=(dy, dx), dims=(2, 3))


def export(network, out: Path) -> None:  # noqa: ANN001
    import torch

    dummy = torch.zeros(1, 3, INPUT_HEIGHT, INPUT_WIDTH)
    # The TorchScript exporter, on purpose (the file OpenCV's dnn reads, rebuilt as it was):
    # PyTorch's warning that it is the legacy one says nothing to whoever trains.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(network, (dummy,), str(out), input_names=["card"],
                          output_names=["logits"],
                          dynamic_axes={"card": {0: "batch"}, "logits": {0: "batch"}},
                          opset_version=13, dynamo=False)


def read_all(model: Path, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each input's values (indices) and sureness per attribute, the network run by OpenCV
    on the card both ways round, as learned.py runs it."""
    net = cv2.dnn.readNetFromONNX(str(model))
    picked, sure = [], []
    for start in range(0, len(inputs), 256):
        both = []
        for x in (inputs[start:start + 256], inputs[start:start + 256, :, ::-1, ::-1]):
            net.setInput(np.ascontiguousarray(x, np.float32))
            both.append(sureness(net.forward()))
        mean = (both[0] + both[1]) / 2
        picked.append(mean.argmax(axis=2))
        sure.append(mean.max(axis=2))
    return np.concatenate(picked), np.concatenate(sure)


def part_inputs(part: str) -> tuple[np.ndarray, np.ndarray]:
    """The real photos of a part as the network's inputs (as they are), with their labels."""
    inputs, labels = [], []
    for path in real_card_part(part):
        try:
            inputs.append(cut_input(decode(path.read_bytes(), path.name)))
        except CardError:
            continue
        labels.append(labels_of(real_card_label(path)))
    return np.stack(inputs), np.array(labels)


def check(model: Path, inputs: np.ndarray) -> int:
    """Trained again: the same reading of every test card, surenesses within tolerance."""
    picked, sure = read_all(model, inputs)
    kept_picked, kept_sure = read_all(MODEL, inputs)
    differ = int((picked != kept_picked).any(axis=1).sum())
    furthest = float(np.abs(sure - kept_sure).max())
    print(f"check: {len(inputs)} test cards, {differ} read otherwise than by the committed "
          f"network, surenesses at most {furthest:.4f} apart (tolerance {CHECK_TOLERANCE})")
    return 1 if differ or furthest > CHECK_TOLERANCE else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="train again and compare with the committed network")
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args()
    if not real_card_part("train"):
        raise SystemExit("train_card_reader: needs ../shared/reference/daily-set/real-cards")
    began = time.monotonic()
    print("drawing and cutting cards", file=sys.stderr)
    inputs, labels = gather()
    print(f"{len(inputs)} cards to learn from ({time.monotonic() - began:.0f} s)",
          file=sys.stderr)
    network = train(inputs, labels)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / MODEL.name if args.check else args.out
        export(network, out)
        print(f"trained in {time.monotonic() - began:.0f} s", file=sys.stderr)
        if args.check:
            return check(out, part_inputs("test")[0])
    tune_x, tune_y = part_inputs("tune")
    picked, _ = read_all(args.out, tune_x)
    print(f"written {args.out} ({args.out.stat().st_size // 1024} KB); the real photos' tune "
          f"part: {(picked == tune_y).all(axis=1).mean():.2%} of {len(tune_y)} read right by "
          "the network alone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
