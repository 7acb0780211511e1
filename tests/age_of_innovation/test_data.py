"""The bundled data: what the seed and the reference say, checked file by file."""
import json

import pytest

from automa.age_of_innovation import data
from automa.age_of_innovation.board import Board
from automa.common.errors import DataError


def test_fourteen_decision_cards_six_starters():
    cards = data.cards()
    assert sorted(cards) == list(range(1, 15))
    assert [c for c in cards if cards[c].starter] == [1, 2, 3, 4, 5, 6]
    assert cards[1].label == "*1" and cards[14].label == "14"
    # every card's setup section names two letters of the setup card, A/B, C/D or E/F
    assert {(c.setup_marked, c.setup_unmarked) for c in cards.values()} == {("A", "B"), ("C", "D"), ("E", "F")}


def test_difficulty_levels_navigation_and_x_as_the_seed_says():
    lv = data.levels()
    # seed 002: "Na poziomie trudności Automa jej wartości Żeglugi: rundy 1 i 2: 0, 3 i 4: 1, 5 i 6: 2"
    assert lv[2].navigation == (0, 0, 1, 1, 2, 2)
    # the X example: "X is 0 points in rounds 1 and 2 and 1 point in rounds 3 and 4" (Automalein)
    assert lv[1].x_points[:4] == (0, 0, 1, 1)
    assert lv[1].remove_starter == (3,) and lv[1].reserve_top == (3,)
    assert (lv[3].add_random_reserve, lv[4].add_random_reserve, lv[5].add_random_reserve) == (1, 2, 1)
    assert lv[5].add_cards == (13,)


def test_terrain_priority_rows_list_every_terrain_own_first():
    rows = data.terrain_priority()
    assert rows["A"]["lake"][:2] == ("lake", "swamp") and rows["B"]["lake"][:2] == ("lake", "forest")
    for row in rows.values():
        for terrain, order in row.items():
            assert order[0] == terrain and sorted(order) == sorted(data.TERRAINS)


def test_factions_and_tiles():
    f = data.factions()
    assert len(f) == 10 and f["simpletons"].science == {"banking": 1, "law": 1, "engineering": 1, "medicine": 1}
    assert f["kuddlers"].tiebreakers == ("nearest_to_you", "your_terrain_priority")
    assert len(data.round_tiles()) == 12 and [t.tile for t in data.round_tiles().values() if t.spade] == [7]
    assert len(data.final_tiles()) == 4


def test_base_map_is_nine_rows_of_thirteen():
    board = Board.base()
    assert board.rows() == list(data.base_map()[1])
    assert len(board.terrain) == 9 * 13
    land = [t for t in board.terrain.values() if t != data.RIVER]
    assert len(land) == 81 and all(land.count(t) in (11, 12) for t in data.TERRAINS)


def test_a_bad_map_file_names_the_row():
    with pytest.raises(DataError, match=r"bad.json: rows\[1\]"):
        data.parse_map({"layout": "odd-r", "rows": ["PPP", "PXP"], "setup_letters": {}}, "bad.json")
    with pytest.raises(DataError, match="layout"):
        data.parse_map({"layout": "odd-q", "rows": ["P"], "setup_letters": {}}, "bad.json")


def test_every_data_file_names_its_source():
    for path in data.DATA_DIR.glob("*.json"):
        raw = json.loads(path.read_text())
        assert raw.get("source"), path.name
