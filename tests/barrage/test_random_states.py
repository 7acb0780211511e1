"""Random legal states: deterministic, valid, conserving pieces, drops where water can stand."""

import pytest

from automa.barrage.data import barrage_map, components
from automa.barrage.random_states import random_state
from automa.barrage.setup import new_game
from automa.barrage.state import NEUTRAL, GameState

SEEDS = range(200)


def test_same_seed_same_state():
    assert random_state(7).to_dict() == random_state(7).to_dict()
    assert random_state(7, automas=2, humans=1).to_dict() == random_state(7, automas=2, humans=1).to_dict()


def test_zero_moves_is_the_start_board():
    assert random_state(5, moves=0).to_dict() == new_game(1, 1, 5).to_dict()


def test_negative_moves_rejected():
    with pytest.raises(ValueError):
        random_state(1, moves=-1)


@pytest.mark.parametrize("automas,humans", [(1, 0), (1, 1), (2, 1), (3, 1)])
def test_states_round_trip_through_validation(automas, humans):
    for seed in SEEDS:
        s = random_state(seed, automas=automas, humans=humans)
        assert GameState.from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_pieces_are_conserved():
    start = components().raw["starting"]["structures"]
    for seed in SEEDS:
        s = random_state(seed, moves=60)
        for cid, c in s.companies.items():
            dams = [d for d in s.dams.values() if d.owner == cid]
            on_map = {"dam_base": len(dams), "elevation": sum(d.pieces - 1 for d in dams),
                      "conduit": sum(o == cid for o in s.conduits.values()),
                      "powerhouse": sum(o == cid for o in s.powerhouses.values())}
            assert {k: on_map[k] + c.structures[k] for k in start} == start


def test_neutral_dams_stay_and_map_rules_hold():
    bmap = barrage_map()
    for seed in SEEDS:
        s = random_state(seed, moves=60)
        start = new_game(1, 1, seed)
        for space, dam in start.dams.items():
            assert s.dams[space].owner == NEUTRAL and s.dams[space].pieces == dam.pieces
        for cid in s.companies:
            basins = [bmap.dams[sp].basin for sp, d in s.dams.items() if d.owner == cid]
            assert len(basins) == len(set(basins))
            groups = [bmap.powerhouses[sp].group for sp, o in s.powerhouses.items() if o == cid]
            assert len(groups) == len(set(groups))


def test_moves_fill_the_map_and_move_water():
    states = [random_state(seed, moves=60) for seed in SEEDS]
    assert all(len(s.conduits) + len(s.powerhouses) > 0 for s in states)
    assert any(d.drops > 0 and d.owner != NEUTRAL for s in states for d in s.dams.values())
    assert any(d.pieces == 3 and d.owner != NEUTRAL for s in states for d in s.dams.values())


def test_elevations_are_built_about_as_often_as_dam_bases():
    """A player picks the kind of structure first, so elevations (legal only on the company's
    own dams) are not crowded out by the many spaces open to the other kinds: synthetic boards
    then show raised dams as often as a real table does."""
    bases = elevations = 0
    for seed in SEEDS:
        for dam in random_state(seed, moves=60).dams.values():
            if dam.owner != NEUTRAL:
                bases += 1
                elevations += dam.pieces - 1
    assert elevations >= 0.5 * bases
