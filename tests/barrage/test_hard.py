"""Hard ("High Voltage") Automas: Advanced Technology tiles' special effects with the six Automa rules,
and the third-powerhouse company abilities (seed 004 "High Voltage" appendix; 000 Apêndice 2 names the
tile of each rule)."""
import pytest

from automa.barrage import phases
from automa.barrage.data import barrage_map, components
from automa.barrage.engine import decide

from .scenario import conduit, dam, hard, invested, powerhouse, scenario, set_contracts


# -- tile choice -------------------------------------------------------------------------
def test_higher_level_tile_first_specific_before_wild():
    """"they will always use the higher level tile (III II I). In case of a tie, Automa will prefer a
    specific structure tile to a wild tile"."""
    s = hard(scenario(actions=4, criteria=1))
    s.companies["usa"].tiles += ["L1_BASE", "L1_JOKER"]
    assert invested(decide(s))["tile"] == "L1_BASE"
    s.companies["usa"].tiles += ["L2_JOKER"]
    assert invested(decide(s))["tile"] == "L2_JOKER"


# -- the six Automa rules ---------------------------------------------------------------------
def test_l2_conduit_caps_the_cost_and_prefers_a_conduit_of_value_three_or_more():
    """L2 Conduit: a conduit costing 6+ excavators costs 5; Automa rule: "In case of a tie among eligible
    positions, Automa will always choose a Conduit of value 3 or higher". Tile 11 (a conduit), Criteria of
    tile 13 (second most powerful): with 5 excavators a Medium Automa can only afford value 1-2."""
    s = scenario(actions=11, criteria=13)
    s.companies["usa"].excavators = 5
    s.companies["usa"].tiles.append("L2_CONDUIT")
    medium = decide(s)
    assert barrage_map().conduits[medium.target].value <= 2
    hard(s)
    d = decide(s)
    assert barrage_map().conduits[d.target].value >= 3
    assert invested(d)["excavators"] == 5
    assert any("L2 Conduit" in line for line in d.trace)


def test_l2_powerhouse_activates_the_best_production():
    """L2 Powerhouse: "Automa will activate the best available production" (+2, after building)."""
    s = hard(scenario(actions=15, criteria=1))     # tile 15: production +1 green first, then a powerhouse
    dam(s, "2L", "usa", pieces=2, drops=2)
    conduit(s, "2A", "usa")                        # value 3, to group 6: no powerhouse yet
    s.companies["usa"].tiles.append("L2_POWERHOUSE")
    d = decide(s)
    assert d.action == "construction" and d.target == "P6_0"       # the third structure of the system
    assert [op["delta"] for op in d.ops if op["op"] == "energy"] == [2 * 3 + 2]
    assert any(op["op"] == "fulfil" for op in d.ops)


def test_l1_joker_builds_a_base_on_the_red_outlined_space_without_surcharge():
    """L1 Joker: "If Automa is building a Base, it will choose a building space with a red outline"
    (000: after all the criteria) and pays no red surcharge. Tile 4, Criteria of tile 1: basin 1."""
    s = scenario(actions=4, criteria=1)
    s.companies["usa"].tiles.append("L1_JOKER")
    assert decide(s).target == "1L"
    d = decide(hard(s))
    assert d.target == "1U" and d.vp_delta == 0


def test_l2_joker_uses_the_usual_machinery_first():
    """L2 Joker: "Automa will use the Machineries usually required for the structure they are building before
    using the other type". A base in the Mountains needs 5 excavators; it has 3 and 4 mixers."""
    s = scenario(actions=4, criteria=1)
    s.companies["usa"].tiles.append("L2_JOKER")
    s.companies["usa"].excavators = 3
    assert decide(s).action != "construction"
    d = decide(hard(s))
    assert d.action == "construction"
    assert (invested(d)["excavators"], invested(d)["mixers"]) == (3, 2)


