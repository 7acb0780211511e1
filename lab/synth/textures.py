"""Procedural textures and colour helpers shared by the board, table and piece painters.

All randomness comes from the ``numpy.random.Generator`` passed in, so a seed
reproduces a texture exactly.
"""
from __future__ import annotations

import cv2
import numpy as np

Colour = tuple[int, int, int]     # BGR, 0-255


def noise(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int = 3,
          persistence: float = 0.5) -> np.ndarray:
    """Smooth value noise in [0, 1], float32 (h, w); ``cell`` = size of the coarsest blobs in px."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        grid = rng.random((gh, gw), dtype=np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= persistence
        cell /= 2
        if cell < 1.5:
            break
    out /= total
    lo, hi = float(out.min()), float(out.max())
    return (out - lo) / max(hi - lo, 1e-6)


def jitter(rng: np.random.Generator, colour: Colour, hue: float = 6, sat: float = 0.15, val: float = 0.15) -> Colour:
    """``colour`` with random hue (degrees/2, OpenCV units), saturation and value changes."""
    hsv = cv2.cvtColor(np.uint8([[colour]]), cv2.COLOR_BGR2HSV)[0, 0].astype(np.float32)
    hsv[0] = (hsv[0] + rng.uniform(-hue, hue)) % 180
    hsv[1] = np.clip(hsv[1] * (1 + rng.uniform(-sat, sat)), 0, 255)
    hsv[2] = np.clip(hsv[2] * (1 + rng.uniform(-val, val)), 0, 255)
    out = cv2.cvtColor(np.uint8([[hsv]]), cv2.COLOR_HSV2BGR)[0, 0]
    return (int(out[0]), int(out[1]), int(out[2]))


def random_colour(rng: np.random.Generator, sat: tuple[float, float] = (0.1, 0.8),
                  val: tuple[float, float] = (0.3, 0.95)) -> Colour:
    hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(*sat) * 255, rng.uniform(*val) * 255]]])
    out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return (int(out[0]), int(out[1]), int(out[2]))


def shade(colour: Colour, factor: float) -> Colour:
    return tuple(int(np.clip(c * factor, 0, 255)) for c in colour)  # type: ignore[return-value]


def modulate(img: np.ndarray, field: np.ndarray, strength: float) -> np.ndarray:
    """Brighten/darken ``img`` by a [0, 1] field: 0.5 leaves it, +-``strength`` at the extremes."""
    gain = 1.0 + strength * (field * 2 - 1)
    return np.clip(img.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def fill(h: int, w: int, colour: Colour) -> np.ndarray:
    return np.full((h, w, 3), colour, np.uint8)


def blend_layers(base: np.ndarray, top: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """``alpha`` (h, w) in [0, 1]: where ``top`` replaces ``base``."""
    a = alpha.astype(np.float32)
    return cv2.blendLinear(top, base, a, 1 - a)


def darken(img: np.ndarray, amount: np.ndarray, strength: float) -> np.ndarray:
    """Shadow: ``img`` darkened by up to ``strength`` where ``amount`` (h, w, 0-1) is 1."""
    return blend_layers(img, cv2.convertScaleAbs(img, alpha=1 - strength), amount)


def table(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, dict]:
    """A table-top background: wood grain, cloth, plain or patterned; returns (image, style).
    Painted at half size: the table is out of focus interest and this halves the cost."""
    img, record = _table(rng, h // 2, w // 2)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR), record


def _table(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, dict]:
    kind = str(rng.choice(["wood", "cloth", "plain", "pattern"], p=[0.45, 0.3, 0.17, 0.08]))
    base = random_colour(rng, (0.1, 0.7), (0.15, 0.85))
    if kind == "wood":
        base = jitter(rng, (40, 90, 150), 8, 0.3, 0.4)
        stretch = rng.uniform(8, 30)
        grain = noise(rng, h, max(2, int(w / stretch)), rng.uniform(2, 8), 3)
        grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_LINEAR)
        rings = 0.5 + 0.5 * np.sin(grain * rng.uniform(20, 60))
        img = modulate(fill(h, w, base), 0.6 * rings + 0.4 * noise(rng, h, w, 60), 0.35)
        if rng.random() < 0.5:
            img = cv2.rotate(cv2.resize(img, (h, w)), cv2.ROTATE_90_CLOCKWISE)
    elif kind == "cloth":
        img = modulate(fill(h, w, base), noise(rng, h, w, rng.uniform(1, 2), 2), 0.25)
        img = modulate(img, noise(rng, h, w, 200), 0.15)
    elif kind == "plain":
        img = modulate(fill(h, w, base), noise(rng, h, w, 300, 2), 0.1)
    else:
        other = random_colour(rng)
        step = int(rng.integers(10, 45))
        yy, xx = np.mgrid[0:h, 0:w]
        mask = ((xx // step + yy // step) % 2).astype(np.float32) if rng.random() < 0.5 else \
            (((xx + yy) // step) % 2).astype(np.float32)
        img = blend_layers(fill(h, w, base), fill(h, w, other), mask)
        img = modulate(img, noise(rng, h, w, 100), 0.15)
    return img, {"kind": kind, "colour": list(base)}
