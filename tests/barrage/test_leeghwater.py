"""The Leeghwater Project with an Automa: Private Buildings, building tiles, External Works
(seed 004, "Leeghwater Project (Expansion) specific" Construction and Patent Office actions)."""
from automa.barrage import phases
from automa.barrage.engine import apply_decision, decide
from automa.barrage.leeghwater import closed_spaces
from automa.barrage.setup import new_game
from automa.barrage.state import PrivateBuilding

from .scenario import DISPLAY, scenario, set_contracts, set_external_works, set_tiles


def lee(actions: int, criteria: int = 9):
    s = scenario(actions=actions, criteria=criteria, leeghwater=True)
    s.private_buildings = [PrivateBuilding(b) for b in DISPLAY]
    s.companies["usa"].tiles = ["building"]          # only buildings can be built
    return s


def test_set_up_with_the_expansion():
    s = new_game(2, 1, seed=4, leeghwater=True)
    assert len(s.private_buildings) == 5 and all(s.external_works.slots)
    assert all("building" in c.tiles for c in s.companies.values())
    assert sum(len(p) for p in s.patent_office.piles.values()) + 3 == 18 - 3      # 1 tile per level set aside


def test_building_from_the_top_skips_what_is_too_expensive_or_already_built():
    """"Automa will build on the first available spot (skip action spots that are too expensive and where
    Automa has already build) ... starting from the top (downward arrow)". Tile 17: a base, then a building
    from the top. The Wind Farm needs 6 excavators; it has 5."""
    s = lee(17)
    s.companies["usa"].excavators = 5
    d = decide(s)
    assert d.action == "construction" and d.target == "cofferdam"
    after = apply_decision(s, d)
    assert after.private_buildings[1].built_by == ["usa"]
    assert closed_spaces(after) == ["cofferdam"], "the cheaper action space is closed to every other player"
    set_tiles(after, actions=17, criteria=1)
    after.companies["usa"].tiles = ["L1_BUILDING"]   # the basic tile is on the wheel now
    assert decide(after).target == "research_lab", "already built: skipped"


def test_building_from_the_bottom_and_the_paying_build_slot():
    """Tile 19 (upward arrow): the first available from the bottom. Build slots 3-4 cost 3 credits (VP)."""
    s = lee(19)
    s.private_buildings[4].built_by = ["france", "germany"] if "germany" in s.companies else ["france"]
    d = decide(s)
    assert d.target == "loan_agency"
    s2 = scenario("usa", ("france", "italy", "germany"), actions=19, criteria=1, leeghwater=True)
    s2.private_buildings = [PrivateBuilding(b) for b in DISPLAY]
    s2.private_buildings[4].built_by = ["france", "italy"]
    s2.companies["usa"].tiles = ["building"]
    d2 = decide(s2)
    assert d2.target == "loan_agency" and -3 in [op["delta"] for op in d2.ops if op["op"] == "vp"]


def test_building_tiles_hard_rules():
    """L1 Building: "Automa immediately scores the connected Private Building's VP"; L2 Building: "only use
    the type of Machinery of which they have less in their supply. In case of a tie, ... Excavators"."""
    s = lee(17)
    s.companies["usa"].level = "hard"
    s.companies["usa"].tiles = ["L1_BUILDING"]
    d = decide(s)
    assert d.target == "wind_farm" and d.vp_delta == 5
    s = lee(17)
    s.companies["usa"].level = "hard"
    s.companies["usa"].tiles = ["L2_BUILDING"]
    s.companies["usa"].excavators, s.companies["usa"].mixers = 6, 2      # mixers are scarcer
    inv = next(op for op in decide(s).ops if op["op"] == "invest")
    assert (inv["excavators"], inv["mixers"]) == (0, 2)


