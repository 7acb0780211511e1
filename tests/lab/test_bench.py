"""``automa-vision bench --json``: the figures the issue asks for, measured for real."""
import json

import pytest

from automa_vision.cli import main

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


def test_bench_json_has_speed_and_fixture_accuracy(capsys):
    assert main(["bench", "--games", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["decide_ms_median"] > 0
    for level in ("easy", "medium", "hard", "very_hard"):
        assert figures[f"barrage_{level}_decide_ms_median"] > 0
    for game in ("age_of_innovation", "expeditions"):
        assert figures[f"{game}_turns_timed"] > 0 and figures[f"{game}_decide_ms_median"] > 0
    assert 0 < figures["frame_ms_median"] <= figures["frame_ms_p95"]
    assert figures["registration_ms_cold"] > 0
    assert figures["fixture_n_images"] == 30 and figures["fixture_boards_not_found"] == 0
    assert 0 <= figures["fixture_slot_error"] < 1 and 0 <= figures["fixture_boards_fully_correct"] <= 1
    assert 0 <= figures["fixture_errors_flagged"] <= 1
    # ten clean fixtures watched under sensor noise: one state each, read about as well as one frame
    assert figures["fixture_stability_boards"] == 10 and figures["fixture_stability_boards_no_state"] == 0
    assert 0 <= figures["fixture_stability_stable_slot_error"] <= 0.1
    # the page's turns on the fixtures: at least as many listed right in a session as blind,
    # and at least as many again when the session compares pictures (rulings V8)
    assert figures["fixture_build_turns"] >= 20 and figures["fixture_water_turns"] >= 20
    for kind in ("build", "production", "water"):
        assert 0 <= figures[f"fixture_{kind}_turns_right_blind"] <= figures[f"fixture_{kind}_turns_right_session"] \
            <= figures[f"fixture_{kind}_turns_right_pictures"] <= 1
        # moves, not boards (rulings V13): the best legal move, within the three the page offers
        for way in ("ranked", "ranked_pictures"):
            assert 0 <= figures[f"fixture_{kind}_turns_right_{way}"] <= figures[f"fixture_{kind}_turns_offered_{way}"] <= 1
