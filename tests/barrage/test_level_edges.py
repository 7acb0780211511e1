"""Hard and Very Hard edge cases: the officers' rules where they meet a condition that fails, a tie or
another rule (seed 004 "High Voltage" / "Overpowered" appendices; 000 Apêndices 2-3)."""
from automa.barrage.data import barrage_map, components
from automa.barrage.engine import apply_decision, decide
from automa.barrage.state import PrivateBuilding, Segment

from .scenario import (DISPLAY, conduit, dam, officer, ops, powerhouse, scenario, set_contracts, set_external_works,
                       set_tiles)


def test_grasso_building_first_places_no_engineer_and_uses_the_discount():
    """Grasso: "The first construction action of each round costs 1 Engineer less ... In case of the
    construction of a Personal Building, put just 1 credit coin on the spot as a reminder". Tile 17's
    Building (1 engineer) is the round's first construction: no engineer, the reminder on the XO spot; the
    next construction of the round pays its engineers in full."""
    s = officer(scenario(actions=17, criteria=1, leeghwater=True), "grasso")
    s.private_buildings = [PrivateBuilding(b) for b in DISPLAY]
    s.companies["usa"].tiles = ["building", "dam_base"]
    s.companies["usa"].excavators = 2                 # no base anywhere (3+); Cofferdam: 2 excavators, 1 mixer
    d = decide(s)
    assert d.action == "construction" and d.target == "cofferdam"
    assert ops(d, "engineers") == [{"op": "engineers", "section": "officer", "space": "xo", "count": 0,
                                   "company": "usa"}]
    assert d.engineers == 0 and any("credit coin" in line for line in d.trace)
    after = apply_decision(s, d)
    after.companies["usa"].excavators = 6
    set_tiles(after, actions=17, criteria=1)
    d2 = decide(after)
    assert d2.action == "construction" and ops(d2, "build")
    assert [(op["section"], op["count"]) for op in ops(d2, "engineers")] == [("company", 2)]


def test_del_monte_ignores_the_tiles_area_restriction_and_falls_back_to_the_printed_structure():
    """Del Monte: "Automa will always prefer to perform an Elevation construction action, ignoring the
    structure suggested by the Automa tile". Tile 2 prints a base in the Hills: an own Mountains dam is
    raised instead. With no dam to raise, the printed base in the Hills is built."""
    s = officer(scenario(actions=2, criteria=1), "del-monte")
    s.companies["usa"].tiles = ["dam_base", "elevation"]
    dam(s, "1L", "usa")
    d = decide(s)
    assert ops(d, "build") == [{"op": "build", "structure": "elevation", "space": "1L", "company": "usa"}]
    assert [op["count"] for op in ops(d, "engineers") if op["section"] == "company"] == [2]
    s = officer(scenario(actions=2, criteria=1), "del-monte")
    s.companies["usa"].tiles = ["dam_base", "elevation"]
    d = decide(s)
    build = ops(d, "build")[0]
    assert build["structure"] == "dam_base" and barrage_map().dams[build["space"]].area == "hills"
    assert any("no Elevation possible" in line for line in d.trace)


def test_mcdowell_pays_excavators_when_the_mixers_are_too_few():
    """McDowell prefers mixers (1 per conduit value) but cannot mix the two types: with 1 mixer a value-3
    conduit is paid with its 6 excavators."""
    s = officer(scenario(actions=11, criteria=1), "mcdowell")
    s.companies["usa"].mixers = 1
    s.companies["usa"].excavators = 6
    d = decide(s)
    assert d.target == "2A" and barrage_map().conduits["2A"].value == 3      # Criteria of tile 1: 2A
    inv = ops(d, "invest")[0]
    assert (inv["excavators"], inv["mixers"]) == (6, 0)
    s.companies["usa"].mixers = 3
    inv = ops(decide(s), "invest")[0]
    assert (inv["excavators"], inv["mixers"]) == (0, 3)


def test_jordan_vp_do_not_pay_an_external_work():
    """Jordan: "Whenever you build a structure you can pay 3 Credits instead of a requested Machinery": an
    External Work is not a construction, so 1 excavator short of work 5 (2 excavators) means no External Work."""
    s = officer(scenario(actions=1, criteria=1, leeghwater=True), "jordan")
    me = s.companies["usa"]
    me.tiles, me.excavators, me.mixers = [], 1, 0
    set_external_works(s, [5, None, None])
    d = decide(s)
    assert d.action != "external_work"
    me.excavators = 2
    assert decide(s).target == "work 5"


def test_audia_pays_an_external_work_with_excavators_before_excamixers():
    """Audia: "When carrying out a construction or an external work action, Automa will always prefer to use
    the Excavators and Concrete mixers before using the Excamixers". Work 5 costs 2 excavators; it has 1."""
    s = officer(scenario(actions=1, criteria=1, leeghwater=True), "audia")
    me = s.companies["usa"]
    me.tiles, me.excavators, me.mixers, me.excamixers = [], 1, 0, 8
    set_external_works(s, [5, None, None])
    d = decide(s)
    assert d.target == "work 5"
    m = ops(d, "machinery")[0]
    assert (m["excavators"], m["mixers"], m["excamixers"]) == (-1, 0, -1)


def test_krylov_copies_a_specific_tile_before_a_wild_one_of_the_same_level():
    """Krylov: "In case of a tie, Automa prefer a specific structure tile to a wild tile". L1 Joker and
    L1 Base on the wheel: the copy is the L1 Base, whose Hard effect then waters every empty own dam."""
    s = officer(scenario(actions=4, criteria=1), "krylov")
    me = s.companies["usa"]
    me.tiles = ["anton"]
    me.wheel = [Segment(["L1_JOKER"]), Segment(), Segment(["L1_BASE"]), Segment(), Segment(), Segment()]
    d = decide(s)
    assert ops(d, "invest")[0]["tile"] == "anton"
    assert any("copying L1 Base" in line for line in d.trace)
    assert [op["target"] for op in ops(d, "drops")] == [f"dam:{d.target}"]
    assert d.target == "1L"                           # the L1 Joker's red outline (1U) is not copied


