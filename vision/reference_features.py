"""How each box of a frame differs from the same box of the empty board.

A printed board marks every empty space with an icon shaped like the structure that goes
there (a grey pipe, a grey house, a dam outline, drop icons on the headstream tiles), and
a net trained on other boards reads those icons as pieces. The empty board's own picture,
taken once at calibration and rectified the same way, says what each space looks like
with nothing on it: whatever was there on the empty board is print, and a piece is what
differs from it. ``box_features`` measures that difference per box, in numbers a light
classifier can weigh (``vision.reference_reading``):

- colour: the CIE Lab difference of the live crop and the reference crop, after the frame's
  own light change is taken out (``light_map``, ``relit``; then the median difference over every box:
  most boxes are unchanged), each crop aligned to the reference within a few px (registration moves a
  little between frames); its mean, upper percentiles and the share of pixels over 12 and
  25 units, lightness and colour apart (a shadow darkens, a piece also changes colour), the
  shares grown darker and brighter, and the largest connected patch over 25 units (one water
  drop on a large tile changes a small patch, which no mean or share of the tile shows);
- structure: the normalised cross-correlation of the two crops' lightness and the
  difference of their gradient magnitudes (a white piece on a whitish icon changes edges
  more than colour);
- the pixels that changed: their mean Lab (a piece's colour, which the owner is read from),
  taken back into the empty board's light (``light_map``), as a taught owner head knows it.
"""
from __future__ import annotations

import cv2
import numpy as np

# Each crop is compared with the reference moved by up to this many px either way (48 px
# crops at half the canonical scale: 2 px is about 2 mm on a real board).
SHIFT = 2
# Lab difference (CIE76) over which a pixel counts as changed, low and high.
CHANGED = (12.0, 25.0)
FEATURES = ("mean_de", "p75_de", "p90_de", "p99_de", "changed_lo", "changed_hi", "blob", "darker", "brighter",
            "mean_dl", "mean_dc", "ncc", "grad_diff", "centre_de")
COLOUR = ("L", "a", "b")       # mean Lab of a box's changed pixels (its own pixels where none changed)


