"""The camera's position from the board homography: nadir and height above the board."""
import math

import numpy as np
import pytest

from lab.registration_eval import camera_errors
from lab.synth.camera import Camera, look_at
from vision.pose import DEFAULT_HFOV_DEG, camera_position, focal_length
from vision.rectify import HEIGHT, plan_crops

from .drawn import LAYOUT

SIZE = (1280, 720)


def camera(eye, target=(500.0, 730.0), hfov_deg=60.0, roll=0.3):
    """K and the frame -> canonical homography of a camera at ``eye`` (z < 0 is above the board)."""
    f = SIZE[0] / 2 / math.tan(math.radians(hfov_deg) / 2)
    K = np.array([[f, 0, SIZE[0] / 2], [0, f, SIZE[1] / 2], [0, 0, 1.0]])
    R, t = look_at(np.asarray(eye, float), np.array([*target, 0.0]), roll)
    board_to_image = K @ np.column_stack([R[:, 0], R[:, 1], t])
    return K, np.linalg.inv(board_to_image)


@pytest.mark.parametrize("eye", [(900.0, 1500.0, -2000.0), (-300.0, 200.0, -1600.0), (500.0, 2400.0, -1800.0)])
def test_a_tilted_camera_is_found_where_it_is(eye):
    K, H = camera(eye)
    x, y, height = camera_position(H, (SIZE[1], SIZE[0]))
    assert np.hypot(x - eye[0], y - eye[1]) < 1.0
    assert height == pytest.approx(-eye[2], rel=1e-3)
    assert focal_length(np.linalg.inv(H), SIZE) == pytest.approx(K[0, 0], rel=1e-3)


def test_the_image_centre_is_not_the_nadir_of_a_tilted_camera():
    """Why the pose is needed: 20 degrees of tilt at 2000 px puts the point under the image
    centre ~700 px (a third of a metre) from the point under the camera."""
    eye = (500.0 + 2000 * math.sin(math.radians(20)), 730.0, -2000 * math.cos(math.radians(20)))
    _, H = camera(eye)
    centre = H @ np.array([SIZE[0] / 2, SIZE[1] / 2, 1.0])
    assert np.hypot(*(centre[:2] / centre[2] - [500, 730])) < 1
    assert np.hypot(*(camera_position(H, (SIZE[1], SIZE[0]))[:2] - eye[:2])) < 1


def test_straight_down_keeps_the_nadir_and_assumes_a_typical_lens():
    """Looking straight down, the focal length cannot be told from the view: the nadir is
    still exact, the height is the one of a typical webcam's field of view."""
    eye = (400.0, 700.0, -2000.0)
    _, H = camera(eye, target=eye[:2], hfov_deg=DEFAULT_HFOV_DEG)
    x, y, height = camera_position(H, (SIZE[1], SIZE[0]))
    assert np.hypot(x - 400, y - 700) < 1
    assert height == pytest.approx(2000, rel=0.01)


def test_a_saved_lens_calibration_is_used_as_given():
    eye = (400.0, 700.0, -2000.0)
    K, H = camera(eye, target=eye[:2], hfov_deg=40.0)      # a long lens: the default guess is wrong
    guessed = 2000 * math.tan(math.radians(20)) / math.tan(math.radians(DEFAULT_HFOV_DEG / 2))
    assert camera_position(H, (SIZE[1], SIZE[0]))[2] == pytest.approx(guessed, rel=1e-3)
    assert camera_position(H, (SIZE[1], SIZE[0]), K)[2] == pytest.approx(2000, rel=1e-3)


@pytest.mark.parametrize("H", [np.zeros((3, 3)), np.array([[1, 2, 3], [2, 4, 6], [0, 0, 1.0]])])
def test_a_degenerate_homography_means_no_lean_not_a_crash(H):
    camera = camera_position(H, (SIZE[1], SIZE[0]))
    assert camera[2] == np.inf
    plain = plan_crops(LAYOUT, camera, heights={k: 0.0 for k in HEIGHT})
    assert np.array_equal(plan_crops(LAYOUT, camera).rects, plain.rects)


def test_camera_errors_against_a_generator_record():
    """The generator places the board in its pictures by shifting the principal point, which
    the pose takes as centred: such cameras are found only roughly (measured by
    ``python -m lab.registration_eval``)."""
    eye = np.array([900.0, 1500.0, -2000.0])
    K, H = camera(eye)
    R, t = look_at(eye, np.array([500.0, 730.0, 0.0]), 0.3)
    generator_camera = Camera(SIZE, K, R, t, 0.0)
    nadir, height = camera_errors(H, (SIZE[1], SIZE[0]), generator_camera)
    assert nadir < 1 and height < 1e-3
    shifted = np.array([[1, 0, 120], [0, 1, 0], [0, 0, 1.0]]) @ np.linalg.inv(H)     # principal point moved
    nadir, height = camera_errors(np.linalg.inv(shifted), (SIZE[1], SIZE[0]), generator_camera)
    assert nadir > 50
