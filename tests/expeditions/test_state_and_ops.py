"""Load/dump round trips, and impossible states and ops refused with the problem named."""
import copy

import pytest

from automa.common.errors import StateError
from automa.expeditions.ops import apply_ops
from automa.expeditions.state import dump, load

from .scenario import at_progress, corrupt, game, lair


def test_round_trip():
    s = game()
    corrupt(s, "C3", 4, 5)
    lair(s, "N4")
    s.player_at = "S2"
    assert load(dump(s)) == s
    assert dump(load(dump(s))) == dump(s)


def broken(change):
    data = dump(game())
    change(data)
    return data


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(schema="x"), "schema"),
    (lambda d: d["mechs"].update(north="C1"), "mechs.north"),
    (lambda d: d.update(player_at="X9"), "player_at"),
    (lambda d: d.update(glory=1), "glory"),
    (lambda d: d.update(progress=99), "progress"),
    (lambda d: d["deck"]["draw_pile"].pop(), "deck"),
    (lambda d: d["deck"].update(set_aside=[]), "deck"),
    (lambda d: d["locations"].pop("S1"), "locations"),
    (lambda d: d["locations"]["N2"].update(corruption=[{"value": 3, "colour": "orange"}]), "locations.N2"),
    (lambda d: d["locations"]["N2"].update(face_up=True, map_token=False, tile=5,
                                           corruption=[{"value": 20, "colour": "lair"}]), "location 20"),
    (lambda d: d["locations"]["S1"].update(corruption=[{"value": 3, "colour": "green"}]), "colour"),
    (lambda d: d["locations"]["S1"].update(corruption=[{"value": 3, "colour": "orange"}] * 13), "at most"),
    (lambda d: d["automa"].update(maps=1), "maps"),
    (lambda d: d.update(turn="nobody"), "turn"),
    (lambda d: d.update(final_turns=["automa"]), "final_turns"),
    (lambda d: d["automa"].update(corruption=[{"value": 3, "colour": "orange"}] * 38), "38"),
])
def test_impossible_states_are_refused_by_name(change, message):
    with pytest.raises(StateError, match=message):
        load(broken(change))


def test_derived_and_unused_fields_may_be_left_out():
    s = game()
    at_progress(s, 11)                          # level 2: glory 3
    corrupt(s, "N2", 5)
    corrupt(s, "C3", 4)                         # 2 map tokens gone, none to the Automa
    data = dump(s)
    del data["glory"], data["player"]["maps"], data["seed"], data["first"]
    loaded = load(data)
    assert loaded.glory == 3 and loaded.player_maps == 2 and loaded.seed == 0 and loaded.first == "player"
    data["player"]["maps"] = 0
    with pytest.raises(StateError, match="maps"):
        load(data)


def test_bag_holds_37():
    s = game()
    for pid in ("S1", "S2", "S3", "S4"):
        corrupt(s, pid, *[3] * 9)
    corrupt(s, "S5", 3)
    assert s.bag() == 0
    load(dump(s))
    corrupt(s, "S6", 3)
    with pytest.raises(StateError, match="bag"):
        load(dump(s))


def test_bad_ops_name_the_op_and_leave_the_state_alone():
    s = game()
    before = copy.deepcopy(s)
    with pytest.raises(StateError, match=r"ops\[1\] \(draw\)"):
        apply_ops(s, [{"op": "advance", "to": 1}, {"op": "draw", "card": 99}])
    assert s == before
    with pytest.raises(StateError, match="unknown op"):
        apply_ops(s, [{"op": "teleport"}])
    with pytest.raises(StateError, match="central region"):
        apply_ops(s, [{"op": "move", "mech": "central", "to": "N3"}])
    with pytest.raises(StateError, match="not the player's turn"):
        apply_ops(s, [{"op": "player_move", "to": "S1"}])


def test_player_ops():
    s = game(turn="player")
    with pytest.raises(StateError, match="Automa mech"):
        apply_ops(s, [{"op": "player_move", "to": "N1"}])
    s = apply_ops(s, [{"op": "player_move", "to": "N2"}])
    assert s.player_maps == 1 and s.locations["N2"].awaiting_reveal
    with pytest.raises(StateError, match="another location"):
        apply_ops(s, [{"op": "player_move", "to": "N2"}])
    with pytest.raises(StateError, match="enter the tokens"):
        apply_ops(s, [{"op": "reveal", "location": "N2", "tile": 17, "tokens": []}])
    s = apply_ops(s, [{"op": "reveal", "location": "N2", "tile": 17,
                       "tokens": [{"value": 4, "colour": "orange"}, {"value": 5, "colour": "turquoise"}]}])
    s = apply_ops(s, [{"op": "player_vanquish", "count": 1}])
    assert [t.value for t in s.player_corruption] == [4] and [t.value for t in s.locations["N2"].corruption] == [5]
    with pytest.raises(StateError, match="cannot take"):
        apply_ops(s, [{"op": "player_vanquish", "count": 2}])
    s = apply_ops(s, [{"op": "reveal", "location": "S3", "tile": 2}])
    assert s.locations["S3"].tile == 2
    with pytest.raises(StateError, match="not waiting"):
        apply_ops(s, [{"op": "reveal", "location": "S3", "tile": 3}])
    with pytest.raises(StateError, match="game is over"):
        apply_ops(s, [{"op": "figures", "figures": {"coins": 1, "quests": 0, "glory": 0, "upgraded": 0,
                                                    "corruption": 0}}])
