"""Registration: ArUco, cache, stale markers, feature fallback, clicked corners, undistortion."""
import cv2
import numpy as np

from lab.synth.render import Options, render
from vision import registration
from vision.layout import ClickedCorners
from vision.registration import (Calibration, FeatureReference, Registrar, decode_markers, detect_markers,
                                 homography_from_corners, make_detector)

from .drawn import LAYOUT, MARGIN, board_canvas, camera_view, reprojection_error, true_corners


def test_aruco_registration_is_subpixel_and_then_cached():
    frame, H_true = camera_view(board_canvas(LAYOUT), LAYOUT, tilt=0.05)
    reg = Registrar(LAYOUT)
    first = reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert first.source == "aruco" and first.markers == 4
    assert reprojection_error(first.H, H_true, LAYOUT, first.lens) < 1.5
    second = reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert second.source == "cached" and np.array_equal(second.H, first.H)


def test_moved_board_is_registered_again():
    canvas = board_canvas(LAYOUT)
    reg = Registrar(LAYOUT)
    frame, _ = camera_view(canvas, LAYOUT)
    reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    moved, H_true = camera_view(canvas, LAYOUT, shift=(25, 10))
    again = reg.register(cv2.cvtColor(moved, cv2.COLOR_BGR2GRAY))
    assert again.source == "aruco"
    assert reprojection_error(again.H, H_true, LAYOUT, again.lens) < 1.5


def test_hidden_markers_keep_the_last_homography_as_stale(monkeypatch):
    canvas = board_canvas(LAYOUT)
    frame, _ = camera_view(canvas, LAYOUT)
    reg = Registrar(LAYOUT)
    first = reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    covered = board_canvas(LAYOUT, markers=False)   # every marker under a hand
    frame2, _ = camera_view(covered, LAYOUT)
    second = reg.register(cv2.cvtColor(frame2, cv2.COLOR_BGR2GRAY))
    assert second.source == "stale" and np.array_equal(second.H, first.H)
    # while the hand stays, the frames are not searched again, and are still stale
    searched = []
    monkeypatch.setattr(registration, "locate_markers", lambda *a: searched.append(1) or {})
    third = reg.register(cv2.cvtColor(frame2, cv2.COLOR_BGR2GRAY))
    assert third.source == "stale" and np.array_equal(third.H, first.H) and not searched
    monkeypatch.undo()
    assert reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).source == "aruco"      # the hand gone


def hide(frame: np.ndarray, H_true: np.ndarray, markers) -> np.ndarray:
    """``frame`` with a hand (flat grey) over each of ``markers``."""
    out = frame.copy()
    for i in markers:
        corners = true_corners(H_true, i)
        middle = corners.mean(0)
        cv2.fillConvexPoly(out, (middle + 1.6 * (corners - middle)).astype(np.int32), (128, 128, 128))
    return out


def test_a_hand_over_two_markers_holds_the_board_where_the_other_two_still_lie():
    canvas = board_canvas(LAYOUT, seed=3)
    reference = FeatureReference.from_image(canvas[MARGIN:MARGIN + LAYOUT.height, MARGIN:MARGIN + LAYOUT.width], LAYOUT)
    reg = Registrar(LAYOUT, reference=reference)
    frame, H_true = camera_view(canvas, LAYOUT, tilt=0.04)
    first = reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    held = reg.register(cv2.cvtColor(hide(frame, H_true, [0, 1]), cv2.COLOR_BGR2GRAY))
    assert held.source == "held" and np.array_equal(held.H, first.H) and sorted(held.corners) == [2, 3]
    # the frames after it, the hand still there, are cached, with the markers they show
    cached = reg.register(cv2.cvtColor(hide(frame, H_true, [0, 1]), cv2.COLOR_BGR2GRAY))
    assert cached.source == "cached" and np.array_equal(cached.H, first.H) and sorted(cached.corners) == [2, 3]
    # the camera moved under the hand: the two markers seen are not where they were
    moved, H_moved = camera_view(canvas, LAYOUT, tilt=0.04, shift=(25, 10))
    again = reg.register(cv2.cvtColor(hide(moved, H_moved, [0, 1]), cv2.COLOR_BGR2GRAY))
    assert again.source == "features" and reprojection_error(again.H, H_moved, LAYOUT) < 6.0
    assert reprojection_error(first.H, H_moved, LAYOUT) > 50.0              # what holding would have cost


