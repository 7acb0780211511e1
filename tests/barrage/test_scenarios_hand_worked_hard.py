"""Whole situations for Hard ("High Voltage") and Very Hard ("Overpowered") Automas, officers and the
Leeghwater Project, each worked out by hand from seed 004 (English) before the engine was run. Each
docstring gives the reasoning and quotes the seed phrase that decides it; rulings named are in
docs/rulings.md (Barrage)."""
from automa.barrage.engine import apply_decision, decide
from automa.barrage.setup import new_game
from automa.barrage.state import PrivateBuilding, Segment

from .scenario import (DISPLAY, conduit, dam, hard, invested, officer, ops, powerhouse, scenario, set_contracts,
                       set_external_works, set_tiles)


def traced(d, text):
    return any(text in line for line in d.trace)


# 1 -------------------------------------------------------------------------------------------
def test_higher_level_base_tile_wins_over_the_joker_so_no_red_outline():
    """Hard, tiles basic Base, L1 Joker and L2 Base; tile 4 (a Base in the Mountains), Criteria of tile 1.
    "they will always use the higher level tile (III II I)": L2 Base, not the L1 Joker, so the Joker's
    rule "If Automa is building a Base, it will choose a building space with a red outline" does not
    apply. Criteria of tile 1 match nothing on an empty map: code 1, basin 1, "preferably built in the
    regular space": 1L, no surcharge. L2 Base: "produce a number of Energy Units equal to the number of
    Bases you have built. Count also the Base you have just built": 1 energy, and no contract needs 1."""
    s = hard(scenario(actions=4, criteria=1))
    s.companies["usa"].tiles += ["L1_JOKER", "L2_BASE"]
    d = decide(s)
    assert d.action == "construction" and d.target == "1L"
    assert invested(d)["tile"] == "L2_BASE" and invested(d)["excavators"] == 5
    assert d.vp_delta == 0
    assert [op["delta"] for op in ops(d, "energy")] == [1]
    assert not ops(d, "fulfil")


# 2 -------------------------------------------------------------------------------------------
def test_l3_base_needs_no_excavator_so_a_hard_automa_without_any_builds():
    """Hard, no excavator, tiles basic Base and L3 Base; tile 4 (production, Mountains Base, Machinery
    Shop of an excavator). L3 Base: "you do not have to place Engineers in a construction action space
    ... In addition, you do not have to place the requested Excavators in your Construction Wheel": the
    "Machineries Available" condition asks for none, so the Base is built (1L), no engineer placed, no
    excavator invested. Medium "will use only the basic effect": 5 excavators are missing, so the turn
    goes on to the Machinery Shop."""
    s = scenario(actions=4, criteria=1)
    s.companies["usa"].excavators = 0
    s.companies["usa"].tiles.append("L3_BASE")
    assert decide(s).action == "machinery_shop"
    d = decide(hard(s))
    assert d.action == "construction" and d.target == "1L"
    assert invested(d)["tile"] == "L3_BASE" and invested(d)["excavators"] == 0
    assert d.engineers == 0 and not ops(d, "engineers")


