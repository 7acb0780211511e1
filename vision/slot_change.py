"""Which boxes of the board look different between two frames of one table.

In a session the page knows what the table held when the game last took a reading from
the camera. A box whose picture has not changed since still holds the same pieces:
reading it again can only add a misreading, never a move. Comparing two pictures of
one box is far surer than reading either, and it needs no model: the camera, the light
and the board are the same, so the difference is sensor noise unless something moved.

Both frames' canonical views (``Reading.view``: warped and colour-normalised, with the
same registration while the board has not moved) are blurred a little against the
noise; each colour channel of the earlier one is scaled by the typical ratio between
them (a webcam's exposure drifts). A pixel differs when it lies outside the range of the
other view's pixels around it (a registration a pixel off moves every edge a little) by
more than ``SIGMAS`` times the pair's own noise level (the typical difference over the
whole board, where almost nothing changed), and never by less than ``MIN_LEVEL`` grey
levels. Where the typical difference itself is large (over ``MAX_TYPICAL``: the light
changed, the board moved, a hand covers much of it), the pictures are not compared and
every box counts as changed. A box changed when at least ``MIN_PIXELS`` of its pixels
differ in patches of ``MIN_PATCH`` or more (noise makes specks), or half of them are clipped
to white or black in either view (glare, deep shadow: a piece can come there unseen),
within the rectangle its crop is cut from (``vision.rectify.plan_crops``: the box, leaned towards the camera as its tallest piece
leans, with a margin). A piece's lean and shadow can reach a neighbour's rectangle, so a
neighbour may count as changed too: that only means it is read as usual.

On a headstream tile whose picture changed, the change also says how many drops came
(``Comparison.arrived``): each drop put there is one compact, drop-sized shape of differing
pixels on the tile, where a hand's edge, a lean or JPEG blocks make strips, specks or whole
blocks. Drops put side by side can merge into one shape, so the count is a least number.

Measured on the held-out sets' turns (``python -m lab.turn_eval --pairs``, docs/benchmarks.md).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .layout import Layout
from .rectify import VIEW_SCALE, plan_crops

BLUR_SIGMA = 1.0        # view px
SHIFT = 1               # view px a picture may move between the frames (registration)
SIGMAS = 5.0            # noise levels a pixel must move by
MIN_LEVEL = 16.0        # grey levels (0-255), on the normalised view: above JPEG ringing
MIN_PIXELS = 6          # view px: a water drop on a headstream tile covers ~20-40
# view px: the least patch of differing pixels that counts. A drop put on a tile differs over
# 130-340 px (``DROP_SHARE``), a piece over more; sensor noise through a webcam's sharpening
# makes specks of up to ~7 px (the printed look's replays, ``lab.printed_turns``)
MIN_PATCH = 20
NOISE_SCALE = 1.4826    # median absolute difference -> standard deviation, for Gaussian noise
MAX_TYPICAL = 3.0       # grey levels: a larger typical difference makes two pictures incomparable
CLIP = 5                # grey levels from white or black: a pixel clipped there shows nothing
MAX_CLIPPED = 0.5       # share of a box's rectangle clipped, from which the box is not compared
# A drop that came, as a shape of differing pixels on its headstream tile (held-out turns:
# 130-340 view px of a ~6200 px tile; a disc fills 0.79 of its bounding box)
DROP_SHARE = (0.01, 0.13)   # of the tile's area
DROP_FILL = 0.5             # of its bounding box, at least
DROP_ASPECT = 1.8           # its bounding box's long side over its short one, at most


@dataclass(frozen=True)
class Comparison:
    """Two pictures of one table compared: the keys (``Box.key``) of the boxes whose picture
    is the same (``still``), and for each headstream tile whose picture changed the number of
    drop-sized shapes that came on it (``arrived``, only those with one or more)."""
    still: frozenset[str]
    arrived: dict[str, int]


def differing_pixels(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """(H, W) bool: where two views of one table differ by more than noise and a pixel's shift."""
    if before.shape != after.shape or before.ndim != 3:
        raise ValueError(f"views of different shapes: {before.shape} and {after.shape}")
    a, b = before.astype(np.float32), after.astype(np.float32)
    for c in range(3):
        # the exposure's gain: the typical ratio over the pixels, which a hand or a piece
        # that came or went changes in a few places only
        lit = a[..., c] > 8
        a[..., c] *= float(np.median(b[..., c][lit] / a[..., c][lit])) if lit.any() else 1.0
    a = cv2.GaussianBlur(a, (0, 0), BLUR_SIGMA)
    b = cv2.GaussianBlur(b, (0, 0), BLUR_SIGMA)
    diff = np.maximum(_outside(b, a), _outside(a, b)).max(axis=-1)
    # the view's rim shows the table beyond the board's edge after a shift: no piece stands there
    rim = SHIFT + 2
    diff[:rim], diff[-rim:], diff[:, :rim], diff[:, -rim:] = 0, 0, 0, 0
    typical = float(np.median(diff))
    if typical > MAX_TYPICAL:
        # the light changed or the board moved: the two pictures say nothing about any box
        return np.ones(diff.shape, bool)
    return diff > max(MIN_LEVEL, SIGMAS * NOISE_SCALE * typical)