def test_luciani_takes_a_fitting_national_contract_first_in_a_production():
    """Luciani: "If a National Contract is eligible to be fulfilled, it will always be chosen first" (000:
    "algumas vezes, em combinação com um ou mais Contratos Privados"). 17 energy: the national contract
    of 13 first, then as many private ones as the 4 left cover."""
    s = officer(scenario(actions=17, criteria=1), "luciani")
    dam(s, "1L", "usa", pieces=3, drops=3)
    conduit(s, "1A", "usa")                           # value 5, to group 8
    powerhouse(s, "P8_0", "usa")                      # 3 x 5 + 2 = 17 energy
    contracts = components().contracts
    national = min((cid for cid, c in contracts.items() if c["kind"] == "national"), key=lambda c: contracts[c]["energy"])
    need = contracts[national]["energy"]
    s.contract_office.national = [national]
    set_contracts(s, "green", [200, 205])            # 2, 3
    set_contracts(s, "yellow", [305, 310])           # 6, 7
    set_contracts(s, "red", [405, 411])              # 9, 10
    d = decide(s)
    fulfilled = [op["contract"] for op in ops(d, "fulfil")]
    assert need == 13 and fulfilled[0] == national
    # 4 energy left: the 2 and the 3 together need 5, so one contract, the higher one (the 3, id 205)
    assert fulfilled == [national, 205]


def test_battista_keeps_the_architect_on_dashed_and_two_engineer_actions():
    """Battista's Architect is used only on a turn-ending action printed with 1 engineer: not on a Water
    Management (dashed frame) nor on a construction printed with 2; no second turn then."""
    s = officer(scenario(actions=1, criteria=9), "battista")
    me = s.companies["usa"]
    me.engineers, me.architect = 11, True
    dam(s, "5L", "usa")                              # headstream water can reach it
    d = decide(s)
    assert [st.action for st in d.steps] == ["water_management", "construction"]
    assert not any(op.get("architect") for op in ops(d, "engineers")) and not d.extra_turn
    assert apply_decision(s, d).companies["usa"].architect


def test_l3_building_scores_the_private_buildings_vp_at_once():
    """L3 Building: "immediately score the Victory Points awarded by the Private Building you have just
    activated" (and again at the end). Wind Farm: 5 VP, 6 excavators and 2 mixers."""
    s = scenario(actions=17, criteria=9, leeghwater=True)
    s.private_buildings = [PrivateBuilding(b) for b in DISPLAY]
    s.companies["usa"].tiles = ["L3_BUILDING"]
    s.companies["usa"].mixers = 2
    medium = decide(s)
    assert medium.target == "wind_farm" and medium.vp_delta == 0
    s.companies["usa"].level = "hard"
    d = decide(s)
    assert d.target == "wind_farm" and d.vp_delta == 5


def test_grasso_discount_waits_when_the_first_construction_needs_no_engineer():
    """Grasso's "first construction action of each round costs 1 Engineer less" saves an engineer: an L1
    Powerhouse construction places none ("you do not have to place Engineers in a construction action
    space"), so the reminder stays free and the round's next construction places 1 engineer fewer (rulings O8)."""
    s = officer(scenario(actions=13, criteria=1), "grasso")     # tile 13: production, water, powerhouse, base
    s.companies["usa"].tiles = ["L1_POWERHOUSE", "dam_base"]
    dam(s, "2L", "usa", pieces=1, drops=0)
    conduit(s, "2A", "usa")
    d = decide(s)
    assert d.action == "construction" and d.target == "P6_0"
    assert not [op for op in ops(d, "engineers") if op["section"] in ("company", "officer")]
    after = apply_decision(s, d)
    set_tiles(after, actions=13, criteria=1)
    d2 = decide(after)
    assert d2.action == "construction" and ops(d2, "build")[0]["structure"] == "dam_base"
    assert [(op["section"], op["count"]) for op in ops(d2, "engineers")] == [("officer", 1)]


def test_luciani_fulfils_one_contract_with_a_tiles_energy():
    """Luciani: "When a production is performed, Automa will fulfil as many Contracts as possible". The L3
    Conduit's energy ("produce a number of Energy Units equal to the value of the Conduit ... multiplied by
    2") is not a production: one contract, the highest it reaches (rulings O4). Value-4 conduit 1B: 8."""
    s = officer(scenario(actions=11, criteria=1), "luciani")       # tile 11: a conduit
    s.companies["usa"].tiles = ["L3_CONDUIT"]
    s.companies["usa"].excavators = 8                 # a value-4 conduit costs 8
    dam(s, "1L", "usa")
    powerhouse(s, "P5_0", "usa")                      # 1B (value 4) completes the system: 2 x 4 = 8 energy
    set_contracts(s, "green", [200, 205])            # 2, 3
    set_contracts(s, "yellow", [305, 310])           # 6, 7
    set_contracts(s, "red", [405, 411])              # 9, 10
    d = decide(s)
    assert d.target == "1B" and [op["delta"] for op in ops(d, "energy")] == [2, 8]     # +2: Contract Office
    assert [op["contract"] for op in ops(d, "fulfil")] == [310]
    s.companies["usa"].officer = "adler"              # the same without Luciani
    assert [op["contract"] for op in ops(decide(s), "fulfil")] == [310]
