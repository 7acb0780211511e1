"""How much a dam's height shows in a picture, in camera pixels.

From above, one elevation shows in two ways: it moves the dam's top away from the point
under the camera (its lean) and it lengthens the dam's shadow. Both are a few camera
pixels at most, and the dam-height reader's errors follow the lean (docs/benchmarks.md,
"Where a dam's height shows"). ``lean_over_map`` gives the lean at every dam space of a
real table, from its registration and the camera position it gives (``vision.pose``), so
the calibration wizard can say whether this camera shows elevations at all
(``lab.elevation_cues`` gives both cues from a synthetic image's ground truth).
"""
from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from ..layout import Layout
from ..pose import camera_position

# An elevation's height where the table's own is not known: the middle of the generator's
# 9-18 canonical px (~5-10 mm), on which the reader was trained.
NOMINAL_RISE = 13.5

Project = Callable[[np.ndarray], np.ndarray]      # (N, 2) board points, canonical px -> (N, 2) camera px


def lean_px(project: Project, camera: np.ndarray, points: np.ndarray, rise: float) -> np.ndarray:
    """Camera px that a top ``rise`` canonical px up moves, standing on each of the board
    ``points`` (N, 2), seen by a camera at ``camera`` = (x, y, height). The top is seen
    where the camera's ray through it meets the board: farther from the nadir by the
    share rise / (height - rise) of its distance."""
    nadir, height = np.asarray(camera[:2], np.float64), float(camera[2])
    points = np.asarray(points, np.float64)
    if not np.isfinite(height) or height <= rise:
        return np.zeros(len(points))
    seen = nadir + (points - nadir) * (height / (height - rise))
    return np.linalg.norm(project(seen) - project(points), axis=1)


def lean_over_map(H: np.ndarray, frame_shape: tuple[int, ...], layout: Layout,
                  rise: float = NOMINAL_RISE, camera: np.ndarray | None = None) -> dict[str, float]:
    """Dam space -> camera px one elevation ``rise`` canonical px tall moves a dam's top
    there, in the frame that ``H`` (frame px -> canonical px) registers; ``camera``: the
    camera position (``vision.pose``) where already known, else found from ``H``."""
    board_to_image = np.linalg.inv(np.asarray(H, np.float64))

    def project(board: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(board.reshape(-1, 1, 2), board_to_image).reshape(-1, 2)

    dams = layout.of_kind("dam")
    if not dams:
        return {}
    camera = camera_position(H, frame_shape) if camera is None else camera
    px = lean_px(project, camera, np.array([box.centre for box in dams]), rise)
    return {box.id: float(p) for box, p in zip(dams, px)}