def clipped_pixels(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """(H, W) bool: where either view is clipped to white or black (glare, deep shadow)."""
    def clipped(view: np.ndarray) -> np.ndarray:
        return (view >= 255 - CLIP).all(axis=-1) | (view <= CLIP).all(axis=-1)
    return clipped(before) | clipped(after)


def _outside(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """How far each pixel of ``x`` lies outside the range of ``y``'s pixels around it."""
    near = np.ones((2 * SHIFT + 1, 2 * SHIFT + 1), np.uint8)
    return np.maximum(x - cv2.dilate(y, near), 0) + np.maximum(cv2.erode(y, near) - x, 0)


def _changed(layout: Layout, differing: np.ndarray, clipped: np.ndarray, camera: np.ndarray) -> np.ndarray:
    """(N,) bool, one per ``layout.boxes``: which boxes look different, given where the two
    views differ and where either is clipped."""
    h, w = differing.shape[:2]
    rects = np.round(plan_crops(layout, camera).rects).astype(int)
    x0, x1 = np.clip(rects[:, 0], 0, w), np.clip(rects[:, 2], 0, w)
    y0, y1 = np.clip(rects[:, 1], 0, h), np.clip(rects[:, 3], 0, h)

    def counts(mask: np.ndarray) -> np.ndarray:
        sums = cv2.integral(mask.astype(np.uint8))
        return sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]
    area = np.maximum((x1 - x0) * (y1 - y0), 1)
    # a box mostly clipped by glare or shadow can hide a piece that came: not comparable
    return (counts(compact(differing)) >= MIN_PIXELS) | (counts(clipped) >= MAX_CLIPPED * area)


def compact(differing: np.ndarray) -> np.ndarray:
    """``differing`` without its specks: only the 8-connected patches of ``MIN_PATCH`` or more.
    Sensor noise and JPEG blocks make scattered specks, which add up to ``MIN_PIXELS`` in a
    large box; anything put on the board (a drop is the least) differs as one patch."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(differing.astype(np.uint8), connectivity=8)
    keep = stats[:, cv2.CC_STAT_AREA] >= MIN_PATCH
    keep[0] = False
    return keep[labels]


def drop_shapes(differing: np.ndarray) -> int:
    """How many compact, drop-sized shapes ``differing`` (one tile's (h, w) bool mask) holds."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(differing.astype(np.uint8), connectivity=8)
    lo, hi = (share * differing.size for share in DROP_SHARE)
    return sum(1 for _, _, w, h, a in stats[1:]
               if lo <= a <= hi and a >= DROP_FILL * w * h and max(w, h) <= DROP_ASPECT * min(w, h))


def compare(layout: Layout, before: np.ndarray, after: np.ndarray, camera: np.ndarray) -> Comparison:
    """What two views of one table say (``Comparison``). ``camera``: (x, y, height) in canonical
    px (``vision.pose``), which sets how far each box's rectangle reaches towards the camera."""
    differing = differing_pixels(before, after)
    changed = _changed(layout, differing, clipped_pixels(before, after), camera)
    arrived = {}
    for b, moved in zip(layout.boxes, changed):
        if moved and b.kind == "headstream":
            # the tile itself: a drop lies on it, and its neighbours' leans reach only the margin
            x0, y0 = max(round(b.x * VIEW_SCALE), 0), max(round(b.y * VIEW_SCALE), 0)
            x1, y1 = round((b.x + b.w) * VIEW_SCALE), round((b.y + b.h) * VIEW_SCALE)
            if (n := drop_shapes(differing[y0:y1, x0:x1])) > 0:
                arrived[b.id] = n
    return Comparison(frozenset(b.key for b, moved in zip(layout.boxes, changed) if not moved), arrived)
