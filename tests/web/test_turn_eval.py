"""web.turn_eval: one turn per synthetic image, listed by the page as a player would see it."""
import json
import random
from pathlib import Path

from vision.changes import diff
from web.turn_eval import before_the_turn, main, truth_map

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"


def test_the_turn_before_a_frame_lacks_one_build_of_its_builder():
    truth = json.loads((FIXTURES / "clean_00.json").read_text())
    after = truth_map(truth)
    assert after.dams and after.headstreams and not after.unknown
    for seed in range(20):
        before, builder = before_the_turn(after, random.Random(seed))
        made = diff(before, after)
        assert made[0].owner == builder != "neutral"
        assert made[0].kind in ("dam", "elevation", "conduit", "powerhouse")
        assert all(m.kind == "drops" for m in made[1:])          # a new dam's water, nothing else


def test_the_page_lists_at_least_as_many_turns_right_as_a_blind_reading(tmp_path, capsys):
    for name in ("clean_00", "clean_01", "hard_00"):
        for suffix in (".jpg", ".json"):
            (tmp_path / f"{name}{suffix}").write_bytes((FIXTURES / f"{name}{suffix}").read_bytes())
    assert main([str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["turns"] == 3 and figures["not_registered"] == 0
    assert figures["session_exact"] >= figures["blind_exact"]
    assert figures["session_extra_moves"] <= figures["blind_extra_moves"]
    assert main([str(tmp_path / "none")]) == 2
