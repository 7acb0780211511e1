"""Very Hard ("Overpowered") Automas: each executive officer's Automa rule and starting changes
(seed 004 "Overpowered" appendix; 000 Apêndice 3 where it adds detail)."""
import pytest

from automa.barrage.data import barrage_map, components
from automa.barrage.engine import apply_decision, decide
from automa.barrage.production import luciani_choice
from automa.barrage.setup import new_game
from automa.barrage.state import GameState, Segment
from automa.common.errors import StateError

from .scenario import (conduit, dam, invested, officer, powerhouse, scenario, set_contracts, set_external_works,
                       set_tiles)


def test_thirteen_officers_with_their_starting_changes():
    """Battista: "Replace one of your 12 starting Engineers with the Architect"; Audia: "no Excavators and
    no Concrete Mixers; instead, you receive the 8 Excamixers"; Krylov and Spencer take their Special tile;
    Sekibo's 3 extra credits are VP for an Automa."""
    assert len(components().officers()) == 13
    s = new_game(3, 0, seed=1, levels=["very-hard"] * 3, officers=["battista", "audia", "krylov"])
    a, b, c = (s.companies[x] for x in s.turn_order)
    assert (a.engineers, a.architect) == (11, True)
    assert (b.excavators, b.mixers, b.excamixers) == (0, 0, 8)
    assert "anton" in c.tiles
    s = new_game(1, 0, seed=1, levels=["very-hard"], officers=["sekibo"])
    assert s.companies[s.turn_order[0]].vp == 16 + 3


def test_officers_are_validated():
    with pytest.raises(ValueError, match="only Very Hard"):
        new_game(1, 0, levels=["hard"], officers=["adler"])
    with pytest.raises(ValueError, match="Leeghwater"):
        new_game(1, 0, levels=["very-hard"], officers=["spencer"])
    with pytest.raises(ValueError, match="different"):
        new_game(2, 0, levels=["very-hard"] * 2, officers=["adler", "adler"])
    s = new_game(2, 0, seed=3, levels=["very-hard", "easy"])
    assert s.companies[s.turn_order[0]].officer in components().officers()      # drawn when not given
    raw = s.to_dict()
    raw["companies"][1]["officer"] = "adler"
    with pytest.raises(StateError, match="only a Very Hard Automa"):
        GameState.from_dict(raw)


def test_adler_bases_cost_three_excavators_and_prefer_the_mountains():
    """Adler: bases always cost 3 excavators; "Dams on the Mountains are always preferred, with Hills being
    second". Tile 17 (a base anywhere), Criteria of tile 18 (code 10: the Plains)."""
    s = scenario(actions=17, criteria=18)
    s.companies["usa"].excavators = 3
    d = decide(s)
    assert barrage_map().dams[d.target].area == "plains"
    d = decide(officer(s, "adler"))
    assert barrage_map().dams[d.target].area == "mountains" and invested(d)["excavators"] == 3


def test_del_monte_prefers_an_elevation_and_holds_four_drops():
    """Del Monte: "Automa will always prefer to perform an Elevation construction action, ignoring the
    structure suggested"; "Your level 3 Dams can hold up to 4 Water Drops"."""
    s = officer(scenario(actions=4, criteria=1), "del-monte")
    dam(s, "5L", "usa", pieces=3, drops=4)
    dam(s, "6L", "usa", pieces=1)
    d = decide(s)
    assert next(op for op in d.ops if op["op"] == "build")["structure"] == "elevation" and d.target == "6L"
    GameState.from_dict(s.to_dict())                 # 4 drops in a level 3 dam is legal for Del Monte
    s.companies["usa"].officer = "adler"
    with pytest.raises(StateError, match="capacity is 3"):
        GameState.from_dict(s.to_dict())


