"""The lens's radial distortion, fitted from the board's markers (vision.radial_lens)."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from lab.registration_eval import board_grid_error
from lab.synth.camera import Camera
from lab.synth.render import WIDE_K
from vision.barrage.pipeline import Pipeline
from vision.layout import load_layout
from vision.radial_lens import RadialLens, fit, to_board, to_frame
from vision.rectify import warp_view
from vision.registration import FeatureReference, Registrar, default_markers

from . import rendered

LAYOUT = load_layout()
GEOMETRY = default_markers(LAYOUT.width, LAYOUT.height)
BOARD = np.concatenate([GEOMETRY[i] for i in sorted(GEOMETRY)]).astype(np.float64)
# a board seen at a slant, filling most of a 1280x960 frame (board px -> frame px)
TO_FRAME = np.array([[0.55, 0.06, 330.0], [-0.05, 0.56, 70.0], [2e-5, 3e-5, 1.0]])


def seen(kappa: float, noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """The markers' corners in the frame of a lens of ``kappa``, with ``noise`` px of detection error."""
    ideal = cv2.perspectiveTransform(BOARD[:, None], TO_FRAME).reshape(-1, 2)
    return RadialLens((1280, 960), kappa).distort(ideal) + np.random.default_rng(seed).normal(0, noise, ideal.shape)


@pytest.mark.parametrize("kappa", [-0.2, 0.0, 0.12, 0.35])
def test_distort_undoes_undistort(kappa):
    lens = RadialLens((1280, 960), kappa)
    # within 0.8 of the half diagonal: a pincushion of -0.2 images nothing past 0.86
    angle, radius = np.random.default_rng(1).uniform((0, 0), (2 * np.pi, 0.8 * lens.radius), (200, 2)).T
    points = lens.centre + radius[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
    assert np.abs(lens.distort(lens.undistort(points)) - points).max() < 0.01
    assert np.abs(lens.undistort(lens.distort(points)) - points).max() < 0.01
    centre = lens.centre[None]
    assert np.allclose(lens.undistort(centre), centre)      # the centre does not move


def test_a_barrel_lens_pulls_the_corners_in():
    lens = RadialLens((1280, 960), 0.15)
    corner = np.array([[0.0, 0.0]])
    moved = lens.undistort(corner)[0]       # where a distortion-free lens puts what the frame shows there
    r = np.hypot(*lens.centre)          # the corner's distance from the centre, about the half diagonal
    assert moved[0] < 0 and moved[1] < 0
    assert np.hypot(*(moved - lens.centre)) == pytest.approx(r * (1 + 0.15 * r ** 2 / lens.radius ** 2))


@pytest.mark.parametrize("kappa", [-0.05, 0.0, 0.08, 0.25])
def test_the_markers_alone_give_the_lens(kappa):
    assert fit(seen(kappa), BOARD, (1280, 960)).kappa == pytest.approx(kappa, abs=1e-3)
    noisy = [fit(seen(kappa, 0.5, s), BOARD, (1280, 960)).kappa for s in range(5)]
    assert np.median(np.abs(np.array(noisy) - kappa)) < 0.03


def test_a_distortion_the_corners_do_not_call_for_is_none():
    """Blurred corners, one px off at random, on a distortion-free lens: what a kappa would
    soak up of that noise is no lens (the F test); a wide lens's barrel shows through it."""
    assert sum(fit(seen(0.0, 1.0, s), BOARD, (1280, 960)).kappa == 0.0 for s in range(10)) >= 8
    assert all(fit(seen(0.15, 1.0, s), BOARD, (1280, 960)).kappa > 0.1 for s in range(10))


def test_three_markers_or_a_fit_on_the_edge_give_no_lens():
    assert fit(seen(0.1)[:12], BOARD[:12], (1280, 960)) is None
    # a barrel past any webcam's: its best fit lies on the edge of the range searched
    assert fit(seen(1.5), BOARD, (1280, 960)) is None
    assert fit(seen(0.7), BOARD, (1280, 960)).kappa == pytest.approx(0.7, abs=1e-3)


def test_to_frame_and_to_board_are_inverses():
    lens = RadialLens((1280, 960), 0.1)
    H = np.linalg.inv(TO_FRAME)
    board = np.array([[0.0, 0.0], [500.0, 700.0], [1000.0, 1464.0]])
    assert np.abs(to_board(H, lens, to_frame(H, lens, board)) - board).max() < 0.01
    assert np.allclose(to_frame(H, None, board), cv2.perspectiveTransform(board[:, None], TO_FRAME).reshape(-1, 2))


def test_the_view_through_no_distortion_is_the_plain_warp():
    frame = np.random.default_rng(3).integers(0, 255, (960, 1280, 3), np.uint8)
    frame = cv2.GaussianBlur(frame, (0, 0), 3)          # smooth: both samplings agree
    H = np.linalg.inv(TO_FRAME)
    plain = warp_view(frame, H, LAYOUT)
    through = warp_view(frame, H, LAYOUT, lens=RadialLens((1280, 960), 0.0))
    assert plain.shape == through.shape
    assert np.abs(plain.astype(int) - through.astype(int)).mean() < 1.0


def wide_frame(seed: int) -> tuple[np.ndarray, dict]:
    frame, truth = rendered.wide_frame(seed)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), truth


