"""Blurred markers: recognised as pictures among ArUco's rejected quads, then placed by
aligning the whole marker (vision.marker_search)."""
import json

import cv2
import numpy as np

from lab.synth.render import Options, render
from vision import marker_search
from vision.registration import (ARUCO_DICT, Registrar, decode_markers, homography_from_markers, locate_markers,
                                 make_detector)

from .drawn import GEOMETRY, LAYOUT, board_canvas, camera_view, reprojection_error, true_corners


def blurred_view(sigma: float, tilt: float = 0.05):
    frame, H_true = camera_view(board_canvas(LAYOUT), LAYOUT, tilt=tilt)
    gray = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (0, 0), sigma)
    return gray, H_true


def test_each_marker_is_told_apart_at_any_quarter_turn():
    gray, H_true = blurred_view(1.0)
    for marker_id in range(4):
        quad = true_corners(H_true, marker_id)
        for turn in range(4):
            # The same outline listed from another corner, as ArUco's rejected quads may be.
            listed = np.roll(quad, turn, axis=0)
            scores = marker_search.match(gray, listed[None], ARUCO_DICT, {0, 1, 2, 3})[0]
            best_score, best_id, corners = max(scores, key=lambda s: s[0])
            assert best_id == marker_id and best_score > 0.8
            assert np.abs(corners - quad).max() < 1e-3     # back in the marker's own order
            others = [s for s, i, _ in scores if i != marker_id]
            assert max(others) < best_score - 0.1   # the bits differ; border and margin do not


def mirrored_quads(gray: np.ndarray, H_true: np.ndarray) -> np.ndarray:
    """Where the markers are in ``gray`` flipped left to right, listed clockwise as ArUco lists quads."""
    quads = np.stack([true_corners(H_true, i) for i in range(4)])
    quads[..., 0] = gray.shape[1] - 1 - quads[..., 0]
    return quads[:, [1, 0, 3, 2]]


def test_a_mirrored_marker_passes_for_no_marker():
    """Through a camera set to mirror, each marker resembles another marker at some quarter
    turn well enough to be a candidate (0.75-0.88 here, 0.7-0.85 in held-out frames), and
    three such once fitted the layout. It resembles a mirrored marker more."""
    for sigma in (0.8, 2.5):
        gray, H_true = blurred_view(sigma)
        flipped, quads = cv2.flip(gray, 1), mirrored_quads(gray, H_true)
        best = [max(s for s, _, _ in scores) for scores in marker_search.match(flipped, quads, ARUCO_DICT, {0, 1, 2, 3})]
        assert min(best) >= marker_search.MIN_SCORE          # a candidate, were it not for the decoys
        decoys = marker_search.mirror_scores(flipped, quads, ARUCO_DICT, {0, 1, 2, 3})
        assert (decoys > np.array(best)).all()
        assert marker_search.candidates(flipped, list(quads), ARUCO_DICT, {0, 1, 2, 3}, {0, 1, 2, 3}) == {}
        assert locate_markers(flipped, make_detector(), GEOMETRY) == {}


def test_a_real_marker_is_closer_to_itself_than_to_any_mirrored_marker():
    for sigma in (0.8, 1.5, 2.5):
        gray, H_true = blurred_view(sigma, tilt=0.1)
        quads = np.stack([true_corners(H_true, i) for i in range(4)])
        own = [scores[i][0] for i, scores in enumerate(marker_search.match(gray, quads, ARUCO_DICT, {0, 1, 2, 3}))]
        assert (np.array(own) > marker_search.mirror_scores(gray, quads, ARUCO_DICT, {0, 1, 2, 3}) + 0.02).all()
        assert sorted(marker_search.candidates(gray, list(quads), ARUCO_DICT, {0, 1, 2, 3}, {0, 1, 2, 3})) == [0, 1, 2, 3]