def light_map(live: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """(3, 2) each BGR channel's line (slope, offset) from ``ref``'s light to ``live``'s: the
    least-squares line through the 10th, 50th and 90th percentiles of the channel over every
    box. Most boxes are as they were on the empty board, so the percentiles move with the
    light, not with the pieces: a room darker or brighter than at calibration, or lit in
    another colour, changes every box alike, and a piece only its own."""
    qs = (10, 50, 90)
    # every third pixel each way: the same percentiles to a level, in a ninth of the time
    ref_q, live_q = _percentiles_u8(ref[:, ::3, ::3], qs), _percentiles_u8(live[:, ::3, ::3], qs)
    lines = np.empty((3, 2))
    for c in range(3):
        x, y = ref_q[c], live_q[c]
        lines[c] = np.polyfit(x, y, 1) if np.ptp(x) > 1 else (1.0, float(y[1] - x[1]))
    return lines


def relit(crops: np.ndarray, lines: np.ndarray, back: bool = False) -> np.ndarray:
    """``crops`` (N, h, w, 3) uint8 BGR through ``light_map``'s ``lines``, or, ``back``, through
    their inverse (a frame's crops in the empty board's light)."""
    levels = np.arange(256, dtype=np.float64)[:, None]
    slope, offset = lines[:, 0], lines[:, 1]
    mapped = (levels - offset) / np.where(np.abs(slope) > 1e-6, slope, 1.0) if back else levels * slope + offset
    lut = np.clip(mapped, 0, 255).astype(np.uint8)[None]
    n, h, w, _ = crops.shape
    return cv2.LUT(np.ascontiguousarray(crops).reshape(n * h, w, 3), lut).reshape(crops.shape)


def _percentiles_u8(x: np.ndarray, qs: tuple[float, ...]) -> np.ndarray:
    """(channels, len(qs)) each channel's percentiles of uint8 ``x`` (..., channels), as
    ``np.percentile`` gives them (linear between order statistics), from a histogram."""
    flat = x.reshape(-1, x.shape[-1])
    out = np.empty((flat.shape[1], len(qs)))
    for c in range(flat.shape[1]):
        below = np.cumsum(np.bincount(flat[:, c], minlength=256))       # below[v]: how many are <= v
        at = (len(flat) - 1) * np.asarray(qs, float) / 100
        lo = np.floor(at)
        # the k-th smallest (from 0) is the first value with more than k at or below it
        v_lo = np.searchsorted(below, lo, side="right")
        v_hi = np.searchsorted(below, np.minimum(lo + 1, len(flat) - 1), side="right")
        out[c] = v_lo + (v_hi - v_lo) * (at - lo)
    return out


def to_lab(crops: np.ndarray, offset: np.ndarray | None = None) -> np.ndarray:
    """(N, h, w, 3) uint8 BGR -> float32 Lab with L in 0..100 and a, b about -128..127 (OpenCV's
    8-bit conversion, a table look-up: ten times faster than its float one, to a unit; then
    scaled in one ``cv2.transform``), ``offset`` (L, a, b) added."""
    n, h, w, _ = crops.shape
    lab = cv2.cvtColor(np.ascontiguousarray(crops).reshape(n * h, w, 3), cv2.COLOR_BGR2LAB)
    scale = _LAB_SCALE.copy()
    if offset is not None:
        scale[:, 3] += np.asarray(offset, np.float32)
    return cv2.transform(lab.astype(np.float32), scale).reshape(n, h, w, 3)


# 8-bit Lab -> L * 100 / 255, a - 128, b - 128
_LAB_SCALE = np.array([[100 / 255, 0, 0, 0], [0, 1, 0, -128], [0, 0, 1, -128]], np.float32)


def _aligned(live: np.ndarray, ref: np.ndarray, shift: int) -> np.ndarray:
    """(N, h', w', 3) the reference, each box's moved by the shift (within ``shift`` px) whose
    lightness differs least from the live crop (the mean absolute difference), both cut to
    their common centre."""
    n, h, w, _ = live.shape
    ch, cw, side = h - 2 * shift, w - 2 * shift, 2 * shift + 1
    # Every box stacked into one tall picture: each shift is one OpenCV difference over all
    # boxes (a box's rows moved by at most ``shift`` stay within its own), twice as fast as
    # slicing the boxes in numpy.
    ref_l = np.ascontiguousarray(ref[..., 0]).reshape(n * h, w)
    core = np.ascontiguousarray(live[..., 0]).reshape(n * h, w)[shift:n * h - shift, shift:w - shift]
    cost = np.empty((side * side, n), np.float32)
    rows = np.zeros(n * h, np.float32)
    for k in range(side * side):
        dy, dx = divmod(k, side)
        diff = cv2.absdiff(ref_l[dy:dy + n * h - 2 * shift, dx:dx + cw], core)
        rows[shift:n * h - shift] = cv2.reduce(diff, 1, cv2.REDUCE_SUM)[:, 0]
        cost[k] = rows.reshape(n, h)[:, shift:h - shift].sum(1)
    out = np.empty((n, ch, cw, ref.shape[3]), ref.dtype)
    for i, k in enumerate(cost.argmin(0)):
        dy, dx = divmod(int(k), side)
        out[i] = ref[i, dy:dy + ch, dx:dx + cw]
    return out


def box_features(live: np.ndarray, ref: np.ndarray, shift: int = SHIFT,
                 light: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``live``, ``ref``: (N, h, w, 3) uint8 BGR crops of the same boxes, in the frame and in
    the empty board's picture. Returns (N, len(FEATURES)) difference features and (N, 3)
    the mean Lab of each box's changed pixels (``COLOUR``), measured in the empty board's
    light where ``light`` (``light_map``: from that light to the frame's) is given: a piece's
    colour then reads the same under a warmer lamp than the one it was taught under."""
    live_lab = to_lab(live)
    # the frame's light against the reference's: most boxes are empty, so the median of the
    # differences over every pixel of every box is the light's change, not a piece's
    drift = np.median((live_lab[:, ::3, ::3] - to_lab(ref[:, ::3, ::3])).reshape(-1, 3), axis=0)
    ref_lab = to_lab(ref, drift)
    ref_al = _aligned(live_lab, ref_lab, shift)
    n, h, w, _ = live.shape
    core = live_lab[:, shift:h - shift, shift:w - shift]
    diff = core - ref_al
    de = np.sqrt(np.einsum("nhwc,nhwc->nhw", diff, diff))
    flat = de.reshape(n, -1)
    ch, cw = de.shape[1:]
    centre = de[:, ch // 4:ch - ch // 4, cw // 4:cw - cw // 4]
    a = core[..., 0].reshape(n, -1)
    b = ref_al[..., 0].reshape(n, -1)
    a = a - a.mean(1, keepdims=True)
    b = b - b.mean(1, keepdims=True)
    ncc = np.einsum("ij,ij->i", a, b) / np.maximum(np.sqrt(np.einsum("ij,ij->i", a, a) * np.einsum("ij,ij->i", b, b)),
                                                   1e-6)
    grad = _gradient(core[..., 0]) - _gradient(ref_al[..., 0])
    dl = diff[..., 0].reshape(n, -1)
    features = np.stack([
        flat.mean(1), *_percentiles(flat, (75, 90, 99)),
        (flat > CHANGED[0]).mean(1), (flat > CHANGED[1]).mean(1), _largest_patch(de > CHANGED[1]),
        (dl < -CHANGED[0]).mean(1), (dl > CHANGED[0]).mean(1),
        np.abs(dl).mean(1), np.sqrt(np.einsum("nhwc,nhwc->nhw", diff[..., 1:], diff[..., 1:])).reshape(n, -1).mean(1),
        ncc, np.abs(grad).reshape(n, -1).mean(1), centre.reshape(n, -1).mean(1)], axis=1).astype(np.float32)
    # each box's changed pixels' Lab and all its pixels' Lab, summed, in one product
    weights = np.ones((n, 2, flat.shape[1]), np.float32)
    weights[:, 0] = de.reshape(n, -1) > CHANGED[0]
    if light is not None:
        core = to_lab(relit(live[:, shift:h - shift, shift:w - shift], light, back=True))
    summed = np.matmul(weights, np.ascontiguousarray(core).reshape(n, -1, 3))
    counted = weights[:, 0].sum(1, keepdims=True)
    colour = np.where(counted > 8, summed[:, 0] / np.maximum(counted, 1), summed[:, 1] / flat.shape[1])
    return features, colour.astype(np.float32)


def _percentiles(x: np.ndarray, qs: tuple[float, ...]) -> list[np.ndarray]:
    """Each row's ``qs`` percentiles (linear, as ``np.percentile``), from one sort."""
    ranked = np.sort(x, axis=1)
    out = []
    for q in qs:
        at = (x.shape[1] - 1) * q / 100
        lo = int(np.floor(at))
        hi = min(lo + 1, x.shape[1] - 1)
        out.append(ranked[:, lo] + (ranked[:, hi] - ranked[:, lo]) * (at - lo))
    return out


def _largest_patch(mask: np.ndarray) -> np.ndarray:
    """(N,) each crop's largest 8-connected patch of ``mask`` (N, h, w), as a share of the crop."""
    n, h, w = mask.shape
    # one labelling of every crop stacked with a blank row between: no patch joins two crops
    tall = np.zeros((n, h + 1, w), np.uint8)
    tall[:, :h] = mask
    count, _, stats, _ = cv2.connectedComponentsWithStats(tall.reshape(-1, w), connectivity=8)
    out = np.zeros(n, np.float32)
    np.maximum.at(out, stats[1:count, cv2.CC_STAT_TOP] // (h + 1), stats[1:count, cv2.CC_STAT_AREA].astype(np.float32))
    return out / (h * w)


def _gradient(lightness: np.ndarray) -> np.ndarray:
    """(N, h, w) gradient magnitude of each crop's lightness (central differences; 0 on a
    crop's border), every crop filtered at once as one tall picture."""
    n, h, w = lightness.shape
    tall = np.ascontiguousarray(lightness, np.float32).reshape(n * h, w)
    gx = cv2.filter2D(tall, -1, _CENTRAL).reshape(n, h, w)
    gy = cv2.filter2D(tall, -1, _CENTRAL.T).reshape(n, h, w)
    gx[:, :, [0, -1]] = 0
    gy[:, [0, -1]] = 0                  # the tall picture's neighbours are another crop's rows
    return cv2.magnitude(gx, gy)


_CENTRAL = np.array([[-0.5, 0.0, 0.5]], np.float32)