@pytest.mark.parametrize("seed", [930_005, 930_008])
def test_a_wide_angle_frame_is_registered_through_its_lens(seed):
    gray, truth = wide_frame(seed)
    camera = Camera.from_record(truth["image_size"], truth["style"]["camera"])
    assert WIDE_K[0] <= camera.k1 <= WIDE_K[1]
    fitted = Registrar(LAYOUT).register(gray)
    plain = Registrar(LAYOUT, fit_lens=False).register(gray)
    assert fitted.lens is not None and plain.lens is None
    # the generator's k is per focal length, kappa per half diagonal
    expected = camera.k1 * (np.hypot(*truth["image_size"]) / 2 / camera.K[0, 0]) ** 2
    assert fitted.lens.kappa == pytest.approx(expected, abs=0.03)
    with_lens = board_grid_error(fitted.H, fitted.lens, camera, LAYOUT)
    without = board_grid_error(plain.H, None, camera, LAYOUT)
    assert with_lens < 8.0 and with_lens < 0.6 * without


def test_the_lens_is_kept_while_the_markers_are_hidden_and_forgotten_on_reset():
    gray, _ = wide_frame(930_005)
    registrar = Registrar(LAYOUT)
    first = registrar.register(gray)
    assert registrar.register(gray).lens == first.lens        # cached
    hidden = registrar.register(np.full_like(gray, 128))
    assert hidden.source == "stale" and hidden.lens == first.lens
    registrar.reset()
    assert registrar.register(np.full_like(gray, 128)).lens is None


def test_features_register_a_frame_through_the_lens_its_markers_gave():
    """The fallback, feature matching against a reference picture of the board, takes the
    frame through the lens the camera's markers gave while they showed; and where the
    features put the board where the markers did, the markers' position and lens stand."""
    gray, truth = wide_frame(930_005)
    camera = Camera.from_record(truth["image_size"], truth["style"]["camera"])
    first = Registrar(LAYOUT).register(gray)
    picture = warp_view(cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), first.H, LAYOUT, lens=first.lens)
    reference = FeatureReference.from_image(picture, LAYOUT)
    hidden = gray.copy()
    for corners in first.corners.values():        # a hand over each marker
        middle = corners.mean(0)
        cv2.fillConvexPoly(hidden, (middle + 1.6 * (corners - middle)).astype(np.int32), 128)
    error = {}
    for lens in (first.lens, None):
        H = reference.homography(hidden, lens=lens)
        error[lens is not None] = board_grid_error(H, lens, camera, LAYOUT)
    assert error[True] < 8.0 and error[True] < 0.6 * error[False]
    registrar = Registrar(LAYOUT, reference=reference)
    assert registrar.register(gray).source == "aruco"
    held = registrar.register(hidden)
    assert held.source == "held" and held.lens == first.lens and np.array_equal(held.H, first.H)


def test_the_pipeline_reads_through_the_fitted_lens_unless_the_profile_has_a_calibration(tmp_path):
    gray, _ = wide_frame(930_005)
    frame = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    reading = Pipeline.load(heights=None, counters={}, specialist=None).read_frame(frame)
    assert reading.lens is not None and reading.to_dict()["lens_kappa"] == round(reading.lens.kappa, 4)
    assert Pipeline.load(heights=None, counters={}, specialist=None, fit_lens=False).read_frame(frame).lens is None
    np.savez(tmp_path / "cal.npz", K=np.array([[900.0, 0, 640], [0, 900.0, 480], [0, 0, 1]]), dist=np.zeros(5))
    (tmp_path / "profile.json").write_text(json.dumps({"calibration": "cal.npz"}))
    calibrated = Pipeline.load(tmp_path / "profile.json", heights=None, counters={}, specialist=None)
    assert not calibrated.registrar.fit_lens and calibrated.read_frame(frame).lens is None


def test_kappa_does_not_depend_on_the_frame_size_and_a_new_size_starts_afresh():
    """A webcam's frames at half the size: the same lens (kappa is per half diagonal), fitted
    anew, the fits of the other size forgotten (another size, likely another camera)."""
    gray, _ = wide_frame(930_005)
    registrar = Registrar(LAYOUT)
    full = registrar.register(gray).lens
    half = registrar.register(cv2.resize(gray, (640, 480), interpolation=cv2.INTER_AREA)).lens
    assert half.size == (640, 480) and registrar._kappas == [half.kappa]
    assert half.kappa == pytest.approx(full.kappa, abs=0.03)
