"""Round phases and scoring around the Automa turns (base rules the Automa rulebook assumes).

004: "If an Automa player has the most elements according to the Objective tile condition, they
score 20 VP, 15 VP for second and 10 VP for third place." "Automa players will collect activated
income according to their Company boards."
"""
from automa.barrage import phases
from automa.barrage.state import validate

from .scenario import conduit, dam, powerhouse, scenario


def test_objective_tile_scores_20_15_10_for_automas_and_15_10_5_for_humans():
    s = scenario("usa", ("france", "italy"), actions=1, criteria=2, automas=2)   # usa, france Automas
    s.objective_tile = 5                    # basins (zones) with at least one own structure
    dam(s, "1L", "usa"); dam(s, "2L", "usa"); dam(s, "3L", "usa")       # 3 zones
    dam(s, "5L", "france"); dam(s, "6L", "france")                     # 2 zones
    dam(s, "8L", "italy")                                              # 1 zone (human)
    assert phases.objective_vp(s) == {"usa": 20, "france": 15, "italy": 5}


def test_objective_ties_share_the_covered_places_rounded_up():
    s = scenario("usa", ("france", "italy"), actions=1, criteria=2, automas=2)
    s.objective_tile = 5
    dam(s, "1L", "usa"); dam(s, "2L", "france")
    assert phases.objective_vp(s) == {"usa": 18, "france": 18, "italy": 5}, "(20 + 15) / 2 = 17.5 -> 18"


def test_objective_counts():
    s = scenario("usa", ("france",), actions=1, criteria=2)
    dam(s, "1U", "usa", pieces=2)          # red, mountains, 2 pieces
    conduit(s, "1A", "usa")                # leads to group 8
    powerhouse(s, "P8_2", "usa")           # red, plains
    assert phases.objective_count(s, "usa", 1) == 2, "base and powerhouse on red-outlined spaces"
    assert phases.objective_count(s, "usa", 2) == 3, "mountains: 2 dam pieces + 1 conduit"
    assert phases.objective_count(s, "usa", 3) == 1, "base linked by own conduit to own powerhouse"
    assert phases.objective_count(s, "usa", 4) == 0, "hills: nothing"
    assert phases.objective_count(s, "usa", 5) == 2, "zones 1 and 8"
    assert phases.objective_count(s, "usa", 6) == 1, "zone 1 holds 3 pieces"


def test_energy_track_placement():
    assert phases.energy_rank_vp({"a": 9, "b": 5, "c": 0}) == {"a": 6, "b": 2}
    assert phases.energy_rank_vp({"a": 9, "b": 9, "c": 5}) == {"a": 4, "b": 4}, "tied firsts share 8, no second"
    assert phases.energy_rank_vp({"a": 9, "b": 5, "c": 5}) == {"a": 6, "b": 1, "c": 1}
    assert phases.energy_rank_vp({"a": 0}) == {}


def test_energy_credits_table_and_round_bonus_malus():
    assert phases.energy_credits(0) == (3, -3)
    assert phases.energy_credits(1) == (1, 0)
    assert phases.energy_credits(12) == (5, 0)
    assert phases.energy_credits(40) == (8, 0)
    s = scenario("usa", ("france",), actions=1, criteria=2, round_=2)
    s.bonus_tiles = [0, 1, 2, 3, 4]          # round 2: 4 VP per dam base
    dam(s, "1L", "usa"); dam(s, "2L", "usa"); dam(s, "3L", "usa")
    s.energy = {"usa": 12, "france": 0}
    assert phases.round_bonus_vp(s, "usa") == 12, "full reward at 6 x round"
    s.energy["usa"] = 7
    assert phases.round_bonus_vp(s, "usa") == 12 - 4, "one 6-energy step short: -4"
    s.energy["usa"] = 5
    assert phases.round_bonus_vp(s, "usa") == 0, "nothing below 6 energy"


def test_automa_income_phase_pays_uncovered_incomes():
    s = scenario("germany", ("france",), actions=1, criteria=2)
    dam(s, "1L", "germany"); dam(s, "2L", "germany")        # 2 bases: Germany's income is 3 VP
    before = s.companies["germany"].vp
    ops = phases.income_phase(s)
    assert s.companies["germany"].vp == before + 3
    assert any(op["op"] == "vp" for op in ops)
    s.companies["germany"].difficulty = "easy"
    assert phases.income_phase(s) == [], "Easy: no income"


def test_headstreams_and_water_flow():
    s = scenario("usa", ("france",), actions=1, criteria=2)
    s.headstream_tiles = {"A": 3, "B": 1, "C": 4, "D": 2}    # round I: 2, 0, 1, 0
    phases.headstream_phase(s)
    assert s.headstreams == {"A": 2, "B": 0, "C": 1, "D": 0}
    dam(s, "8U", "usa", pieces=1)
    ops = phases.water_flow_phase(s)
    assert s.headstreams == {h: 0 for h in "ABCD"}
    assert s.dams["8U"].drops == 1
    assert {(o["source"], o["target"], o["count"]) for o in ops} == {
        ("headstream:A", "dam:8U", 1), ("headstream:A", "exit", 1), ("headstream:C", "exit", 1)}
    s.round = 5
    assert phases.headstream_phase(s) == [], "round 5 adds no water"


def test_round_end_resets_and_orders_by_energy():
    s = scenario("usa", ("france", "italy"), actions=1, criteria=2)
    s.energy = {"usa": 10, "france": 2, "italy": 2}
    s.turn_order = ["usa", "france", "italy"]
    s.companies["usa"].engineers = 0
    phases.round_end(s)
    validate(s)
    assert s.round == 2
    assert s.turn_order == ["italy", "france", "usa"], "least energy first; ties swap their order"
    assert all(c.engineers == 12 for c in s.companies.values())
    assert set(s.energy.values()) == {0}
    assert s.action_spaces == {}
