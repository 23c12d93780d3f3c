"""A second reader of a cut card, learned from pictures: a small convolutional network
(scripts/train_card_reader.py trains it on real photos of physical cards, drawn photos of
boards and single cards, and the page's art) run by OpenCV's dnn module from the ONNX file
beside this module.

It reads the card from the same paper-divided picture the camera's reader starts from
(camera.paper_divided), but by another way than its rules, so where the two name the same
card they are two reads that agree. It says how sure it is of each attribute (its softmax);
a photo's card is an answer only where both readers name it, the learned reader surely
(verdict.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import cv2
import numpy as np

from webbot.set_cards.model import COLORS, COUNTS, FILLS, SHAPES, Card

INPUT_WIDTH, INPUT_HEIGHT = 96, 64  # the network's input: the cut card, long side across
MODEL_FILE = "card_reader.onnx"
VALUES = {"count": COUNTS, "shape": SHAPES, "color": COLORS, "fill": FILLS}


@dataclass(frozen=True)
class Learned:
    """The card the network reads, and how sure it is of each attribute (0-1)."""

    card: Card
    sure: dict[str, float]
    second: dict[str, object] | None = None  # each attribute's next likeliest value

    @property
    def least(self) -> str:
        """The attribute it is least sure of."""
        return min(self.sure, key=self.sure.__getitem__)


def model_input(normal: np.ndarray) -> np.ndarray:
    """A paper-divided cut card (float, 0-1, BGR, any size) as the network's input: 3 x
    INPUT_HEIGHT x INPUT_WIDTH, centred on the paper's white."""
    small = cv2.resize(normal.astype(np.float32), (INPUT_WIDTH, INPUT_HEIGHT),
                       interpolation=cv2.INTER_AREA)
    return (small.transpose(2, 0, 1) - 1.0).astype(np.float32)


def read_learned(normal: np.ndarray) -> Learned:
    """The card the network reads in a paper-divided cut card, and how sure it is of each
    attribute (its probability, 0-1), the surer of the card's two ways round (a card upside
    down is the same card)."""
    batch = np.stack([model_input(normal), model_input(normal[::-1, ::-1])])
    net = _network()
    net.setInput(batch)
    mean = sureness(net.forward()).mean(axis=0)  # the two ways round, each a look
    ranked = mean.argsort(axis=1)[:, ::-1]
    values = {name: VALUES[name][int(ranked[i, 0])] for i, name in enumerate(VALUES)}
    second = {name: VALUES[name][int(ranked[i, 1])] for i, name in enumerate(VALUES)}
    sure = {name: float(mean[i, ranked[i, 0]]) for i, name in enumerate(VALUES)}
    return Learned(Card(**values), sure, second)


def sureness(logits: np.ndarray) -> np.ndarray:
    """The network's output (a batch of 12 logits) as each attribute's probabilities: batch x
    4 attributes x 3 values."""
    logits = logits.reshape(len(logits), len(VALUES), 3).astype(np.float64)
    probabilities = np.exp(logits - logits.max(axis=2, keepdims=True))
    return probabilities / probabilities.sum(axis=2, keepdims=True)


@cache
def _network() -> cv2.dnn.Net:
    data = resources.files("webbot.set_cards").joinpath(MODEL_FILE).read_bytes()
    return cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))
