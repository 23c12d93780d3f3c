"""Glare on a photographed card: light reflected off its surface lifts paper and ink alike
towards white where it falls. A solid shape under it keeps its rim inked and loses its middle
to the light, the look of a striping's tint inside its outline; so where glare falls on the
shapes, the camera's rules only guess that a shape is striped (camera.read_normal), unless the
striping's lines are seen (stripe_lines: glare draws none), and the learned reader's word must
be surer (verdict.SURE_ALONE).
"""

from __future__ import annotations

import cv2
import numpy as np

from webbot.set_cards.quads import plane_through

# Glare on the shapes: the paper beside them (within SIDE_PX, their own blur NEAR_PX left out)
# lifted above the card's plane of light by GLARE_LIFT of the way to white or more, at its
# 90th percentile. Chosen on the drawn tables' tune part (scripts/parts.py): the solids read
# striped there had their paper lifted 0.12-0.32; the real photos' tune part stays under 0.1
# but for a few.
GLARE_LIFT = 0.1
NEAR_PX, SIDE_PX = 9, 31
BORDER_PX = 6  # the cut's edge: the card's own edge and the table beyond
# Lines of a striping seen through glare (stripe_lines): rows of the shapes' middles at least
# MIN_ROW_PX wide, their ink share against its mean over STRIPE_RUN rows; a striping whose
# lines spread LINES_SEEN or more is seen, not guessed. On the drawn tables' tune part (seeds
# 0-1799), the 31 solids washed out by glare that the rules guessed striped spread 0.001-0.009,
# the stripings the rules guessed 0.014 or more at 90%: the limit is half as much again as the most
# a washed-out solid showed.
STRIPE_RUN, MIN_ROW_PX = 9, 3
LINES_SEEN, TYPICAL_LINES = 0.015, 0.06  # the stripings' median: 0.06-0.08


def glare_on(picture: np.ndarray, shapes: list[np.ndarray]) -> bool:
    """Whether glare falls on the shapes of a cut card (BGR; `shapes`: their masks)."""
    return glare_lift(picture, shapes) >= GLARE_LIFT


def glare_lift(picture: np.ndarray, shapes: list[np.ndarray]) -> float:
    """How far towards white the paper beside the shapes is lifted above a plane fitted
    through the card's paper (0: not at all, 1: white), at its 90th percentile."""
    height, width = shapes[0].shape
    picture = cv2.resize(picture, (width, height), interpolation=cv2.INTER_AREA)
    inked = np.maximum.reduce(shapes)
    near = cv2.dilate(inked, np.ones((NEAR_PX, NEAR_PX), np.uint8)) > 0
    beside = cv2.dilate(inked, np.ones((SIDE_PX, SIDE_PX), np.uint8)) > 0
    paper = ~near
    paper[:BORDER_PX], paper[-BORDER_PX:] = False, False
    paper[:, :BORDER_PX], paper[:, -BORDER_PX:] = False, False
    if not (paper & beside).any():
        return 0.0
    lightness = picture.min(axis=2).astype(np.float32)  # glare lifts the darkest channel most
    # A plane, not the paper's curved fit (camera._paper_fit), which bends to a glare spot.
    plane = plane_through(lightness, paper)
    lift = (lightness - plane) / np.maximum(255 - plane, 10)
    return float(np.percentile(lift[paper & beside], 90))


def stripe_lines(coverage: np.ndarray, depths: list[np.ndarray]) -> float:
    """How clearly lines across the shapes are seen, which glare does not draw: down the middle
    half of each shape (a cut card's shapes stand upright, a striping's lines across them),
    the ink share row by row less its running mean over STRIPE_RUN rows, its spread; the
    median over the shapes (`depths`: each shape's distance to its edge). A solid washed out
    by glare is smooth (0 to 0.01 on the tune part), lines a few px apart are not."""
    spreads = []
    for depth in depths:
        middle = depth > 0.5 * depth.max()
        wide = middle.sum(axis=1)
        rows = wide >= MIN_ROW_PX
        if rows.sum() < 3 * STRIPE_RUN:
            continue
        share = (np.where(middle, coverage, 0).sum(axis=1)[rows] / wide[rows])
        running = np.convolve(share, np.ones(STRIPE_RUN) / STRIPE_RUN, mode="valid")
        edge = STRIPE_RUN // 2
        spreads.append(float(np.std(share[edge:len(share) - edge] - running)))
    return float(np.median(spreads)) if spreads else 0.0
