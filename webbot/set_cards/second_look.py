"""A second look at the cards of a board, all of them taken together: each card's fill from
how dark its shapes' middles are against the other cards', and its shape from the outlines'
bunches. A lone card's reading has nothing to compare with; a board's twelve fall in bunches
whose places move with the scale and the JPEG, and are found anew on every board."""

from __future__ import annotations

import cv2
import numpy as np

from webbot.set_cards.perceive import boundary_doubt
from webbot.vision.percentile import percentile

MIN_FILL_GAP = 0.08  # least gap between the bunches of fill levels (true ones: 0.15+)
# Where the bunches lie whatever the scale and JPEG: a solid middle is all ink (0.85-1), an
# empty one paper (0-0.3), a striped one between.
MIN_SOLID_MEAN, MAX_EMPTY_MEAN = 0.85, 0.62
# The shapes' outlines, cut from lightness, on small JPEG'd cards: a diamond fills 0.52-0.63 of
# its box, a squiggle 0.75-0.85, an oval 0.85-0.94; mirror-likeness plus convexity 1.64-1.76
# for squiggles, 1.84-1.99 for ovals (the real cards' fall in the same places).
MAX_DIAMOND_EXTENT, MIN_ROUND_EXTENT = 0.68, 0.74  # where the bunches' means lie
MIN_ROUND_APART, MIN_OUTLINE_GAP = 0.06, 0.01
# A card's outline against the board's sure outlines of each shape: how much nearer its nearest
# shape is than the next, as a share of the next's distance. A large share means the nearest
# shape is clearly the card's; a small one leaves the likeness in doubt.
SURE_LIKENESS = 0.5  # that share, from which the likeness has no doubt
EXEMPLAR_DOUBT = 0.3  # an outline this sure is an example of its shape


def paper_and_ink(around: np.ndarray, inked: np.ndarray) -> tuple[float, float]:
    """The lightness of the paper around a shape (most of what is around is paper) and of
    its darkest ink (a few pixels' worth: JPEG specks aside)."""
    return percentile(around, 90), percentile(inked, 3)


