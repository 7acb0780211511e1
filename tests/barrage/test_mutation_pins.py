"""Rules the mutation pass of the engine found unpinned: each test fixes one behaviour the seed decides
(quoted) that a plausible misreading of the engine changed without any other test failing. Expected
values are worked out from the seed (004, English, primary; 000, Portuguese) before running the engine."""
from automa.barrage.data import barrage_map
from automa.barrage.engine import decide
from automa.barrage.state import Segment

from .scenario import conduit, dam, hard, invested, officer, ops, powerhouse, scenario, set_contracts


def _green_201_by_production():
    """Tile 17 (production +2, green): usa's 2L dam (1 drop), conduit 2A (value 3) and powerhouse
    P6_0 make 5 energy; the only contract is green 201 (2 energy, reward: 2 machines of its choice)."""
    s = scenario(actions=17, criteria=1)
    dam(s, "2L", "usa", pieces=1, drops=1)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    _only_contracts(s, [201, None])
    return s


def _only_contracts(s, green: list, national: list | None = None) -> None:
    """Face up: ``green`` (left, right) and ``national``; no other contract, no pile to refill from."""
    set_contracts(s, "green", green)
    s.contract_office.piles["green"] = []
    for colour in ("yellow", "red"):
        set_contracts(s, colour, [None, None])
        s.contract_office.piles[colour] = []
    s.contract_office.national = list(national or [])


# -- machinery "of your choice": counted out of the Construction Wheel ----------------------------
def test_machinery_of_its_choice_counts_the_supply_not_the_wheel():
    """004: "takes the type of Machinery of which it has less available (i.e. out of the Construction
    Wheel). In case of tie, Automa takes 1 Excavator." (rulings R21: every "machinery of your choice"
    reward.) Tile 17: production +2, green. 1 drop x conduit 2A (value 3) + 2 = 5 energy; the only
    contract is green 201 (2 energy, reward: 2 machines of its choice). Supply 2 excavators, 3 mixers;
    4 excavators sit on the wheel. Out of the wheel it has fewer excavators: an excavator (2 < 3), then
    3 = 3, a tie: an excavator again. Counting the wheel (6 > 3) would give two mixers."""
    s = _green_201_by_production()
    usa = s.companies["usa"]
    usa.excavators, usa.mixers = 2, 3
    usa.wheel[3] = Segment(excavators=4)
    d = decide(s)
    assert d.action == "production"
    assert [op["contract"] for op in ops(d, "fulfil")] == [201]
    got = [(op.get("excavators", 0), op.get("mixers", 0)) for op in ops(d, "machinery")]
    assert got == [(1, 0), (1, 0)]


# -- Hard: L2 Conduit "a Conduit of value 3 or higher" includes value 3 ---------------------------
def test_l2_conduit_keeps_a_conduit_of_value_exactly_three():
    """004, L2 Conduit: "In case of a tie among eligible positions, Automa will always choose a Conduit of
    value 3 or higher" (rulings H2: kept before the criteria), and its cost cap of 5 excavators for a
    conduit costing 6 or more. Every conduit space of value 4-5 and every
    value-3 space but 8A is taken; left: 8A (3), 6B, 7A, 8B, 10A (2), 9A, 10B (1). The one conduit of
    value 3 or higher is 8A, so it is built. (Without the rule, tile 17's "second most powerful" would
    keep the value-2 spaces and code 9A would reach 10A.)"""
    s = scenario(others=("france", "italy", "germany"), actions=11, criteria=17, automas=1)
    bmap = barrage_map()
    taken = sorted(c for c, sp in bmap.conduits.items() if sp.value >= 3 and c != "8A")
    owners = ["france", "italy", "germany"]
    for i, c in enumerate(taken):
        conduit(s, c, owners[i % 3])
    s.companies["usa"].tiles.append("L2_CONDUIT")
    s.companies["usa"].excavators = 5
    d = decide(hard(s))
    assert d.action == "construction" and d.target == "8A"
    # L2 Conduit: "When you use this tile to build a Conduit which costs 6 or more Excavators (for its
    # production is 3 or more), its cost becomes 5 Excavators": 8A (value 3) costs 6, so 5 pay for it.
    assert (invested(d)["tile"], invested(d)["excavators"]) == ("L2_CONDUIT", 5)


