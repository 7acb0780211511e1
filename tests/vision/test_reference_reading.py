"""Reading against the empty board: its features, its light heads and the labels a teaching
photo gives (the real model's end-to-end run is in tests/lab/test_printed_reading.py)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from automa.barrage.random_states import random_state
from calibration.adapt import CalibrationError, box_labels, corners_homography
from vision.barrage.reference_reading import (GATE_FILE, GATE_KINDS, Heads, Logistic, OwnerHead, fit_logistic,
                                              judge)
from vision.layout import load_layout
from vision.reader import SlotReading
from vision import reference_features as rfeat
from vision.reference_features import FEATURES, box_features, light_map, relit


def _crops(n: int = 6, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = rng.integers(60, 200, (n, 48, 48, 3)).astype(np.uint8)
    return np.stack([cv2.GaussianBlur(c, (5, 5), 2) for c in base])


def test_an_unchanged_box_differs_little_and_a_painted_one_much():
    ref = _crops()
    live = ref.copy()
    live[0, 14:34, 14:34] = (30, 40, 200)          # a red piece on box 0
    features, colour = box_features(live, ref)
    f = dict(zip(FEATURES, features.T))
    assert f["mean_de"][1:].max() < 1.0 and f["ncc"][1:].min() > 0.99
    assert f["mean_de"][0] > 10 * max(f["mean_de"][1:].max(), 0.1)
    assert f["changed_hi"][0] > 0.15
    assert colour[0, 1] > 30                      # the changed pixels' a*: red


def test_a_frame_brighter_everywhere_is_not_a_change():
    ref = _crops()
    live = np.clip(ref.astype(int) + 25, 0, 255).astype(np.uint8)
    f = dict(zip(FEATURES, box_features(live, ref)[0].T))
    assert f["changed_lo"].max() < 0.05


def test_the_reference_is_brought_into_the_frames_light():
    live = _crops(12, seed=3)
    ref = np.clip(live.astype(float) * 1.4 + 10, 0, 255).astype(np.uint8)     # calibrated in a brighter room
    live[0, 10:38, 10:38] = (30, 40, 200)                                       # and a piece since
    matched = relit(ref, light_map(live, ref))
    assert np.abs(matched[1:].astype(int) - live[1:]).mean() < 3
    assert np.abs(ref[1:].astype(int) - live[1:]).mean() > 30
    f = dict(zip(FEATURES, box_features(live, matched)[0].T))
    assert f["changed_hi"][0] > 0.2 and f["changed_lo"][1:].max() < 0.05


def test_a_pieces_colour_is_read_in_the_empty_boards_light():
    """Under a warmer light than the empty board's the frame's light lines are found, and the
    changed pixels' colour measured back in the empty board's light is the piece's own."""
    ref = _crops(12, seed=4)
    live = ref.copy()
    live[0, 14:34, 14:34] = (40, 60, 190)                      # a red piece on box 0
    warm = rfeat.relit(live, np.array([[0.8, 0.0], [1.0, 0.0], [1.15, 0.0]]))
    lines = rfeat.light_map(warm, ref)
    assert lines[0, 0] < 0.9 < lines[1, 0] < 1.1 < lines[2, 0]
    _, plain = box_features(live, ref)
    _, as_seen = box_features(warm, rfeat.relit(ref, lines))
    _, taken_back = box_features(warm, rfeat.relit(ref, lines), light=lines)
    assert np.abs(taken_back[0] - plain[0]).max() < 0.6 * np.abs(as_seen[0] - plain[0]).max()


def test_a_reference_moved_a_px_is_aligned():
    ref = _crops()
    live = np.roll(ref, 1, axis=2)
    f = dict(zip(FEATURES, box_features(live, ref)[0].T))
    assert f["mean_de"].max() < 1.0


