"""The map changes a human's turn can make (automa.barrage.human_moves)."""
from __future__ import annotations

import pytest

from automa.barrage.data import barrage_map
from automa.barrage.human_moves import human_moves
from automa.barrage.setup import new_game
from automa.barrage.state import Dam, GameState


@pytest.fixture
def state() -> GameState:
    """Germany (Automa) and Italy (human) on an empty map but for the pieces each test sets."""
    s = new_game(1, 1, 1, companies=["germany", "italy"])
    s.dams, s.conduits, s.powerhouses = {}, {}, {}
    s.headstreams = {"A": 0, "B": 0, "C": 0, "D": 0}
    return s


def by_key(state: GameState, company: str = "italy") -> dict:
    return {m.key: m for m in human_moves(state, company)}


def test_a_turn_that_changes_nothing_comes_first(state):
    moves = human_moves(state, "italy")
    assert moves[0].key == "none" and moves[0].changes() == {}


def test_one_dam_per_basin_elevations_on_own_dams_below_three_pieces(state):
    state.dams = {"1U": Dam("italy", 1, 0), "2U": Dam("germany", 1, 0), "3U": Dam("italy", 3, 0)}
    moves = by_key(state)
    assert "dam_base:1L" not in moves and "dam_base:3L" not in moves      # a dam of Italy's in basins 1 and 3
    assert "dam_base:2L" in moves                                           # Germany's dam does not bar Italy
    assert moves["dam_base:2L"].dams == {"2L": Dam("italy", 1, 0)}          # built bare, holding no water
    assert not any(k.startswith("dam_base:") and k[9:] in state.dams for k in moves)
    empty = [s for s, sp in barrage_map().dams.items() if s not in state.dams and sp.basin not in (1, 3)]
    assert sorted(k[9:] for k in moves if k.startswith("dam_base:")) == sorted(empty)
    assert [k for k in moves if k.startswith("elevation:")] == ["elevation:1U"]   # not Germany's, not a full dam
    assert moves["elevation:1U"].dams == {"1U": Dam("italy", 2, 0)}


def test_a_powerhouse_goes_on_a_group_without_one_of_the_company(state):
    state.powerhouses = {"P5_0": "italy", "P6_0": "germany"}
    moves = by_key(state)
    assert "powerhouse:P5_1" not in moves and "powerhouse:P5_0" not in moves
    assert moves["powerhouse:P6_1"].powerhouses == {"P6_1": "italy"}
    assert moves["conduit:1A"].conduits == {"1A": "italy"}


def test_no_build_without_a_piece_left_on_the_company_board(state):
    # 5 conduits, 4 powerhouses and 5 dam bases start on a company board (components.json)
    state.conduits = {c: "italy" for c in ("1A", "1B", "2A", "2B", "3A")}
    state.powerhouses = {p: "italy" for p in ("P5_0", "P6_0", "P8_0", "P10_0")}
    kinds = {m.kind for m in human_moves(state, "italy")}
    assert "conduit" not in kinds and "powerhouse" not in kinds and "dam_base" in kinds


def test_a_production_drains_k_drops_that_flow_on_from_the_powerhouses_group(state):
    # Italy's dam 1U (2 pieces, 2 drops), Germany's conduit 1B from basin 1 to group 5, Italy's
    # powerhouse in group 5; below group 5 the river meets 5U (a neutral dam with room for 1) and 5L, 9U, 9L
    state.dams = {"1U": Dam("italy", 2, 2), "5U": Dam("neutral", 1, 0)}
    state.conduits = {"1B": "germany", "1A": "germany"}
    state.powerhouses = {"P5_0": "italy"}
    moves = by_key(state)
    assert moves["production:1U:1B:1"].dams == {"1U": Dam("italy", 2, 1), "5U": Dam("neutral", 1, 1)}
    # the second drop finds 5U full and leaves the map
    assert moves["production:1U:1B:2"].dams == {"1U": Dam("italy", 2, 0), "5U": Dam("neutral", 1, 1)}
    assert not any(k.startswith("production:1U:1A") for k in moves)     # group 8 holds no powerhouse of Italy's
    assert not any(k.startswith("production:") for k in by_key(state, "germany"))


def test_no_production_from_another_companys_dam(state):
    state.dams = {"1U": Dam("germany", 2, 2)}
    state.conduits = {"1B": "italy"}
    state.powerhouses = {"P5_0": "italy"}
    assert not any(m.kind == "production" for m in human_moves(state, "italy"))


def test_water_management_places_two_drops_or_lets_one_flow(state):
    state.headstreams["A"] = 1
    state.dams = {"1U": Dam("germany", 1, 1), "1L": Dam("italy", 2, 0)}
    moves = by_key(state)
    assert moves["water:p2:A+A"].headstreams == {"A": 3}
    assert moves["water:p2:A+C"].headstreams == {"A": 2, "C": 1}
    assert len([k for k in moves if k.startswith("water:p2:")]) == 10          # 4 tiles, 2 drops
    # 1U is full: the drop runs on to 1L
    assert moves["water:d1:A"].dams == {"1L": Dam("italy", 2, 1)}
    # a drop from B meets no dam and leaves the map: the same map as no move, listed once
    assert "water:d1:B" not in moves


def test_apply_writes_the_moves_slots(state):
    move = by_key(state)["dam_base:4U"]
    move.apply(state)
    assert state.dams["4U"] == Dam("italy", 1, 0)


def test_water_stops_in_a_del_monte_level_3_dam_with_a_fourth_drop_of_room(state):
    """Graziano Del Monte: "Your level 3 Dams can hold up to 4 Water Drops". Italy's production
    releases water at group 5, which runs 5U, 5L, 9U, 9L: germany's Del Monte dam on 5U, level 3
    with 3 drops, keeps one; so does a drop let flow from headstream B (2U, 2L, 5U, ...). The map
    the camera saw carries no companies: the game's are passed."""
    from vision.barrage.board_state import MapState
    state.dams = {"1U": Dam("italy", 1, 1), "5U": Dam("germany", 3, 3)}
    state.conduits, state.powerhouses = {"1B": "italy"}, {"P5_0": "italy"}
    state.companies["italy"].structures.update(conduit=4, powerhouse=3)
    state.companies["germany"].structures.update(dam_base=4, elevation=3)
    assert "5U" not in by_key(state)["production:1U:1B:1"].dams          # a medium Automa: 5U is full
    state.companies["germany"].level, state.companies["germany"].officer = "very-hard", "del-monte"
    assert by_key(state)["production:1U:1B:1"].dams == {"1U": Dam("italy", 1, 0), "5U": Dam("germany", 3, 4)}
    board = MapState(dams=dict(state.dams), conduits=dict(state.conduits), powerhouses=dict(state.powerhouses),
                     headstreams=dict(state.headstreams))
    moves = {m.key: m for m in human_moves(board, "italy", state.companies)}
    assert moves["water:d1:B"].dams == {"5U": Dam("germany", 3, 4)}
    assert moves["production:1U:1B:1"].dams["5U"] == Dam("germany", 3, 4)
