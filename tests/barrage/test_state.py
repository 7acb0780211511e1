"""The state model: JSON round trip and validation that names the problem."""
import json

import pytest

from automa.barrage.setup import new_game
from automa.barrage.state import Company, Dam, GameState, capacity
from automa.common.errors import StateError


def start():
    return new_game(automas=2, humans=1, seed=4)


def test_round_trip_is_exact():
    s = start()
    text = s.to_json()
    assert GameState.from_json(text).to_json() == text


def test_new_game_follows_setup_rules():
    s = new_game(automas=2, humans=1, seed=9)
    automas = [c for c in s.turn_order if s.companies[c].automa]
    assert s.turn_order[:2] == automas, "Automas take the first turn-order positions"
    assert all(s.companies[c].vp == 16 for c in automas), "Automa begins with 16 VP"
    human = s.turn_order[2]
    assert s.companies[human].vp == 10 and s.companies[human].credits == 6
    neutral = {sp: d for sp, d in s.dams.items() if d.owner == "neutral"}
    assert sorted(d.pieces for d in neutral.values()) == [1, 2, 3]
    assert all(d.drops == 1 for d in neutral.values())
    assert all(sp.endswith("L") for sp in neutral)
    assert len(s.contract_office.national) == 2, "national contracts = companies - 1"
    assert all(None not in v for v in s.contract_office.private.values())


def test_same_seed_same_game():
    assert new_game(1, 1, seed=3).to_json() == new_game(1, 1, seed=3).to_json()
    assert new_game(1, 1, seed=3).to_json() != new_game(1, 1, seed=4).to_json()


def mutate(fn):
    raw = start().to_dict()
    fn(raw)
    return raw


@pytest.mark.parametrize("change, message", [
    (lambda r: r["map"]["conduits"].extend([{"space": "4B", "owner": r["turn_order"][0]},
                                             {"space": "4B", "owner": r["turn_order"][1]}]), "two conduits on space 4B"),
    (lambda r: r["map"]["dams"].append({"space": "9Z", "owner": "neutral", "pieces": 1}), "unknown dam space '9Z'"),
    (lambda r: r["map"]["dams"].append({"space": "1U", "owner": r["turn_order"][0], "pieces": 1, "drops": 2}),
     "holds 2 drops but its capacity is 1"),
    (lambda r: r["map"]["powerhouses"].append({"space": "P99_0", "owner": r["turn_order"][0]}), "unknown powerhouse space"),
    (lambda r: r["companies"][0]["structures"].update(conduit=5) or r["map"]["conduits"].append(
        {"space": "1A", "owner": r["turn_order"][0]}), "more than the 5 it owns"),
    (lambda r: r.update(round=6), "round must be 1-5"),
    (lambda r: r["map"].update(dams=[]) or r["map"]["dams"].extend([{"space": "2U", "owner": r["turn_order"][0]},
                                         {"space": "2L", "owner": r["turn_order"][0]}]), "two dams in basin 2"),
    (lambda r: r["automa_deck"].update(draw_pile=[1, 2]), "tiles 1-20 exactly once"),
    (lambda r: r["companies"][0].update(vp="many"), "vp must be an integer"),
])
def test_impossible_states_are_rejected_by_name(change, message):
    with pytest.raises(StateError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GameState.from_dict(mutate(change))


def test_invalid_json_names_line_and_column():
    with pytest.raises(StateError, match="line 1, column"):
        GameState.from_json("{not json")


def test_loading_does_not_modify_input():
    raw = start().to_dict()
    before = json.dumps(raw, sort_keys=True)
    GameState.from_dict(raw)
    assert json.dumps(raw, sort_keys=True) == before


def test_pieces_left_may_be_omitted_and_are_derived_from_the_map():
    raw = start().to_dict()
    me = raw["turn_order"][0]
    raw["map"]["dams"] = [{"space": "4L", "owner": me, "pieces": 3, "drops": 1}]
    raw["map"]["conduits"] = [{"space": "4A", "owner": me}]
    for c in raw["companies"]:
        del c["structures"]
    s = GameState.from_dict(raw)
    assert s.companies[me].structures == {"dam_base": 4, "elevation": 3, "conduit": 4, "powerhouse": 4}
    raw["companies"][0]["structures"] = {"dam_base": 5, "elevation": 5, "conduit": 5, "powerhouse": 4}
    with pytest.raises(StateError, match="more than the 5 it owns"):
        GameState.from_dict(raw)


def test_capacity_is_one_drop_a_piece_but_four_in_a_del_monte_level_3_dam():
    """Base rules: a dam holds 1, 2 or 3 drops (its pieces); Graziano Del Monte: "Your level 3 Dams
    can hold up to 4 Water Drops. Your level 1 and level 2 Dams can hold 1 or 2 Water Drops
    respectively". The engine plays officers for Very Hard Automas only."""
    del_monte = Company("usa", automa=True, vp=10, level="very-hard", officer="del-monte")
    companies = {"usa": del_monte, "italy": Company("italy", automa=False, vp=10)}
    assert [capacity(Dam("usa", n, 0), companies) for n in (1, 2, 3)] == [1, 2, 4]
    assert [capacity(Dam(owner, 3, 0), companies) for owner in ("italy", "neutral", "germany")] == [3, 3, 3]
    del_monte.level = "hard"                                   # an officer only at Very Hard
    assert capacity(Dam("usa", 3, 0), companies) == 3