def test_the_fast_helpers_give_what_their_plain_definitions_give():
    """The features are computed on every box stacked into one picture and from histograms;
    each helper equals its definition written plainly."""
    rng = np.random.default_rng(7)
    live, ref = _crops(9, seed=1), _crops(9, seed=2)
    ref[:4] = np.roll(live[:4], (int(rng.integers(-2, 3)), 1), axis=(1, 2))     # four boxes a px or two off
    # Lab: L 0..100, a and b about 0 for a grey
    lab = rfeat.to_lab(live)
    plain = cv2.cvtColor(live.reshape(-1, 48, 3), cv2.COLOR_BGR2LAB).astype(np.float32).reshape(lab.shape)
    assert np.allclose(lab, (plain - (0, 128, 128)) * (100 / 255, 1, 1), atol=1e-4)
    assert np.allclose(rfeat.to_lab(live, np.array([2.0, -1.0, 0.5])), lab + (2.0, -1.0, 0.5), atol=1e-4)
    # alignment: each box's reference moved by the shift with the least mean absolute lightness difference
    live_lab, ref_lab = rfeat.to_lab(live), rfeat.to_lab(ref)
    aligned = rfeat._aligned(live_lab, ref_lab, 2)
    for i in range(len(live)):
        costs = {(dy, dx): np.abs(ref_lab[i, 2 + dy:46 + dy, 2 + dx:46 + dx, 0] - live_lab[i, 2:46, 2:46, 0]).mean()
                 for dy in range(-2, 3) for dx in range(-2, 3)}
        dy, dx = min(costs, key=costs.get)
        assert np.array_equal(aligned[i], ref_lab[i, 2 + dy:46 + dy, 2 + dx:46 + dx]), i
    # percentiles of 8-bit values, as numpy's
    values = rng.integers(0, 256, (50, 7, 3), dtype=np.uint8)
    assert np.allclose(rfeat._percentiles_u8(values, (10, 50, 90)),
                       np.percentile(values.reshape(-1, 3), (10, 50, 90), axis=0).T)
    # the largest patch: crops stacked never join
    masks = rng.random((5, 20, 20)) > 0.6
    masks[2] = False
    expected = [max((s[cv2.CC_STAT_AREA] for s in cv2.connectedComponentsWithStats(m.astype(np.uint8), connectivity=8)[2][1:]),
                    default=0) / m.size for m in masks]
    assert np.allclose(rfeat._largest_patch(masks), expected)
    # the gradient: central differences, 0 on each crop's border
    light = live_lab[..., 0]
    gy, gx = np.zeros_like(light), np.zeros_like(light)
    gy[:, 1:-1] = (light[:, 2:] - light[:, :-2]) / 2
    gx[:, :, 1:-1] = (light[:, :, 2:] - light[:, :, :-2]) / 2
    assert np.allclose(rfeat._gradient(light), np.hypot(gx, gy), atol=1e-4)


def test_fit_logistic_learns_and_a_prior_holds_it_back():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 1, (200, 3))
    y = (x[:, 0] > 0).astype(int)
    free = fit_logistic(x, y)
    assert ((free.chance(x) >= 0.5) == y).mean() > 0.97
    opposite = Logistic(free.mean, free.scale, -free.weights, free.bias)
    held = fit_logistic(x[:4], 1 - y[:4], l2=1e4, prior=opposite)
    assert np.allclose(held.weights, opposite.weights, atol=0.05)


def test_softmax_fit_separates_three_classes():
    rng = np.random.default_rng(2)
    centres = np.array([[0, 0], [4, 0], [0, 4]])
    y = rng.integers(0, 3, 150)
    x = centres[y] + rng.normal(0, 0.5, (150, 2))
    model = fit_logistic(x, y, classes=3)
    assert (model.scores(x).argmax(1) == y).mean() > 0.97


