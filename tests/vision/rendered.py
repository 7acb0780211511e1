"""Frames rendered by the synthetic generator for the tests, made once per test run."""
from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from lab.synth.render import Options, Sample, render

WIDE = Options(lens="wide", placement="turn", photo="clean", occlusion=0.0)


@cache
def wide_sample(seed: int) -> Sample:
    """A wide-angle webcam's picture of the board, as the generator writes it (JPEG and truth)."""
    return render(seed, WIDE)


def wide_frame(seed: int) -> tuple[np.ndarray, dict]:
    """(BGR frame, ground truth) of ``wide_sample``."""
    sample = wide_sample(seed)
    frame = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)
    return frame, sample.truth