def test_fiesler_uses_one_drop_through_a_small_conduit():
    """Fiesler: "When Automa perform a production action using a Conduit of value 1 or 2, Automa will produce
    using only 1 Water Drop" (and less than 4 energy counts as 4). Tile 17: +2."""
    s = officer(scenario(actions=17, criteria=1), "fiesler")
    dam(s, "6L", "usa", pieces=3, drops=3)
    conduit(s, "6B", "usa")                          # value 2 -> group 7
    powerhouse(s, "P7_0", "usa")
    d = decide(s)
    assert d.action == "production"
    assert [op["count"] for op in d.ops if op["op"] == "drops"] == [1]
    assert [op["delta"] for op in d.ops if op["op"] == "energy"] == [4 + 2]


def test_mcdowell_builds_conduits_with_mixers_and_takes_mixers():
    """McDowell: "When building a Conduit, Automa will always prefer to take Concrete Mixers instead of
    Excavators" (1 mixer per conduit value); 000: machinery of its choice is always a mixer."""
    s = officer(scenario(actions=11, criteria=1), "mcdowell")
    d = decide(s)
    inv = invested(d)
    assert inv["excavators"] == 0 and inv["mixers"] == barrage_map().conduits[d.target].value == 4
    s = officer(scenario(actions=1, criteria=1), "mcdowell")      # tile 1: ... wild machinery
    s.companies["usa"].excavators, s.companies["usa"].mixers = 0, 9
    s.companies["usa"].tiles = []
    d = decide(s)
    assert d.action == "machinery_shop" and d.target == "mixer"


def test_jordan_pays_three_vp_for_one_missing_machine():
    """Jordan: "will only use a maximum of 3 VPs instead of 1 Machinery. Remember this ability when checking
    the Machinery availability condition". A Mountains base needs 5 excavators."""
    s = scenario(actions=4, criteria=1)
    s.companies["usa"].excavators = 4
    assert decide(s).action != "construction"
    d = decide(officer(s, "jordan"))
    assert d.action == "construction" and invested(d)["excavators"] == 4 and d.vp_delta == -3
    s.companies["usa"].excavators = 3
    assert decide(s).action != "construction"


def test_krylov_copies_the_highest_tile_on_the_wheel_only_when_needed():
    """Krylov: "prefer Advanced and Basic Technology tiles to this Special tile. When used, the tile will always
    copy the Technology tile of the highest level (3, 2, 1, basic) ... prefer a specific structure tile to a
    wild tile"."""
    s = officer(scenario(actions=4, criteria=1), "krylov")
    me = s.companies["usa"]
    me.tiles = ["anton", "dam_base"]
    assert invested(decide(s))["tile"] == "dam_base"
    me.tiles = ["anton"]
    me.wheel = [Segment(["L1_JOKER"]), Segment(["L2_BASE"]), Segment(), Segment(), Segment(), Segment()]
    d = decide(s)
    assert invested(d)["tile"] == "anton"
    assert any("copying L2 Base" in line for line in d.trace)
    assert any(op["op"] == "energy" and op["delta"] == 1 for op in d.ops)     # L2 Base: 1 base built


def test_luciani_example_from_the_rulebook():
    """000: "se os Contratos de valor 2, 3, 6, 6, 9 e 10 estiverem disponíveis, com uma produção de 9
    Unidades de Energia, os contratos de valor 3 e 6 serão cumpridos ... com uma produção de 12 ... os
    Contratos de valor 2, 3 e 6 à direita serão cumpridos"."""
    options = [(2, 0, 200), (3, 1, 205), (6, 2, 305), (6, 3, 306), (9, 4, 405), (10, 5, 410)]
    assert [o[0] for o in luciani_choice(options, 9)] == [3, 6]
    assert luciani_choice(options, 9)[1][1] == 3, "the 6 on the right"
    assert [(o[0], o[1]) for o in luciani_choice(options, 12)] == [(2, 0), (3, 1), (6, 3)]
    assert luciani_choice(options + [(13, 100, 100)], 15)[0][2] == 100, "a national contract always first"


