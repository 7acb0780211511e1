"""How far one elevation moves a dam's top and its shadow in a synthetic image (its ground
truth's camera, pieces and light), and the evaluation's dam heights counted by those cues."""
import numpy as np
import pytest

from lab.bands import band as band_of
from lab.elevation_cues import BANDS, elevation_cues
from lab.evaluate import Tally, score_image, summary
from tests.vision.pinhole import ABOVE, FOCAL, RISE, truth_seen_from
from vision.layout import load_layout
from vision.reader import SlotReading

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


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
