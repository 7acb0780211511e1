"""Small printed-looking glyphs (coins, bolts, drops, gears, ...) for the board's
spaces and clutter. Printed drops matter most: the real board and headstream tiles
show drop icons, and the model must learn them apart from drop pieces.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.barrage.reference_map import put_text_centred

from .textures import Colour, shade

KINDS = ("drop", "coin", "bolt", "gear", "house", "triangle", "star", "digit", "cross", "wave")


def drop_outline(cx: float, cy: float, r: float) -> np.ndarray:
    """A water-drop silhouette (round bottom, pointed top) as an int polygon."""
    pts = [(cx + r * math.cos(a), cy + r * 0.25 + r * math.sin(a)) for a in np.linspace(-0.35, math.pi + 0.35, 12)]
    pts = pts[::-1] + [(cx, cy - r * 1.3)]
    return np.round(np.array(pts)).astype(np.int32)


def draw_icon(img: np.ndarray, kind: str, centre: tuple[float, float], size: float, colour: Colour,
              rng: np.random.Generator) -> None:
    cx, cy = centre
    r = size / 2
    c = (int(round(cx)), int(round(cy)))
    aa = cv2.LINE_AA
    outline = shade(colour, 0.5)
    if kind == "drop":
        poly = drop_outline(cx, cy, r * 0.75)
        cv2.fillPoly(img, [poly], colour, aa)
        cv2.polylines(img, [poly], True, outline, 1, aa)
    elif kind == "coin":
        cv2.circle(img, c, int(r), colour, -1, aa)
        cv2.circle(img, c, max(1, int(r * 0.7)), outline, 1, aa)
    elif kind == "bolt":
        pts = np.array([(0.1, -1), (-0.5, 0.15), (0, 0.15), (-0.15, 1), (0.5, -0.2), (0, -0.2)]) * r + (cx, cy)
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], colour, aa)
    elif kind == "gear":
        teeth = int(rng.integers(6, 10))
        pts = [(cx + r * (1 if i % 2 else 0.72) * math.cos(i * math.pi / teeth),
                cy + r * (1 if i % 2 else 0.72) * math.sin(i * math.pi / teeth)) for i in range(2 * teeth)]
        cv2.fillPoly(img, [np.round(np.array(pts)).astype(np.int32)], colour, aa)
        cv2.circle(img, c, max(1, int(r * 0.3)), outline, -1, aa)
    elif kind == "house":
        pts = np.array([(-0.8, 1), (-0.8, -0.1), (0, -0.9), (0.8, -0.1), (0.8, 1)]) * r + (cx, cy)
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], colour, aa)
    elif kind == "triangle":
        pts = np.array([(-1, 0.8), (0, -0.9), (1, 0.8)]) * r + (cx, cy)
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], colour, aa)
    elif kind == "star":
        pts = [(cx + r * (1 if i % 2 == 0 else 0.45) * math.sin(i * math.pi / 5),
                cy - r * (1 if i % 2 == 0 else 0.45) * math.cos(i * math.pi / 5)) for i in range(10)]
        cv2.fillPoly(img, [np.round(np.array(pts)).astype(np.int32)], colour, aa)
    elif kind == "digit":
        put_text_centred(img, str(int(rng.integers(0, 10))), centre, size * 0.8, colour)
    elif kind == "cross":
        w = max(1, int(size / 6))
        cv2.line(img, (int(cx - r), int(cy - r)), (int(cx + r), int(cy + r)), colour, w, aa)
        cv2.line(img, (int(cx - r), int(cy + r)), (int(cx + r), int(cy - r)), colour, w, aa)
    else:  # wave
        xs = np.linspace(cx - r, cx + r, 12)
        for dy in (-r / 3, r / 3):
            pts = np.stack([xs, cy + dy + r / 4 * np.sin((xs - cx) / r * 2 * math.pi)], 1)
            cv2.polylines(img, [np.round(pts).astype(np.int32)], False, colour, max(1, int(size / 10)), aa)