# 3 -------------------------------------------------------------------------------------------
def test_l2_powerhouse_produces_with_the_best_system_not_the_one_just_completed():
    """Hard, tile 15 (production +1 green, then a Powerhouse), Criteria of tile 1. No green contract is
    face up and the green pile is spent, so "Contract Requirement" fails: no production action. The Powerhouse: own 2L (1
    drop) and conduit 2A lead to group 6 with no powerhouse; group 8 is full (own P8_0 fed by 1L, 2 drops,
    through 1A of value 5), so the one system it completes is in group 6: P6_0 (regular space). L2
    Powerhouse: "Automa will activate the best available production": 1L-1A-P8_0 makes 2 x 5 = 10 against
    1 x 3 = 3 for the new system; +2 of the tile and +1 of the board (2 powerhouses) = 13, and "the
    highest value Contract available": the red 10 (411) on the right."""
    s = hard(scenario("usa", ("france",), actions=15, criteria=1))
    set_contracts(s, "green", [None, None])
    s.contract_office.piles["green"] = []
    dam(s, "1L", "usa", pieces=2, drops=2)
    conduit(s, "1A", "usa")
    powerhouse(s, "P8_0", "usa")
    powerhouse(s, "P8_1", "france")
    powerhouse(s, "P8_2", "france")
    dam(s, "2L", "usa", pieces=1, drops=1)
    conduit(s, "2A", "usa")
    s.companies["usa"].tiles.append("L2_POWERHOUSE")
    d = decide(s)
    assert d.action == "construction" and d.target == "P6_0"
    assert invested(d)["tile"] == "L2_POWERHOUSE"
    assert [op["delta"] for op in ops(d, "energy")] == [13]
    assert [op["count"] for op in ops(d, "drops") if op.get("source") == "dam:1L"] == [2]
    assert [op["contract"] for op in ops(d, "fulfil")] == [411]
    assert traced(d, "the best available production, with +2")


# 4 -------------------------------------------------------------------------------------------
def test_l2_building_pays_one_type_and_skips_what_that_type_cannot_pay():
    """Hard, only the L2 Building tile, 1 excavator and 1 mixer; tile 17 (production, water, a Base, a
    Building from the top). No system, no own dam, no Base tile: the Building. "Automa only use the type
    of Machinery of which they have less in their supply. In case of a tie, Automa will use only
    Excavators": only excavators, in each building's printed amount. From the top, "skip action spots that
    are too expensive": Wind Farm 6, Cofferdam 2, Research Lab 2 excavators are too many; the Robot
    Factory (1 excavator, 5 mixers) costs 1 excavator with the tile. Its full cost could not be paid."""
    s = hard(scenario(actions=17, criteria=9, leeghwater=True))
    s.private_buildings = [PrivateBuilding(b) for b in DISPLAY]
    me = s.companies["usa"]
    me.tiles = ["L2_BUILDING"]
    me.excavators, me.mixers = 1, 1
    d = decide(s)
    assert d.action == "construction" and d.target == "robot_factory"
    assert (invested(d)["excavators"], invested(d)["mixers"]) == (1, 0)
    assert traced(d, "wind_farm (too expensive") and traced(d, "research_lab (too expensive")


# 5 -------------------------------------------------------------------------------------------
def test_france_discount_reaches_the_national_contract_which_is_the_highest():
    """France, 3 powerhouses, tile 5 (production, no modifier, green). 1L (2 drops) through 1A (value 5)
    to P8_0: 2 x 5 + 1 (board, 3 powerhouses) = 11. "the Automa will immediately fulfil the highest value
    Contract available ... The Automa can fulfil National Contracts like a human player"; Hard France:
    "Apply the discount both when checking the production action conditions AND when fulfilling the
    Contract" and its ability covers "every Contract (even the National Contracts)": the nationals 13
    (100) and 14 (102) need 10 and 11; the highest, 102, is fulfilled. Medium: the red 10 (411)."""
    s = scenario("france", ("usa",), actions=5, criteria=1)
    dam(s, "1L", "france", pieces=2, drops=2)
    conduit(s, "1A", "france")
    for p in ("P8_0", "P11_0", "P12_0"):
        powerhouse(s, p, "france")
    s.contract_office.national = [100, 102]
    d = decide(s)
    assert d.action == "production" and [op["delta"] for op in ops(d, "energy")] == [11]
    assert [op["contract"] for op in ops(d, "fulfil")] == [411]
    d = decide(hard(s, "france"))
    assert [op["delta"] for op in ops(d, "energy")] == [11]
    assert [op["contract"] for op in ops(d, "fulfil")] == [102]
    assert traced(d, "France's ability") and traced(d, "national contract 102")


