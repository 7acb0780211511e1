"""The second look: the boxes the slot model is unsure of, read once more from their crops
mirrored, each head the mean of both looks; the least sure of them also from their crops cut a
view px off each way (the moved look)."""
import numpy as np
import pytest

from vision.barrage.pipeline import Pipeline
from vision.barrage.slot_model import MOVES, Surety, more_looks, moved_inputs, net_input, run, second_look
from vision.rectify import cut_rects

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
    import vision.barrage.pipeline as vp
    import vision.barrage.slot_model as vm

    pipeline = Pipeline.load(heights=None, counters={"headstream": None, "lake": None}, specialist=None)
    pipeline.read_mirrored = False
    pipeline.moved_look = None
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


def _ramp_view() -> np.ndarray:
    """A view whose every channel is its x coordinate in view px plus a third of its y: a
    crop moved by a px reads values one (and a third) higher."""
    y, x = np.mgrid[0:120, 0:160].astype(np.float32)
    return np.repeat((x + y / 3)[..., None], 3, axis=2).round().astype(np.uint8)


def test_moved_inputs_cut_the_rows_a_px_off_beside_the_frames_own_kind_context():
    view = _ramp_view()
    rects = np.array([[10, 10, 34, 34], [60, 20, 84, 44], [100, 50, 124, 74]], np.float32)  # 24 view px squares
    kinds = ["dam", "conduit", "dam"]
    inputs = net_input(cut_rects(view, rects, (48, 48)), kinds)
    rows = np.array([0, 2])
    moved = moved_inputs(view, rects, inputs, rows)
    assert len(moved) == len(MOVES) == 2
    for d, x in zip(MOVES, moved):
        assert x.shape == (2, 6, 48, 48)
        crops = cut_rects(view, rects[rows] + d, (48, 48))
        assert np.allclose(x[:, :3], crops.transpose(0, 3, 1, 2) / 255.0)
        assert np.array_equal(x[:, 3:], inputs[rows, 3:])          # the frame's kind context
        # Moved by d view px along both axes: the ramp reads d * (1 + 1/3) higher.
        assert np.mean(x[:, 0] - inputs[rows, 0]) * 255 == pytest.approx(d * 4 / 3, abs=0.1)
    mirrored_inputs = net_input(cut_rects(view, rects, (48, 48))[:, :, ::-1], kinds)
    flipped = moved_inputs(view, rects, mirrored_inputs, rows, mirrored=True)
    assert np.allclose(flipped[0][:, :3], moved[0][:, :3][..., ::-1])
    assert np.array_equal(flipped[0][:, 3:], mirrored_inputs[rows, 3:])


def test_more_looks_average_every_look_alike_in_one_run():
    raw = logits({"4B": ({"conduit": 0.7, "empty": 0.3}, {"usa": 1.0})})
    rng = np.random.default_rng(1)
    rows = np.array([INDEX["4B"], INDEX["A"]])
    moved = [rng.random((2, 6, 48, 48), dtype=np.float32) for _ in range(2)]
    session = RecordingSession({"piece": np.arange(6.0), "owner": np.zeros(7), "drops": np.ones(8), "occluded": [2.0]})
    out = more_looks(session, raw, rows, moved, before=2)
    assert len(session.feeds) == 1 and np.array_equal(session.fed, np.concatenate(moved))
    others = np.setdiff1d(EVERY, rows)
    for head in raw:
        one = session.out[head][0]
        # the first two looks (as cut and mirrored, already averaged) and the two moved ones weigh alike
        assert np.allclose(out[head][rows], (2 * raw[head][rows] + 2 * one) / 4)
        assert np.array_equal(out[head][others], raw[head][others])
    assert more_looks(session, raw, np.array([], int), []) is raw and len(session.feeds) == 1


def test_the_pipeline_reads_its_least_sure_boxes_from_moved_crops_too(monkeypatch):
    """Every box under ``moved_look`` (and under ``second_look``) is read once more from two
    crops cut a px off, after its mirrored look; the rest is read twice at most."""
    import vision.barrage.slot_model as vm

    pipeline = Pipeline.load(heights=None, counters={"headstream": None, "lake": None}, specialist=None)
    pipeline.read_mirrored = False
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    again = []
    monkeypatch.setattr(vm, "run", lambda session, inputs: again.append(inputs) or run(session, inputs))
    pipeline.second_look = pipeline.moved_look = 2.0          # every box counts as unsure
    pipeline.read_frame(frame)
    n = len(LAYOUT.boxes)
    assert [len(x) for x in again] == [n, 2 * n]               # mirrored, then both moved cuts at once
    plain = again[0][..., ::-1]                                # the mirrored look, turned back
    assert not np.array_equal(again[1][:n, :3], plain[:, :3])  # other pixels, not the same crops
    assert np.array_equal(again[1][:n, 3:], plain[:, 3:])      # the same kind context
    again.clear()
    pipeline.moved_look = 0.0                                  # no box is that unsure
    pipeline.read_frame(frame)
    assert [len(x) for x in again] == [n]
