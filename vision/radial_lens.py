"""A webcam's radial lens distortion, fitted from the board's own markers.

A wide-angle webcam bends straight lines: its barrel distortion moves a point near the frame's
corner by several percent of its distance from the centre. One homography cannot follow
that; fitted to the four markers at the board's corners it leaves the middle of the board
tens of pixels off, and the slot crops miss their pieces (a wide lens read without a fix
doubled the slot error, ``docs/benchmarks.md``). A lens calibration from photos of the
ChArUco sheet removes it (``calibration/lens.py``), but few players will take those photos.

The markers hold enough to do without: their sixteen corners lie where the board's plane
says, so the one distortion that lets a homography meet all sixteen is the lens's. The
model is the one-parameter division model (Fitzgibbon, CVPR 2001), centred on the frame's
centre, where a webcam's principal point lies::

    undistorted = c + (p - c) * (1 + kappa * |p - c|^2 / R^2)

``R`` is half the frame's diagonal, so ``kappa`` does not depend on the frame size; a barrel
lens has ``kappa > 0``. A fit that the markers' corners do not clearly call for (``F_CRIT``)
is taken for no distortion: one homography, as the models were trained. On held-out frames of wide-angle lenses the fit finds the generator's
distortion within ~0.01 of k (median; ``docs/benchmarks.md``, "A wide-angle webcam").
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

# kappa is searched over this range: the training images' lenses reach about +-0.04, a
# wide-angle webcam's barrel 0.05-0.3; a minimum on the range's edge is no fit.
KAPPA_RANGE = (-0.3, 0.8)
COARSE_STEP = 0.05
MIN_CORNERS = 16          # four markers: three leave the distortion too loosely tied
# A lens is taken out only where the markers show one: where it lowers the homography's
# squared residual more than an F test at the 1 % level allows for one more parameter
# (F(1, 23) = 7.9 for sixteen corners). Blurred corners also leave residuals a distortion
# can soak up; always fitting read the hard held-out sets worse (docs/benchmarks.md).
F_CRIT = 7.9


@dataclass(frozen=True)
class RadialLens:
    """The division model above, for frames of ``size`` (w, h)."""
    size: tuple[int, int]
    kappa: float

    @property
    def centre(self) -> np.ndarray:
        return (np.asarray(self.size, np.float64) - 1) / 2

    @property
    def radius(self) -> float:
        return float(np.hypot(*self.size)) / 2

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """(N, 2) frame px -> where a distortion-free lens would have put them."""
        d = np.asarray(points, np.float64).reshape(-1, 2) - self.centre
        return self.centre + d * (1 + self.kappa * (d ** 2).sum(1, keepdims=True) / self.radius ** 2)

    def distort(self, points: np.ndarray) -> np.ndarray:
        """The inverse of ``undistort``: (N, 2) distortion-free px -> frame px."""
        u = np.asarray(points, np.float64).reshape(-1, 2) - self.centre
        r_u = np.sqrt((u ** 2).sum(1))
        r_d = self._radii(float(r_u.max(initial=0.0)))
        scale = np.interp(r_u, r_d[1], r_d[0]) / np.maximum(r_u, 1e-9)
        return self.centre + u * np.where(r_u > 1e-9, scale, 1.0)[:, None]

    def _radii(self, reach: float) -> tuple[np.ndarray, np.ndarray]:
        """(frame radii, their distortion-free radii) out to where the latter pass ``reach``,
        a table to invert the model by. A pincushion lens (kappa < 0) images no point past
        the radius where the model turns back; the table stops there, and ``distort`` puts
        such points at its end, outside the frame."""
        out = max(reach, self.radius) * 1.5
        r = np.linspace(0.0, out, 4096)
        u = r * (1 + self.kappa * r ** 2 / self.radius ** 2)
        turns = np.flatnonzero(np.diff(u) <= 0)
        end = len(r) if turns.size == 0 else int(turns[0]) + 1
        return r[:end], u[:end]


def fit(frame_points: np.ndarray, board_points: np.ndarray, size: tuple[int, int]) -> RadialLens | None:
    """The lens that lets one homography carry ``frame_points`` (N, 2) onto ``board_points``
    best (least squares over every point); a lens of kappa 0 where that is not clearly better
    than none (``F_CRIT``); None with fewer than ``MIN_CORNERS`` points or when the best fit
    lies on the edge of ``KAPPA_RANGE`` (markers misread, not a lens)."""
    src = np.asarray(frame_points, np.float64).reshape(-1, 2)
    dst = np.asarray(board_points, np.float64).reshape(-1, 2)
    if len(src) < MIN_CORNERS:
        return None

    def cost(kappa: float) -> float:
        u = RadialLens(size, kappa).undistort(src)
        H, _ = cv2.findHomography(u, dst, 0)
        if H is None:
            return float("inf")
        return float(((cv2.perspectiveTransform(u[None], H)[0] - dst) ** 2).sum())

    grid = np.arange(KAPPA_RANGE[0], KAPPA_RANGE[1] + 1e-9, COARSE_STEP)
    costs = [cost(k) for k in grid]
    best = int(np.argmin(costs))
    if best in (0, len(grid) - 1) or not np.isfinite(costs[best]):
        return None
    # golden-section search in the bracket around the coarse minimum, to ~1e-4
    lo, hi = grid[best - 1], grid[best + 1]
    g = (np.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    ca, cb = cost(a), cost(b)
    for _ in range(14):
        if ca < cb:
            hi, b, cb = b, a, ca
            a = hi - g * (hi - lo)
            ca = cost(a)
        else:
            lo, a, ca = a, b, cb
            b = lo + g * (hi - lo)
            cb = cost(b)
    kappa = float((lo + hi) / 2)
    best_cost, plain = cost(kappa), cost(0.0)
    dof = 2 * len(src) - 9              # a homography's 8 parameters and kappa
    significant = plain - best_cost > F_CRIT * best_cost / dof
    return RadialLens(tuple(int(v) for v in size), kappa if significant else 0.0)


def to_frame(H: np.ndarray, lens: RadialLens | None, board_points: np.ndarray) -> np.ndarray:
    """(N, 2) canonical board px -> frame px, through the homography ``H`` (frame -> board,
    of the distortion-free frame when there is a ``lens``) and the lens."""
    pts = cv2.perspectiveTransform(np.asarray(board_points, np.float64).reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2)
    return pts if lens is None else lens.distort(pts)


def frame_outline(H: np.ndarray, lens: RadialLens | None, x: float, y: float, w: float, h: float,
                  steps: int = 1) -> np.ndarray:
    """A canonical-frame rectangle as a (1, 4 * steps, 2) int32 polygon in the frame, for
    cv2.polylines; ``steps`` points per edge follow a lens's bend along a long one."""
    t = np.arange(steps) / steps
    corners = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], np.float64)
    edges = np.concatenate([a + t[:, None] * (b - a) for a, b in zip(corners, np.roll(corners, -1, axis=0))])
    return to_frame(H, lens, edges).astype(np.int32)[None]