def test_engineer_free_tiles_place_no_construction_engineer():
    """L1 Powerhouse: "you do not have to place Engineers in a construction action space"."""
    s = hard(scenario(actions=15, criteria=1))
    s.companies["usa"].tiles.append("L1_POWERHOUSE")
    d = decide(s)
    assert d.action == "construction" and d.engineers == 0
    assert not any(op["op"] == "engineers" for op in d.ops)


@pytest.mark.parametrize("tile, actions, setup, vp", [
    ("L3_POWERHOUSE", 15, lambda s: powerhouse(s, "P11_0", "usa"), 3 * 2),
    ("L3_JOKER", 15, lambda s: s.companies["usa"].tiles.append("L1_BASE"), 3 * 2),
    ("L3_ELEVATION", 5, lambda s: dam(s, "5L", "usa", pieces=2), 3 * 1),
    ("L1_CONDUIT", 11, lambda s: None, 2 * 3),      # 6 excavators: a conduit of value 3 at most
])
def test_victory_point_effects(tile, actions, setup, vp):
    """L3 Powerhouse 3 VP per powerhouse; L3 Joker 3 VP per advanced tile (on the wheel too); L3 Elevation
    3 VP per raised dam; L1 Conduit 2 credits (VP) per conduit value."""
    s = hard(scenario(actions=actions, criteria=1))
    setup(s)
    s.companies["usa"].tiles.append(tile)
    d = decide(s)
    assert d.action == "construction"
    assert sum(op["delta"] for op in d.ops if op["op"] == "vp" and tile.replace("_", " ")[:2] in op["why"]) == vp


def test_l1_base_waters_every_empty_own_dam_and_l2_elevation_fills_the_dam():
    s = hard(scenario(actions=4, criteria=1))
    dam(s, "5L", "usa")                            # empty own dam
    dam(s, "6L", "usa", drops=1)                    # not empty: no drop
    s.companies["usa"].tiles.append("L1_BASE")
    d = decide(s)
    fed = sorted(op["target"] for op in d.ops if op["op"] == "drops" and op["source"] == "supply")
    assert fed == sorted(["dam:5L", f"dam:{d.target}"])
    s = hard(scenario(actions=5, criteria=1))       # tile 5: an elevation
    dam(s, "5L", "usa", pieces=1, drops=1)
    s.companies["usa"].tiles.append("L2_ELEVATION")
    d = decide(s)
    assert d.target == "5L"
    assert [op["count"] for op in d.ops if op["op"] == "drops"] == [1]        # 2 pieces, 1 drop: one more


def test_l2_base_and_l1_elevation_count_the_structure_just_built():
    """L2 Base: "produce a number of Energy Units equal to the number of Bases you have built. Count also the
    Base you have just built ... can be used to fulfill a Contract": 2 bases + the new one = 3 energy: the
    green 3s 205 and 206 tie, the right one (206). L1 Elevation: "rotate your Construction Wheel by 1 segment for every Elevation that you
    have built. Count also the Elevation you have just built": 1 raised dam + the new elevation = 2."""
    s = hard(scenario(actions=4, criteria=1))
    dam(s, "5L", "usa")
    dam(s, "6L", "usa")
    s.companies["usa"].tiles.append("L2_BASE")
    d = decide(s)
    assert d.action == "construction"
    assert [op["delta"] for op in d.ops if op["op"] == "energy"] == [3]
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [206]
    s = hard(scenario(actions=5, criteria=1))
    dam(s, "5L", "usa")
    dam(s, "6L", "usa", pieces=2)
    s.companies["usa"].tiles.append("L1_ELEVATION")
    d = decide(s)
    assert d.target == "5L"
    assert [op["steps"] for op in d.ops if op["op"] == "rotate"] == [1, 2]     # the usual turn, then the effect


def test_medium_automa_uses_no_special_effect():
    """Medium: "Automa can buy Advanced Technology tiles, but they will use only the basic effect"."""
    s = scenario(actions=4, criteria=1)
    dam(s, "5L", "usa")
    s.companies["usa"].tiles.append("L1_BASE")
    d = decide(s)
    assert not any(op["op"] == "drops" for op in d.ops)