def test_luciani_fulfils_several_contracts_in_a_production():
    s = officer(scenario(actions=17, criteria=1), "luciani")
    dam(s, "2L", "usa", pieces=3, drops=3)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")                     # 3 x 3 + 2 = 11 energy
    set_contracts(s, "green", [200, 205])           # 2, 3
    set_contracts(s, "yellow", [305, 310])          # 6, 7
    set_contracts(s, "red", [405, 411])              # 9, 10
    d = decide(s)
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [200, 205, 305]


def test_luciani_example_played_with_the_rulebooks_contracts_and_productions():
    """000's Luciani example as a whole turn: the Contract Office shows 2, 3 (green), 6, 6 (yellow),
    9, 10 (red), left to right; tile 5 produces with no modifier. 3 drops through conduit 2A (value
    3) make 9: "os contratos de valor 3 e 6 serão cumpridos" (the 6 on the right); through 1B
    (value 4) they make 12: "os Contratos de valor 2, 3 e 6 à direita serão cumpridos"."""
    for basin_conduit, group_powerhouse, energy, fulfilled in (("2A", "P6_0", 9, [205, 306]),
                                                              ("1B", "P5_0", 12, [200, 205, 306])):
        s = officer(scenario(actions=5, criteria=1), "luciani")
        dam(s, f"{basin_conduit[0]}L", "usa", pieces=3, drops=3)
        conduit(s, basin_conduit, "usa")
        powerhouse(s, group_powerhouse, "usa")
        set_contracts(s, "green", [200, 205])            # 2, 3
        set_contracts(s, "yellow", [305, 306])           # 6, 6
        set_contracts(s, "red", [405, 410])              # 9, 10
        d = decide(s)
        assert d.action == "production"
        assert [op["delta"] for op in d.ops if op["op"] == "energy"][0] == energy
        assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == fulfilled


def test_battista_architect_and_the_immediate_second_turn():
    """Battista: a turn-ending action that "requires 1 single Engineer" uses the Architect; "After the
    resolution of the action, Automa will immediately start a second turn, using a new Automa tile"."""
    s = officer(scenario(actions=4, criteria=1), "battista")
    me = s.companies["usa"]
    me.engineers, me.architect = 11, True
    me.excavators = 0                                # tile 4: no base; then a machinery shop (1 engineer)
    d = decide(s)
    assert d.action == "machinery_shop" and d.extra_turn
    assert d.to_dict()["extra_turn"] is True
    eng = next(op for op in d.ops if op["op"] == "engineers")
    assert eng["architect"] and eng["count"] == 0
    after = apply_decision(s, d)
    assert not after.companies["usa"].architect and after.companies["usa"].engineers == 11
    second = decide(after)
    assert second.tiles["actions"] != d.tiles["actions"] and not second.extra_turn


def test_sekibo_draws_the_humans_first_action_of_each_round():
    """Sekibo: "human players must perform their first action during each round as if they were an Automa.
    Draw a new Automa tile and follow it to 'decide' which action to perform"."""
    s = scenario("usa", ("france",), actions=4, criteria=1)
    officer(s, "sekibo")
    d = decide(s, "france")
    info = d.to_dict()["human_first_action"]
    assert d.action == "human_first_action" and info["tile"] == 4 and info["action"] == "construction"
    assert d.instruction.startswith("White player (france), Sekibo's rule")
    after = apply_decision(s, d)
    assert after.deck.discard_top == 1 and after.human_first_actions == ["france"]
    with pytest.raises(StateError):
        decide(after, "france")                      # drawn once a round
    from automa.barrage import phases
    phases._reset(after, [])
    assert after.human_first_actions == []