# -- Hard: L1 Joker's red outline is for a Base only ----------------------------------------------
def test_l1_joker_powerhouse_keeps_the_regular_space():
    """004, L1 Joker: "If Automa is building a Base, it will choose a building space with a red outline";
    for any other structure the procedure's "Dams and Powerhouses are preferably built in the regular
    space (without red outline)" stands (rulings H3). Tile 15: a powerhouse (the production before it has
    no system); the L1 Joker is its highest tile. Empty map, Criteria of tile 1: no criterion matches a
    single group, code 5: group 5, regular space P5_0 (not the red-outlined P5_1)."""
    s = hard(scenario(actions=15, criteria=1))
    s.companies["usa"].tiles.append("L1_JOKER")
    d = decide(s)
    assert d.action == "construction" and invested(d)["tile"] == "L1_JOKER"
    assert d.target == "P5_0"
    assert not barrage_map().powerhouses[d.target].red


def test_several_machines_of_its_choice_are_chosen_one_at_a_time():
    """Ruling R24: a reward of several machines "of your choice" applies 004's rule ("takes the type of
    Machinery of which it has less available ... In case of tie, Automa takes 1 Excavator") to each
    machine in turn. Green 201 gives 2: with 5 excavators and 5 mixers, the first is an excavator (a
    tie), then it has 6 and 5, so the second is a mixer (not two excavators chosen at once)."""
    s = _green_201_by_production()
    usa = s.companies["usa"]
    usa.excavators, usa.mixers = 5, 5
    d = decide(s)
    assert [op["contract"] for op in ops(d, "fulfil")] == [201]
    got = [(op.get("excavators", 0), op.get("mixers", 0)) for op in ops(d, "machinery")]
    assert got == [(1, 0), (0, 1)]


# -- Very Hard: Adler's preference is for Dam positioning, Elevations included --------------------
def test_adler_prefers_the_mountains_for_an_elevation_too():
    """004, Wilhelm Adler: "When checking for Dam positioning criteria, Dams on the Mountains are always
    preferred, with Hills being second"; the Dam column is "Dam Bases and Elevations" (rulings O1).
    Tile 7: an Elevation (after a production with no system and the yellow Contract Office). Own dams
    1L (Mountains) and 10L (Plains), enough mixers for both. Criteria of tile 18 (start 10): no
    powerhouse upstream, no conduit built, neither dam linked downstream to an owned or opponent dam, so
    the code decides: basin 10, 10L. Adler's Automa raises 1L instead."""
    def game(level_officer: str | None):
        s = scenario(actions=7, criteria=18)
        dam(s, "1L", "usa")
        dam(s, "10L", "usa")
        if level_officer:
            officer(s, level_officer)
        else:
            hard(s)
        return s

    plain = decide(game(None))
    assert plain.action == "construction" and plain.target == "10L"
    adler = decide(game("adler"))
    assert adler.action == "construction" and adler.target == "1L"
    assert invested(adler)["mixers"] == 4, "an elevation in the Mountains costs 4 mixers"


# -- Water Management: the placed drops must be the ones that reach an own dam --------------------
def test_water_management_needs_a_placed_drop_to_reach_an_own_dam():
    """004: "The Automa will perform this action only if at least one of the indicated Water Drops can
    reach one of its own Dams, either immediately (downward arrow) or in the upcoming Water Phase, taking
    into consideration the current map status." Tile 1: 2 drops, no flow. Headstream A already holds 1
    drop and its river meets the Automa's 1-piece dam 1L first: that drop fills it in the coming Water
    Flow, so none of the Automa's new drops can end in an own dam; the action is not performed. With a
    2-piece 1L there is room for one more: it places 1 drop on A (the second would exceed the room)."""
    s = scenario(actions=1, criteria=9)
    dam(s, "1L", "usa", pieces=1)
    s.headstreams["A"] = 1
    s.companies["usa"].structures.update(dam_base=0, elevation=0)
    d = decide(s)
    assert "water_management" not in [step.action for step in d.steps]
    assert not [op for op in ops(d, "drops") if op["target"].startswith("headstream")]

    s2 = scenario(actions=1, criteria=9)
    dam(s2, "1L", "usa", pieces=2)
    s2.headstreams["A"] = 1
    s2.companies["usa"].structures.update(dam_base=0, elevation=0)
    d2 = decide(s2)
    assert d2.steps[0].action == "water_management"
    placed = [op for op in ops(d2, "drops") if op["target"].startswith("headstream")]
    assert placed == [{"op": "drops", "source": "supply", "target": "headstream:A", "count": 1}]


