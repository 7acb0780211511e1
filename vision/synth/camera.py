"""A plausible overhead webcam: pose, pinhole projection and slight radial distortion.

World coordinates are the canonical board frame (x right, y down, in canonical px)
with z pointing *into* the table, so a point at height h above the board has
z = -h and the frame stays right-handed. The camera looks down at the board from
a random tilt, azimuth, in-image rotation and distance; its principal point is
shifted so the board lands anywhere in the picture.

Distortion is defined from distorted to ideal pixels,
``ideal = c + (d - c) * (1 + k * |d - c|^2 / f^2)``, which makes the image remap a
closed form; the inverse (for projecting points) is a short fixed-point iteration.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from vision.layout import load_layout


@dataclass
class Camera:
    """A pinhole camera with one radial distortion term. ``from_record`` rebuilds it from a
    ground truth's ``style.camera`` (for exact projection of points off the board plane)."""

    size: tuple[int, int]        # (width, height) of the image
    K: np.ndarray                # 3x3 intrinsics
    R: np.ndarray                # 3x3 world -> camera rotation
    t: np.ndarray                # (3,) world -> camera translation
    k1: float                    # radial distortion (see module doc)

    @classmethod
    def from_record(cls, size: tuple[int, int], record: dict) -> "Camera":
        return cls(tuple(size), np.array(record["K"]), np.array(record["R"]), np.array(record["t"]), record["k1"])

    @property
    def centre(self) -> np.ndarray:
        """Camera position in world coordinates."""
        return -self.R.T @ self.t

    def ideal(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points -> (N, 2) undistorted pixels."""
        cam = points @ self.R.T + self.t
        uv = cam @ self.K.T
        return uv[:, :2] / uv[:, 2:3]

    def distort(self, ideal: np.ndarray) -> np.ndarray:
        """Undistorted pixels -> pixels of the (distorted) output image."""
        c, f = self.K[:2, 2], self.K[0, 0]
        u = ideal - c
        d = u.copy()
        for _ in range(8):
            d = u / (1 + self.k1 * (d ** 2).sum(1, keepdims=True) / f ** 2)
        return d + c

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points -> (N, 2) output-image pixels."""
        return self.distort(self.ideal(points))

    def board_homography(self) -> np.ndarray:
        """Canonical board plane (z=0) -> undistorted image pixels."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return H / H[2, 2]

    def remap_grids(self) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps that turn the undistorted rendering into the output image."""
        w, h = self.size
        c, f = self.K[:2, 2], self.K[0, 0]
        xx, yy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        dx, dy = xx - c[0], yy - c[1]
        gain = 1 + self.k1 * (dx * dx + dy * dy) / f ** 2
        return (c[0] + dx * gain).astype(np.float32), (c[1] + dy * gain).astype(np.float32)

    def image_to_board(self, samples: int = 12) -> np.ndarray:
        """The homography that best maps output pixels -> canonical frame (exact without
        distortion; a least-squares fit over the board with it)."""
        lay = load_layout()
        gx, gy = np.meshgrid(np.linspace(0, lay.width, samples), np.linspace(0, lay.height, samples))
        board = np.stack([gx.ravel(), gy.ravel()], 1)
        img = self.project(np.column_stack([board, np.zeros(len(board))]))
        H, _ = cv2.findHomography(img.astype(np.float64), board.astype(np.float64), 0)
        return H / H[2, 2]


def look_at(eye: np.ndarray, target: np.ndarray, roll: float) -> tuple[np.ndarray, np.ndarray]:
    """Rotation and translation of a camera at ``eye`` looking at ``target``, rotated
    by ``roll`` radians about its optical axis."""
    fwd = target - eye
    fwd /= np.linalg.norm(fwd)
    ref = np.array([0.0, 1.0, 0.0])                     # board "down" as image "down" before roll
    down = ref - fwd * (ref @ fwd)
    down /= np.linalg.norm(down)
    right = np.cross(down, fwd)
    cr, sr = math.cos(roll), math.sin(roll)
    right, down = cr * right + sr * down, -sr * right + cr * down
    R = np.stack([right, down, fwd])
    return R, -R @ eye


def sample_camera(rng: np.random.Generator, size: tuple[int, int], extent: np.ndarray) -> tuple[Camera, dict]:
    """A random pose that shows all of ``extent`` ((N, 2) board points that must be in view:
    the board and its markers). Returns the camera and its parameters for the record."""
    w, h = size
    hfov = math.radians(rng.uniform(50, 80))
    f = w / 2 / math.tan(hfov / 2)
    tilt = math.radians(rng.uniform(0, 28))
    azimuth = rng.uniform(0, 2 * math.pi)
    # In-image rotation: usually the board's long side along the frame's long side (how a
    # webcam over a table is set up, and the board then fills the frame), sometimes across,
    # sometimes anything.
    u = rng.random()
    if u < 0.7:
        roll = math.pi / 2 * (1 + 2 * int(rng.integers(2))) + rng.normal(0, math.radians(10))
    elif u < 0.85:
        roll = math.pi * int(rng.integers(2)) + rng.normal(0, math.radians(10))
    else:
        roll = rng.uniform(0, 2 * math.pi)
    fill_frac = rng.uniform(0.72, 0.97)
    k1 = rng.uniform(-0.035, 0.035)
    target = extent.mean(0) + rng.normal(0, 30, 2)
    target3 = np.array([target[0], target[1], 0.0])
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    pts3 = np.column_stack([extent, np.zeros(len(extent))])
    dist = 2000.0
    for _ in range(4):     # perspective scale ~ 1/distance: a few rescales converge
        eye = target3 + dist * np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), -math.cos(tilt)])
        R, t = look_at(eye, target3, roll)
        cam = Camera(size, K.copy(), R, t, k1)
        uv = cam.ideal(pts3)
        span = uv.max(0) - uv.min(0)
        dist *= max(span[0] / (w * fill_frac), span[1] / (h * fill_frac))
    # shift the principal point so the board sits at a random place fully inside the frame
    lo, hi = uv.min(0), uv.max(0)
    slack = np.array([w, h]) - (hi - lo)
    offset = rng.uniform(0.1, 0.9, 2) * np.maximum(slack, 0) - lo
    cam.K[0, 2] += offset[0]
    cam.K[1, 2] += offset[1]
    record = {"hfov_deg": math.degrees(hfov), "tilt_deg": math.degrees(tilt), "azimuth_deg": math.degrees(azimuth),
              "roll_deg": math.degrees(roll), "distance": dist, "fill": fill_frac, "k1": k1,
              "K": cam.K.tolist(), "R": cam.R.tolist(), "t": cam.t.tolist()}
    return cam, record
