"""Each Automa action's conditions, effects and tie-breaks (seed 004 unless marked 000)."""
import pytest

from automa.barrage.engine import apply_decision, decide
from automa.barrage.state import Placement, Segment
from automa.common.errors import StateError

from .scenario import conduit, dam, powerhouse, scenario, set_contracts, set_tiles


def ready_system(s, owner="usa", drops=2, pieces=2):
    """An own dam on 2L with water, conduit 2A (value 3, group 6), own powerhouse P6_0."""
    dam(s, "2L", owner, pieces=pieces, drops=drops)
    conduit(s, "2A", owner)
    powerhouse(s, "P6_0", owner)


# -- Production -----------------------------------------------------------------------
def test_production_needs_a_ready_system():
    s = scenario(actions=17, criteria=1)
    dam(s, "2L", "usa", pieces=2, drops=0)           # no water
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    d = decide(s)
    assert d.action != "production"
    assert any("Production System Ready" in line for line in d.trace)


def test_production_energy_track_condition():
    """Not performed when the marker already reached the round's full-reward section (6 x round)
    AND the Automa is first on the track; either condition failing allows production."""
    s = scenario(actions=17, criteria=1, round_=2)
    ready_system(s)
    s.energy = {"usa": 12, "france": 3}
    d = decide(s)
    assert d.action != "production" and any("Energy Track" in line for line in d.trace)
    s.energy = {"usa": 12, "france": 12}             # tied: not *the* first (rulings.md)
    assert decide(s).action == "production"
    s.energy = {"usa": 11, "france": 3}              # below 12 in round 2
    assert decide(s).action == "production"


def test_production_contract_requirement_uses_the_tiles_colour_and_modifier():
    """Tile 1: -2 production for a green contract. 2 drops x value 3 - 2 = 4 reaches green 3s."""
    s = scenario(actions=1, criteria=9)
    ready_system(s)
    set_contracts(s, "green", [212, 213])            # both need 4
    assert decide(s).action == "production"
    s2 = scenario(actions=1, criteria=9)
    ready_system(s2, drops=1, pieces=1)              # 1 x 3 - 2 = 1: no green contract needs only 1
    d = decide(s2)
    assert d.action != "production"
    assert any("Contract Requirement: best production is 1 energy" in line for line in d.trace)


def test_production_fulfils_highest_contract_of_any_colour_and_national():
    """"the Automa will immediately fulfil the highest value Contract available ... not only among those
    checked as a condition"; "The Automa can fulfil National Contracts like a human player"."""
    s = scenario(actions=17, criteria=1)              # +2, green
    dam(s, "1U", "usa", pieces=3, drops=3)
    conduit(s, "1A", "usa")                           # value 5 -> group 8
    powerhouse(s, "P8_0", "usa")                      # 3 x 5 + 2 = 17
    s.contract_office.national = [100, 104]
    d = decide(s)
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [104], "national 15 beats everything below"
    after = apply_decision(s, d)
    assert after.contract_office.national == [100], "national contracts are not replaced"
    assert d.vp_delta >= 12


def test_production_national_tie_takes_the_rightmost():
    s = scenario(actions=17, criteria=1)
    dam(s, "1U", "usa", pieces=3, drops=3)
    conduit(s, "1A", "usa")
    powerhouse(s, "P8_0", "usa")
    s.contract_office.national = [102, 103]           # both need 14
    d = decide(s)
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [103]


def test_production_prefers_neutral_dam_on_equal_energy():
    """000: "Em caso de empate, o Autômato vai preferir usar um sistema que contenha uma Represa Neutra."
    """
    s = scenario(actions=17, criteria=1)
    dam(s, "2U", "usa", pieces=1, drops=1)
    dam(s, "2L", "neutral", pieces=1, drops=1)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    d = decide(s)
    moved = [op for op in d.ops if op["op"] == "drops"]
    assert moved[0]["source"] == "dam:2L"