def test_spencer_does_an_external_work_instead_of_a_construction():
    """Spencer: "check if Automa can perform an External Works action. If it can, Automa will use 1 Engineer
    to perform the External Works 'construction' and will ignore the structure"."""
    s = officer(scenario(actions=4, criteria=1, leeghwater=True), "spencer")
    s.companies["usa"].tiles.append("leslie")
    set_external_works(s, [200, 5, 1])               # 200 needs 4 mixers and 2 excavators; 5 two excavators
    s.companies["usa"].mixers = 3                    # 200 is too expensive: the next position is taken
    d = decide(s)
    assert d.action == "construction" and d.target == "work 5"
    assert invested(d)["tile"] == "leslie" and invested(d)["excavators"] == 2
    assert next(op for op in d.ops if op["op"] == "engineers") == \
        {"op": "engineers", "section": "external", "space": "w2", "count": 1, "company": "usa"}


def test_spencer_chooses_the_work_by_the_action_tiles_printed_preference():
    """Ruling O6: an External Works action chooses "according to the preference order listed on the
    Action tile". Tile 6 lists 3-2-1: work 1 at position 3, though work 5 at position 2 is payable
    too; tile 17 lists none: from the top, work 5."""
    picks = {}
    for tile in (6, 17):
        s = officer(scenario(actions=tile, criteria=1, leeghwater=True), "spencer")
        s.companies["usa"].tiles.append("leslie")
        set_external_works(s, [200, 5, 1])
        s.companies["usa"].mixers = 3
        d = decide(s)
        assert d.action == "construction", tile
        picks[tile] = (d.target, [line.strip() for line in d.trace if line.strip().startswith("Spencer:")])
    assert picks[6][0] == "work 1" and "the Action tile's preference 3-2-1" in picks[6][1][0]
    assert picks[17][0] == "work 5" and "from the top (the tile lists none)" in picks[17][1][0]


def test_fouche_builds_a_building_instead():
    s = officer(scenario(actions=4, criteria=1, leeghwater=True), "fouche")
    d = decide(s)
    assert any(op["op"] == "build_private" for op in d.ops)
    assert next(op for op in d.ops if op["op"] == "engineers")["count"] == 1


def test_fouche_searches_from_the_top_even_on_a_tile_whose_building_points_up():
    """Fouché: "it will ignore the structure indicated on the Automa tile and use 1 Engineer to build the
    Building" names no direction (ruling O6): tile 19's first construction (a conduit) becomes a Building
    from the top, although the tile's own Building action searches from the bottom (upward arrow)."""
    s = officer(scenario(actions=19, criteria=1, leeghwater=True), "fouche")
    order = [b.building for b in s.private_buildings]
    d = decide(s)
    assert d.action == "construction" and d.target == order[0] and len(d.steps) == 1
    assert any("Fouché" in line for line in d.trace)


def test_audia_uses_excavators_and_mixers_before_excamixers():
    s = officer(scenario(actions=4, criteria=1), "audia")
    me = s.companies["usa"]
    me.excavators, me.mixers, me.excamixers = 3, 0, 8
    inv = invested(decide(s))
    assert (inv["excavators"], inv.get("excamixers")) == (3, 2)


def test_grasso_checks_construction_first_and_saves_an_engineer_once_a_round():
    """Grasso: "Start with the second column to check for a Construction action, then the first and third
    column"; "The first construction action of each round costs 1 Engineer less. Put the used engineer on the
    XO special spot"."""
    s = officer(scenario(actions=13, criteria=1), "grasso")     # tile 13: production, water, powerhouse, base
    dam(s, "2L", "usa", pieces=2, drops=2)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    d = decide(s)
    assert d.action == "construction" and [st.action for st in d.steps] == ["construction"]
    assert next(op for op in d.ops if op["op"] == "engineers") == \
        {"op": "engineers", "section": "officer", "space": "xo", "count": 1, "company": "usa"}
    after = apply_decision(s, d)
    set_tiles(after, actions=13, criteria=1)
    d2 = decide(after)
    assert next(op for op in d2.ops if op["op"] == "engineers")["section"] == "company"