def test_refinement_pulls_misplaced_corners_back_under_blur():
    gray, H_true = blurred_view(2.5)
    for marker_id in range(4):
        truth = true_corners(H_true, marker_id)
        off = truth + np.float32([[1.5, -1.0], [-1.0, 1.5], [1.2, 1.0], [-1.5, -1.2]])
        refined = marker_search.refine(gray, marker_id, off, ARUCO_DICT)
        before = np.linalg.norm(off - truth, axis=1).mean()
        after = np.linalg.norm(refined - truth, axis=1).mean()
        assert after < 0.4 * before


def test_refinement_leaves_corners_alone_where_there_is_no_marker():
    gray = np.full((400, 400), 128, np.uint8)
    quad = np.float32([[100, 100], [140, 100], [140, 140], [100, 140]])
    assert np.array_equal(marker_search.refine(gray, 0, quad, ARUCO_DICT), quad)


def test_rejected_quads_must_fit_the_layout_to_be_believed():
    decoded = {0: GEOMETRY[0]}
    wrong = GEOMETRY[2] + 300.0          # a marker-like square far from any corner
    soft = {1: [(0.9, GEOMETRY[1])], 2: [(0.95, wrong), (0.8, GEOMETRY[2])], 3: [(0.7, GEOMETRY[3])]}
    chosen = marker_search.consistent_set(decoded, soft, GEOMETRY,
                                          lambda m: homography_from_markers(m, GEOMETRY), 3)
    assert sorted(chosen) == [0, 1, 2, 3]
    assert np.array_equal(chosen[2], GEOMETRY[2])
    # Nothing that fits: only the decoded markers are returned.
    alone = marker_search.consistent_set(decoded, {1: [(0.9, wrong)]}, GEOMETRY,
                                         lambda m: homography_from_markers(m, GEOMETRY), 3)
    assert sorted(alone) == [0]


def test_hard_frame_that_aruco_cannot_decode_is_registered():
    # Seed 900053 of the hard held-out set: motion blur and noise leave no marker
    # decodable, even on the enlarged and sharpened second pass.
    sample = render(900_053, Options(size=(1280, 720), photo="hard", occlusion=0.3))
    gray = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE)
    detector = make_detector()
    assert decode_markers(gray, detector, set(GEOMETRY))[0] == {}
    assert len(locate_markers(gray, detector, GEOMETRY)) >= 3
    registration = Registrar(LAYOUT).register(gray)
    assert registration.source == "aruco"
    assert reprojection_error(registration.H, np.asarray(sample.truth["homography"]), LAYOUT, registration.lens) < 12.0


