"""How far one elevation moves a dam's top and its shadow in the picture, and the
evaluation's dam heights counted by those cues."""
import numpy as np
import pytest

from calibration.elevations import ElevationCheck, check_elevations
from lab.bands import band as band_of
from lab.elevation_cues import BANDS, elevation_cues
from lab.evaluate import Tally, score_image, summary
from lab.synth.pieces import sample_style, style_record
from vision.barrage.height_cues import lean_over_map
from vision.layout import load_layout
from vision.reader import SlotReading

FOCAL, ABOVE, RISE = 1000.0, 2000.0, 12.0


def truth_seen_from(over: str, light_elevation: float = 45.0, slots: list | None = None) -> dict:
    """A ground truth whose camera looks straight down from ABOVE canonical px over the
    centre of space ``over``; elevations RISE px tall."""
    cx, cy = load_layout().slot(over).centre
    pieces = style_record(sample_style(np.random.default_rng(0)))
    pieces.update(elevation_height=RISE, light_elevation=light_elevation, light_azimuth=30.0)
    # World z points into the table, so a camera looking down has the world's own axes.
    camera = {"K": [[FOCAL, 0, 640], [0, FOCAL, 480], [0, 0, 1]], "R": np.eye(3).tolist(),
              "t": [-cx, -cy, ABOVE], "k1": 0.0}
    return {"image_size": [1280, 960], "style": {"camera": camera, "pieces": pieces}, "slots": slots or []}


def test_an_elevation_leans_as_far_as_the_pinhole_says_and_not_at_all_under_the_camera():
    truth = truth_seen_from("1U")
    assert elevation_cues(truth, "1U").lean == pytest.approx(0.0, abs=1e-6)
    lay = load_layout()
    d = float(np.hypot(*np.subtract(lay.slot("5L").centre, lay.slot("1U").centre)))
    # A top RISE up, d from the nadir: f * d / (H - RISE) against f * d / H on the board.
    expected = FOCAL * d * RISE / (ABOVE * (ABOVE - RISE))
    assert elevation_cues(truth, "5L").lean == pytest.approx(expected, rel=1e-6)
    assert expected > 1          # the test's spaces are far enough apart to tell


def test_a_shadow_reaches_as_far_as_the_light_is_low():
    # Under a light 45 degrees up, a point RISE up throws its shadow RISE along the board.
    assert elevation_cues(truth_seen_from("1U", 45.0), "1U").shadow == pytest.approx(FOCAL * RISE / ABOVE, rel=1e-6)
    low, high = (elevation_cues(truth_seen_from("1U", e), "1U").shadow for e in (35.0, 85.0))
    assert low > FOCAL * RISE / ABOVE > high


def test_a_truth_without_the_generators_camera_has_no_cues():
    assert elevation_cues({"slots": []}, "1U") is None
    assert elevation_cues({"image_size": [640, 480], "style": {"camera": {}}, "slots": []}, "1U") is None
    assert elevation_cues(truth_seen_from("1U") | {"style": "not the generator's"}, "1U") is None
    assert elevation_cues(truth_seen_from("1U"), "no such space") is None


def test_bands():
    assert [band_of(BANDS, px) for px in (0.0, 0.99, 1.0, 3.9, 4.0, 50.0)] == [
        "< 1 px", "< 1 px", "1-2 px", "2-4 px", ">= 4 px", ">= 4 px"]


def test_the_evaluation_counts_company_dams_read_standing_by_their_cues():
    slots = [{"id": "1U", "kind": "dam", "piece": "base+1", "owner": "usa", "drops": 0},    # under the camera
             {"id": "5L", "kind": "dam", "piece": "base", "owner": "italy", "drops": 0},   # far from it
             {"id": "2L", "kind": "dam", "piece": "base+2", "owner": "neutral", "drops": 0},
             {"id": "3L", "kind": "dam", "piece": "base", "owner": "usa", "drops": 0}]
    truth = truth_seen_from("1U", 85.0, slots)
    sure = 0.99
    readings = [SlotReading("1U", "dam", "base", "usa", 0, sure),        # height wrong, no lean
                SlotReading("5L", "dam", "base", "italy", 0, sure),      # right
                SlotReading("2L", "dam", "base", "neutral", 0, sure),    # neutral: its height is known, not counted
                SlotReading("3L", "dam", "empty", None, 0, sure)]        # missed: no height read, not counted
    tally = Tally()
    score_image(tally, truth, readings, "img")
    lean = summary(tally)["dam_height_error_by_cue"]["lean"]
    far = band_of(BANDS, elevation_cues(truth, "5L").lean)
    assert far != "< 1 px"
    assert lean == {"< 1 px": {"dams": 1, "error": 1.0}, far: {"dams": 1, "error": 0.0}}
    shadow = summary(tally)["dam_height_error_by_cue"]["shadow"]
    assert sum(b["dams"] for b in shadow.values()) == 2


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