# 6 -------------------------------------------------------------------------------------------
def _netherlands(level_officer):
    s = scenario("netherlands", ("usa",), actions=17, criteria=1, leeghwater=True)
    if level_officer == "hard":
        hard(s, "netherlands")
    else:
        officer(s, level_officer, "netherlands")
    dam(s, "1L", "netherlands", pieces=3, drops=3)
    conduit(s, "1A", "netherlands")                  # value 5 -> group 8: 15
    powerhouse(s, "P8_0", "netherlands")
    dam(s, "3L", "netherlands", pieces=3, drops=3)
    conduit(s, "3A", "netherlands")                  # value 4 -> group 5: 12
    powerhouse(s, "P5_0", "netherlands")
    dam(s, "5L", "netherlands", pieces=2, drops=1)
    conduit(s, "5B", "netherlands")                  # value 4 -> group 10: 4
    powerhouse(s, "P10_0", "netherlands")
    return s


def test_netherlands_drop_goes_where_del_montes_fourth_drop_fits():
    """Netherlands, 3 powerhouses, tile 17 (+2, green). The best production is 1L-1A (3 x 5 = 15 +2 +1).
    "The Water Drop is placed on the Dam connected to the most productive system (except the one just
    used)", and the company's ability says "The dam must be able to hold the additional Water Drop".
    Hard: 3L is full (3 drops, level 3), so the only dam with room in a complete system is 5L. Very Hard
    with Del Monte: "Your level 3 Dams can hold up to 4 Water Drops": 3L (3 x 4 = 12) can take it and
    is more productive than 5L (1 x 4 = 4)."""
    for who, fed in (("hard", "dam:5L"), ("del-monte", "dam:3L")):
        d = decide(_netherlands(who))
        assert d.action == "production"
        assert [op["delta"] for op in ops(d, "energy")][0] == 15 + 2 + 1
        added = [op for op in ops(d, "drops") if op.get("source") == "supply"]
        assert [(op["target"], op["count"]) for op in added] == [(fed, 1)], who
        assert traced(d, f"the most productive system is fed by {fed[4:]}")


# 7 -------------------------------------------------------------------------------------------
def test_adler_third_structure_in_the_hills_before_the_mountains_preference():
    """Adler, 3 excavators; tile 17 (a Base anywhere), Criteria of tile 18. Own conduit 5A (to group 8) and
    own P8_0: a Base in basin 5 completes "one single system ... Automa will build in this position".
    Adler: "When checking for Dam positioning criteria, Dams on the Mountains are always preferred" names
    the criteria; ruling O1 puts his preference after the third-structure rule, so basin 5 (Hills), its
    regular space 5L, paid with his 3 excavators (a Hills base costs 4)."""
    s = officer(scenario(actions=17, criteria=18), "adler")
    s.companies["usa"].excavators = 3
    conduit(s, "5A", "usa")
    powerhouse(s, "P8_0", "usa")
    d = decide(s)
    assert d.action == "construction" and d.target == "5L"
    assert invested(d)["excavators"] == 3
    assert traced(d, "Third structure of a system: only basin 5")


# 8 -------------------------------------------------------------------------------------------
def test_del_monte_raises_the_only_dam_it_can_pay_at_a_conduit_action():
    """Del Monte, tile 11 (production, contract office, a Conduit, ...), 3 mixers. "When checking the
    Action tile for the structure construction action, Automa will always prefer to perform an Elevation
    construction action, ignoring the structure suggested": own level 1 dams 2L (Mountains: an elevation
    costs 4 mixers) and 6L (Hills: 3). Only 6L can be raised with 3 mixers, so it is the one eligible
    space; the action's 2 engineers, after the 1 of the Contract Office in the dashed frame (it "doesn't
    end the turn"). With no dam to raise, the Conduit is built as printed."""
    s = officer(scenario(actions=11, criteria=1), "del-monte")
    s.companies["usa"].mixers = 3
    dam(s, "2L", "usa")
    dam(s, "6L", "usa")
    d = decide(s)
    assert d.action == "construction" and d.target == "6L"
    assert ops(d, "build")[0]["structure"] == "elevation" and invested(d)["mixers"] == 3
    assert [(st.action, st.engineers) for st in d.steps] == [("contract_office", 1), ("construction", 2)]
    s = officer(scenario(actions=11, criteria=1), "del-monte")
    d = decide(s)
    assert ops(d, "build")[0]["structure"] == "conduit"