def test_external_works_follow_the_tiles_preference_and_discard_machinery():
    """"If it can fulfill more than one External Work, Automa will choose ... according to the preference
    order listed on the Action tile ... and discards the required number of Machineries". Tile 1: [1, 2, 3];
    tile 2: [2, 3, 1]. 000's example: "Todas as Obras Externas estão disponíveis e o Autômato vermelho tem
    Maquinários suficientes para cumprir todos. Ele vai escolher o número 2" (all three are affordable here)."""
    for actions, work, space in ((1, 1, "w1"), (2, 2, "w2")):
        s = lee(actions)
        s.companies["usa"].tiles = []
        set_external_works(s, [1, 2, 3])
        d = decide(s)
        assert d.action == "external_work" and d.target == f"work {work}"
        assert {"op": "engineers", "section": "external", "space": space, "count": 2, "company": "usa"} in d.ops
        machinery = next(op for op in d.ops if op["op"] == "machinery")
        assert machinery["excavators"] + machinery["mixers"] == -1
        assert apply_decision(s, d).companies["usa"].external_works == [work]


def test_external_work_contract_is_the_highest_private_one_of_value_four_at_most():
    """"it must fulfill the higher Private Contract available ... (in case of a tie, the one on the right; if
    the effect is a 4-value Contract, the higher between those valued 4 or less)". Work 1: 3 credits and a
    contract of at most 4."""
    s = lee(1)
    s.companies["usa"].tiles = []
    set_external_works(s, [1, 2, 3])
    set_contracts(s, "green", [212, 213])            # both need 4
    s.contract_office.national = [100]
    d = decide(s)
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [213]


def test_external_work_energy_usable_for_contracts_fulfils_the_highest_private_one_it_covers():
    """Work 100 (2 excavators, 1 mixer): 5 credits and 6 energy "You can use this amount of Energy
    Units to fulfill Contracts". 004: "If the Automa must fulfill a Contract as effect of an External
    Work, it must fulfill the higher Private Contract available in the Contract Office (in case of a
    tie, the one on the right ...)" (rulings L2): of contracts needing 4, 4, 5, 6, 9 and 10 it
    fulfils the 6 (308), never the national one. Work 103's 6 energy cannot fulfil a contract."""
    s = lee(1)
    s.companies["usa"].tiles = []
    set_external_works(s, [100, None, None])
    set_contracts(s, "green", [212, 213])
    set_contracts(s, "yellow", [300, 308])
    s.contract_office.national = [100]
    d = decide(s)
    assert d.target == "work 100"
    assert [op["delta"] for op in d.ops if op["op"] == "energy"] == [6]
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [308]
    after = apply_decision(s, d)
    assert after.energy["usa"] == s.energy["usa"] + 6 and 308 in after.companies["usa"].contracts
    assert after.companies["usa"].vp == s.companies["usa"].vp + 5 + 3       # 5 credits as VP, contract 308's 3 VP
    s = lee(1)
    s.companies["usa"].tiles = []
    set_external_works(s, [103, None, None])
    set_contracts(s, "yellow", [300, 308])
    d = decide(s)
    assert d.target == "work 103" and not [op for op in d.ops if op["op"] == "fulfil"]


def test_new_round_external_works_and_final_scoring_of_buildings():
    s = new_game(1, 1, seed=2, leeghwater=True)
    first = list(s.external_works.slots)
    phases._reset(s, [])
    assert s.external_works.slots != first and all(s.external_works.slots)
    s.private_buildings[0].built_by = [s.turn_order[0]]
    before = s.companies[s.turn_order[0]].vp
    phases.final_scoring(s)
    from automa.barrage.data import components
    vp = components().private_buildings()[s.private_buildings[0].building]["vp"]
    assert s.companies[s.turn_order[0]].vp >= before + vp
    assert phases.bonus_count(s, s.turn_order[0], 7) == 1


def test_external_work_free_advanced_tile_is_the_highest_level_leftmost():
    """Work 5 (2 excavators: 4 credits and a free advanced tile). No Automa rule in the seeds: the highest
    level in the Patent Office, the leftmost on a tie (rulings L2)."""
    s = lee(1)
    s.companies["usa"].tiles = []
    set_external_works(s, [5, None, None])
    s.patent_office.slots = ["L1_BASE", "L2_CONDUIT", "L2_BASE"]
    s.patent_office.piles = {k: [t for t in v if t not in s.patent_office.slots] for k, v in s.patent_office.piles.items()}
    d = decide(s)
    assert d.target == "work 5"
    assert {"op": "take_tile", "slot": 1, "tile": "L2_CONDUIT", "company": "usa"} in d.ops
    assert apply_decision(s, d).companies["usa"].vp == s.companies["usa"].vp + 4
