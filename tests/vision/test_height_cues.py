"""How far one elevation moves a dam's top in a real table's frame, from its registration
alone (``vision.barrage.height_cues``), and what the calibration wizard says of it; the
generator's pinhole (``lab.elevation_cues``) is the reference."""
import numpy as np
import pytest

from calibration.elevations import ElevationCheck, check_elevations
from lab.elevation_cues import elevation_cues
from tests.vision.pinhole import ABOVE, FOCAL, RISE, truth_seen_from
from vision.barrage.height_cues import lean_over_map
from vision.layout import load_layout


def tilted_camera(tilt_deg: float) -> tuple[dict, np.ndarray]:
    """A camera record looking down at the board, tilted about the board's x axis, its
    principal point at the image centre (as a webcam's), and the homography (frame px ->
    canonical px) it registers."""
    lay = load_layout()
    a = np.radians(tilt_deg)
    R = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    centre = np.array([lay.width / 2, lay.height / 2 + ABOVE * np.tan(a), -ABOVE])
    t = -R @ centre
    K = np.array([[FOCAL, 0, 640], [0, FOCAL, 480], [0, 0, 1.0]])
    board_to_image = K @ np.column_stack([R[:, 0], R[:, 1], t])
    record = {"K": K.tolist(), "R": R.tolist(), "t": t.tolist(), "k1": 0.0}
    return record, np.linalg.inv(board_to_image)


def test_the_lean_over_the_map_from_the_homography_alone_is_the_cameras_own():
    record, H = tilted_camera(20.0)
    truth = truth_seen_from("1U")
    truth["style"]["camera"] = record
    over_map = lean_over_map(H, (960, 1280, 3), load_layout(), rise=RISE)
    assert len(over_map) == len(load_layout().of_kind("dam"))
    for space, px in over_map.items():
        assert px == pytest.approx(elevation_cues(truth, space).lean, rel=1e-6, abs=1e-6)
    assert max(over_map.values()) > 2 * min(over_map.values())      # far spaces lean more


def test_the_wizard_says_where_elevations_hardly_show():
    lay = load_layout()
    _, steep = tilted_camera(0.0)
    straight_down = check_elevations(steep, (960, 1280, 3), lay)
    assert straight_down.faint and "less than 1 px" in straight_down.message
    assert "further to the side" in straight_down.message
    # The same camera with twice the pixels (a larger sensor behind the same lens) sees more.
    _, H = tilted_camera(10.0)
    sharp = check_elevations(H @ np.diag([0.5, 0.5, 1.0]), (1920, 2560, 3), lay)
    assert len(sharp.faint) < len(check_elevations(H, (960, 1280, 3), lay).faint)
    assert all(sharp.lean[s] == pytest.approx(2 * px, rel=1e-6)
               for s, px in check_elevations(H, (960, 1280, 3), lay).lean.items())
    plenty = ElevationCheck({s: 3.0 for s in sharp.lean})
    assert plenty.message.startswith("Dam heights: one elevation moves a dam's top by 3.0-3.0 camera px")
    assert "wrong" not in plenty.message
    assert ElevationCheck({}).message == "Dam heights: this layout has no dam spaces."