def to_board(H: np.ndarray, lens: RadialLens | None, frame_points: np.ndarray) -> np.ndarray:
    """(N, 2) frame px -> canonical board px (the inverse of ``to_frame``)."""
    pts = np.asarray(frame_points, np.float64).reshape(-1, 2)
    pts = pts if lens is None else lens.undistort(pts)
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), H).reshape(-1, 2)


@functools.lru_cache(maxsize=4)
def _view_maps(H_bytes: bytes, lens: RadialLens, view_size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    w, h = view_size
    H = np.frombuffer(H_bytes, np.float64).reshape(3, 3)
    xx, yy = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    view = np.stack([xx.ravel(), yy.ravel()], 1)
    frame = lens.distort(cv2.perspectiveTransform(view.reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2))
    return cv2.convertMaps(frame[:, 0].reshape(h, w).astype(np.float32), frame[:, 1].reshape(h, w).astype(np.float32),
                           cv2.CV_16SC2)


def view_maps(H: np.ndarray, lens: RadialLens, view_size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap maps that warp a frame to the view of ``view_size`` (w, h) by ``H`` (frame ->
    view, of the distortion-free frame) through the lens: made once for a registration and
    kept while it is reused (a board that has not moved)."""
    return _view_maps(np.ascontiguousarray(H, np.float64).tobytes(), lens, tuple(view_size))