def test_production_other_ties_follow_the_conduit_code():
    """000: "Outros empates serão decididos usando o código do Conduíte no lado dos Critérios atuais"."""
    s = scenario(actions=17, criteria=3)             # criteria tile 3: conduit start 2A
    dam(s, "2L", "usa", pieces=1, drops=1)
    conduit(s, "2A", "usa")                          # value 3 -> group 6
    powerhouse(s, "P6_0", "usa")
    dam(s, "3L", "usa", pieces=1, drops=1)
    conduit(s, "3B", "usa")                          # value 3 -> group 6 too (same powerhouse)
    d = decide(s)
    assert d.target == "2A"
    set_tiles(s, actions=17, criteria=4)             # start 2B: 2B, 3A, 3B ... -> 3B first
    assert decide(s).target == "3B"


def test_production_through_an_opponents_conduit_costs_vp_and_pays_the_owner():
    s = scenario(actions=17, criteria=1)
    dam(s, "2L", "usa", pieces=2, drops=2)
    conduit(s, "2A", "france")
    powerhouse(s, "P6_0", "usa")
    d = decide(s)
    after = apply_decision(s, d)
    assert any(op == {"op": "vp", "delta": -2, "why": "use of france's conduit 2A", "company": "usa"} for op in d.ops)
    assert after.companies["france"].credits == s.companies["france"].credits + 2
    assert after.companies["france"].vp == s.companies["france"].vp + 2


def test_production_bonus_from_the_second_powerhouse():
    s = scenario(actions=1, criteria=9)               # -2 green
    ready_system(s, drops=1, pieces=1)               # 3 - 2 = 1 ...
    powerhouse(s, "P11_0", "usa")                    # ... + 1 with 2 powerhouses = 2: reaches green 2
    set_contracts(s, "green", [200, 201])
    d = decide(s)
    assert d.action == "production"
    assert [op["delta"] for op in d.ops if op["op"] == "energy"][0] == 2


def test_easy_automa_gets_no_production_bonus():
    s = scenario(actions=1, criteria=9)
    ready_system(s, drops=1, pieces=1)
    powerhouse(s, "P11_0", "usa")
    s.companies["usa"].difficulty = "easy"
    set_contracts(s, "green", [200, 201])
    assert decide(s).action != "production"


# -- Engineers --------------------------------------------------------------------------
def test_last_engineer_performs_a_two_engineer_action():
    """"Automa will take a turn as long as they have at least 1 Engineer left ... it will use only one
    Engineer and perform the action even if the action requires 2 Engineers"."""
    s = scenario(actions=4, criteria=1)
    s.companies["usa"].engineers = 1
    d = decide(s)
    assert d.action == "construction" and d.engineers == 1


def test_dashed_action_with_the_last_engineer_ends_the_turn():
    s = scenario(actions=3, criteria=1)              # Contract Office is 2nd, dashed
    s.companies["usa"].engineers = 1
    d = decide(s)
    assert [st.action for st in d.steps] == ["contract_office"]
    assert any("no engineer left: the turn ends" in line for line in d.trace)


def test_no_engineer_means_pass_without_flipping():
    s = scenario(actions=3, criteria=1)
    s.companies["usa"].engineers = 0
    d = decide(s)
    assert d.action == "pass" and d.ops == []


def test_full_section_puts_engineers_next_to_it():
    """"If there are no available action spaces on the relevant section and the Automa is able to
    perform the action ... just place the required Engineers next to the corresponding section"."""
    s = scenario(actions=3, criteria=1)
    s.action_spaces["contracts"] = {sp: [Placement("france", 1)] for sp in ("o", "t", "oc", "tbis")}
    d = decide(s)
    eng = [op for op in d.ops if op["op"] == "engineers" and op["section"] == "contracts"]
    assert eng[0]["space"] == "overflow"


# -- Construction ---------------------------------------------------------------------
@pytest.mark.parametrize("change, condition", [
    (lambda s: s.companies["usa"].structures.update(dam_base=0), "Structure Available"),
    (lambda s: s.companies["usa"].tiles.remove("dam_base"), "Technology Tile Available"),
    (lambda s: setattr(s.companies["usa"], "excavators", 4), "Machineries Available"),
])
def test_construction_conditions_in_order(change, condition):
    s = scenario(actions=4, criteria=1)              # tile 4: base in the Mountains (5 excavators)
    change(s)
    d = decide(s)
    assert d.action != "construction"
    assert any(condition in line for line in d.trace)


