"""The state: dump/load round trip, and every impossible state refused with its problem named."""
from __future__ import annotations

import copy

import pytest

from automa.brasil_imperial.state import dump, load
from automa.common.errors import StateError

from .scenario import game


def test_dump_and_load_round_trip():
    s = game()
    assert dump(load(dump(s))) == dump(s)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.__setitem__("schema", "x"), "schema"),
    (lambda d: d["automa"]["units"]["1"].__setitem__("at", "9,9"), "not on the map"),
    (lambda d: d["automa"]["units"]["1"].__setitem__("at", "2,0"), "every standing unit is on the compass"),
    (lambda d: d["automa"].__setitem__("combat_cards", 4), "combat_cards"),
    (lambda d: d["automa"].__setitem__("adder", 2), "adder"),
    (lambda d: d["map"]["hexes"]["3,0"].pop("building"), "holds no capital"),
    (lambda d: d["map"]["hexes"]["1,0"].__setitem__("terrain", "lava"), "terrain"),
    (lambda d: d["action_deck"]["draw_pile"].pop(), "action_deck"),
    (lambda d: d.__setitem__("era", 4), "era"),
    (lambda d: d["taken"].__setitem__("frames", ["nope"]), "taken.frames"),
    (lambda d: d["map"]["hexes"]["1,0"].__setitem__("tile", {"face_down": True, "kind": "flag"}), "face-down"),
    (lambda d: d["map"]["hexes"]["1,0"].__setitem__("exploration", {"face_down": True}), "unknown field"),
    (lambda d: d["map"]["hexes"]["1,0"].__setitem__("building", {"owner": "you", "kind": "city", "ref": "c",
                                                                 "dominated": True}), "only a player's construction"),
    (lambda d: d["cards"]["action"][0].__setitem__("arrow", 0), "arrow"),
    (lambda d: d["board"].__setitem__("units", []), "board.units"),
    (lambda d: d.__setitem__("pending", {"kind": "explore", "hex": "1,0"}), "no turned-up tile waits"),
    (lambda d: d.__setitem__("pending", {"kind": "combat", "hex": "9,9"}), "pending.hex: 9,9 is not on the map"),
    (lambda d: d.__setitem__("pending", {"kind": "combat"}), "pending.hex"),
    (lambda d: d["cards"]["action"][0]["columns"][0].__setitem__(0, "build:castle"), "the board has no build 'castle'"),
])
def test_impossible_states_are_named(change, message):
    d = copy.deepcopy(dump(game()))
    change(d)
    with pytest.raises(StateError, match=message):
        load(d)