def test_a_camera_turned_about_one_marker_is_registered_again(monkeypatch):
    """One marker where it was and three elsewhere: the camera moved, and the one that
    stayed does not hold the old position."""
    frame, H_true = camera_view(board_canvas(LAYOUT), LAYOUT, tilt=0.05)
    reg = Registrar(LAYOUT)
    first = reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    turned = {0: first.corners[0]} | {i: first.corners[i] + np.float32([12.0, -8.0]) for i in (1, 2, 3)}
    monkeypatch.setattr(registration, "locate_markers", lambda *a: turned)
    again = reg.register(np.zeros_like(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)))     # the watched pixels changed
    assert again.source == "aruco" and not np.allclose(again.H, first.H) and sorted(again.corners) == [0, 1, 2, 3]


def test_features_that_put_the_board_where_it_was_hold_the_last_position():
    """Every marker hidden: the features tell whether the board moved, and where it did not,
    the markers' more exact position stands."""
    canvas = board_canvas(LAYOUT, seed=3)
    reference = FeatureReference.from_image(canvas[MARGIN:MARGIN + LAYOUT.height, MARGIN:MARGIN + LAYOUT.width], LAYOUT)
    reg = Registrar(LAYOUT, reference=reference)
    frame, H_true = camera_view(canvas, LAYOUT, tilt=0.04)
    first = reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    covered = cv2.cvtColor(hide(frame, H_true, [0, 1, 2, 3]), cv2.COLOR_BGR2GRAY)
    assert Registrar(LAYOUT, reference=reference).register(covered).source == "features"     # nothing to hold
    held = reg.register(covered)
    assert held.source == "held" and np.array_equal(held.H, first.H)
    moved, H_moved = camera_view(canvas, LAYOUT, tilt=0.04, shift=(40, 0))
    again = reg.register(cv2.cvtColor(hide(moved, H_moved, [0, 1, 2, 3]), cv2.COLOR_BGR2GRAY))
    assert again.source == "features" and reprojection_error(again.H, H_moved, LAYOUT) < 6.0
    assert reprojection_error(first.H, H_moved, LAYOUT) > 50.0


def test_no_board_gives_no_homography():
    reg = Registrar(LAYOUT)
    blank = np.full((720, 1280), 128, np.uint8)
    assert reg.register(blank).H is None and reg.register(blank).source == "none"


def test_feature_matching_finds_a_board_without_markers():
    canvas = board_canvas(LAYOUT, markers=False, seed=3)
    reference = canvas[MARGIN:MARGIN + LAYOUT.height, MARGIN:MARGIN + LAYOUT.width]
    frame, H_true = camera_view(canvas, LAYOUT, tilt=0.04)
    reg = Registrar(LAYOUT, reference=FeatureReference.from_image(reference, LAYOUT))
    result = reg.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert result.source == "features"
    assert reprojection_error(result.H, H_true, LAYOUT) < 4.0


def test_a_featureless_reference_picture_finds_nothing_and_does_not_fail():
    """A reference picture taken out of focus can hold no feature at all: the board is then
    not found by features (stale), where matching against it used to raise."""
    canvas = board_canvas(LAYOUT, markers=False, seed=3)
    frame, _ = camera_view(canvas, LAYOUT, tilt=0.04)
    blank = FeatureReference.from_image(np.full((732, 500), 128, np.uint8), LAYOUT)
    assert len(blank.keypoints) == 0
    assert blank.homography(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)) is None
    assert Registrar(LAYOUT, reference=blank).register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).source == "none"
    # pictures a pixel thin, as a broken camera or a damaged file can give: nothing, no error
    thin = np.random.default_rng(0).integers(0, 256, (1, 1280), np.uint8)
    assert len(FeatureReference.from_image(thin, LAYOUT).keypoints) == 0
    reference = FeatureReference.from_image(canvas[MARGIN:MARGIN + LAYOUT.height, MARGIN:MARGIN + LAYOUT.width], LAYOUT)
    assert reference.homography(thin) is None and reference.homography(thin.T.copy()) is None


def test_a_board_far_smaller_than_its_reference_picture_is_found_at_half_size():
    """A 640x480 camera shows the board smaller than ORB's pyramid reaches from the reference
    picture: the picture's features at half size find it."""
    canvas = board_canvas(LAYOUT, markers=False)
    picture = canvas[MARGIN:MARGIN + LAYOUT.height, MARGIN:MARGIN + LAYOUT.width]
    frame, H_true = camera_view(canvas, LAYOUT, size=(640, 480), tilt=0.03)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert FeatureReference.from_image(picture, LAYOUT, coarse=False).homography(gray) is None
    H = FeatureReference.from_image(picture, LAYOUT).homography(gray)
    assert H is not None and reprojection_error(H, H_true, LAYOUT) < 3.0


