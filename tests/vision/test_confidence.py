"""The readings' confidence calibration: a share in, a chance of being right out."""
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.heldout_sets import load_sets
from lab.training.fit_confidence import main as fit_main
from vision.barrage.board_state import build_map
from vision.barrage.confidence import (CLASSES, COMPANY_DAMS, CONFIDENCE_FILE, ConfidenceCalibration, board_chance,
                                       features, fit, logit, reading_class, unsure_share)
from vision.barrage.height_cues import lean_over_map
from vision.barrage.pipeline import Pipeline
from vision.reader import SlotReading
from vision.runner import ModelFileError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "synth"


def _dam(slot: str, piece: str, owner: str | None, conf: float, unknown: bool = False) -> SlotReading:
    return SlotReading(slot, "dam", piece, owner, 0, conf, unknown)


@pytest.mark.parametrize("reading, cls", [
    (SlotReading("A", "headstream", None, None, 2, 0.9), "headstream"),
    (SlotReading("4B", "conduit", "empty", None, None, 0.9), "conduit empty"),
    (SlotReading("4B", "conduit", "conduit", "italy", None, 0.9), "conduit piece"),
    (SlotReading("P5_0", "powerhouse", None, None, None, 0.9), "powerhouse empty"),
    (SlotReading("P5_0", "powerhouse", "powerhouse", "usa", None, 0.9), "powerhouse piece"),
    (_dam("2U", "empty", None, 0.9), "dam empty"),
    (_dam("3L", "base", "neutral", 0.9), "dam neutral"),
    (_dam("2U", "base+1", "france", 0.9), "dam base+1"),
])
def test_each_reading_takes_the_calibration_of_its_kind_and_what_was_read(reading, cls):
    assert reading_class(reading) == cls and cls in CLASSES


def test_the_identity_keeps_every_confidence_and_unknown_slots_are_left_alone():
    readings = [_dam("2U", "base", "usa", 0.83), _dam("2L", "empty", None, 0.4, unknown=True),
                SlotReading("4B", "conduit", "empty", None, None, 0.97)]
    out = ConfidenceCalibration.identity().apply(readings, {"2U": 3.0})
    assert [r.confidence for r in out] == pytest.approx([0.83, 0.4, 0.97])
    assert out[1] is readings[1]


def test_the_frames_unsure_share_counts_visible_readings_under_the_raw_line():
    readings = [_dam("2U", "base", "usa", 0.5), _dam("2L", "empty", None, 0.99),
                _dam("3U", "empty", None, 0.1, unknown=True), _dam("3L", "base", "neutral", 0.95)]
    assert unsure_share(readings) == pytest.approx(1 / 3)
    assert unsure_share([]) == 0.0


def test_a_calibration_applies_its_class_slope_and_offset_the_frame_and_the_lean():
    w = ConfidenceCalibration.identity().weights.copy()
    base = 2 * CLASSES.index("dam base")
    w[base], w[base + 1], w[-2], w[-1] = 0.5, -1.0, -0.2, 0.3
    readings = [_dam("2U", "base", "usa", 0.9), _dam("2L", "empty", None, 0.6)]
    out = ConfidenceCalibration(w).apply(readings, {"2U": 2.0, "2L": 2.0})
    share = np.log(0.5 + 0.01)
    expected = 1 / (1 + np.exp(-(0.5 * logit(0.9) - 1.0 - 0.2 * share + 0.3 * np.log(2.0 + 0.3))))
    assert out[0].confidence == pytest.approx(float(expected))
    assert out[0].share == 0.9 and readings[0].share is None       # the decoder's share is kept beside it
    # an empty dam space takes no lean: only its class (identity here) and the frame's share
    assert out[1].confidence == pytest.approx(float(1 / (1 + np.exp(-(logit(0.6) - 0.2 * share)))))


def test_only_company_dams_carry_the_lean():
    readings = [_dam("2U", "base+2", "germany", 0.9), _dam("3L", "base", "neutral", 0.9)]
    _, x = features(readings, {"2U": 1.0, "3L": 1.0})
    assert x[0, -1] == pytest.approx(np.log(1.3)) and x[1, -1] == 0.0
    assert set(COMPANY_DAMS) <= set(CLASSES)


def test_the_fit_finds_the_weights_that_made_the_outcomes():
    rng = np.random.default_rng(7)
    truth = ConfidenceCalibration.identity().weights.copy()
    truth[0:2 * len(CLASSES):2] = rng.uniform(0.6, 1.4, len(CLASSES))
    truth[1:2 * len(CLASSES):2] = rng.uniform(-1, 1, len(CLASSES))
    truth[-2:] = (-0.15, 0.2)
    n = 60_000
    cls = rng.integers(len(CLASSES), size=n)
    x = np.zeros((n, len(truth)))
    x[np.arange(n), 2 * cls] = rng.normal(2.5, 2.0, n)
    x[np.arange(n), 2 * cls + 1] = 1.0
    x[:, -2] = np.log(rng.uniform(0, 0.3, n) + 0.01)
    x[:, -1] = np.where(np.isin(cls, [CLASSES.index(c) for c in COMPANY_DAMS]), np.log(rng.uniform(0, 6, n) + 0.3), 0)
    right = rng.random(n) < 1 / (1 + np.exp(-(x @ truth)))
    found = fit(x, right, prior=1.0).weights
    assert np.abs(found - truth).max() < 0.15


