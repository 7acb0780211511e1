"""The colour of the marker sheets' paper, as the camera sees it in this frame.

The board's own print cannot say what grey looks like: a board printed in strong
colours shifts its median away from grey, and a colour balance that trusts that median
tints every piece on it. The ArUco markers are black ink on white paper, a colour chart
every board shares. Their white cells, read where registration found each marker,
give the camera's white balance. A marker that does not look like black ink on even
white paper (a shadow or glare across it, a sheet printed on coloured paper) is left out.
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from .layout import Layout
from .registration import ARUCO_DICT, default_markers, locate_markers, make_detector

MODULE = 10            # px per marker module in the sampling grid
CORE = 3               # px each side of a module's centre that are read (the edges blur)
MIN_CONTRAST = 40.0    # grey levels between paper and ink, or the marker is not trusted
MIN_EVEN = 0.8         # the white cells' darkest tenth must reach this share of their median
MAX_TINT = 2.0         # brightest / darkest channel of the paper: beyond, a coloured sheet, not white


@lru_cache(maxsize=64)
def _masks(marker_id: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel masks of the sampling grid: the central parts of the marker's white modules
    (the paper) and of its black ones (the ink, its one-module border included)."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    white = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1) > 127
    c = np.arange(white.shape[0] * MODULE)
    core = np.abs(c % MODULE - MODULE / 2 + 0.5) <= CORE
    inner = core[:, None] & core[None, :]
    cells = np.repeat(np.repeat(white, MODULE, 0), MODULE, 1)
    return inner & cells, inner & ~cells


def marker_levels(frame: np.ndarray, marker_id: int, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(paper, ink) BGR medians of one marker whose frame ``corners`` (ArUco order) are
    given, or None when it does not look like black ink on even white paper."""
    paper_mask, ink_mask = _masks(marker_id)
    n = paper_mask.shape[0]
    square = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32)
    M = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), square)
    patch = cv2.warpPerspective(frame, M, (n, n), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    white = patch[paper_mask]
    paper, ink = np.median(white, axis=0), np.median(patch[ink_mask], axis=0)
    grey = white.astype(np.float32).mean(1)
    if (paper.mean() - ink.mean() < MIN_CONTRAST or np.percentile(grey, 10) < MIN_EVEN * np.median(grey)
            or paper.max() > MAX_TINT * max(paper.min(), 1.0)):
        return None
    return paper, ink


def paper_white(frame: np.ndarray, markers: dict[int, np.ndarray]) -> np.ndarray | None:
    """BGR of the paper: the median over the markers (frame corners by id) that pass the
    check, or None when none does (no markers, or none readable)."""
    papers = [lv[0] for i, c in markers.items() if (lv := marker_levels(frame, i, c)) is not None]
    return np.median(papers, axis=0) if papers else None


def frame_paper(frame: np.ndarray, layout: Layout, detector: cv2.aruco.ArucoDetector | None = None) -> np.ndarray | None:
    """The paper white of a frame on its own: the layout's markers are searched for as
    registration searches them. For pictures read once (training, the wizard's check)."""
    geometry = default_markers(layout.width, layout.height)
    found = locate_markers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), detector or make_detector(), geometry)
    return paper_white(frame, found)
