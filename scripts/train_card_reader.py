#!/usr/bin/env python3
"""Train the learned card reader (webbot/daily_set/learned.py) on this machine's CPU.

Its pictures are the project's own: boards of cards photographed as scripts/photo_boards.py
draws them (physical and page art, four tables, tilt, glare, blur, JPEG), each card found and
cut by the bot's own finder (webbot/daily_set/photo.py) and matched to the card drawn there,
at full and at half size; and single cards as scripts/photo_cards.py draws them, cut as
`webbot daily-set classify` cuts them. Their seeds lie far from the benchmark's (0 up), so
the benchmark measures pictures the network never saw. A small convolutional network with a
head per attribute is trained with PyTorch and written as ONNX, which OpenCV's dnn module
runs (nothing more to install to play).

    .venv/bin/pip install ".[train]"   # PyTorch and ONNX, only to train
    .venv/bin/python scripts/train_card_reader.py [--boards 500] [--singles 3000]
        [--epochs 10] [--data CACHE.npz] [--out webbot/daily_set/card_reader.onnx]

Prints the held-out cards' accuracy per attribute and, for each sureness a card must reach,
how many held-out cards are read and how many of those wrong.
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from scripts.photo_boards import draw_board  # noqa: E402
from scripts.photo_cards import photo_card  # noqa: E402
from webbot.daily_set.camera import paper_divided  # noqa: E402
from webbot.daily_set.learned import INPUT_HEIGHT, INPUT_WIDTH, VALUES, model_input  # noqa: E402
from webbot.daily_set.photo import card_cut, find_cards, straightened  # noqa: E402

FIRST_SEED = 1_000_000  # the benchmark draws from seed 0 up
HELD_OUT = 0.1  # of the boards and of the single cards, kept to measure on
SIZES = ((960, 720), (1280, 960), (720, 960))


def labels_of(card: dict) -> list[int]:
    return [list(VALUES[name]).index(card[name] if name != "count" else int(card[name]))
            for name in VALUES]


def board_samples(seed: int) -> tuple[list[np.ndarray], list[list[int]]]:
    """The cards found in a drawn board, each matched to the card drawn nearest its middle,
    cut at full and at half size."""
    rng = np.random.default_rng(seed)
    size = SIZES[int(rng.integers(len(SIZES)))]
    picture, placed, _ = draw_board(seed, size=size)
    half = cv2.pyrDown(picture)
    middles = np.array([card.corners.mean(axis=0) for card in placed])
    inputs, labels = [], []
    for cut in find_cards(picture).cards:
        distance = np.linalg.norm(middles - cut.corners.mean(axis=0), axis=1)
        nearest = int(distance.argmin())
        if distance[nearest] > 0.3 * cut.height:
            continue
        for picture_cut in (cut.picture, straightened(half, cut.corners / 2)):
            inputs.append(model_input(paper_divided(picture_cut)))
            labels.append(labels_of(placed[nearest].card))
    return inputs, labels


def single_samples(seed: int) -> tuple[list[np.ndarray], list[list[int]]]:
    rng = np.random.default_rng(seed)
    picture, card = photo_card(int(rng.integers(1, 82)), rng)
    return [model_input(paper_divided(card_cut(picture).picture))], [labels_of(card)]


def gather(boards: int, singles: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    jobs = [(board_samples, start + i) for i in range(boards)]
    jobs += [(single_samples, start + 500_000 + i) for i in range(singles)]
    inputs, labels = [], []
    began = time.monotonic()
    with Pool() as pool:
        for done, (some, theirs) in enumerate(pool.imap_unordered(_run, jobs, chunksize=4), 1):
            inputs += some
            labels += theirs
            if done % 200 == 0:
                print(f"  {done}/{len(jobs)} pictures, {len(inputs)} cards, "
                      f"{time.monotonic() - began:.0f} s", file=sys.stderr)
    return np.stack(inputs).astype(np.float16), np.array(labels, np.int64)


def _run(job: tuple) -> tuple[list[np.ndarray], list[list[int]]]:
    function, seed = job
    return function(seed)


def build_network():  # noqa: ANN201 (torch is imported only to train)
    import torch.nn as nn

    def block(inputs: int, outputs: int) -> list:
        return [nn.Conv2d(inputs, outputs, 3, padding=1), nn.BatchNorm2d(outputs), nn.ReLU(),
                nn.MaxPool2d(2)]

    return nn.Sequential(*block(3, 16), *block(16, 32), *block(32, 64), *block(64, 64),
                         nn.Flatten(), nn.Dropout(0.3),
                         nn.Linear(64 * (INPUT_HEIGHT // 16) * (INPUT_WIDTH // 16), 12))


def train(inputs: np.ndarray, labels: np.ndarray, epochs: int, seed: int):  # noqa: ANN201
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    network = build_network()
    optimiser = torch.optim.AdamW(network.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * (len(inputs) // 128 + 1)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    x_all, y_all = torch.from_numpy(inputs.astype(np.float32)), torch.from_numpy(labels)
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        network.train()
        order = torch.randperm(len(inputs), generator=generator)
        total = 0.0
        for start in range(0, len(order), 128):
            batch = order[start:start + 128]
            x, y = _augmented(x_all[batch], generator), y_all[batch]
            logits = network(x).view(-1, 4, 3)
            loss = sum(torch.nn.functional.cross_entropy(logits[:, i], y[:, i])
                       for i in range(4))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(batch)
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / len(inputs):.4f}", file=sys.stderr)
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
    torch.onnx.export(network, (dummy,), str(out), input_names=["card"], output_names=["logits"],
                      dynamic_axes={"card": {0: "batch"}, "logits": {0: "batch"}},
                      opset_version=13, dynamo=False)


def measure(out: Path, inputs: np.ndarray, labels: np.ndarray) -> None:
    """The exported network as OpenCV runs it, on the held-out cards."""
    net = cv2.dnn.readNetFromONNX(str(out))
    picked, sure = [], []
    for start in range(0, len(inputs), 256):
        both = []
        for x in (inputs[start:start + 256], inputs[start:start + 256, :, ::-1, ::-1]):
            net.setInput(np.ascontiguousarray(x, np.float32))
            logits = net.forward().reshape(-1, 4, 3).astype(np.float64)
            p = np.exp(logits - logits.max(axis=2, keepdims=True))
            both.append(p / p.sum(axis=2, keepdims=True))
        mean = (both[0] + both[1]) / 2
        picked.append(mean.argmax(axis=2))
        sure.append(mean.max(axis=2))
    picked, sure = np.concatenate(picked), np.concatenate(sure)
    right = picked == labels
    for i, name in enumerate(VALUES):
        print(f"{name:6} {right[:, i].mean():.2%} right")
    whole = right.all(axis=1)
    print(f"card   {whole.mean():.2%} right ({len(labels)} held-out cards)")
    print("sureness  read    wrong")
    for level in (0.5, 0.9, 0.97, 0.99, 0.995, 0.999):
        read = sure.min(axis=1) >= level
        print(f"{level:<9} {read.mean():6.2%}  {int((read & ~whole).sum())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--singles", type=int, default=3000)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--data", type=Path, help="cache of the cut cards (made when absent)")
    parser.add_argument("--out", type=Path, default=ROOT / "webbot/daily_set/card_reader.onnx")
    args = parser.parse_args()
    began = time.monotonic()
    if args.data and args.data.exists():
        kept = np.load(args.data)
        train_x, train_y, test_x, test_y = (kept[k] for k in ("tx", "ty", "vx", "vy"))
    else:
        held_boards, held_singles = int(args.boards * HELD_OUT), int(args.singles * HELD_OUT)
        print("drawing and cutting cards", file=sys.stderr)
        train_x, train_y = gather(args.boards - held_boards, args.singles - held_singles,
                                  FIRST_SEED)
        test_x, test_y = gather(held_boards, held_singles, FIRST_SEED + 100_000)
        if args.data:
            np.savez(args.data, tx=train_x, ty=train_y, vx=test_x, vy=test_y)
    print(f"{len(train_x)} cards to learn from, {len(test_x)} held out "
          f"({time.monotonic() - began:.0f} s)", file=sys.stderr)
    network = train(train_x, train_y, args.epochs, seed=0)
    export(network, args.out)
    print(f"written {args.out} ({args.out.stat().st_size // 1024} KB) in "
          f"{time.monotonic() - began:.0f} s", file=sys.stderr)
    measure(args.out, test_x, test_y)


if __name__ == "__main__":
    main()
