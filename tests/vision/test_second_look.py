"""The second look: the boxes the slot model is unsure of, read once more from their crops
mirrored, each head the mean of both looks."""
import numpy as np
import pytest

from vision.model import Surety, run, second_look
from vision.pipeline import Pipeline

from .drawn import LAYOUT, board_canvas, camera_view
from .heads import RecordingSession, logits

INDEX = LAYOUT.box_index()
EVERY = np.arange(len(LAYOUT.boxes))


def test_surety_is_the_chance_of_the_likeliest_reading_or_drop_count():
    raw = logits({"4B": ({"conduit": 0.7, "empty": 0.3}, {"usa": 0.5, "italy": 0.5}),
                  "P5_0": ({"powerhouse": 0.95, "empty": 0.05}, {"germany": 1.0})},
                 drops={"A": {1: 0.6, 2: 0.4}})
    surety = Surety(EVERY, tuple(LAYOUT.kinds))
    top = surety(raw)
    assert top[INDEX["4B"]] == pytest.approx(0.35, abs=1e-4)      # Usa's conduit: 0.7 x 0.5
    assert top[INDEX["P5_0"]] == pytest.approx(0.95, abs=1e-4)
    assert top[INDEX["A"]] == pytest.approx(0.6, abs=1e-4)        # a headstream: its drop count
    plain = np.setdiff1d(EVERY[~surety.counted], [INDEX["4B"], INDEX["P5_0"]])
    assert top[plain].min() > 0.999                                # plain empty boxes
    assert top[EVERY[surety.counted]].min() == pytest.approx(1 / 8)   # even drop counts elsewhere


def test_the_rows_read_again_average_both_looks_and_the_rest_stay():
    raw = logits({"4B": ({"conduit": 0.7, "empty": 0.3}, {"usa": 1.0})})
    inputs = np.random.default_rng(0).random((len(EVERY), 6, 48, 48), dtype=np.float32)
    session = RecordingSession({"piece": np.arange(6.0), "owner": np.zeros(7), "drops": np.ones(8), "occluded": [2.0]})
    rows = np.array([INDEX["4B"], INDEX["A"]])
    out = second_look(session, inputs, raw, rows)
    assert np.array_equal(session.fed, inputs[rows][..., ::-1])     # those crops and contexts, mirrored
    for head in raw:
        assert np.allclose(out[head][rows], (raw[head][rows] + session.out[head]) / 2)
        others = np.setdiff1d(EVERY, rows)
        assert np.array_equal(out[head][others], raw[head][others])
    assert raw["occluded"][INDEX["4B"], 0] == -8.0, "the first look is not changed"


def test_a_frame_read_surely_costs_no_second_run():
    raw = logits({})
    session = RecordingSession({"piece": np.zeros(6), "owner": np.zeros(7), "drops": np.zeros(8), "occluded": [0.0]})
    assert second_look(session, np.zeros((len(EVERY), 6, 48, 48), np.float32), raw, np.array([], int)) is raw
    assert session.fed is None


def test_the_pipeline_reads_its_unsure_boxes_again_mirrored(monkeypatch):
    """Every frame: the slot model reads the frame's crops, then the rows it is unsure of
    mirrored; with ``second_look`` None it reads each frame once."""
    import vision.model as vm
    import vision.pipeline as vp

    pipeline = Pipeline.load(heights=None, counters={"headstream": None, "lake": None}, specialist=None)
    pipeline.read_mirrored = False
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    first, again = [], []
    monkeypatch.setattr(vp, "run", lambda session, inputs: first.append(inputs) or run(session, inputs))
    monkeypatch.setattr(vm, "run", lambda session, inputs: again.append(inputs) or run(session, inputs))
    pipeline.second_look = 2.0                      # every box counts as unsure
    pipeline.read_frame(frame)
    assert len(first) == len(again) == 1
    assert np.array_equal(again[0], first[0][..., ::-1])
    pipeline.second_look = None
    pipeline.read_frame(frame)
    assert len(first) == 2 and len(again) == 1