def test_four_clicked_corners():
    frame, H_true = camera_view(board_canvas(LAYOUT), LAYOUT, tilt=0.05)
    corners = np.float32([[[0, 0]], [[LAYOUT.width, 0]], [[LAYOUT.width, LAYOUT.height]], [[0, LAYOUT.height]]])
    clicks = cv2.perspectiveTransform(corners, np.linalg.inv(H_true)).reshape(4, 2)
    assert reprojection_error(homography_from_corners(clicks, LAYOUT), H_true, LAYOUT) < 0.01


def test_the_clicked_corners_are_the_last_resort_for_frames_of_their_size():
    """Issue 4's third way in: no markers, and a reference picture whose features find nothing
    (a blank one here), so only the corners clicked in the wizard place the board."""
    frame, H_true = camera_view(board_canvas(LAYOUT, markers=False), LAYOUT, tilt=0.05)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    corners = np.float32([[[0, 0]], [[LAYOUT.width, 0]], [[LAYOUT.width, LAYOUT.height]], [[0, LAYOUT.height]]])
    H = homography_from_corners(cv2.perspectiveTransform(corners, np.linalg.inv(H_true)).reshape(4, 2), LAYOUT)
    blank = FeatureReference.from_image(np.full((732, 500), 128, np.uint8), LAYOUT)
    clicked = ClickedCorners(tuple(map(tuple, H.tolist())), (gray.shape[1], gray.shape[0]))
    assert Registrar(LAYOUT, reference=blank).register(gray).source == "none"
    reg = Registrar(LAYOUT, reference=blank, clicked=clicked)
    first = reg.register(gray)
    assert first.source == "manual" and reprojection_error(first.H, H_true, LAYOUT) < 0.01
    assert reg.register(gray).source == "manual", "a still frame keeps saying where its position came from"
    other_size = cv2.resize(gray, (960, 540))
    assert Registrar(LAYOUT, reference=blank, clicked=clicked).register(other_size).source == "none"
    # Once the picture changes (here the camera moved, and markers were laid), what is found
    # takes over, and from then on the clicked corners are not used.
    with_markers, H_markers = camera_view(board_canvas(LAYOUT), LAYOUT, tilt=0.1)
    found = reg.register(cv2.cvtColor(with_markers, cv2.COLOR_BGR2GRAY))
    assert found.source == "aruco" and reprojection_error(found.H, H_markers, LAYOUT) < 2.0
    hidden = reg.register(gray)            # nothing found in it: the markers' position stands
    assert hidden.source == "stale" and np.array_equal(hidden.H, found.H)


def test_undistortion_with_saved_calibration(tmp_path):
    K = np.array([[800.0, 0, 640], [0, 800, 360], [0, 0, 1]])
    np.savez(tmp_path / "cal.npz", K=K, dist=np.zeros(5))
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT)
    undistort = Calibration.load(tmp_path / "cal.npz").undistorter((1280, 720))
    # Zero distortion must leave the picture as it is (up to interpolation).
    assert np.abs(undistort(frame).astype(int) - frame).mean() < 1.0
    barrel = Calibration(K, np.array([-0.2, 0.0, 0, 0, 0])).undistorter((1280, 720))
    assert np.abs(barrel(frame).astype(int) - frame).mean() > 3.0


def test_blurred_markers_are_found_on_a_second_sharpened_pass():
    # Seed 900075 of the hard held-out set: a blurred, noisy 1280x720 frame where the plain
    # pass finds two markers, too few to trust.
    sample = render(900_075, Options(size=(1280, 720), photo="hard", occlusion=0.3))
    gray = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE)
    detector = make_detector()
    assert len(detect_markers(gray, detector, {0, 1, 2, 3})) < 3
    assert len(decode_markers(gray, detector, {0, 1, 2, 3})[0]) >= 3
    reg = Registrar(LAYOUT).register(gray)
    H_true = np.asarray(sample.truth["homography"])
    assert reg.H is not None and reprojection_error(reg.H, H_true, LAYOUT, reg.lens) < 5.0
