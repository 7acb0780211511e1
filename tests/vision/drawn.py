"""Small boards drawn in the tests: a textured canonical board with ArUco markers and
coloured blocks on chosen slots, seen through a known camera homography."""
from __future__ import annotations

import cv2
import numpy as np

from lab.registration_eval import board_corner_error
from vision.layout import Layout, load_layout
from vision.registration import ARUCO_DICT, default_markers

MARGIN = 120   # canvas px around the canonical board, where the markers lie


def board_canvas(layout: Layout, filled: dict[str, tuple[int, int, int]] | None = None, seed: int = 0,
                 markers: bool = True) -> np.ndarray:
    """Canonical board (plus margin) with texture, slot outlines and blocks of colour on ``filled`` slots."""
    rng = np.random.default_rng(seed)
    w, h = layout.width + 2 * MARGIN, layout.height + 2 * MARGIN
    canvas = np.full((h, w, 3), 235, np.uint8)
    board = cv2.resize(rng.integers(60, 200, (60, 40, 3), dtype=np.uint8), (layout.width, layout.height),
                       interpolation=cv2.INTER_NEAREST)
    for _ in range(300):   # corners for feature matching
        x, y = rng.integers(0, layout.width), rng.integers(0, layout.height)
        cv2.circle(board, (int(x), int(y)), int(rng.integers(3, 12)), rng.integers(0, 255, 3).tolist(), -1)
    canvas[MARGIN:MARGIN + layout.height, MARGIN:MARGIN + layout.width] = board
    for b in layout.slots:
        p0 = (int(b.x) + MARGIN, int(b.y) + MARGIN)
        p1 = (int(b.x + b.w) + MARGIN, int(b.y + b.h) + MARGIN)
        colour = (filled or {}).get(b.id)
        if colour is not None:
            cv2.rectangle(canvas, p0, p1, colour, -1)
        cv2.rectangle(canvas, p0, p1, (255, 255, 255), 2)
    if markers:
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
        for i, c in default_markers(layout.width, layout.height).items():
            x0, y0 = (c[0] + MARGIN).astype(int)
            size = int(c[2, 0] - c[0, 0])
            q = size // 6   # white quiet zone
            canvas[y0 - q:y0 + size + q, x0 - q:x0 + size + q] = 255
            canvas[y0:y0 + size, x0:x0 + size] = cv2.cvtColor(
                cv2.aruco.generateImageMarker(dictionary, i, size), cv2.COLOR_GRAY2BGR)
    return canvas


def camera_view(canvas: np.ndarray, layout: Layout, size=(1280, 720), tilt: float = 0.0,
                shift=(0.0, 0.0), fill: float = 0.9) -> tuple[np.ndarray, np.ndarray]:
    """(frame, true image->canonical homography) for the canvas seen by a slightly tilted
    camera, filling ``fill`` of the frame's height or width; the rest is grey 90."""
    ch, cw = canvas.shape[:2]
    scale = fill * min(size[0] / cw, size[1] / ch)
    ox = (size[0] - cw * scale) / 2 + shift[0]
    oy = (size[1] - ch * scale) / 2 + shift[1]
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    dst = np.float32([[ox + tilt * cw * scale, oy], [ox + cw * scale - tilt * cw * scale, oy],
                      [ox + cw * scale, oy + ch * scale], [ox, oy + ch * scale]])
    canvas_to_image = cv2.getPerspectiveTransform(src, dst)
    frame = cv2.warpPerspective(canvas, canvas_to_image, size, borderValue=(90, 90, 90))
    canvas_to_canonical = np.array([[1, 0, -MARGIN], [0, 1, -MARGIN], [0, 0, 1]], np.float64)
    return frame, canvas_to_canonical @ np.linalg.inv(canvas_to_image)


# Max distance (canonical px) between where H and H_true put the board corners.
reprojection_error = board_corner_error


LAYOUT = load_layout()
GEOMETRY = default_markers(LAYOUT.width, LAYOUT.height)


def true_corners(H_true: np.ndarray, marker_id: int) -> np.ndarray:
    """A marker's corners in the frame, through the true image -> canonical homography."""
    pts = GEOMETRY[marker_id].reshape(-1, 1, 2).astype(np.float64)
    return cv2.perspectiveTransform(pts, np.linalg.inv(H_true)).reshape(4, 2).astype(np.float32)
