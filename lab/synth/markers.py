"""Printed ArUco markers (DICT_4X4_50, ids 0-3) at the four board corners, just outside
the canonical 1000x1464 frame: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.

``MARKER_CORNERS`` is the nominal placement in canonical coordinates (each marker's
corners in ArUco order: its own top-left, top-right, bottom-right, bottom-left). The
synthetic camera lays the printed sheets a little off that (a few px and a degree,
as a person would); the ground-truth homography always follows the board itself.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.layout import load_layout
from vision.registration import ARUCO_DICT, MARKER_GAP, MARKER_SIZE, default_markers

QUIET = 14         # white paper around the marker

_FRAME = load_layout()
# The placement registration expects (vision.registration.default_markers), as float64.
MARKER_CORNERS = {i: c.astype(np.float64) for i, c in default_markers(_FRAME.width, _FRAME.height).items()}
MARGIN = int(MARKER_GAP + MARKER_SIZE) + QUIET + 10     # canvas margin around the frame that holds the sheets


def marker_image(marker_id: int, px: int) -> np.ndarray:
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, px, borderBits=1)


def draw_sheets(canvas: np.ndarray, alpha: np.ndarray, offset: int, rng: np.random.Generator) -> list[dict]:
    """Paste the four marker sheets onto a canvas whose board frame starts at (offset, offset).
    Returns where each marker really lies (canonical corners), after placement jitter."""
    placed = []
    for marker_id, corners in MARKER_CORNERS.items():
        centre = corners.mean(0) + rng.normal(0, 2.0, 2)
        angle = math.radians(rng.normal(0, 1.0))
        c, s = math.cos(angle), math.sin(angle)
        rot = np.array([[c, -s], [s, c]])
        half = MARKER_SIZE / 2
        paper = half + QUIET * rng.uniform(0.8, 1.5)
        sheet = (np.array([(-paper, -paper), (paper, -paper), (paper, paper), (-paper, paper)]) @ rot.T + centre + offset)
        white = tuple(int(v) for v in rng.uniform(215, 255, 3))
        cv2.fillConvexPoly(canvas, np.round(sheet * 16).astype(np.int32), white, cv2.LINE_AA, 4)
        cv2.fillConvexPoly(alpha, np.round(sheet * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        dst = np.array([(-half, -half), (half, -half), (half, half), (-half, half)]) @ rot.T + centre
        tile = cv2.cvtColor(marker_image(marker_id, 6 * 20), cv2.COLOR_GRAY2BGR)
        n = tile.shape[0]
        src = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32)
        x0, y0 = np.floor((dst + offset).min(0)).astype(int)
        x1, y1 = np.ceil((dst + offset).max(0)).astype(int) + 1
        M = cv2.getPerspectiveTransform(src, (dst + offset - (x0, y0)).astype(np.float32))
        ink = cv2.warpPerspective(tile, M, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=(255, 255, 255))
        roi = canvas[y0:y1, x0:x1]
        np.minimum(roi, ink, out=roi)
        placed.append({"id": marker_id, "corners": dst.round(2).tolist()})
    return placed