def fill_level(grey: np.ndarray, box: tuple[int, int, int, int], mask: np.ndarray,
               depth: np.ndarray) -> float:
    """How dark the shape's middle is, from 0 (the paper around it) to 1 (its darkest ink): a
    solid shape ~0.95, a striped one ~0.3-0.7 (finer stripes read lighter), an empty one ~0.05.
    Read in lightness, which JPEG keeps sharp (it halves the colour's resolution: thin stripes
    and outlines lose their chroma, not their darkness), along the shape's spine: in each row of
    its widest part, the pixel furthest from its edge. A band at some depth would touch the
    inner edge of a narrow shape's thick outline (the real cards' ovals), the spine does not."""
    x, y, w, h = box
    pad = max(2, h // 6)
    around = grey[max(0, y - pad):y + h + pad, max(0, x - pad):x + w + pad]
    inside = grey[y:y + h, x:x + w]
    paper, ink = paper_and_ink(around, inside[mask > 0])
    widest = depth.max(axis=1)
    rows = np.flatnonzero(widest >= 0.8 * widest.max())
    spine = inside[rows, np.argmax(depth[rows], axis=1)].astype(np.float32)
    return float(np.clip((paper - spine) / max(1.0, paper - ink), 0, 1).mean())


def read_fills(levels: list[float]) -> list[tuple[str, float] | None]:
    """Each card's fill and its doubt, from the cards' fill levels (see fill_level) taken
    together: they fall in three tight bunches, empty, striped and solid, whose places move with
    the scale (stripes drawn finer than a pixel read as a tint) and the JPEG. The bunches are
    the split of the sorted levels in three with the least spread; a level's doubt is how near
    it lies to halfway between its bunch and the next. Bunches that do not stand apart (a
    board without one of the fills, say) leave every fill unread: None."""
    order = sorted(range(len(levels)), key=levels.__getitem__)
    values = [levels[i] for i in order]
    best = None
    for i in range(1, len(values) - 1):
        for j in range(i + 1, len(values)):
            parts = (values[:i], values[i:j], values[j:])
            spread = sum(float(np.var(p)) * len(p) for p in parts)
            if best is None or spread < best[0]:
                best = (spread, parts)
    if best is None:
        return [None] * len(levels)
    parts = best[1]
    means = [float(np.mean(p)) for p in parts]
    apart = min(parts[1][0] - parts[0][-1], parts[2][0] - parts[1][-1])
    if apart < MIN_FILL_GAP or means[0] > MAX_EMPTY_MEAN or means[2] < MIN_SOLID_MEAN:
        return [None] * len(levels)
    names = ("empty", "striped", "solid")
    fills: list[tuple[str, float] | None] = [None] * len(levels)
    start = 0
    for bunch, part in enumerate(parts):
        for k, value in enumerate(part, start):
            nearest = min((abs(value - (means[bunch] + means[other]) / 2),
                           (means[bunch] + means[other]) / 2)
                          for other in (bunch - 1, bunch + 1) if 0 <= other < 3)[1]
            fills[order[k]] = (names[bunch], boundary_doubt(value, nearest, means[bunch]))
        start += len(part)
    return fills


def outline_features(silhouettes: list[np.ndarray]) -> tuple[float, float, float]:
    """A card's shape outline (its shapes' silhouettes averaged), measured three ways that
    do not depend on size: how much of its box it fills (a diamond ~0.57, a squiggle ~0.8, an
    oval ~0.88), how alike it is to its mirror image (a squiggle ~0.83, the others ~0.95),
    and how convex (a squiggle ~0.91, an oval ~0.99)."""
    silhouette = np.mean(silhouettes, axis=0) >= 0.5
    mirrored = _mirrored(silhouette)
    mirror = (silhouette & mirrored).sum() / max(1, (silhouette | mirrored).sum())
    contours, _ = cv2.findContours(silhouette.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    if not contours:
        return 0.0, 0.0, 0.0
    contour = max(contours, key=cv2.contourArea)
    convex = cv2.contourArea(contour) / max(1.0, cv2.contourArea(cv2.convexHull(contour)))
    return float(silhouette.mean()), float(mirror), float(convex)


def read_outlines(features: list[tuple[float, float, float]]) -> list[tuple[str, float] | None]:
    """Each card's shape and its doubt from the board's outlines taken together: the
    diamonds are the bunch that fills least of its box; of the rest, the ovals the bunch most
    mirror-like and convex. Bunches that do not stand apart where shapes put them (a board
    without diamonds, say) leave every shape unread: None."""
    none: list[tuple[str, float] | None] = [None] * len(features)
    if len(features) < 3:  # (two bunches need a card each, and the rest two)
        return none
    extents = [f[0] for f in features]
    diamonds, (thin, full) = _two_bunches(extents)
    if not (np.mean(thin) < MAX_DIAMOND_EXTENT < MIN_ROUND_EXTENT < np.mean(full)
            and min(full) - max(thin) >= MIN_OUTLINE_GAP):
        return none
    rest = [i for i in range(len(features)) if i not in diamonds]
    if len(rest) < 2:
        return none
    rounds = [features[i][1] + features[i][2] for i in rest]
    squiggles, (wavy, smooth) = _two_bunches(rounds)
    if not (np.mean(smooth) - np.mean(wavy) >= MIN_ROUND_APART
            and min(smooth) - max(wavy) >= MIN_OUTLINE_GAP):
        return none

    def extent_of(squiggly: bool) -> float:
        return float(np.mean([extents[i] for k, i in enumerate(rest)
                              if (k in squiggles) == squiggly]))

    diamond, squiggle, oval = float(np.mean(thin)), extent_of(True), extent_of(False)
    outlines = list(none)
    for i in diamonds:  # the nearest rounded shapes, the squiggles, on the other side
        outlines[i] = ("diamond", boundary_doubt(extents[i], (diamond + squiggle) / 2, diamond))
    middle = (np.mean(wavy) + np.mean(smooth)) / 2
    for k, i in enumerate(rest):
        name, bunch, extent = (("squiggle", wavy, squiggle) if k in squiggles
                               else ("oval", smooth, oval))
        doubt = max(boundary_doubt(rounds[k], middle, float(np.mean(bunch))),
                    boundary_doubt(extents[i], (diamond + extent) / 2, extent))
        outlines[i] = (name, doubt)
    return outlines


def read_likeness(silhouettes: list[np.ndarray], outlines: list[tuple[str, float] | None]
                  ) -> list[tuple[str, float] | None]:
    """Each card's shape and its doubt from how like its outline (its shapes' silhouettes
    averaged) is to those of the board's other cards whose outlines read surely, shape by
    shape: the same card art, scale and JPEG as its own, so a doubtful outline is put beside
    its own board's examples. None where the board has no sure example of some shape."""
    cards = [np.mean(s, axis=0) for s in silhouettes]
    likeness: list[tuple[str, float] | None] = []
    for i, card in enumerate(cards):
        examples: dict[str, list[np.ndarray]] = {}
        for j, outline in enumerate(outlines):
            if j != i and outline is not None and outline[1] < EXEMPLAR_DOUBT:
                examples.setdefault(outline[0], []).append(cards[j])
        if len(examples) < 3:
            likeness.append(None)
            continue
        apart = sorted((float(np.abs(card - np.mean(shown, axis=0)).mean()), name)
                       for name, shown in examples.items())
        (nearest, name), (second, _) = apart[:2]
        nearer = (second - nearest) / max(second, 1e-6)
        likeness.append((name, float(np.clip(1 - nearer / SURE_LIKENESS, 0, 1))))
    return likeness


def _two_bunches(values: list[float]) -> tuple[set[int], tuple[list[float], list[float]]]:
    """The split of the values in two with the least spread: the indices of the lower bunch,
    and both bunches' values, sorted."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranked = [values[i] for i in order]
    cut = min(range(1, len(ranked)), key=lambda i: float(np.var(ranked[:i])) * i
              + float(np.var(ranked[i:])) * (len(ranked) - i))
    return set(order[:cut]), (ranked[:cut], ranked[cut:])


def _mirrored(silhouette: np.ndarray) -> np.ndarray:
    """The silhouette mirrored about its own middle (where its mass is), not its box's: a
    sliver of shadow along one side widens the box and would set a symmetric shape off."""
    width = silhouette.shape[1]
    columns = silhouette.sum(axis=0)
    middle = float((columns * np.arange(width)).sum() / max(1, columns.sum()))
    shift = round(2 * middle - (width - 1))
    flipped = silhouette[:, ::-1]
    moved = np.zeros_like(flipped)
    if shift >= 0:
        moved[:, shift:] = flipped[:, :width - shift]
    else:
        moved[:, :width + shift] = flipped[:, -shift:]
    return moved