# 9 -------------------------------------------------------------------------------------------
def test_battista_architect_on_a_one_engineer_production_only():
    """Battista, 11 engineers and the Architect. 1L (2 drops) through 1A (value 5) to P8_0. Tile 1: the
    production is printed with 1 engineer and ends the turn: "If an action listed on the Automa tile that
    will end the turn ... requires 1 single Engineer, Automa will use the 'Architect' ... immediately start
    a second turn": 2 x 5 - 2 = 8, the highest it reaches the yellow 7 (310). Tile 5: the same
    production is printed with 2 engineers: no Architect, no second turn; 10 reaches the red 10 (411)."""
    def state(actions):
        s = officer(scenario(actions=actions, criteria=1), "battista")
        s.companies["usa"].engineers, s.companies["usa"].architect = 11, True
        dam(s, "1L", "usa", pieces=2, drops=2)
        conduit(s, "1A", "usa")
        powerhouse(s, "P8_0", "usa")
        return s
    d = decide(state(1))
    assert d.action == "production" and d.extra_turn
    assert ops(d, "engineers")[0]["architect"] and ops(d, "engineers")[0]["count"] == 0
    assert [op["contract"] for op in ops(d, "fulfil")] == [310]
    assert traced(d, "Battista: the Architect was placed")
    d = decide(state(5))
    assert d.action == "production" and not d.extra_turn
    assert not ops(d, "engineers")[0].get("architect") and ops(d, "engineers")[0]["count"] == 2
    assert [op["contract"] for op in ops(d, "fulfil")] == [411]


# 10 ------------------------------------------------------------------------------------------
def test_sekibo_each_human_draws_a_new_tile_for_the_first_action():
    """Sekibo's Automa against two humans: "human players must perform their first action during each
    round as if they were an Automa. Draw a new Automa tile and follow it". France's draw shows tile 4
    (production impossible, a Mountains Base: it has the tile and 6 excavators): construction. Italy then
    draws a new tile, 13 (production and water impossible, then a Powerhouse: tile and 2 mixers):
    construction of a Powerhouse. Neither human draws twice in the round. Set-up: Sekibo's 3 extra
    credits are VP, 16 + 3."""
    s = officer(scenario("usa", ("france", "italy"), actions=4, criteria=1), "sekibo")
    d = decide(s, "france")
    assert d.action == "human_first_action"
    assert (d.human_first_action["tile"], d.human_first_action["action"]) == (4, "construction")
    after = apply_decision(s, d)
    set_tiles(after, actions=13, criteria=4)
    d2 = decide(after, "italy")
    assert (d2.human_first_action["tile"], d2.human_first_action["action"]) == (13, "construction")
    assert d2.human_first_action["criteria"] == 4
    after2 = apply_decision(after, d2)
    assert sorted(after2.human_first_actions) == ["france", "italy"]
    g = new_game(1, 1, seed=5, levels=["very-hard"], officers=["sekibo"])
    assert g.companies[g.automas[0]].vp == 16 + 3


# 11 ------------------------------------------------------------------------------------------
def test_spencer_builds_as_printed_when_leslie_is_not_available_or_no_work_fits():
    """Spencer: "If this Special Technology tile is available when Automa checks requirements for a
    construction action, check if Automa can perform an External Works action ... Otherwise resolve the
    construction action as usual." Tile 4 (a Mountains Base). Leslie on the Construction Wheel is not
    available: the Base (1L, 2 engineers), though work 5 could be paid. Leslie in the supply but no work
    payable (201: 5 mixers, 202: 6 excavators; it has 4 and 5): the Base as usual too."""
    s = officer(scenario(actions=4, criteria=1, leeghwater=True), "spencer")
    me = s.companies["usa"]
    me.wheel[0] = Segment(["leslie"])
    set_external_works(s, [5, None, None])
    d = decide(s)
    assert d.action == "construction" and d.target == "1L" and invested(d)["tile"] == "dam_base"
    assert d.engineers == 2 and traced(d, "Spencer's Special tile is not in the supply")
    s = officer(scenario(actions=4, criteria=1, leeghwater=True), "spencer")
    me = s.companies["usa"]
    me.tiles.append("leslie")
    me.excavators, me.mixers = 5, 4
    set_external_works(s, [201, 202, None])
    d = decide(s)
    assert d.action == "construction" and d.target == "1L" and invested(d)["tile"] == "dam_base"


