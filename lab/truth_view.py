"""A synthetic image seen as the models see it, by its true homography.

Training data (the dam-height reader's and the drop counters'), the reader's own test
(``lab.reader_eval``) and the wrong slots' sheet (``lab.mistakes_sheet``) cut their
boxes from the view the pipeline reads at run time, but placed by the generator's homography
instead of the one registration finds: one definition, so that what a net learns from and
what it is judged on are cut alike. ``truth_dams`` cuts the dam-height reader's inputs so.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vision.barrage.dam_heights import HEIGHTS, aligned_crop
from vision.layout import Layout
from vision.paper_white import frame_paper
from vision.pose import camera_position
from vision.rectify import canonical_view
from vision.registration import process_detector


class TruthView(NamedTuple):
    camera: np.ndarray     # (x, y, height) canonical px (``vision.pose``)
    view: np.ndarray       # the colour-normalised canonical view (``vision.rectify.canonical_view``)


def truth_view(layout: Layout, frame: np.ndarray, truth: dict) -> TruthView:
    """The camera's place and the colour-normalised view of ``frame``, by ``truth``'s
    homography, its colour set by the markers' paper where the frame shows it."""
    H = np.asarray(truth["homography"], np.float64)
    view = canonical_view(frame, H, layout, frame_paper(frame, layout, process_detector()))
    return TruthView(camera_position(H, frame.shape), view)


def standing_dams(truth: dict) -> list[tuple[dict, int]]:
    """A synthetic image's visible standing dams: each one's slot truth and its height (an
    index into HEIGHTS)."""
    return [(s, HEIGHTS.index(s["piece"])) for s in truth["slots"]
            if s["kind"] == "dam" and not s.get("occluded") and s["piece"] in HEIGHTS]


class FrameDams(NamedTuple):
    """One synthetic image's visible standing dams, as the reader is trained on them."""
    crops: list[np.ndarray]      # (SIZE, SIZE, 3) uint8 each, ``aligned_crop``
    leans: list[float]           # lean ratios
    heights: list[int]           # index into HEIGHTS
    roles: list[int]             # 0 for a company's dam, 1 + height for a neutral one (ROLES)


def truth_dams(layout: Layout, n: int, frame: np.ndarray, truth: dict) -> FrameDams:
    """The visible standing dams of a synthetic image (``lab.evaluate.map_samples`` work),
    cut with its true homography as the pipeline cuts them with the one it finds: the
    reader's training data (``lab/training/train_heights.py``) and its test (``lab.reader_eval``)."""
    camera, view = truth_view(layout, frame, truth)
    out = FrameDams([], [], [], [])
    for s, height in standing_dams(truth):
        crop, lean = aligned_crop(view, layout.slot(s["id"]).centre, camera)
        for part, value in zip(out, (crop, lean, height, 1 + height if s["owner"] == "neutral" else 0)):
            part.append(value)
    return out