# -- third-powerhouse company abilities ------------------------------------------------------
def three_powerhouses(s, company, spaces=("P11_0", "P12_0", "P8_0")):
    for p in spaces:
        powerhouse(s, p, company)


def test_france_discount_when_checking_and_fulfilling():
    """France: "Apply the discount both when checking the production action conditions AND when fulfilling
    the Contract". Tile 1 (-2, green); 1 drop x 3 - 2 + 1 (2-3 powerhouses) = 2 energy; green contracts
    need 4: only with the 3-energy discount; then the highest contract it reaches is a yellow 5."""
    s = scenario("france", ("usa",), actions=1, criteria=9)
    dam(s, "2L", "france", drops=1)
    conduit(s, "2A", "france")
    three_powerhouses(s, "france", ("P6_0", "P11_0", "P12_0"))
    set_contracts(s, "green", [212, 213])
    set_contracts(s, "yellow", [300, 310])
    assert decide(s).action != "production"
    d = decide(hard(s, "france"))
    assert d.action == "production"
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [300]


def test_france_discount_needs_a_powerhouse_not_a_tile_effect():
    """France's ability "only works when a powerhouse generates the power used" (components.json): the
    4 energy of an L3 Conduit on a value-2 conduit (10A) reach the green 3 (205), not the yellow 7 (310)
    that the discount would reach."""
    s = hard(scenario("france", ("usa",), actions=10, criteria=1), "france")
    three_powerhouses(s, "france", ("P6_0", "P11_0", "P12_0"))
    s.companies["france"].excavators = 4
    s.companies["france"].tiles.append("L3_CONDUIT")
    set_contracts(s, "green", [200, 205])
    set_contracts(s, "yellow", [305, 310])
    d = decide(s, "france")
    assert d.target == "10A" and [op["delta"] for op in d.ops if op["op"] == "energy"] == [4]
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [205]


def test_germany_second_production_is_the_most_productive_other_one():
    """Germany: "The second production, if available, is always the most productive one among those
    eligible" (another powerhouse; no tile modifier, no board bonus)."""
    s = hard(scenario("germany", ("usa",), actions=17, criteria=1), "germany")
    dam(s, "2L", "germany", pieces=2, drops=2)
    conduit(s, "2A", "germany")                     # value 3 -> group 6
    dam(s, "5L", "germany", pieces=2, drops=2)
    conduit(s, "5A", "germany")                     # value 3 -> group 8
    dam(s, "6L", "germany", pieces=1, drops=1)
    conduit(s, "6B", "germany")                     # value 2 -> group 7
    three_powerhouses(s, "germany", ("P6_0", "P8_0", "P7_0"))
    d = decide(s)
    energy = [op["delta"] for op in d.ops if op["op"] == "energy"]
    assert energy == [2 * 3 + 2 + 1, 2 * 3]         # best +2 +1 bonus, then the other value-6 system bare
    assert len([op for op in d.ops if op["op"] == "fulfil"]) == 2, "each production fulfils a contract (H6)"


def test_italy_three_more_steps_after_a_production():
    s = hard(scenario("italy", ("usa",), actions=17, criteria=1), "italy")
    dam(s, "2L", "italy", pieces=2, drops=2)
    conduit(s, "2A", "italy")
    three_powerhouses(s, "italy", ("P6_0", "P11_0", "P12_0"))
    d = decide(s)
    assert [op["delta"] for op in d.ops if op["op"] == "energy"] == [2 * 3 + 2 + 1, 3]


