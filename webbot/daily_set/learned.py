"""A second reader of a cut card, learned from pictures: a small convolutional network
(scripts/train_card_reader.py trains it on cards cut from the project's drawn photos of
boards and single cards) run by OpenCV's dnn module from the ONNX file beside this module.

It reads the card from the same paper-divided picture the camera's reader starts from
(camera.paper_divided), but by another way than its rules, so where the two name the same
card they are two reads that agree. It says how sure it is of each attribute (its softmax);
a table's card is an answer only where both readers name it and neither is in doubt beyond
what the other makes up for (picture.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import cv2
import numpy as np

from webbot.daily_set.model import COLORS, COUNTS, FILLS, SHAPES, Card

INPUT_WIDTH, INPUT_HEIGHT = 96, 64  # the network's input: the cut card, long side across
MODEL_FILE = "card_reader.onnx"
VALUES = {"count": COUNTS, "shape": SHAPES, "color": COLORS, "fill": FILLS}
# Sureness (of the least sure attribute) at or above which the learned reader's answer
# stands on its own against the rules' doubt.
CERTAIN = 0.995


@dataclass(frozen=True)
class Learned:
    """The card the network reads, and how sure it is of each attribute (0-1)."""

    card: Card
    sure: dict[str, float]

    @property
    def least(self) -> str:
        """The attribute it is least sure of."""
        return min(self.sure, key=self.sure.__getitem__)

    @property
    def doubt(self) -> float:
        """Its doubt on the rules' scale: twice its unsureness of its least sure attribute
        (1 where it is torn between two values, as the rules' doubt on a boundary)."""
        return 2 * (1 - self.sure[self.least])

    @property
    def certain(self) -> bool:
        return self.sure[self.least] >= CERTAIN


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
    logits = net.forward().reshape(2, len(VALUES), 3).astype(np.float64)
    probabilities = np.exp(logits - logits.max(axis=2, keepdims=True))
    probabilities /= probabilities.sum(axis=2, keepdims=True)
    mean = probabilities.mean(axis=0)  # the two ways round, each a look
    picked = mean.argmax(axis=1)
    values = {name: VALUES[name][int(index)] for name, index in zip(VALUES, picked, strict=True)}
    sure = {name: float(mean[i, picked[i]]) for i, name in enumerate(VALUES)}
    return Learned(Card(**values), sure)


@cache
def _network() -> cv2.dnn.Net:
    data = resources.files("webbot.daily_set").joinpath(MODEL_FILE).read_bytes()
    return cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))
