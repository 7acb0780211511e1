"""A synthetic image seen as the models see it, by its true homography.

Training data (the dam-height reader's and the drop counters'), the reader's own test
(``vision.reader_eval``) and the wrong slots' sheet (``vision.mistakes_sheet``) cut their
boxes from the view the pipeline reads at run time, but placed by the generator's homography
instead of the one registration finds: one definition, so that what a net learns from and
what it is judged on are cut alike.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .layout import Layout
from .paper_white import frame_paper
from .pose import camera_position
from .rectify import canonical_view
from .registration import process_detector


class TruthView(NamedTuple):
    camera: np.ndarray     # (x, y, height) canonical px (``vision.pose``)
    view: np.ndarray       # the colour-normalised canonical view (``vision.rectify.canonical_view``)


def truth_view(layout: Layout, frame: np.ndarray, truth: dict) -> TruthView:
    """The camera's place and the colour-normalised view of ``frame``, by ``truth``'s
    homography, its colour set by the markers' paper where the frame shows it."""
    H = np.asarray(truth["homography"], np.float64)
    view = canonical_view(frame, H, layout, frame_paper(frame, layout, process_detector()))
    return TruthView(camera_position(H, frame.shape), view)