# 12 ------------------------------------------------------------------------------------------
def test_external_work_preference_skips_the_unpayable_and_the_contract_tie_goes_right():
    """Tile 5 (production, water, Elevation, Conduit, Workshop, External Works [2, 3, 1]); no tile, an
    empty wheel and no dam: everything before the External Works fails. Works: 1 at the top, 202 in the
    middle (6 excavators), 5 at the bottom (2 excavators). "choose which one to fulfill according to the
    preference order listed on the Action tile": position 2 first. With 5 excavators 202 cannot be paid:
    position 3, work 5. With 6: work 202, whose contract "must fulfill the higher Private Contract available
    in the Contract Office (in case of a tie, the one on the right ...)": red 10 and 10 (410, 411): 411,
    not the national 13."""
    def state(excavators):
        s = scenario(actions=5, criteria=1, leeghwater=True)
        s.companies["usa"].tiles = []
        s.companies["usa"].excavators = excavators
        set_external_works(s, [1, 202, 5])
        set_contracts(s, "red", [410, 411])
        s.contract_office.national = [100]
        return s
    d = decide(state(5))
    assert d.action == "external_work" and d.target == "work 5"
    assert ops(d, "engineers")[0]["space"] == "w3"
    # work 5's free advanced tile (rulings L2: the highest level, the leftmost): L1 Building in slot 1
    assert ops(d, "take_tile") == [{"op": "take_tile", "slot": 0, "tile": "L1_BUILDING", "company": "usa"}]
    assert traced(d, "takes L1 Building from slot 1 for free")
    d = decide(state(6))
    assert d.action == "external_work" and d.target == "work 202"
    assert ops(d, "engineers")[0]["space"] == "w2"
    assert [op["contract"] for op in ops(d, "fulfil")] == [411]


# 13 ------------------------------------------------------------------------------------------
def test_audia_pays_an_external_work_with_her_mixer_before_an_excamixer():
    """Audia (1 mixer won since, no excavator, 8 Excamixers), tile 5 as above, work 4 alone at the top
    (1 mixer, 1 excavator). "When carrying out a construction or an external work action, Automa will
    always prefer to use the Excavators and Concrete mixers before using the Excamixers": the mixer, and
    one Excamixer for the missing excavator."""
    s = officer(scenario(actions=5, criteria=1, leeghwater=True), "audia")
    me = s.companies["usa"]
    me.tiles = []
    me.excavators, me.mixers, me.excamixers = 0, 1, 8
    set_external_works(s, [4, None, None])
    d = decide(s)
    assert d.action == "external_work" and d.target == "work 4"
    paid = ops(d, "machinery")[0]
    assert (paid.get("excavators", 0), paid.get("mixers", 0), paid.get("excamixers", 0)) == (0, -1, -1)


