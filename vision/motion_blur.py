"""Camera shake: how a frame is smeared, and the frame with the smear taken out.

A shaken webcam (or a hand-held phone) smears the whole picture along one line: 10 px
over markers 22-31 px wide leaves ArUco nothing to decode, and the markers' pictures
correlate with their places little better than with other squares. Knowing the smear,
a Wiener filter undoes most of it, and ArUco decodes the markers of the sharpened frame
(``vision.registration`` looks again there when the first look finds too few).

Direction: image gradients across the motion survive and those along it are averaged
away, so the smallest eigenvector of the frame's structure tensor (the mean of g gᵀ over
its pixels) points along the motion. Length: a box blur of length L turns the derivative
along the motion into the difference of two copies of the sharp picture's, L px apart,
so its autocorrelation along the motion dips below zero to a minimum at a lag of L
(Yitzhaky and Kopeika's blur identification). A smear is a vector in frame px: the
motion's direction, the blur's length. Real shake can follow a curve; a straight smear
is the usual first approximation and undoes enough of it for the markers. The synthetic
camera (``lab.synth.photo``) draws its motion blur with ``line_kernel`` too.

A table of strongly oriented print (stripes, wood grain) pulls the tensor's eigenvector
along its own lines. Where the tensor's smear leaves too few markers, the frame's cepstrum
(the inverse transform of its log spectrum) gives others (``cepstrum_smears``): a box
blur's spectrum has zeros spaced 1/L apart across the motion, and they show as a deep dip
of the cepstrum at the smear vector itself, whatever the print. Usually the deepest; but
JPEG's block grid leaves dips too, and beside the grid's own places one can be as deep as
the smear's, so the next dip is tried as well.
"""
from __future__ import annotations

import math
from typing import Iterator

import cv2
import numpy as np

MIN_ANISOTROPY = 1.5    # below it a frame counts as unsmeared (sharp frames: median ~1.15)
MAX_LENGTH = 20         # px: the longest smear looked for
CEPSTRUM_DIPS = 2       # the cepstrum's deepest dips tried as smears, deepest first
# Noise-to-signal power ratio of the Wiener filter. On the shaken held-out frames ArUco
# decodes about as many markers of frames sharpened with 0.003, 0.01 or 0.03; above 0.1
# too little of the smear is undone, below 0.003 the noise is amplified.
NOISE_TO_SIGNAL = 0.01


