"""A plausible overhead webcam: pose, pinhole projection and slight radial distortion.

World coordinates are the canonical board frame (x right, y down, in canonical px)
with z pointing *into* the table, so a point at height h above the board has
z = -h and the frame stays right-handed. The camera looks down at the board from
a random tilt, azimuth, in-image rotation and distance, and the board lands anywhere
in the picture. Two ways to put it there (``placement``): ``shift`` moves the principal
point (the training images so far); ``turn`` turns the camera about its own centre, as a
person aiming a webcam does, and keeps the principal point within 2 % of the image centre,
where a real webcam has it. A homography cannot tell a shifted principal point from a tilt,
so only ``turn`` frames let ``vision.pose`` find where the camera is.

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

    def remap_grids(self, pad: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps that turn the undistorted rendering into the output image; ``pad``:
        the rendering has that many px more on every side (``padded``)."""
        w, h = self.size
        xx, yy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        ix, iy = self._ideal_px(xx, yy)
        return (ix + pad).astype(np.float32), (iy + pad).astype(np.float32)

    def _ideal_px(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Output-image px -> undistorted px (the module doc's closed form)."""
        c, f = self.K[:2, 2], self.K[0, 0]
        dx, dy = x - c[0], y - c[1]
        gain = 1 + self.k1 * (dx * dx + dy * dy) / f ** 2
        return c[0] + dx * gain, c[1] + dy * gain

    def overshoot(self) -> int:
        """How many px beyond the undistorted image the output image's pixels reach: a barrel
        lens sees more than the pinhole picture of the same size (none for a pincushion one)."""
        w, h = self.size
        ix, iy = self._ideal_px(np.array([0.0, w - 1, w - 1, 0.0]), np.array([0.0, 0.0, h - 1, h - 1]))
        beyond = np.array([-ix.min(), -iy.min(), ix.max() - (w - 1), iy.max() - (h - 1)])
        return int(math.ceil(max(0.0, float(beyond.max())))) + 2

    def padded(self, pad: int) -> "Camera":
        """The same camera drawing on an undistorted picture ``pad`` px larger on every side."""
        K = self.K.copy()
        K[:2, 2] += pad
        return Camera((self.size[0] + 2 * pad, self.size[1] + 2 * pad), K, self.R, self.t, self.k1)

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


PLACEMENTS = ("shift", "turn")


def _turned(cam: Camera, aim: np.ndarray) -> Camera:
    """``cam`` turned about its own centre so that what it saw at pixel ``aim`` lies at the
    principal point: the picture moves by (principal point - aim), give or take perspective."""
    d = np.linalg.solve(cam.K, np.array([aim[0], aim[1], 1.0]))
    d /= np.linalg.norm(d)
    z = np.array([0.0, 0.0, 1.0])
    axis = np.cross(d, z)
    angle = math.atan2(np.linalg.norm(axis), d @ z)
    Q, _ = cv2.Rodrigues(axis / max(np.linalg.norm(axis), 1e-12) * angle)
    R = Q @ cam.R
    return Camera(cam.size, cam.K, R, -R @ cam.centre, cam.k1)


def _stepped_back(cam: Camera, pts3: np.ndarray, factor: float) -> Camera:
    """``cam`` moved back along its optical axis so that ``pts3`` look ``factor`` times smaller."""
    depth = float((pts3 @ cam.R.T + cam.t)[:, 2].mean())
    centre = cam.centre - cam.R[2] * depth * (factor - 1)
    return Camera(cam.size, cam.K, cam.R, -cam.R @ centre, cam.k1)


def _place(cam: Camera, pts3: np.ndarray, corner: np.ndarray, placement: str) -> Camera:
    """Move the picture of ``pts3`` so that its bounding box's top-left corner lies at pixel
    ``corner``, by the ``placement`` (see the module doc)."""
    uv = cam.ideal(pts3)
    if placement == "shift":
        K = cam.K.copy()
        K[:2, 2] += corner - uv.min(0)
        return Camera(cam.size, K, cam.R, cam.t, cam.k1)
    aim = cam.K[:2, 2] - (corner - uv.min(0))
    frame, margin = np.array(cam.size, float), 0.01 * np.array(cam.size, float)
    turned = cam
    for _ in range(6):       # a turn also changes the picture's size a little: correct and retry
        turned = _turned(cam, aim)
        uv = turned.ideal(pts3)
        goal = np.clip(corner, margin, np.maximum(frame - margin - (uv.max(0) - uv.min(0)), margin))
        aim += uv.min(0) - goal
    return turned


def sample_camera(rng: np.random.Generator, size: tuple[int, int], extent: np.ndarray,
                  placement: str = "shift") -> tuple[Camera, dict]:
    """A random pose that shows all of ``extent`` ((N, 2) board points that must be in view:
    the board and its markers), the board placed in the frame by ``placement`` (see the module
    doc). Returns the camera and its parameters for the record."""
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be one of {', '.join(PLACEMENTS)}")
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
    # move the board to a random place fully inside the frame
    lo, hi = uv.min(0), uv.max(0)
    slack = np.array([w, h]) - (hi - lo)
    corner = rng.uniform(0.1, 0.9, 2) * np.maximum(slack, 0)
    if placement == "turn":      # a real lens's principal point is near, not at, the centre
        cam.K[:2, 2] += rng.uniform(-0.02, 0.02, 2) * np.array([w, h])
    cam = _place(cam, pts3, corner, placement)
    for _ in range(3):      # turned off-centre the board can look larger than the frame: step back
        uv = cam.ideal(pts3)
        over = float(np.max((uv.max(0) - uv.min(0)) / (0.98 * np.array([w, h]))))
        if over <= 1:
            break
        cam = _place(_stepped_back(cam, pts3, over * 1.01), pts3, corner, placement)
    # tilt and azimuth are those of the aim at the board before a turn; R holds the final pose
    record = {"hfov_deg": math.degrees(hfov), "tilt_deg": math.degrees(tilt), "azimuth_deg": math.degrees(azimuth),
              "roll_deg": math.degrees(roll), "distance": dist, "fill": fill_frac, "k1": k1, "placement": placement,
              "K": cam.K.tolist(), "R": cam.R.tolist(), "t": cam.t.tolist()}
    return cam, record