def test_construction_needs_a_space():
    s = scenario("usa", ("france", "italy"), actions=4, criteria=1)
    for b in (1, 2, 3, 4):
        dam(s, f"{b}U", "france")
        dam(s, f"{b}L", "italy")
    d = decide(s)
    assert d.action != "construction"
    assert any("Building Space Available: no free space" in line for line in d.trace)


def test_restriction_and_affordability_limit_candidates():
    """Tile 12: a conduit of value 4 or more. With 8 excavators only value-4 conduits are affordable."""
    s = scenario(actions=12, criteria=1)
    s.companies["usa"].excavators = 8
    d = decide(s)
    assert d.action == "construction"
    from automa.barrage.data import barrage_map
    assert barrage_map().conduits[d.target].value == 4


def test_red_outlined_space_costs_three_vp():
    s = scenario("usa", ("france", "italy"), actions=4, criteria=1)
    for space in ("1L", "2U", "2L", "3U", "3L", "4U", "4L"):
        dam(s, space, "france" if space.endswith("U") else "italy")
    d = decide(s)
    assert d.target == "1U" and d.vp_delta == -3


def test_uncovered_income_is_received_at_once():
    """"if an income is revealed on the Automa Company board after building the structure, Automa will
    receive that income immediately". USA's 2nd base uncovers "turn the wheel 1"; Germany's 2nd base 3 VP."""
    s = scenario("germany", ("france",), actions=4, criteria=1)
    dam(s, "8L", "germany")                          # its 1st base
    d = decide(s)
    assert d.action == "construction"
    assert any(op["op"] == "vp" and op["delta"] == 3 for op in d.ops)
    assert any("income uncovered by building Dam Base no. 2" in line for line in d.trace)


def test_advanced_tile_is_used_before_the_basic_one():
    s = scenario(actions=4, criteria=1)
    s.companies["usa"].tiles.append("L2_JOKER")
    s.companies["usa"].tiles.append("L1_BASE")
    d = decide(s)
    invest = next(op for op in d.ops if op["op"] == "invest")
    assert invest["tile"] == "L2_JOKER", "highest level first; a Joker counts"
    s.companies["usa"].tiles.append("L2_BASE")
    invest = next(op for op in decide(s).ops if op["op"] == "invest")
    assert invest["tile"] == "L2_BASE", "same level: the specific tile before the Joker"


# -- Workshop, Machinery Shop, Patent, Bank -------------------------------------------
def test_workshop_needs_something_on_the_wheel():
    s = scenario(actions=5, criteria=1)
    usa = s.companies["usa"]
    usa.structures.update(elevation=0, conduit=0)
    d = decide(s)
    assert d.action != "workshop" and any("construction wheel is empty" in line for line in d.trace)


def test_wild_machinery_takes_the_type_it_has_fewer_of():
    """"takes the type of Machinery of which it has less available (i.e. out of the Construction Wheel).
    In case of tie, Automa takes 1 Excavator." Tile 1: Wild Machinery Shop, 3 VP."""
    s = scenario(actions=1, criteria=9)
    usa = s.companies["usa"]
    usa.structures.update(dam_base=0, elevation=0)
    usa.excavators, usa.mixers = 5, 5
    d = decide(s)
    assert d.action == "machinery_shop" and d.target == "excavator" and d.vp_delta == -3
    usa.excavators = 6
    assert decide(s).target == "mixer"


def test_machinery_shop_is_skipped_in_round_five_then_bank():
    """"If the current round is not the 5th, ..." / "In the 5th round, Automa places 1 Engineer in the
    Bank and scores 1 VP"."""
    s = scenario(actions=1, criteria=9, round_=5)
    s.companies["usa"].structures.update(dam_base=0, elevation=0)
    d = decide(s)
    assert d.action == "bank" and d.vp_delta == 1
    assert any("5th (last) round" in line for line in d.trace)