def test_registration_eval_reports_registered_frames_and_error(tmp_path, capsys):
    from lab.registration_eval import main
    sample = render(900_053, Options(size=(1280, 720), photo="hard", occlusion=0.3))
    (tmp_path / "0000.jpg").write_bytes(sample.jpeg)
    (tmp_path / "0000.json").write_text(json.dumps(sample.truth))
    assert main([str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["n_images"] == 1 and figures["registered"] == 1
    assert 0 <= figures["corner_error_px_max"] < 12.0
    assert figures["nadir_error_px_median"] >= 0 and figures["camera_height_error_median"] >= 0
    assert main([str(tmp_path / "missing")]) == 2


def test_a_mirrored_held_out_frame_is_not_registered_but_named(tmp_path, capsys):
    """Held-out frame 900003 flipped left to right: three of its mirrored markers passed for
    others and fitted the layout, so the board was "found" in its mirror image."""
    from lab.registration_eval import main
    sample = render(900_003, Options(size=(1280, 720), photo="hard", occlusion=0.3))
    (tmp_path / "0000.jpg").write_bytes(sample.jpeg)
    (tmp_path / "0000.json").write_text(json.dumps(sample.truth))
    assert main([str(tmp_path), "--mirrored"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["n_images"] == 1 and figures["registered"] == 0 and figures["named_mirrored"] == 1
    assert main([str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["registered"] == 1       # as the camera gives it


def smeared(gray: np.ndarray, H_true: np.ndarray, marker_ids, length: int = 9) -> np.ndarray:
    """``gray`` with the markers ``marker_ids`` smeared by a horizontal motion blur."""
    out = gray.copy()
    kernel = np.full((1, length), 1.0 / length, np.float32)
    for i in marker_ids:
        x0, y0 = np.floor(true_corners(H_true, i).min(0)).astype(int) - 20
        x1, y1 = np.ceil(true_corners(H_true, i).max(0)).astype(int) + 20
        out[y0:y1, x0:x1] = cv2.filter2D(gray, -1, kernel)[y0:y1, x0:x1]
    return out


def test_two_markers_predict_where_to_look_for_the_others():
    gray, H_true = blurred_view(0.8, tilt=0.08)
    gray = smeared(gray, H_true, (1, 2))
    detector = make_detector()
    decoded, _ = decode_markers(gray, detector, set(GEOMETRY))
    assert sorted(decoded) == [0, 3]                 # the smeared two are beyond ArUco
    found = marker_search.search_predicted(gray, decoded, GEOMETRY, ARUCO_DICT)
    for i in (1, 2):
        score, corners = found[i][0]
        assert score >= marker_search.MIN_SCORE_PREDICTED
        assert np.abs(corners - true_corners(H_true, i)).max() < 2.0
    assert sorted(locate_markers(gray, detector, GEOMETRY)) == [0, 1, 2, 3]


def test_nothing_is_found_where_the_predicted_markers_are_not():
    gray, H_true = blurred_view(0.8, tilt=0.08)
    for i in (1, 2):                                  # cover two markers with card
        x0, y0 = np.floor(true_corners(H_true, i).min(0)).astype(int) - 8
        x1, y1 = np.ceil(true_corners(H_true, i).max(0)).astype(int) + 8
        gray[y0:y1, x0:x1] = 150
    detector = make_detector()
    assert marker_search.search_predicted(gray, decode_markers(gray, detector, set(GEOMETRY))[0],
                                          GEOMETRY, ARUCO_DICT) == {}
    assert sorted(locate_markers(gray, detector, GEOMETRY)) == [0, 3]


def test_a_prediction_larger_than_the_frame_is_not_searched(monkeypatch):
    """Two "markers" found on a hand's edge once predicted a marker 74,000 px wide (a held-out
    frame with a hand over it); drawing its template took 25 GB and killed the process."""
    gray, H_true = blurred_view(0.8)
    huge = np.array([[-3272, -1719], [77882, -1719], [77882, 32427], [-3272, 32427]], np.float32)
    monkeypatch.setattr(marker_search, "predictions", lambda found, geometry, marker_id: [huge])
    real_warp = cv2.warpPerspective

    def warp(src, M, size, **kw):     # fails the test rather than the machine
        assert size[0] <= gray.shape[1] and size[1] <= gray.shape[0], f"template drawn at {size}"
        return real_warp(src, M, size, **kw)

    monkeypatch.setattr(marker_search.cv2, "warpPerspective", warp)
    found = {i: true_corners(H_true, i) for i in (0, 3)}
    assert marker_search.search_predicted(gray, found, GEOMETRY, ARUCO_DICT) == {}


def test_two_adjacent_markers_in_perspective_predict_the_far_side():
    # The board's far edge is 30 % narrower: two near markers fitted by an affine map put
    # the far ones ~10 marker sides off, beyond the search window; the homography through
    # their corners follows the perspective.
    gray, H_true = blurred_view(0.8, tilt=0.15)
    gray = smeared(gray, H_true, (0, 1), length=11)
    decoded, _ = decode_markers(gray, make_detector(), set(GEOMETRY))
    assert sorted(decoded) == [2, 3]
    for i in (0, 1):
        truth = true_corners(H_true, i)
        side = marker_search._side(truth)
        affine, homography = (float(np.linalg.norm(q.mean(0) - truth.mean(0))) / side
                              for q in marker_search.predictions(decoded, GEOMETRY, i))
        assert affine > marker_search.SEARCH + 1 and homography < 1.0
    found = marker_search.search_predicted(gray, decoded, GEOMETRY, ARUCO_DICT)
    for i in (0, 1):          # 22 px markers smeared over 11 px: placed within a few px
        truth = true_corners(H_true, i)
        assert np.abs(found[i][0][1] - truth).max() < 0.15 * marker_search._side(truth)