def line_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A box blur ``length`` px long (whole px, an even count made one longer, at least 3)
    along ``angle_deg`` counter-clockwise from the image x axis (``cv2.getRotationMatrix2D``'s
    sense); sums to 1."""
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
    """The lag (px) of the first minimum below zero of the autocorrelation of the derivative
    along ``direction``; measured on the middle of the frame, where shifted copies overlap."""
    g = gray.astype(np.float32)
    dx, dy = float(direction[0]), float(direction[1])
    d = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1) * dx + cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1) * dy
    h, w = d.shape
    inner = (slice(MAX_LENGTH + 1, h - MAX_LENGTH - 1), slice(MAX_LENGTH + 1, w - MAX_LENGTH - 1))
    d -= d[inner].mean()
    centre = d[inner]
    energy = float((centre * centre).mean()) or 1.0
    corr = []
    for lag in range(1, MAX_LENGTH + 1):
        shift = np.float32([[1, 0, -lag * dx], [0, 1, -lag * dy]])
        moved = cv2.warpAffine(d, shift, (w, h), flags=cv2.INTER_LINEAR)
        corr.append(float((centre * moved[inner]).mean()) / energy)
    # The first dip below zero: board print with large flat patches adds a second, broader
    # negative lobe at the patches' size.
    for i in range(len(corr) - 1):
        if corr[i] < 0 and corr[i] <= corr[i + 1]:
            return i + 1
    return int(np.argmin(corr)) + 1


def frame_smear(gray: np.ndarray) -> np.ndarray | None:
    """The frame's smear vector, or None when its blur has no clear direction, or the frame
    is too small to measure one (the lags need a middle to slide over)."""
    if min(gray.shape[:2]) <= 4 * MAX_LENGTH:
        return None
    direction, anisotropy = smear_direction(gray)
    if anisotropy < MIN_ANISOTROPY:
        return None
    return direction * smear_length(gray, direction)


def cepstrum_smears(gray: np.ndarray, dips: int = CEPSTRUM_DIPS) -> list[np.ndarray]:
    """The smear vectors at the frame's ``dips`` deepest cepstrum dips (local minima 3 to
    ``MAX_LENGTH`` px from its origin), deepest first, each a smear of its own (the cepstrum
    of a real frame is symmetric: a dip's mirror through the origin is the same smear); none
    for a frame too small to measure. JPEG's 8 px blocks leave dips of their own at multiples
    of 8 px along either axis: those places are skipped (a smear just that long and straight
    along an axis is then found a pixel off)."""
    h, w = gray.shape
    if min(h, w) <= 4 * MAX_LENGTH:
        return []
    g = gray.astype(np.float32)
    window = np.outer(np.hanning(h), np.hanning(w)).astype(np.float32)   # no edges of its own
    spectrum = np.abs(np.fft.rfft2((g - g.mean()) * window))
    cepstrum = np.fft.irfft2(np.log(spectrum + 1e-3), s=(h, w))
    lags = np.arange(-MAX_LENGTH, MAX_LENGTH + 1)
    yy, xx = np.meshgrid(lags, lags, indexing="ij")
    near = cepstrum[np.ix_(lags % h, lags % w)]                  # lags around the origin
    block = ((yy == 0) & (xx % 8 == 0)) | ((xx == 0) & (yy % 8 == 0))
    near[(np.hypot(xx, yy) < 3) | (np.hypot(xx, yy) > MAX_LENGTH) | block] = np.inf
    ring = np.pad(near, 1, constant_values=np.inf)
    n = len(lags)
    lowest = np.all([near <= ring[1 + dy:1 + dy + n, 1 + dx:1 + dx + n]
                     for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx], axis=0) & np.isfinite(near)
    smears: list[np.ndarray] = []
    for i in np.argsort(np.where(lowest, near, np.inf), axis=None)[:int(lowest.sum())]:
        smear = np.array([xx.flat[i], yy.flat[i]], np.float64)
        if not any(_same_smear(smear, other) for other in smears):
            smears.append(smear)
        if len(smears) == dips:
            break
    return smears


def frame_smears(gray: np.ndarray) -> Iterator[np.ndarray]:
    """The smears to undo, likeliest first, for a frame whose first look found too few
    markers: none when its blur has no clear direction (``frame_smear``); else the structure
    tensor's smear, then the cepstrum's dips that differ from it (computed only if asked for)."""
    first = frame_smear(gray)
    if first is None:
        return
    yield first
    for smear in cepstrum_smears(gray):
        if not _same_smear(first, smear):
            yield smear


def _same_smear(a: np.ndarray, b: np.ndarray) -> bool:
    """A smear and its reverse are one blur."""
    return min(float(np.hypot(*(a - b))), float(np.hypot(*(a + b)))) < 1.5


def deblur(gray: np.ndarray, smear: np.ndarray, noise_to_signal: float = NOISE_TO_SIGNAL) -> np.ndarray:
    """``gray`` (uint8) with the ``smear`` undone by a Wiener filter, uint8 (~40 ms at 1280x720).
    The filter treats the frame as periodic: the borders ring a little, the middle is clean."""
    h, w = gray.shape
    kernel = smear_kernel(smear)
    kh, kw = kernel.shape
    psf = np.zeros((h, w), np.float32)
    psf[:kh, :kw] = kernel
    psf = np.roll(psf, (-(kh // 2), -(kw // 2)), axis=(0, 1))     # centred on pixel (0, 0)
    K = np.fft.rfft2(psf)
    wiener = np.conj(K) / (np.abs(K) ** 2 + noise_to_signal)
    sharp = np.fft.irfft2(np.fft.rfft2(gray.astype(np.float32)) * wiener, s=(h, w))
    return np.clip(sharp, 0, 255).astype(np.uint8)
