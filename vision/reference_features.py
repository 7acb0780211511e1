"""How each box of a frame differs from the same box of the empty board.

A printed board marks every empty space with an icon shaped like the structure that goes
there (a grey pipe, a grey house, a dam outline, drop icons on the headstream tiles), and
a net trained on other boards reads those icons as pieces. The empty board's own picture,
taken once at calibration and rectified the same way, says what each space looks like
with nothing on it: whatever was there on the empty board is print, and a piece is what
differs from it. ``box_features`` measures that difference per box, in numbers a light
classifier can weigh (``vision.reference_reading``):

- colour: the CIE Lab difference of the live crop and the reference crop, after the frame's
  own light change is taken out (``match_light``, then the median difference over every box:
  most boxes are unchanged), each crop aligned to the reference within a few px (registration moves a
  little between frames); its mean, upper percentiles and the share of pixels over 12 and
  25 units, lightness and colour apart (a shadow darkens, a piece also changes colour), the
  shares grown darker and brighter, and the largest connected patch over 25 units (one water
  drop on a large tile changes a small patch, which no mean or share of the tile shows);
- structure: the normalised cross-correlation of the two crops' lightness and the
  difference of their gradient magnitudes (a white piece on a whitish icon changes edges
  more than colour);
- the pixels that changed: their mean Lab (a piece's colour, which the owner is read from).
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


def match_light(live: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``ref``'s crops (N, h, w, 3) uint8 BGR brought into the light of ``live``'s: each channel
    mapped linearly so that its 10th, 50th and 90th percentiles over every box land on the
    live crops' (a least-squares line through the three). Most boxes are as they were on
    the empty board, so the percentiles move with the light, not with the pieces: a room
    darker or brighter than at calibration changes every box alike, and a piece only its own."""
    out = np.empty_like(ref)
    qs = (10, 50, 90)
    for c in range(3):
        # every third pixel each way: the same percentiles to a level, in a ninth of the time
        x = np.percentile(ref[:, ::3, ::3, c], qs)
        y = np.percentile(live[:, ::3, ::3, c], qs)
        slope, offset = np.polyfit(x, y, 1) if np.ptp(x) > 1 else (1.0, float(y[1] - x[1]))
        lut = np.clip(np.arange(256) * slope + offset, 0, 255).astype(np.uint8)
        out[..., c] = cv2.LUT(ref[..., c], lut)
    return out


def to_lab(crops: np.ndarray) -> np.ndarray:
    """(N, h, w, 3) uint8 BGR -> float32 Lab with L in 0..100 and a, b about -128..127 (OpenCV's
    8-bit conversion, a table look-up: ten times faster than its float one, to a unit)."""
    n, h, w, _ = crops.shape
    lab = cv2.cvtColor(np.ascontiguousarray(crops).reshape(n * h, w, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab.reshape(n, h, w, 3)


def _aligned(live: np.ndarray, ref: np.ndarray, shift: int) -> np.ndarray:
    """(N, h', w', 3) the reference, each box's moved by the shift (within ``shift`` px) whose
    lightness differs least from the live crop, both cut to their common centre."""
    n, h, w, _ = live.shape
    core = live[:, shift:h - shift, shift:w - shift, 0]
    moves = [(dy, dx) for dy in range(-shift, shift + 1) for dx in range(-shift, shift + 1)]
    cost = np.stack([np.abs(ref[:, shift + dy:h - shift + dy, shift + dx:w - shift + dx, 0] - core).mean((1, 2))
                     for dy, dx in moves])
    best = cost.argmin(0)
    return np.stack([ref[i, shift + moves[b][0]:h - shift + moves[b][0], shift + moves[b][1]:w - shift + moves[b][1]]
                     for i, b in enumerate(best)])


def box_features(live: np.ndarray, ref: np.ndarray, shift: int = SHIFT) -> tuple[np.ndarray, np.ndarray]:
    """``live``, ``ref``: (N, h, w, 3) uint8 BGR crops of the same boxes, in the frame and in
    the empty board's picture. Returns (N, len(FEATURES)) difference features and (N, 3)
    the mean Lab of each box's changed pixels (``COLOUR``)."""
    live_lab, ref_lab = to_lab(live), to_lab(ref)
    # the frame's light against the reference's: most boxes are empty, so the median of the
    # differences over every pixel of every box is the light's change, not a piece's
    light = np.median((live_lab[:, ::3, ::3] - ref_lab[:, ::3, ::3]).reshape(-1, 3), axis=0)
    ref_lab += light.astype(np.float32)      # in float32, as the rest: float64 would double every step's time
    ref_al = _aligned(live_lab, ref_lab, shift)
    n, h, w, _ = live.shape
    core = live_lab[:, shift:h - shift, shift:w - shift]
    diff = core - ref_al
    de = np.sqrt((diff ** 2).sum(-1))
    flat = de.reshape(n, -1)
    ch, cw = de.shape[1:]
    centre = de[:, ch // 4:ch - ch // 4, cw // 4:cw - cw // 4]
    a = core[..., 0].reshape(n, -1)
    b = ref_al[..., 0].reshape(n, -1)
    a = a - a.mean(1, keepdims=True)
    b = b - b.mean(1, keepdims=True)
    ncc = (a * b).sum(1) / np.maximum(np.sqrt((a ** 2).sum(1) * (b ** 2).sum(1)), 1e-6)
    grad = _gradient(core[..., 0]) - _gradient(ref_al[..., 0])
    dl = diff[..., 0].reshape(n, -1)
    features = np.stack([
        flat.mean(1), *_percentiles(flat, (75, 90, 99)),
        (flat > CHANGED[0]).mean(1), (flat > CHANGED[1]).mean(1), _largest_patch(de > CHANGED[1]),
        (dl < -CHANGED[0]).mean(1), (dl > CHANGED[0]).mean(1),
        np.abs(dl).mean(1), np.sqrt((diff[..., 1:] ** 2).sum(-1)).reshape(n, -1).mean(1),
        ncc, np.abs(grad).reshape(n, -1).mean(1), centre.reshape(n, -1).mean(1)], axis=1).astype(np.float32)
    changed = (de > CHANGED[0]).astype(np.float32)
    counted = changed.sum((1, 2))[:, None]
    colour = np.where(counted > 8, np.einsum("nhwc,nhw->nc", core, changed) / np.maximum(counted, 1), core.mean((1, 2)))
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
    out = np.zeros(len(mask), np.float32)
    for i, m in enumerate(mask):
        if m.any():
            _, _, stats, _ = cv2.connectedComponentsWithStats(m.astype(np.uint8), connectivity=8)
            out[i] = stats[1:, cv2.CC_STAT_AREA].max() / m.size
    return out


def _gradient(lightness: np.ndarray) -> np.ndarray:
    """(N, h, w) gradient magnitude of each crop's lightness (central differences)."""
    gy = np.zeros_like(lightness)
    gx = np.zeros_like(lightness)
    gy[:, 1:-1] = (lightness[:, 2:] - lightness[:, :-2]) / 2
    gx[:, :, 1:-1] = (lightness[:, :, 2:] - lightness[:, :, :-2]) / 2
    return np.sqrt(gx ** 2 + gy ** 2)
