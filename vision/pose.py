"""Where the camera is, from the board homography alone.

Pieces stand up from the board, so in the rectified view their tops lean away
from the point right under the camera (the nadir), by ``height / (camera height -
height)`` of their distance from it. The point under the image centre is not the
nadir once the camera is tilted (at 15 degrees and 2 m, it is ~50 cm off), so the
camera's position is recovered from the homography: ``board -> image = K [r1 r2 t]``
up to scale. With K unknown, the principal point is taken at the image centre
(true of webcams to a few per cent) and the focal length is the one that makes
r1 and r2 orthonormal (Zhang's constraints). A camera looking straight down does
not fix the focal length; a typical webcam field of view is assumed then.
"""
from __future__ import annotations

import numpy as np

DEFAULT_HFOV_DEG = 65.0     # a typical webcam; used only when the view does not fix f
NO_POSE = np.array([0.0, 0.0, np.inf])


def focal_length(board_to_image: np.ndarray, size: tuple[int, int]) -> float:
    """Focal length (px) making the board axes orthogonal and equally long in camera space.

    With the principal point at the origin, K^-1 h_i = (h1i / f, h2i / f, h3i); each of the two
    constraints reads a / f^2 + b = 0, solved together in the least-squares sense for 1 / f^2.
    """
    w = size[0]
    A = _centred(board_to_image, size)
    (h11, h21, h31), (h12, h22, h32) = A[:, 0], A[:, 1]
    a = np.array([h11 * h12 + h21 * h22, h11 ** 2 + h21 ** 2 - h12 ** 2 - h22 ** 2])
    b = np.array([h31 * h32, h31 ** 2 - h32 ** 2])
    inv_f2 = -float(a @ b) / max(float(a @ a), 1e-30)
    default = w / 2 / np.tan(np.radians(DEFAULT_HFOV_DEG) / 2)
    if inv_f2 <= 0:
        return default
    f = inv_f2 ** -0.5
    # Outside ~25-125 degrees of field of view the estimate is noise (a near-straight-down view).
    return f if 0.25 * w < f < 2.5 * w else default


def camera_position(H: np.ndarray, frame_shape: tuple[int, ...], K: np.ndarray | None = None) -> np.ndarray:
    """(x, y, height) of the camera in canonical px; ``H`` maps frame px to the canonical board.

    (x, y) is the nadir. ``K`` (from a saved lens calibration) replaces the estimate.
    A degenerate homography (four clicked corners in a line) gives a camera infinitely
    high: no lean, rather than an error.
    """
    size = (frame_shape[1], frame_shape[0])
    try:
        board_to_image = np.linalg.inv(np.asarray(H, np.float64))
    except np.linalg.LinAlgError:
        return NO_POSE.copy()
    if K is None:
        f = focal_length(board_to_image, size)
        M = np.diag([1 / f, 1 / f, 1.0]) @ _centred(board_to_image, size)
    else:
        M = np.linalg.inv(np.asarray(K, np.float64)) @ board_to_image
    M = M * (2 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1])))
    if M[2, 2] < 0:            # the board is in front of the camera
        M = -M
    r1, r2, t = M[:, 0], M[:, 1], M[:, 2]
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    R = u @ vt                 # the nearest rotation
    centre = -R.T @ t
    pose = np.array([centre[0], centre[1], abs(centre[2])])
    return pose if np.isfinite(pose).all() else NO_POSE.copy()


def _centred(board_to_image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The homography with image coordinates moved to the image centre, columns scaled to ~1."""
    w, h = size
    A = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1.0]]) @ board_to_image
    return A / np.linalg.norm(A[:, 0])