def test_a_class_the_fit_never_saw_keeps_the_decoders_confidence():
    x = np.zeros((400, 2 * len(CLASSES) + 2))
    x[:, 0], x[:, 1] = np.linspace(-3, 5, 400), 1.0          # only conduit-empty readings
    right = np.random.default_rng(0).random(400) < 0.5
    w = fit(x, right).weights
    unseen = 2 * CLASSES.index("dam base+2")
    assert w[unseen] == pytest.approx(1.0) and w[unseen + 1] == pytest.approx(0.0)


def test_the_shipped_calibration_loads_and_the_pipeline_uses_it():
    shipped = ConfidenceCalibration.load(CONFIDENCE_FILE)
    assert (shipped.weights[0:2 * len(CLASSES):2] > 0).all()
    assert Pipeline.load().confidence is not None and Pipeline.load(confidence=None).confidence is None
    goal = {h.name for h in load_sets() if h.group == "goal"}
    fitted = json.loads(CONFIDENCE_FILE.read_text())["sets"]
    assert fitted and not goal & set(fitted)


def test_a_frame_is_read_alike_and_only_its_confidences_are_calibrated():
    frame = cv2.imread(str(FIXTURES / "occluded_06.jpg"))
    calibrated, raw = Pipeline.load(), Pipeline.load(confidence=None)
    a, b = calibrated.read_frame(frame), raw.read_frame(frame)
    assert [(r.id, r.piece, r.owner, r.drops, r.unknown) for r in a.slots] == \
        [(r.id, r.piece, r.owner, r.drops, r.unknown) for r in b.slots]
    lean = lean_over_map(b.homography, frame.shape, raw.profile.layout, camera=b.camera)
    assert [r.confidence for r in a.slots] == pytest.approx(
        [r.confidence for r in calibrated.confidence.apply(b.slots, lean)])
    assert any(abs(x.confidence - y.confidence) > 0.01 for x, y in zip(a.slots, b.slots) if not x.unknown)


@pytest.mark.parametrize("text", ["not json", json.dumps({"classes": {}}),
                                  json.dumps({"classes": {c: {"slope": -1.0, "offset": 0} for c in CLASSES},
                                              "unsure_share": 0, "lean": 0})])
def test_a_broken_calibration_file_says_what_it_is_not(tmp_path, text):
    path = tmp_path / "confidence.json"
    path.write_text(text)
    with pytest.raises(ModelFileError, match="confidence calibration|positive slope"):
        ConfidenceCalibration.load(path)


def test_the_calibration_round_trips_through_its_file(tmp_path):
    w = ConfidenceCalibration.identity().weights + np.linspace(0.01, 0.2, 2 * len(CLASSES) + 2)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(ConfidenceCalibration(w).to_dict()))
    assert ConfidenceCalibration.load(path).weights == pytest.approx(w, abs=1e-5)


def test_the_fit_refuses_the_goal_sets_that_judge_it(capsys):
    with pytest.raises(SystemExit):
        fit_main(["goal"])
    assert "goal sets judge" in capsys.readouterr().err


def test_the_map_keeps_each_readings_chance_and_the_share_that_ranks_it():
    w = ConfidenceCalibration.identity().weights.copy()
    w[2 * CLASSES.index("conduit piece") + 1] = 2.0          # built conduits read surer than their share
    readings = ConfidenceCalibration(w).apply([SlotReading("4B", "conduit", "conduit", "usa", None, 0.7),
                                               _dam("3U", "base", "usa", 0.8)], {})
    state, _ = build_map(readings)
    assert state.confidence["4B"] > 0.9 and state.shares == {"4B": 0.7, "3U": pytest.approx(0.8)}
    assert state.ranking == state.shares
    unread, _ = build_map([_dam("3U", "base", "usa", 0.8)])     # no calibration: the confidence is the share
    assert unread.ranking == unread.confidence == unread.shares == {"3U": 0.8}


def test_a_boards_chance_is_its_visible_readings_chances_multiplied():
    readings = [_dam("2U", "base", "usa", 0.9), _dam("2L", "empty", None, 0.5),
                _dam("3U", "empty", None, 0.1, unknown=True)]
    assert board_chance(readings) == pytest.approx(0.45)
    assert board_chance([]) == 1.0
