"""Camera shake: the direction a frame is smeared in, and a smear as a convolution kernel.

A shaken webcam (or a hand-held phone) smears the whole picture along one line. Image
gradients across that line survive and those along it are averaged away, so the smallest
eigenvector of the frame's structure tensor (the mean of g gᵀ over its pixels) points
along the motion. A marker smeared by 10 px neither decodes nor correlates with its sharp
picture (~0.75), yet matches the same picture smeared the same way (~0.97):
``vision.marker_search`` compares with smeared pictures too when the sharp ones fail.
The synthetic camera (``vision.synth.photo``) draws its motion blur with ``line_kernel``.

The length comes from the derivative along the motion: a box blur of length L turns it
into the difference of two copies of the sharp picture's L px apart, so its
autocorrelation along the motion is most negative at a lag of L (Yitzhaky and Kopeika's
blur identification). A smear is a vector in frame px: the motion's direction, the
blur's length.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

MIN_ANISOTROPY = 1.5    # below it a frame counts as unsmeared (sharp frames: median ~1.15)
MAX_LENGTH = 20         # px: the longest smear looked for

def line_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A box blur ``length`` px long (rounded up to odd, at least 3) along ``angle_deg``
    counter-clockwise from the image x axis (``cv2.getRotationMatrix2D``'s sense); sums to 1."""
    n = max(3, int(length) | 1)
    kernel = np.zeros((n, n), np.float32)
    kernel[n // 2, :] = 1 / n
    rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), angle_deg, 1.0)
    kernel = cv2.warpAffine(kernel, rot, (n, n))
    return kernel / max(float(kernel.sum()), 1e-6)


def smear_kernel(smear: np.ndarray) -> np.ndarray:
    """The kernel of a smear vector (x right, y down)."""
    dx, dy = float(smear[0]), float(smear[1])
    return line_kernel(math.hypot(dx, dy), math.degrees(math.atan2(-dy, dx)))


def smear_direction(gray: np.ndarray) -> tuple[np.ndarray, float]:
    """The unit vector along which ``gray`` varies least, and the ratio of the structure
    tensor's eigenvalues: ~1.0-1.6 for a sharp or evenly blurred board, 2 and more for a
    smear of 8+ px (synthetic frames; a board with strongly oriented print overlaps)."""
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)   # sensor noise has no direction
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    xy = float(np.mean(gx * gy))
    tensor = np.array([[float(np.mean(gx * gx)), xy], [xy, float(np.mean(gy * gy))]])
    values, vectors = np.linalg.eigh(tensor)            # ascending
    return vectors[:, 0], float(values[1] / max(values[0], 1e-9))


def smear_length(gray: np.ndarray, direction: np.ndarray) -> int:
    """The lag (px) at which the derivative along ``direction`` correlates most negatively
    with itself; measured on the middle of the frame, where shifted copies overlap."""
    g = gray.astype(np.float32)
    d = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1) * float(direction[0]) + cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1) * float(direction[1])
    h, w = d.shape
    inner = (slice(MAX_LENGTH + 1, h - MAX_LENGTH - 1), slice(MAX_LENGTH + 1, w - MAX_LENGTH - 1))
    d -= d[inner].mean()
    centre = d[inner]
    energy = float((centre * centre).mean()) or 1.0
    corr = []
    for lag in range(1, MAX_LENGTH + 1):
        shift = np.float32([[1, 0, -lag * float(direction[0])], [0, 1, -lag * float(direction[1])]])
        moved = cv2.warpAffine(d, shift, (w, h), flags=cv2.INTER_LINEAR)
        corr.append(float((centre * moved[inner]).mean()) / energy)
    return int(np.argmin(corr)) + 1


def frame_smear(gray: np.ndarray) -> np.ndarray | None:
    """The frame's smear vector, or None when its blur has no clear direction."""
    direction, anisotropy = smear_direction(gray)
    if anisotropy < MIN_ANISOTROPY:
        return None
    return direction * smear_length(gray, direction)