# 14 ------------------------------------------------------------------------------------------
def test_l2_elevation_fills_a_del_monte_level_three_dam_to_four():
    """Very Hard follows "the rules of the Hard level, with this addition" (000), so the L2 Elevation's
    effect applies: "place Water Drops in the Dam where you have just built this Elevation in order to
    fill it to its maximum capacity". Tile 5: Water Management puts 1 drop on headstream B (the room 5L
    has), then the Elevation on 5L (level 2, 1 drop) makes it level 3. Del Monte: "Your level 3 Dams can
    hold up to 4 Water Drops": 3 drops from the supply. A Hard Automa without him: 2."""
    for who, added in (("del-monte", 3), ("hard", 2)):
        s = scenario(actions=5, criteria=1)
        if who == "hard":
            hard(s)
        else:
            officer(s, who)
        dam(s, "5L", "usa", pieces=2, drops=1)
        s.companies["usa"].tiles.append("L2_ELEVATION")
        d = decide(s)
        assert d.action == "construction" and d.target == "5L" and invested(d)["tile"] == "L2_ELEVATION"
        assert [op["count"] for op in ops(d, "drops") if op["target"] == "dam:5L"] == [added], who
        assert traced(d, f"dam 5L filled to its capacity ({added} drop(s))")


# 15 ------------------------------------------------------------------------------------------
def test_the_highest_level_tile_is_used_even_when_a_lower_one_would_pay():
    """Hard, 5 excavators, tile 9 (a Conduit of value 3 or more: 6 excavators). "they will always use the
    higher level tile (III II I)": with L3 Conduit and L2 Conduit it uses the L3, and "Machineries
    Available" is checked for it, so the construction fails although the L2 Conduit ("its cost becomes 5
    Excavators") would pay (rulings H7); the turn goes on to the Machinery Shop. With the L2 Conduit alone
    it builds a value-3 conduit for 5 excavators."""
    s = hard(scenario(actions=9, criteria=1))
    s.companies["usa"].excavators = 5
    s.companies["usa"].tiles = ["L3_CONDUIT", "L2_CONDUIT"]
    d = decide(s)
    assert d.action == "machinery_shop"
    assert traced(d, "needs at least 6 excavators, it has 5 (with the L3 Conduit tile")
    s.companies["usa"].tiles = ["L2_CONDUIT"]
    d = decide(s)
    assert d.action == "construction" and invested(d)["tile"] == "L2_CONDUIT"
    assert invested(d)["excavators"] == 5


# 16 ------------------------------------------------------------------------------------------
def test_l1_joker_keeps_the_chosen_basin_when_its_red_space_is_taken():
    """Hard, L1 Joker only (for a Base); tile 4 (a Mountains Base), Criteria of tile 1: the criteria match
    nothing and code 1 gives basin 1, whose red-outlined 1U holds France's dam. 000 places the Joker's
    rule "depois de checar todos os critérios": the procedure has chosen basin 1, so the Base goes on 1L,
    its free space, not on another basin's red space (rulings H3)."""
    s = hard(scenario(actions=4, criteria=1))
    s.companies["usa"].tiles = ["L1_JOKER"]
    dam(s, "1U", "france")
    d = decide(s)
    assert d.action == "construction" and d.target == "1L" and d.vp_delta == 0
    assert traced(d, "the first eligible basin is 1 (1L)")


# 17 ------------------------------------------------------------------------------------------
def test_luciani_takes_the_right_national_of_two_then_the_higher_contract_left():
    """Luciani, tile 17 (+2): 1L (3 drops) through 1A (value 5) to P8_0 makes 17. "If a National Contract
    is eligible to be fulfilled, it will always be chosen first"; the nationals 13 (100) and 13 (101) tie:
    "in case of tie, the rightmost one", 101. The 4 left cover one of the greens 2 (200) and 3 (205), not
    both: "In case of tie, the higher value Contracts ... are chosen", 205."""
    s = officer(scenario(actions=17, criteria=1), "luciani")
    dam(s, "1L", "usa", pieces=3, drops=3)
    conduit(s, "1A", "usa")
    powerhouse(s, "P8_0", "usa")
    s.contract_office.national = [100, 101]
    set_contracts(s, "green", [200, 205])
    d = decide(s)
    assert d.action == "production" and [op["delta"] for op in ops(d, "energy")] == [17]
    assert [op["contract"] for op in ops(d, "fulfil")] == [101, 205]
    assert traced(d, "Luciani: as many contracts as possible with 17 energy: 101, 205")


