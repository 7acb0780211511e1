"""Lens calibration from photos of the printed ChArUco sheet (optional step).

Writes the ``.npz`` (camera matrix ``K``, distortion ``dist``) that
``vision.registration.Calibration.load`` reads.
"""
from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .profiles import write_whole
from .sheets import charuco_board

MIN_VIEWS = 4            # fewer views cannot pin down the distortion terms
MIN_CORNERS = 8          # chessboard corners a photo must show to count


@dataclass(frozen=True)
class LensResult:
    K: np.ndarray
    dist: np.ndarray
    rms: float           # reprojection error, px; under ~1 px is a good calibration
    views: int           # photos used
    rejected: list[str]  # why the other photos were not used

    def save(self, path: Path) -> None:
        """Write the ``.npz`` whole or not at all (a game reads it with the profile)."""
        data = io.BytesIO()
        np.savez(data, K=self.K, dist=self.dist, rms=self.rms)
        write_whole(path, data.getvalue())


class LensError(ValueError):
    pass


def calibrate(images: Iterable[tuple[str, np.ndarray]]) -> LensResult:
    """``images``: (name, BGR image) pairs of the ChArUco sheet from different angles, read
    once, one at a time (a generator keeps one photo in memory)."""
    board = charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    objects, points, rejected = [], [], []
    size = None
    for name, img in images:
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        if size is not None and gray.shape[::-1] != size:
            rejected.append(f"{name}: a different image size than the first photo")
            continue
        corners, ids, _, _ = detector.detectBoard(gray)
        if ids is None or len(ids) < MIN_CORNERS:
            rejected.append(f"{name}: the sheet was not found (saw {0 if ids is None else len(ids)} corners)")
            continue
        obj, img_pts = board.matchImagePoints(corners, ids)
        objects.append(obj)
        points.append(img_pts)
        size = gray.shape[::-1]
    if len(objects) < MIN_VIEWS:
        raise LensError(f"only {len(objects)} usable photos of the sheet, {MIN_VIEWS} needed"
                        + (": " + "; ".join(rejected) if rejected else ""))
    rms, K, dist, _, _ = cv2.calibrateCamera(objects, points, size, None, None)
    return LensResult(K, dist, float(rms), len(objects), rejected)