# -- an Automa owner of the conduit used earns VP for the credit too -------------------------------
def test_an_automa_owner_of_the_conduit_scores_the_credit_as_vp():
    """Base rule (rulings R11): the producer pays the conduit's owner 1 credit per drop and the owner
    scores 1 VP per drop; 004: "Instead of spending or earning credits, Automa players will always pay or
    earn Victory points". Two Automas: USA produces 2 drops through Germany's conduit 2A: USA -2 VP,
    Germany (an Automa) +2 VP for the credits and +2 VP: +4, and no credit."""
    s = scenario(others=("germany", "france"), automas=2, actions=17, criteria=1)
    dam(s, "2L", "usa", pieces=2, drops=2)
    conduit(s, "2A", "germany")
    powerhouse(s, "P6_0", "usa")
    d = decide(s, "usa")
    assert d.action == "production"
    to_owner = [op for op in d.ops if op.get("company") == "germany"]
    assert to_owner == [{"op": "vp", "company": "germany", "delta": 4, "why": "conduit used: credits as VP + VP"}]
    assert [op["delta"] for op in d.ops if op["op"] == "vp" and op.get("company") == "usa"
            and "conduit" in op.get("why", "")] == [-2]


# -- Very Hard: Battista's second turn follows the Architect on a one-engineer action only ---------
def test_battista_architect_as_a_last_worker_gives_no_second_turn():
    """004, Tommaso Battista: "If an action listed on the Automa tile that will end the turn ... requires
    1 single Engineer, Automa will use the 'Architect' (if available). After the resolution of the action,
    Automa will immediately start a second turn" (rulings O5: otherwise the Architect is only a last
    worker). Tile 4: a Base in the Mountains, printed with 2 engineers. With 1 engineer and the Architect
    left, both go on the board (the Architect as the last worker), and no second turn follows."""
    s = officer(scenario(actions=4, criteria=1), "battista")
    me = s.companies["usa"]
    me.engineers, me.architect = 1, True
    d = decide(s)
    assert d.action == "construction"
    placed = ops(d, "engineers")
    assert [(op["count"], op.get("architect", False)) for op in placed] == [(1, True)]
    assert d.extra_turn is False


# -- Hard: L3 Elevation counts every dam with at least one Elevation -------------------------------
def test_l3_elevation_counts_level_two_dams_too():
    """L3 Elevation: "score 3 Victory Points for each of your Dams that have at least one Elevation on them
    (all your level 2 and level 3 Dams)". Tile 7: an Elevation; its only candidate is the 1-piece dam 9L
    (4L already has 3 pieces). After the build 9L has 2 pieces and 4L 3: 2 dams, 6 VP."""
    s = hard(scenario(actions=7, criteria=1))
    dam(s, "9L", "usa", pieces=1)
    dam(s, "4L", "usa", pieces=3)
    s.companies["usa"].tiles.append("L3_ELEVATION")
    d = decide(s)
    assert d.action == "construction" and d.target == "9L"
    assert [op["delta"] for op in ops(d, "vp") if op.get("why") == "L3 Elevation"] == [6]


# -- Production: the used drops flow on down the river ---------------------------------------------
def test_produced_water_flows_on_to_a_downstream_dam_with_room():
    """004: "Move the Water Drops and update the Energy Track as usual"; base rules (reference §8): the
    drops "flow on down the river from that powerhouse group. A downstream dam with room may catch
    them". 2 drops leave 2L through 2A into group 6, whose water enters basin 6: France's 1-piece dam
    6L (empty) catches one, the other finds no dam with room below and leaves the map."""
    s = scenario(actions=17, criteria=1)
    dam(s, "2L", "usa", pieces=2, drops=2)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    dam(s, "6L", "france", pieces=1)
    d = decide(s)
    assert d.action == "production"
    moved = sorted((op["source"], op["target"], op["count"]) for op in ops(d, "drops"))
    assert moved == [("dam:2L", "dam:6L", 1), ("dam:2L", "exit", 1)]


# -- Income: an income is received when it is uncovered, not again ---------------------------------
def test_an_income_is_received_once_when_uncovered_and_every_income_phase():
    """004: "if an income is revealed on the Automa Company board after building the structure, Automa
    will receive that income immediately" and "Automa players will collect activated income according to
    their Company boards" (rulings R16). USA's conduit track: 2 built, 3 VP; 4 built, a wheel turn and 2
    VP. Building a 3rd conduit reveals nothing, so no income (not the 2nd one's again). In the Income
    phase, with 4 built, both activated incomes are paid: 3 + 2 VP (the empty wheel does not turn)."""
    from automa.barrage import phases
    s = scenario(actions=11, criteria=1)
    conduit(s, "9A", "usa")
    conduit(s, "10B", "usa")
    d = decide(s)
    assert d.action == "construction" and s.companies["usa"].built("conduit") == 2
    assert not [op for op in ops(d, "vp") if "income" in op.get("why", "")]
    assert d.vp_delta == 0

    s2 = scenario(actions=11, criteria=1)
    for c in ("9A", "10B", "10A", "8B"):
        conduit(s2, c, "usa")
    before = s2.companies["usa"].vp
    paid = phases.income_phase(s2)
    assert sorted(op["delta"] for op in paid if op["op"] == "vp" and op["company"] == "usa") == [2, 3]
    assert s2.companies["usa"].vp == before + 5