def test_netherlands_drop_goes_to_the_dam_of_the_most_productive_system():
    """Netherlands: "The Water Drop is placed on the Dam connected to the most productive system (except
    the one just used)"; with none, "use the first column of the Criteria tile"."""
    s = hard(scenario("netherlands", ("usa",), actions=17, criteria=1, leeghwater=True), "netherlands")
    dam(s, "2L", "netherlands", pieces=2, drops=2)
    conduit(s, "2A", "netherlands")                 # used: value 3 x 2
    dam(s, "5L", "netherlands", pieces=2)
    conduit(s, "5B", "netherlands")                 # value 4 -> group 10
    dam(s, "6L", "netherlands", pieces=2)
    conduit(s, "6B", "netherlands")                 # value 2 -> group 7
    three_powerhouses(s, "netherlands", ("P6_0", "P10_0", "P7_0"))
    d = decide(s)
    assert {"op": "drops", "source": "supply", "target": "dam:5L", "count": 1} in d.ops
    # no other dam in a complete system: the dam column of the Criteria tile chooses among own dams
    s2 = hard(scenario("netherlands", ("usa",), actions=17, criteria=1, leeghwater=True), "netherlands")
    dam(s2, "2L", "netherlands", pieces=2, drops=2)
    conduit(s2, "2A", "netherlands")
    three_powerhouses(s2, "netherlands", ("P6_0", "P11_0", "P12_0"))
    dam(s2, "9L", "netherlands")
    d2 = decide(s2)
    assert {"op": "drops", "source": "supply", "target": "dam:9L", "count": 1} in d2.ops
    assert any("first column of the Criteria tile" in line for line in d2.trace)


def test_usa_headstream_tie_goes_to_the_most_energy_steps():
    """USA: "In case of tie among eligible Headstreams for a Water Management action, Automa will choose the
    one generating more steps on the Energy Track". A drop from C or D reaches its dam 10L; the one from D
    flows through its powerhouse in group 7. Criteria of tile 3 (letters C, D, A): Medium takes C."""
    s = scenario(actions=2, criteria=3)              # tile 2: 1 drop that flows at once
    dam(s, "10L", "usa")
    three_powerhouses(s, "usa", ("P7_0", "P11_0", "P8_0"))
    assert decide(s).steps[0].target == "C"
    d = decide(hard(s))
    assert d.steps[0].target == "D"
    assert [(op["company"], op["delta"]) for op in d.ops if op["op"] == "energy"] == [("usa", 1)]


def test_usa_ability_in_the_water_flow_phase():
    s = hard(scenario(actions=2, criteria=3))
    three_powerhouses(s, "usa", ("P7_0", "P11_0", "P8_0"))
    s.headstreams["D"] = 2                           # basin 4 -> group 7 -> ... -> exit
    ops = phases.water_flow_phase(s)
    assert {"op": "energy", "company": "usa", "delta": 2, "why": "USA's ability"} in ops


def test_abilities_need_the_third_powerhouse_and_hard():
    """"Automa will not use the Company special ability activated by the construction of the 3rd
    powerhouse" (Medium); "Use special abilities on Hard difficulty"."""
    s = scenario("italy", ("usa",), actions=17, criteria=1)
    dam(s, "2L", "italy", pieces=2, drops=2)
    conduit(s, "2A", "italy")
    three_powerhouses(s, "italy", ("P6_0", "P11_0", "P12_0"))
    assert len([op for op in decide(s).ops if op["op"] == "energy"]) == 1
    s.companies["italy"].level = "hard"
    s.powerhouses.pop("P12_0")
    s.companies["italy"].structures["powerhouse"] += 1
    assert len([op for op in decide(s).ops if op["op"] == "energy"]) == 1
    assert components().raw["powerhouse_track"]["ability_from"] == 3


def test_usa_steps_when_another_automa_moves_the_water():
    """USA's ability counts "a Water Drop" that flows through its powerhouses, whoever placed it: France's
    drop from C flows through group 6, where the USA has a powerhouse, on to France's dam 10L."""
    s = scenario("france", ("usa",), actions=2, criteria=3, automas=2)
    s.companies["usa"].level = "hard"
    dam(s, "10L", "france")
    three_powerhouses(s, "usa", ("P6_0", "P11_0", "P12_0"))
    d = decide(s, "france")
    assert d.steps[0].target == "C"
    assert [(op["company"], op["delta"]) for op in d.ops if op["op"] == "energy"] == [("usa", 1)]
    s.companies["usa"].level = "medium"
    assert not any(op["op"] == "energy" for op in decide(s, "france").ops)