# 18 ------------------------------------------------------------------------------------------
def test_netherlands_tie_between_two_systems_goes_to_the_criteria_tile():
    """Netherlands, 3 powerhouses, tile 5 (production, no modifier), Criteria of tile 5 (dam column: most
    powerful conduit, owned powerhouse, upstream powerhouse; code 6). Only 1L holds water: 2 x 5 + 1 = 11.
    The drop: 5L (5B, value 4, to P10_0) and 6L (6A, value 4, to P9_0) are empty level 2 dams, each a
    complete system making 4 with the drop: "If there is not an eligible dam which is part of a complete
    productive system or there is more than one, use the first column of the Criteria tile". Both are
    linked to a value-4 own conduit and to an own powerhouse; no powerhouse is upstream of either; code 6
    gives basin 6: 6L (basin order alone would give 5L)."""
    s = hard(scenario("netherlands", ("usa",), actions=5, criteria=5, leeghwater=True), "netherlands")
    for d_, c_, p_, drops in (("1L", "1A", "P8_0", 2), ("5L", "5B", "P10_0", 0), ("6L", "6A", "P9_0", 0)):
        dam(s, d_, "netherlands", pieces=2, drops=drops)
        conduit(s, c_, "netherlands")
        powerhouse(s, p_, "netherlands")
    d = decide(s)
    assert d.action == "production" and [op["delta"] for op in ops(d, "energy")] == [11]
    added = [op for op in ops(d, "drops") if op.get("source") == "supply"]
    assert [(op["target"], op["count"]) for op in added] == [("dam:6L", 1)]
    assert traced(d, "first column of the Criteria tile")


# 19 ------------------------------------------------------------------------------------------
def test_battista_architect_builds_a_private_building_and_plays_again():
    """Battista with the Architect; tile 17 (production, water, a Base, a Building from the top), only the
    basic Building tile. The Base cannot be built (no tile), the Building is printed with 1 engineer and
    ends the turn: "requires 1 single Engineer, Automa will use the 'Architect' (if available). After the
    resolution of the action, Automa will immediately start a second turn". The first building from the
    top it can pay is the Wind Farm (6 excavators, 2 mixers: it has 6 and 4)."""
    s = officer(scenario(actions=17, criteria=9, leeghwater=True), "battista")
    s.private_buildings = [PrivateBuilding(b) for b in DISPLAY]
    me = s.companies["usa"]
    me.engineers, me.architect, me.tiles = 11, True, ["building"]
    d = decide(s)
    assert d.action == "construction" and d.target == "wind_farm" and d.extra_turn
    assert ops(d, "engineers") == [{"op": "engineers", "section": "company", "space": "board", "count": 0,
                                    "architect": True, "company": "usa"}]
    after = apply_decision(s, d)
    assert not after.companies["usa"].architect and after.companies["usa"].engineers == 11


# 20 ------------------------------------------------------------------------------------------
def test_krylov_copies_an_l3_base_on_the_wheel_and_builds_without_machinery():
    """Krylov, no excavator, only his Special tile in the supply and the L3 Base on the wheel; tile 4 (a
    Mountains Base). "Automa will always prefer Advanced and Basic Technology tiles to this Special tile"
    (none builds a Base), "When used, the tile will always copy the Technology tile of the highest level";
    his tile "copies both the main building effect and the special effect": the L3 Base's "you do not have
    to place Engineers ... you do not have to place the requested Excavators". The Base is built on 1L
    with no engineer and no machinery."""
    s = officer(scenario(actions=4, criteria=1), "krylov")
    me = s.companies["usa"]
    me.tiles, me.excavators = ["anton"], 0
    me.wheel[0] = Segment(["L3_BASE"])
    d = decide(s)
    assert d.action == "construction" and d.target == "1L"
    assert invested(d) == {"op": "invest", "tile": "anton", "excavators": 0, "mixers": 0, "company": "usa"}
    assert d.engineers == 0 and traced(d, "copying L3 Base")