def test_patent_takes_wild_tile_when_no_specific_one():
    s = scenario(actions=3, criteria=1)
    s.companies["usa"].structures["dam_base"] = 0
    s.patent_office.slots = ["L1_CONDUIT", "L1_JOKER", "L1_ELEVATION"]
    d = decide(s)
    assert d.action == "patent_office" and d.target == "L1_JOKER"


def test_patent_higher_level_of_two_for_the_same_structure():
    s = scenario(actions=3, criteria=1)
    s.companies["usa"].structures["dam_base"] = 0
    s.patent_office.slots = ["L1_BASE", "L2_BASE", "L1_JOKER"]
    assert decide(s).target == "L2_BASE"


def test_patent_takes_the_higher_of_two_wild_tiles():
    """Ruling R19: a wild tile serves every structure, so of two wild tiles "for the same structure"
    the higher level one."""
    s = scenario(actions=3, criteria=1)
    s.companies["usa"].structures["dam_base"] = 0
    s.patent_office.slots = ["L1_JOKER", "L1_CONDUIT", "L2_JOKER"]
    assert decide(s).target == "L2_JOKER"


def test_patent_not_possible_without_matching_or_wild_tile():
    s = scenario(actions=3, criteria=1)
    s.companies["usa"].structures["dam_base"] = 0
    s.patent_office.slots = ["L1_CONDUIT", "L1_ELEVATION", None]
    d = decide(s)
    assert d.action != "patent_office"
    assert any("neither a Dam Base tile nor a wild tile" in line for line in d.trace)


def test_single_maintenance_turns_the_wheel_else_bank():
    """"If the Automa Construction Wheel is not empty ..., Automa places 1 Engineer in the Workshop to
    rotate it by one segment. Otherwise Automa places 1 Engineer in the Bank and scores 1 VP." (tile 3)"""
    s = scenario(actions=3, criteria=1)
    s.companies["usa"].structures["dam_base"] = 0
    s.patent_office.slots = [None, None, None]
    assert decide(s).action == "bank"
    s.companies["usa"].wheel[2] = Segment(mixers=1)
    s.companies["usa"].mixers -= 1
    d = decide(s)
    assert d.action == "workshop" and d.engineers == 2, "1 for the Contract Office, 1 for the Workshop"


# -- Deck and decisions ---------------------------------------------------------------
def test_actions_come_from_new_top_and_criteria_from_flipped_tile():
    s = scenario(actions=7, criteria=12)
    d = decide(s)
    assert d.tiles == {"actions": 7, "criteria": 12}
    assert d.trace[0].startswith("flipped tile 12")


def test_decide_is_pure_and_apply_replays_it():
    s = scenario(actions=3, criteria=1)
    before = s.to_json()
    d = decide(s)
    assert s.to_json() == before
    assert apply_decision(s, d).to_json() == apply_decision(s, d.to_dict()).to_json()


def test_unknown_automa_is_a_clear_error():
    s = scenario(actions=3, criteria=1)
    with pytest.raises(StateError, match="no Automa 'purple'"):
        decide(s, "purple")
    assert decide(s, "red").automa == "usa", "a colour names the Automa too"


def test_dashed_action_effects_are_seen_by_later_actions():
    """004: "If the Automa has at least 1 Engineer left after performing a Contract Office action, its turn
    continues. Check the next action on the Action tile." Actions run one after another, so drops placed
    by Water Management count for the next action's placement criteria (rulings.md; BGA plans the whole
    tile on the state at the start of the turn instead). Tile 1 (2 drops, then a base) with the Criteria
    side of tile 15 ("most water drops" first, code 8)."""
    s = scenario(actions=1, criteria=15)
    dam(s, "5L", "usa", pieces=1)          # fed by headstream B through 2U, 2L, 5U
    d = decide(s)
    assert [st.action for st in d.steps] == ["water_management", "construction"]
    assert d.steps[0].target == "B"
    assert d.target == "2L", "the new drop will pass basin 2: most water, then the non-red space"
