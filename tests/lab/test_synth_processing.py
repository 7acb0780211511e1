"""A webcam's own processing between the sensor and JPEG (``lab.synth.processing``)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from automa_vision.cli import main as cli_main
from lab.synth.pairs import table_of
from lab.synth.processing import NONE, Processing, processing
from lab.synth.render import Options, render, set_table

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


def _step(bright: int = 200, dark: int = 60) -> np.ndarray:
    """A 40x40 BGR picture: a dark left half, a bright right half, a colour in each."""
    img = np.empty((40, 40, 3), np.uint8)
    img[:, :20] = (dark, dark // 2, dark)
    img[:, 20:] = (bright // 2, bright, bright)
    return img


def _spread(img: np.ndarray) -> float:
    """The noise on the flat dark half: each channel's spread, averaged."""
    return float(img[:, 3:16].reshape(-1, 3).std(0).mean())


def test_none_leaves_the_picture_and_the_truth_as_they_were():
    img = _step()
    assert NONE.apply(img) is img and processing("none", np.random.default_rng(0), 1280) is NONE
    assert "processing" not in render(11).truth["style"]
    with pytest.raises(ValueError, match="processing"):
        processing("vivid", np.random.default_rng(0), 1280)


def test_each_step_does_what_the_webcam_slider_says():
    img = _step()
    grey = Processing("webcam", saturation=0.0).apply(img).astype(int)
    assert np.abs(grey - grey[..., :1]).max() <= 1                          # no colour left
    vivid = Processing("webcam", saturation=1.5).apply(img).astype(int)
    assert np.ptp(vivid[5, 30]) > np.ptp(img[5, 30].astype(int))            # farther from its grey
    flat = Processing("webcam", contrast=1.3).apply(img).astype(int)
    assert flat[5, 5, 0] < 60 and flat[5, 30, 1] > 200                      # blacks darker, whites brighter
    sharp = Processing("webcam", sharpen=2.0, sharpen_sigma=1.0).apply(img).astype(int)
    assert sharp[5, 20, 1] > 200 and sharp[5, 19, 1] < 30                    # a halo each side of the edge
    assert (sharp[5, 5] == img[5, 5]).all() and (sharp[5, 35] == img[5, 35]).all()   # flat areas as they were
    rng = np.random.default_rng(1)
    noisy = np.clip(img + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)
    smooth = Processing("webcam", denoise=30.0).apply(noisy).astype(int)
    assert _spread(smooth) < 0.6 * _spread(noisy.astype(int))                # the noise goes
    assert smooth[:, 25:, 1].mean() - smooth[:, :15, 1].mean() > 160         # the edge stays


def test_a_webcam_processes_the_same_scene_and_a_second_picture_of_it_too():
    plain, chip = set_table(930_005, Options(placement="turn")), set_table(930_005, Options(placement="turn",
                                                                                              processing="webcam"))
    assert plain.state.to_dict() == chip.state.to_dict() and plain.processing is NONE
    p = chip.processing
    assert p.kind == "webcam" and 0.6 <= p.saturation <= 1.5 and 0.75 <= p.contrast <= 1.35 and 0 <= p.sharpen <= 2.5
    a, b = render(930_005, Options(placement="turn")), render(930_005, Options(placement="turn", processing="webcam"))
    assert a.truth["slots"] == b.truth["slots"] and a.truth["style"]["photo"] == b.truth["style"]["photo"]
    assert b.truth["style"]["processing"] == p.record()
    fa, fb = (cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_COLOR) for s in (a, b))
    assert np.abs(fa.astype(int) - fb.astype(int)).mean() > 1.0
    again = table_of(b.truth, b.jpeg)               # a turn earlier's picture comes through the same chip
    assert again is not None and again.processing == p


def test_cli_processes_the_pictures_as_asked(tmp_path):
    assert cli_main(["synth", "--n", "1", "--out", str(tmp_path), "--seed", "11", "--processing", "webcam"]) == 0
    assert (tmp_path / "0000.jpg").read_bytes() == render(11, Options(processing="webcam")).jpeg
