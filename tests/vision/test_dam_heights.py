"""The dam-height reader: its crops, how it reworks the slot model's scores, and the
shipped model on the committed fixtures (real ONNX inference)."""
from pathlib import Path

import numpy as np
import pytest

from lab.evaluate import evaluate_folder
from vision.barrage.dam_heights import SIZE, DamHeights, aligned_crop, to_input
from vision.barrage.labels import OWNERS, PIECES
from vision.barrage.neutral_dams import NeutralDams
from vision.barrage.pipeline import Pipeline
from vision.layout import load_layout
from vision.runner import softmax

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"


@pytest.mark.parametrize("away", [(1, 0), (-1, 0), (0, 1), (0, -1), (0.6, -0.8)])
def test_the_crop_turns_the_lean_up(away):
    """A dam's top leans away from the point under the camera; in the crop that is up,
    whichever side of the nadir the dam stands."""
    centre = np.array([400.0, 400.0])
    camera = np.array([*(centre - 300 * np.array(away)), 1000.0])
    view = np.zeros((400, 400, 3), np.uint8)
    top = (centre + 24 * np.array(away)) * 0.5            # 24 canonical px out, in view px
    view[int(round(top[1])) - 1:int(round(top[1])) + 2, int(round(top[0])) - 1:int(round(top[0])) + 2] = 255
    crop, lean = aligned_crop(view, centre, camera)
    assert lean == pytest.approx(0.3)
    rows, cols = np.nonzero(crop[..., 0] > 100)
    assert len(rows) > 0
    assert abs(cols.mean() - (SIZE - 1) / 2) < 2          # on the crop's upright axis
    # the crop is centred half a three-piece dam's lean out (25 * 0.3 = 7.5 canonical px),
    # so the mark 24 px out sits 16.5 canonical = 8.25 view px above the middle
    assert rows.mean() == pytest.approx((SIZE - 1) / 2 - 8.25, abs=1.5)


def test_the_input_carries_the_lean_ratio_and_clips_it():
    crops = np.full((2, SIZE, SIZE, 3), 255, np.uint8)
    x = to_input(crops, np.array([0.4, 9.0]))
    assert x.shape == (2, 4, SIZE, SIZE) and x.dtype == np.float32
    assert x[:, :3].min() == 1.0
    assert x[0, 3].min() == x[0, 3].max() == pytest.approx(0.4)
    assert x[1, 3].max() == pytest.approx(1.5)


class FakeSession:
    """Stands in for onnxruntime: records what it is given, answers fixed height scores."""

    def __init__(self):
        self.fed = None

    def run(self, names, feed):
        self.fed = feed
        n = len(feed["roles"])
        return [np.tile(np.array([[0.0, 2.0, -1.0]], np.float32), (n, 1))]


def _raw(layout):
    n = len(layout.boxes)
    raw = {"piece": np.full((n, len(PIECES)), -5.0, np.float32),
           "owner": np.zeros((n, len(OWNERS)), np.float32),
           "occluded": np.full((n, 1), -4.0, np.float32),
           "drops": np.zeros((n, 8), np.float32)}
    raw["piece"][:, PIECES.index("empty")] = 3.0              # every box empty...
    return raw


def test_refine_shares_each_company_dams_chance_out_over_the_read_heights():
    layout = load_layout()
    index = layout.box_index()
    neutral = NeutralDams.from_map(layout)
    spaces = neutral.heights()
    grey = next(box for box, piece in spaces.items() if piece == "base+1")
    company, hidden = index["5U"], index["6U"]
    assert company not in spaces or company != grey
    raw = _raw(layout)
    for box in (company, grey, hidden):
        raw["piece"][box, PIECES.index("empty")] = -2.0
        raw["piece"][box, PIECES.index("base")] = 2.5             # ...but three dams read "base"
    raw["owner"][company, OWNERS.index("italy")] = 4.0
    raw["owner"][grey, OWNERS.index("neutral")] = 4.0
    raw["occluded"][hidden] = 3.0                                   # a hand over this one
    session = FakeSession()
    heights = DamHeights(session, tuple(i for i, b in enumerate(layout.boxes) if b.kind == "dam"),
                         tuple(b.centre for b in layout.boxes if b.kind == "dam"),
                         {box: 1 + ("base", "base+1", "base+2").index(p) for box, p in spaces.items()})
    view = np.zeros((732, 500, 3), np.uint8)
    out = heights.refine(raw, view, np.array([500.0, 700.0, 1800.0]))

    # the model saw the standing, visible dams only, the grey one as a base+1 reference
    assert session.fed["dams"].shape == (2, 4, SIZE, SIZE)
    assert sorted(session.fed["roles"].tolist()) == [0, 2]
    before, after = softmax(raw["piece"][company]), softmax(out["piece"][company])
    dam = slice(PIECES.index("base"), PIECES.index("base+2") + 1)
    assert after[PIECES.index("empty")] == pytest.approx(before[PIECES.index("empty")], rel=1e-5)
    assert after[dam].sum() == pytest.approx(before[dam].sum(), rel=1e-5)
    assert after[dam] / after[dam].sum() == pytest.approx(softmax(np.array([0.0, 2.0, -1.0])), rel=1e-5)
    # the neutral reference, the hidden dam and every other box keep their scores
    untouched = [i for i in range(len(layout.boxes)) if i != company]
    assert np.array_equal(out["piece"][untouched], raw["piece"][untouched])
    assert out["owner"] is raw["owner"]
    # read mirrored (a stable state's extra looks): the same crops, each mirrored left to right
    view = np.random.default_rng(0).integers(0, 255, view.shape).astype(np.uint8)
    heights.refine(raw, view, np.array([500.0, 700.0, 1800.0]))
    plain = session.fed["dams"]
    heights.refine(raw, view, np.array([500.0, 700.0, 1800.0]), mirrored=True)
    assert np.array_equal(session.fed["dams"], plain[..., ::-1]) and not np.array_equal(plain, plain[..., ::-1])


def test_refine_leaves_a_frame_without_standing_dams_alone():
    layout = load_layout()
    raw = _raw(layout)
    session = FakeSession()
    heights = DamHeights(session, tuple(i for i, b in enumerate(layout.boxes) if b.kind == "dam"),
                         tuple(b.centre for b in layout.boxes if b.kind == "dam"), {})
    assert heights.refine(raw, np.zeros((732, 500, 3), np.uint8), np.array([500.0, 700.0, 1800.0])) is raw
    assert session.fed is None


@pytest.mark.skipif(not any(FIXTURES.glob("*.json")), reason="no synthetic fixtures committed")
def test_the_shipped_height_model_reads_raised_dams_better_than_the_slot_model_alone():
    """On the fixtures with markers: more raised company dams read at their height, and
    fewer wrong slots, than the slot model's own height scores give."""
    marked = lambda p: not p.name.startswith("nomarkers")
    alone = evaluate_folder(FIXTURES, Pipeline.load(heights=None), select=marked)
    together = evaluate_folder(FIXTURES, Pipeline.load(), select=marked)
    raised = ("base+1", "base+2")
    assert sum(together.recall[p, "right"] for p in raised) > sum(alone.recall[p, "right"] for p in raised)
    assert together.slot_errors < alone.slot_errors


def test_without_the_height_file_the_pipeline_warns_and_reads_heights_alone(tmp_path):
    with pytest.warns(UserWarning, match="no dam-height model"):
        pipeline = Pipeline.load(heights=tmp_path / "missing.onnx")
    assert pipeline.heights is None
