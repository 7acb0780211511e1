"""Load, validate and dump: a state round-trips, and an impossible one is refused by name."""
import json

import pytest

from automa.age_of_innovation.game import GAME
from automa.age_of_innovation.state import GameState
from automa.common.errors import StateError


def fresh(**kw):
    return GAME.new_game({"seed": 4, "player_terrain": "forest", **kw})


def test_state_round_trips_through_json():
    s = fresh(level=3)
    text = GAME.dumps(s)
    again = GAME.loads(text)
    assert GAME.dump(again) == GAME.dump(s)
    assert json.loads(text)["game"] == "age-of-innovation"


def broken(change):
    d = GAME.dump(fresh())
    change(d)
    return d


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(level=6), "level: 6"),
    (lambda d: d.update(faction="elves"), "faction"),
    (lambda d: d.update(terrain="forest"), "must differ"),
    (lambda d: d.update(round=7), "round: 7"),
    (lambda d: d["deck"]["draw_pile"].append(d["reserve"][0]), "in two places"),
    (lambda d: d["deck"]["draw_pile"].append(99), "99 is not a decision card"),
    (lambda d: d["board"]["buildings"].append({"hex": [1, 0], "owner": "automa", "kind": "workshop"}),
     "river"),
    (lambda d: d["board"]["buildings"].append({"hex": [0, 0], "owner": "player", "kind": "castle"}), "castle"),
    (lambda d: d["board"]["buildings"].append({"hex": [0, 0], "owner": "player", "kind": "workshop",
                                               "marked": True}), "power token"),
    (lambda d: d["automa"]["science"].update(law=13), "law: level 13"),
    (lambda d: d.update(round_tiles=[1, 2, 3, 4, 7, 5]), "spade"),
    (lambda d: d["automa"].update(scholars=8), "scholars"),
    (lambda d: d["automa"].update(innovations=["1", "2", "3", "4"]), "at most 3"),
    (lambda d: d.update(spells=[None] * 5), "6 spells"),
    (lambda d: d["board"].update(rows=["PQ"]), "letters"),
    (lambda d: d.update(players=[{"name": "player"}, {"name": "player2"}]), "Simpletons|science"),
])
def test_impossible_states_are_refused_by_name(change, message):
    d = broken(change)
    with pytest.raises(StateError, match=message):
        GameState.from_dict(d)


def test_the_spade_tile_may_lie_in_rounds_1_to_4():
    d = broken(lambda d: d.update(round_tiles=[1, 2, 3, 7, 4, 5]))
    assert GameState.from_dict(d).round_tiles[3] == 7


def test_two_players_need_the_simpletons():
    d = GAME.dump(fresh())
    d["players"].append({"name": "player2", "science": {k: 0 for k in d["automa"]["science"]}})
    d["faction"] = "druids"
    with pytest.raises(StateError, match="Simpletons"):
        GameState.from_dict(d)


def test_garbage_is_refused_not_crashed():
    for text in ["[]", "{}", '{"level": "x"}', "not json"]:
        with pytest.raises(StateError):
            GAME.loads(text)
