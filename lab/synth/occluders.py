"""Things between the camera and the board: a hand and arm reaching in from the image
edge, or an object left on the table (a cup, a phone, a stack of cards).

``draw_occluder`` paints one onto the image, with a soft shadow, and returns its mask,
which the ground truth uses to mark covered slots.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .textures import Colour, jitter, random_colour

SKIN: tuple[Colour, ...] = ((150, 180, 225), (120, 160, 210), (90, 130, 185), (60, 90, 140), (45, 65, 100))


def _capsule(mask: np.ndarray, a: np.ndarray, b: np.ndarray, width: float) -> None:
    cv2.line(mask, tuple(int(v) for v in a), tuple(int(v) for v in b), 255, max(1, int(width)), cv2.LINE_AA)


def _limb(mask: np.ndarray, a: np.ndarray, b: np.ndarray, width_a: float, width_b: float) -> None:
    """A tapered limb from a (width_a) to b (width_b), rounded at b."""
    d = (b - a) / (np.linalg.norm(b - a) + 1e-9)
    n = np.array([-d[1], d[0]])
    quad = np.array([a + n * width_a / 2, b + n * width_b / 2, b - n * width_b / 2, a - n * width_a / 2])
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255, cv2.LINE_AA)
    cv2.circle(mask, tuple(int(v) for v in b), int(width_b / 2), 255, -1, cv2.LINE_AA)


def _hand_mask(shape: tuple[int, int], target: np.ndarray, scale: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Masks (arm+hand, sleeve) for an arm entering from a random image edge towards ``target``."""
    h, w = shape
    edge = int(rng.integers(4))
    start = [np.array([rng.uniform(0, w), -50.0]), np.array([w + 50.0, rng.uniform(0, h)]),
             np.array([rng.uniform(0, w), h + 50.0]), np.array([-50.0, rng.uniform(0, h)])][edge]
    direction = target - start
    direction /= np.linalg.norm(direction) + 1e-9
    side = np.array([-direction[1], direction[0]])
    arm_w = scale * rng.uniform(0.55, 0.8)
    wrist = target - direction * scale * 0.55
    mask = np.zeros(shape, np.uint8)
    widen = rng.uniform(1.2, 1.8)            # forearm to elbow and upper arm: wider towards the edge
    _limb(mask, start, wrist, arm_w * widen, arm_w)
    palm_axes = (int(scale * 0.5), int(scale * 0.42))
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    cv2.ellipse(mask, tuple(int(v) for v in target - direction * scale * 0.15), palm_axes, angle, 0, 360, 255, -1, cv2.LINE_AA)
    spread = rng.uniform(0.6, 1.2)
    for k in range(4):                               # fingers, fanning out from the palm's far edge
        off = (k - 1.5) / 1.5
        base = target + direction * scale * 0.15 + side * off * scale * 0.32
        tip_dir = direction + side * off * 0.25 * spread
        tip = base + tip_dir / np.linalg.norm(tip_dir) * scale * rng.uniform(0.45, 0.75)
        _capsule(mask, base, tip, scale * 0.17)
    thumb_base = target - direction * scale * 0.2 + side * scale * 0.45 * (1 if rng.random() < 0.5 else -1)
    _capsule(mask, thumb_base, thumb_base + (direction + side * 0.8 * np.sign((thumb_base - target) @ side)) * scale * 0.35,
             scale * 0.18)
    sleeve = np.zeros(shape, np.uint8)
    cut = wrist - direction * scale * rng.uniform(0.8, 2.5)
    _limb(sleeve, start, cut, arm_w * widen * 1.25, arm_w * 1.25)
    return mask, sleeve


def draw_occluder(img: np.ndarray, target: tuple[float, float], scale: float,
                  rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    """Paint a hand (70%) or an object (30%) covering ``target``; ``scale`` ~ palm width in px.
    Returns the occluder mask (uint8, 255 = covered) and a record of what was drawn."""
    shape = img.shape[:2]
    t = np.array(target, np.float64)
    if rng.random() < 0.7:
        kind = "hand"
        mask, sleeve = _hand_mask(shape, t, scale, rng)
        skin = jitter(rng, SKIN[int(rng.integers(len(SKIN)))], 4, 0.15, 0.12)
        cloth = random_colour(rng, (0, 0.8), (0.1, 0.9)) if rng.random() < 0.7 else None
        layers = [(mask, skin)] + ([(sleeve, cloth)] if cloth else [])
        mask = np.maximum(mask, sleeve) if cloth else mask
    else:
        kind = str(rng.choice(["cup", "phone", "cards"]))
        mask = np.zeros(shape, np.uint8)
        colour = random_colour(rng)
        if kind == "cup":
            cv2.circle(mask, tuple(int(v) for v in t), int(scale * rng.uniform(0.6, 1.0)), 255, -1, cv2.LINE_AA)
        else:
            size = (scale * rng.uniform(0.8, 1.6), scale * rng.uniform(1.4, 2.4)) if kind == "phone" else \
                (scale * rng.uniform(1.0, 1.4), scale * rng.uniform(1.5, 2.0))
            box = cv2.boxPoints(((t[0], t[1]), size, rng.uniform(0, 180)))
            cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 255, cv2.LINE_AA)
        layers = [(mask, colour)]
    shift = np.float32([[1, 0, rng.uniform(-0.4, 0.4) * scale], [0, 1, rng.uniform(-0.4, 0.4) * scale]])
    shadow_src = cv2.warpAffine(mask, shift, (shape[1], shape[0]))
    # work only in the region the occluder and its shadow can touch
    x, y, bw, bh = cv2.boundingRect(np.maximum(mask, shadow_src))
    pad = int(scale * 0.8) + 4
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(shape[1], x + bw + pad), min(shape[0], y + bh + pad)
    roi = (slice(y0, y1), slice(x0, x1))
    sub = img[roi]

    def soft(m: np.ndarray, sigma: float) -> np.ndarray:
        """Blurred mask in [0, 1]; soft effects are smooth, so blurred at a quarter resolution."""
        small = cv2.resize(m, (max(1, m.shape[1] // 4), max(1, m.shape[0] // 4)), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), max(sigma / 4, 0.5))
        return cv2.resize(small, (m.shape[1], m.shape[0]), interpolation=cv2.INTER_LINEAR).astype(np.float32) / 255

    # the occluder floats above the board: a soft shadow offset away from the light
    out = sub.astype(np.float32) * (1.0 - rng.uniform(0.2, 0.5) * soft(shadow_src[roi], scale * 0.25))[..., None]
    # shading across the occluder: a gradient plus darker edges give it roundness
    a = rng.uniform(0, 2 * math.pi)
    xx = np.arange(x0, x1, dtype=np.float32)[None, :] - t[0]
    yy = np.arange(y0, y1, dtype=np.float32)[:, None] - t[1]
    grad = 0.85 + 0.3 * ((xx * math.cos(a) + yy * math.sin(a)) / (4 * scale)).clip(-0.5, 0.5)
    for layer, colour in layers:
        lay_roi = layer[roi]
        roundness = 0.65 + 0.35 * np.clip(2 * soft(lay_roi, scale * 0.15) - 0.6, 0, 1)
        alpha = (lay_roi.astype(np.float32) / 255)[..., None]
        paint = np.array(colour, np.float32) * (grad * roundness)[..., None]
        out += alpha * (paint - out)
    sub[:] = np.clip(out, 0, 255).astype(np.uint8)
    return mask, {"kind": kind, "target": [round(float(v), 1) for v in t], "scale": round(float(scale), 1)}
