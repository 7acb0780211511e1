"""lab.turn_eval: one turn per synthetic image, listed by the page as a player would see it."""
import json
import random
from pathlib import Path

import cv2
import pytest

from automa.barrage.rules import production_systems
from lab.turn_eval import (_count, _count_ranked, before_a_production, before_the_turn, before_water_management,
                           main, truth_map)
from vision.barrage.changes import Move, diff
from web.barrage.game import rank_turn, read_against

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

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


def test_the_map_before_a_production_flows_into_the_frames_map():
    """One dam, its producer's or neutral, held more water; the rest of the difference is
    that water, caught downstream: the water rules (rulings V5) take every drop of it."""
    found = 0
    for path in sorted(FIXTURES.glob("*.json")):
        after = truth_map(json.loads(path.read_text()))
        for seed in range(5):
            picked = before_a_production(after, random.Random(seed))
            if picked is None:
                continue
            found += 1
            before, producer = picked
            drained = [s for s, d in before.dams.items() if d.drops > after.dams[s].drops]
            assert len(drained) == 1 and drained[0] in {s.dam for s in production_systems(before, producer)}
            gained = sum(after.dams[s].drops - d.drops for s, d in before.dams.items() if after.dams[s].drops > d.drops)
            assert gained <= before.dams[drained[0]].drops - after.dams[drained[0]].drops   # the rest left the map
            assert before.conduits == after.conduits and before.powerhouses == after.powerhouses
            fixed, refused = read_against(before, after, producer)
            assert fixed == after and refused == []
    assert found >= 10


def test_the_map_before_water_management_lacks_two_headstream_drops_or_one_that_ran_down():
    kinds = set()
    for path in sorted(FIXTURES.glob("*.json")):
        after = truth_map(json.loads(path.read_text()))
        for seed in range(5):
            picked = before_water_management(after, random.Random(seed), ["usa", "italy"])
            if picked is None:
                continue
            before, mover = picked
            assert mover in ("usa", "italy")
            moves = diff(before, after)
            assert moves and all(m.kind == "drops" and "added" in m.text for m in moves)
            on_headstreams = sum(after.headstreams[h] - before.headstreams[h] for h in after.headstreams)
            in_dams = sum(after.dams[s].drops - d.drops for s, d in before.dams.items())
            assert (on_headstreams, in_dams) in ((2, 0), (0, 1))
            kinds.add(on_headstreams)
            fixed, refused = read_against(before, after, mover)
            assert fixed == after and refused == []      # nothing built: the water rules take it all
    assert kinds == {0, 2}
    assert before_water_management(truth_map(json.loads((FIXTURES / "clean_00.json").read_text())),
                                   random.Random(0), []) is None


def test_the_page_lists_at_least_as_many_turns_right_as_a_blind_reading(tmp_path, capsys):
    for name in ("clean_00", "clean_01", "hard_00"):
        for suffix in (".jpg", ".json"):
            (tmp_path / f"{name}{suffix}").write_bytes((FIXTURES / f"{name}{suffix}").read_bytes())
    assert main([str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["turns"] == 3 and figures["not_registered"] == 0 and figures["production_turns"] >= 1
    assert figures["water_turns"] >= 1
    assert figures["session_exact"] >= figures["blind_exact"]
    assert figures["session_extra_moves"] <= figures["blind_extra_moves"]
    assert 0 <= figures["session_wrong_but_asked"] <= figures["turns"] - figures["session_exact"]
    assert "blind_wrong_but_asked" not in figures         # no page reads blind
    for kind in ("", "production_", "water_"):          # moves, not boards: the best, the three offered, any
        assert (figures[f"ranked_{kind}exact"] <= figures[f"ranked_{kind}top3"] <= figures[f"ranked_{kind}legal"]
                <= figures[f"{kind}turns"])
    assert main([str(tmp_path / "none")]) == 2


def test_a_turn_with_no_earlier_picture_is_read_with_the_pictures_as_the_session_reads_it(tmp_path, capsys):
    # hard_09 with a patch painted over its corner: no generator options give that picture,
    # so its earlier frame cannot be rendered; the page would have no earlier picture, and
    # V8 changes nothing on its turns.
    frame = cv2.imread(str(FIXTURES / "hard_09.jpg"))
    frame[:40, :40] = 255
    cv2.imwrite(str(tmp_path / "hard_09.jpg"), frame)
    (tmp_path / "hard_09.json").write_bytes((FIXTURES / "hard_09.json").read_bytes())
    assert main([str(tmp_path), "--pairs"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["not_reproduced"] == 1 and figures["turns"] == 1
    for kind in ("", "production_", "water_"):
        for count in ("exact", "move_missed", "extra_moves", "wrong_but_asked", "asked_slots"):
            assert figures[f"pictures_{kind}{count}"] == figures[f"session_{kind}{count}"]
    assert figures["session_exact"] == 1     # its build turn is read right, with the pictures too


def test_a_turn_listed_wrong_is_caught_when_the_page_asks_about_a_slot_it_got_wrong():
    made = [Move("conduit", "1A", "usa", "usa built a conduit on 1A")]
    phantom = [Move("dam", "5U", "usa", "usa built a dam on 5U")]
    counts = {"s_exact": 0, "s_move_missed": 0, "s_extra_moves": 0, "s_extra_by_kind": {},
              "s_wrong_but_asked": 0, "s_asked_slots": 0}
    _count(counts, "s_", made, made, made, {"6U"})          # right: nothing to catch
    _count(counts, "s_", made, [], made, {"1A", "2B"})       # the move missed, its slot asked about
    _count(counts, "s_", made, phantom, made, {"5U"})        # a phantom listed, its slot asked about
    _count(counts, "s_", made, [], made, {"2B"})             # missed, not asked
    assert counts["s_exact"] == 1 and counts["s_move_missed"] == 3
    assert counts["s_wrong_but_asked"] == 2 and counts["s_asked_slots"] == 5


def test_a_legal_turn_read_as_the_table_is_ranked_first_and_a_dam_built_with_water_is_no_legal_move():
    truth = json.loads((FIXTURES / "clean_00.json").read_text())
    after = truth_map(truth)
    after.confidence = {s: 0.97 for s in [*after.dams, *after.conduits, *after.powerhouses, *after.headstreams]}
    counts = {f"r_{x}": 0 for x in ("exact", "top3", "legal", "wrong_but_flagged")}
    turns = 0
    for seed in range(30):
        known, mover = before_the_turn(after, random.Random(seed))
        made = diff(known, after)
        _count_ranked(counts, "r_", known, made, rank_turn(known, after, mover))
        # a new dam holding drops is not a construction (a dam is built bare): no listed move makes it
        turns += not (made[0].kind == "dam" and after.dams[made[0].space].drops)
    assert counts["r_legal"] == counts["r_exact"] == counts["r_top3"] == turns > 0
    assert counts["r_wrong_but_flagged"] == 30 - turns