# -- free structures of contract rewards keep the reward's limits ----------------------------------
def test_free_conduit_reward_includes_its_maximum_value():
    """Contract 307 (yellow, 6 energy): a free Conduit of production value 3 or less, placed by the
    procedure (rulings R17). Tile 7: production, yellow. 2 drops x 2A (value 3) = 6. The free conduit:
    no third structure (basin 2's other space 2B is value 5); Criteria of tile 1: "the most powerful
    Conduit among the eligibles" keeps the free value-3 spaces (3B 4A 5A 7B 8A 9B); none is linked to
    a dam; "linked to an owned Powerhouse" keeps 3B (into group 6, P6_0)."""
    s = scenario(actions=7, criteria=1)
    dam(s, "2L", "usa", pieces=2, drops=2)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    _only_contracts(s, [None, None])
    set_contracts(s, "yellow", [307, None])
    s.contract_office.piles["yellow"] = []
    d = decide(s)
    assert [op["contract"] for op in ops(d, "fulfil")] == [307]
    assert [op["space"] for op in ops(d, "build")] == ["3B"]


def test_free_dam_base_reward_keeps_to_its_area():
    """Contract 211 (green, 4 energy): a free Dam Base in the Plains. Tile 17: production +2, green:
    2 x 3 + 2 = 8. Candidates: the Plains spaces (basins 8-10). Criteria of tile 1: no built conduit and
    no conduit link to P6_0 from the Plains; "linked (through basins without other Dams) to an upstream
    Powerhouse": water from group 6 runs through basin 6 into basin 10: 10U/10L; the regular 10L."""
    s = scenario(actions=17, criteria=1)
    dam(s, "2L", "usa", pieces=2, drops=2)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    _only_contracts(s, [211, None])
    d = decide(s)
    assert [op["contract"] for op in ops(d, "fulfil")] == [211]
    built = [op["space"] for op in ops(d, "build")]
    assert built == ["10L"] and barrage_map().dams[built[0]].area == "plains"


# -- Leeghwater: Private Building build slots ------------------------------------------------------
def _buildings(s):
    from automa.barrage.state import PrivateBuilding
    from .scenario import DISPLAY
    s.private_buildings = [PrivateBuilding(b) for b in DISPLAY]
    s.companies["usa"].tiles = ["building"]          # only a Building can be built
    return s


def test_a_building_with_every_build_slot_taken_is_skipped():
    """004: "Automa will build on the first available spot"; rulings L1: 4 build slots at 4-5 players, a
    company builds each building once. Five companies: the four others have taken every slot of the Wind
    Farm (the top one), so tile 17's Building (downward arrow) goes on to the Cofferdam."""
    s = _buildings(scenario(others=("france", "italy", "germany", "netherlands"), actions=17, criteria=9,
                            leeghwater=True))
    s.private_buildings[0].built_by = ["france", "italy", "germany", "netherlands"]
    s.companies["usa"].structures["dam_base"] = 0     # the Base before the Building is not possible
    d = decide(s)
    assert d.action == "construction" and d.target == "cofferdam"
    assert any("wind_farm (no free build slot)" in line for line in d.trace)


def test_below_four_players_the_second_builder_pays_the_third_slot():
    """Rulings L1 (base rules §14): "Per building, slots 1-2 are free and slots 3-4 cost +3 credits; BGA
    disables slot 2 below 4 players", and an Automa pays credits as VP (004). With 2 players, France on
    the Wind Farm's slot 1, the Automa's building takes slot 3: 3 VP. With 4 players the same building
    takes slot 2, free."""
    s = _buildings(scenario(actions=17, criteria=9, leeghwater=True))
    s.private_buildings[0].built_by = ["france"]
    s.companies["usa"].structures["dam_base"] = 0
    d = decide(s)
    assert d.target == "wind_farm"
    assert [op["delta"] for op in ops(d, "vp") if "build slot" in op.get("why", "")] == [-3]

    s4 = _buildings(scenario(others=("france", "italy", "germany"), actions=17, criteria=9, leeghwater=True))
    s4.private_buildings[0].built_by = ["france"]
    s4.companies["usa"].structures["dam_base"] = 0
    d4 = decide(s4)
    assert d4.target == "wind_farm"
    assert not [op for op in ops(d4, "vp") if "build slot" in op.get("why", "")]