def test_heads_round_trip(tmp_path):
    default = Heads.load(GATE_FILE)
    assert set(default.gates) == set(GATE_KINDS) and default.owner is None
    x = np.r_[np.zeros((5, 10)), np.ones((5, 10))]
    owner = OwnerHead(("usa", "neutral"), fit_logistic(x, np.repeat([0, 1], 5), classes=2))
    Heads(default.gates, owner).save(tmp_path / "h.npz")
    again = Heads.load(tmp_path / "h.npz")
    assert again.owner.owners == ("usa", "neutral")
    assert np.array_equal(again.gates["dam"].weights, default.gates["dam"].weights)


def test_box_labels_follow_the_state():
    layout = load_layout()
    state = random_state(7, automas=2, humans=1, moves=60)
    changed, owners = box_labels(state, layout)
    for i, box in enumerate(layout.boxes):
        if box.kind == "conduit":
            assert changed[i] == (box.id in state.conduits) and owners[i] == state.conduits.get(box.id)
        elif box.kind == "lake":
            dam = state.dams.get(box.id)
            assert changed[i] == (dam is not None and dam.drops > 0) and owners[i] is None
        elif box.kind == "headstream":
            assert changed[i] == (state.headstreams[box.id] > 0)
    assert changed.any() and not changed.all()


def test_corners_give_the_layout_frame():
    layout = load_layout()
    corners = [100, 50, 700, 60, 690, 900, 110, 880]
    H = corners_homography(corners, layout)
    pts = np.array(corners, float).reshape(4, 2)
    mapped = (H @ np.c_[pts, np.ones(4)].T).T
    mapped = mapped[:, :2] / mapped[:, 2:]
    assert np.allclose(mapped, [(0, 0), (layout.width, 0), (layout.width, layout.height), (0, layout.height)], atol=1e-6)
    with pytest.raises(CalibrationError):
        corners_homography([0, 0, 1, 1, 2, 2, 3, 3], layout)
    with pytest.raises(CalibrationError):
        corners_homography([0, 0, 1, 1], layout)


def test_judge_reads_an_unchanged_box_empty_and_a_changed_one_as_a_piece():
    layout = load_layout()
    index = layout.box_index()
    slots = [SlotReading(s.id, s.kind, None if s.kind == "headstream" else "conduit" if s.kind == "conduit" else "empty",
                         "france" if s.kind == "conduit" else None, 3 if s.kind == "headstream" else 0, 0.95)
             for s in layout.slots]
    changed = np.zeros(len(layout.boxes))
    changed[index["1A"]] = 0.9                    # something there, read as a conduit
    changed[index["P5_0"]] = 0.9                  # something there, read empty by the pipeline
    changed[index["A"]] = 0.9                     # drops on tile A
    owners = np.full((len(layout.boxes), 7), -5.0)
    owners[:, 0] = 0.0                            # usa likeliest
    piece_logits = np.zeros((len(layout.boxes), 6))
    drop_logits = np.zeros((len(layout.boxes), 8))
    drop_logits[index["A"], 2] = 5.0              # 2 drops on A, read against the empty board
    out = {r.id: r for r in judge(layout, slots, changed, owners, piece_logits, drop_logits, {"A": 2, "B": 3})}
    assert out["1A"].piece == "conduit" and out["1A"].owner == "france"       # the pipeline's owner kept
    assert out["1B"].piece == "empty" and out["1B"].confidence == pytest.approx(1.0)
    assert out["P5_0"].piece == "powerhouse" and out["P5_0"].owner == "usa"
    assert out["A"].drops == 2 and out["B"].drops == 0
    drop_logits[index["A"], 7] = 9.0              # the net's most: the counter's 3 less 2 printed would be fewer
    assert {r.id: r for r in judge(layout, slots, changed, owners, piece_logits, drop_logits, {"A": 2})}["A"].drops == 7
    taught = {r.id: r for r in judge(layout, slots, changed, owners, piece_logits, drop_logits, taught=True)}
    assert taught["1A"].owner == "usa"                                         # the owner head's
