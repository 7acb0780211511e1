"""Setting up (seed 001, "Preparação do jogo do Autômato", "Escolher a dificuldade") and the card
sets the players enter."""
from __future__ import annotations

import copy

import pytest

from automa.brasil_imperial.cards import dump_cards, example_cards, load_cards
from automa.brasil_imperial.setup import new_game
from automa.brasil_imperial.turn import decide
from automa.common.errors import StateError
from automa.games import get

from .scenario import game


def test_the_bundled_cards_are_labelled_as_an_example():
    cs = example_cards()
    assert cs.example and any("EXAMPLE" in n for n in cs.notes)
    assert len(cs.action) == 9 and len(cs.movement) == 9


def test_the_example_map_lays_its_face_down_exploration_tiles():
    s = new_game({"seed": 3})
    tiles = [h for h, c in s.cells.items() if c.tile]
    assert len(tiles) == 8 and all(s.cells[h].tile.face_down for h in tiles)


def test_difficulty_easy_takes_out_the_star_cards_epic_the_feather_cards():
    cs = example_cards()
    stars = {c.id for c in cs.action.values() if c.symbol == "star"}
    feathers = {c.id for c in cs.action.values() if c.symbol == "feather"}
    assert stars and feathers
    assert set(cs.action_ids("hard")) == set(cs.action)
    assert set(cs.action_ids("easy")) == set(cs.action) - stars
    assert set(cs.action_ids("epic")) == set(cs.action) - feathers
    s = new_game({"difficulty": "easy", "seed": 3})
    assert s.action_deck.cards() == cs.action_ids("easy")
    assert s.movement_deck.cards() == cs.movement_ids("easy")


def test_the_movement_pile_takes_its_own_difficulty():
    s = new_game({"difficulty": "easy", "movement_difficulty": "epic", "seed": 3})
    cs = example_cards()
    assert s.action_deck.cards() == cs.action_ids("easy")
    assert s.movement_deck.cards() == cs.movement_ids("epic")


def test_the_automa_takes_the_capital_nobody_chose_with_palace_one_and_plays_last():
    s = game(capitals={"A": "0,0", "B": "3,0", "C": "-3,0"}, players=("ana:B", "bia:A"))
    assert s.automa.capital == "C" and s.turn_position == 2
    assert s.cells[(-3, 0)].building.owner == "automa"
    assert all(m is None for m in s.automa.missions.values()), "one mission card per Era, face down"
    assert game(automa_first=True).turn_position == 0


def test_the_compass_starts_on_its_capital_towards_the_nearest_opponent():
    s = game(capitals={"A": "0,0", "B": "3,0", "C": "0,-2"}, players=("ana:B", "bia:C"))
    assert s.compass_at == (0, 0) and s.heading == 4, "C (2 hexes, north-west) is nearer than B"


def test_the_compass_starts_towards_the_most_experienced_player_on_a_tie():
    caps = {"A": "0,0", "B": "3,0", "C": "-3,0"}
    assert game(capitals=caps, players=("ana:C", "bia:B")).heading == 3
    assert game(capitals=caps, players=("bia:B", "ana:C")).heading == 0


def test_a_capital_on_a_cone_line_takes_the_first_heading_clockwise_from_north():
    # (2,2) lies 30 degrees below east: the cones of E (0) and SE (1); from north E comes first
    s = game(capitals={"A": "0,0", "B": "2,2"})
    assert s.heading == 0
    assert any("cone line (headings [0, 1])" in line for line in decide(s).trace), "the first turn's trace says why"
    # (-2,4) lies straight south: SE (1) and SW (2)
    assert game(capitals={"A": "0,0", "B": "-2,4"}).heading == 1


def test_setup_refuses_a_capital_a_player_chose_or_an_unknown_player_line():
    with pytest.raises(StateError, match="automa_capital"):
        game(automa_capital="B")
    with pytest.raises(StateError, match="name:capital"):
        new_game({"players": ["nobody"]})


def test_card_set_round_trips_and_names_its_problems():
    raw = dump_cards(example_cards())
    assert dump_cards(load_cards(copy.deepcopy(raw))) == raw
    cases = [
        (lambda d: d["action"][0]["columns"][0].__setitem__(2, "fly:away"), "unknown action 'fly'"),
        (lambda d: d["action"][0]["columns"][1].__setitem__(0, "build"), "needs an argument"),
        (lambda d: d["action"][0]["columns"][2].__setitem__(0, "mission:4"), "objective 1, 2 or 3"),
        (lambda d: d["action"][1].__setitem__("arrow", 5), "arrow"),
        (lambda d: d["action"][2]["columns"].pop(), "3 Era columns"),
        (lambda d: d["action"][3].__setitem__("id", 1), "card 1 appears twice"),
        (lambda d: d["movement"][0]["rows"][1].__setitem__("direction", "sea"), "unknown direction"),
        (lambda d: d["movement"][0].__setitem__("moves", [0, 1, 2, 3]), "moves"),
        (lambda d: d["movement"][6].pop("era_bonus"), "era_bonus"),
        (lambda d: [c.__setitem__("symbol", "star") for c in d["movement"]], "no card would be left"),
    ]
    for change, message in cases:
        d = copy.deepcopy(raw)
        change(d)
        with pytest.raises(StateError, match=message):
            load_cards(d)


def test_a_game_keeps_its_own_cards():
    raw = dump_cards(example_cards())
    raw["example"] = False
    raw["action"][0]["columns"][0][0] = "gold"
    import json
    s = get("brasil-imperial").new_game({"cards": json.dumps(raw), "seed": 2})
    assert not s.cards.example and s.cards.action[1].columns[0][0].kind == "gold"
    assert example_cards().action[1].columns[0][0].kind != "gold"


def test_a_movement_card_may_show_the_gold_card_icon():
    data = dump_cards(example_cards())
    data["movement"][0]["rows"][1]["bonus"] = "gold"
    assert load_cards(data).movement[data["movement"][0]["id"]].rows[1].bonus == "gold"
