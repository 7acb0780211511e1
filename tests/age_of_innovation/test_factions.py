"""One scenario per Automa faction: its faction action in reading order, and its abilities."""
import pytest

from automa.age_of_innovation.actions import faction_action
from automa.age_of_innovation.data import levels
from automa.age_of_innovation.ops import apply_ops
from automa.age_of_innovation.scoring import final_scoring, shared_points
from automa.age_of_innovation.setup import new_game

from .scenario import support, table, turn

ROWS = ["PPPPPP", "PPPPPP", "PPPPPP"]
BUILT = [((1, 1), "automa", "workshop", True), ((4, 1), "automa", "workshop"), ((0, 2), "player", "workshop")]
X = levels()[2].x_points[2]          # level 2, round 3


@pytest.mark.parametrize("faction, ops, points", [
    ("simpletons", ["terrain", "build", "vp"], X),
    ("kuddlers", ["terrain", "build", "vp"], X + 1),
    ("druids", ["terrain", "build", "science"], None),
    ("racelings", ["terrain", "build"], None),
    ("wanderers", ["terrain", "build", "vp"], X - 1),
    ("mimics", ["terrain", "build", "vp"], X + 1),
    ("powermongers", ["terrain", "build", "vp"], X),
    ("symbionts", ["terrain", "build", "tool"], None),
    ("blight", ["terrain", "build", "vp"], X + 1),
    ("gognomes", ["terrain", "build"], None),
])
def test_each_faction_action_in_reading_order(faction, ops, points):
    s = table(ROWS, BUILT, faction=faction, terrain="lake", player_terrain="desert", round=3)
    t = turn(s, support("unmarked"))
    faction_action(t)
    assert [op["op"] for op in t.ops] == ops
    if points is not None:
        assert [op["points"] for op in t.ops if op["op"] == "vp"] == [points]
    if faction == "blight":
        assert "fallow land into blighted land" in " ".join(t.said)


def test_setup_science_steps_of_every_faction():
    expected = {"simpletons": 4, "kuddlers": 2, "druids": 2, "racelings": 2, "wanderers": 2, "mimics": 2,
                "powermongers": 2, "symbionts": 2, "blight": 2, "gognomes": 2}
    for faction, total in expected.items():
        assert sum(new_game(faction=faction, player_terrain="lake", terrain="forest").automa.science.values()) == total


def test_shared_places_split_their_points():
    assert shared_points(10, [8, 3], (18, 12, 6)) == 18
    assert shared_points(8, [8], (18, 12, 6)) == 15            # first and second shared: (18 + 12) // 2
    assert shared_points(2, [8, 5], (8, 4, 2)) == 2
    assert shared_points(1, [8, 5, 3], (8, 4, 2)) == 0          # fourth place scores nothing


def test_final_scoring_area_science_and_the_wanderers():
    rows = ["PPPRPP", "PPPPPP"]
    built = [((0, 0), "automa", "workshop"), ((1, 0), "automa", "guild"), ((2, 0), "automa", "workshop"),
             ((4, 0), "automa", "workshop"), ((0, 1), "player", "workshop")]
    s = table(rows, built, faction="wanderers", level=2, round=6)
    s.players[0].area = 3
    s.automa.science = {"banking": 5, "law": 0, "engineering": 2, "medicine": 2}
    s.players[0].science = {"banking": 3, "law": 1, "engineering": 2, "medicine": 4}
    ops, lines = final_scoring(s)
    why = {op["why"]: op["points"] for op in ops}
    # navigation 2 (level 2's highest) joins (4, 0) across the river: an area of 4 beats your 3
    assert why["area scoring"] == 18
    assert why["science scoring banking"] == 8 and why["science scoring engineering"] == 6   # tied: (8 + 4) // 2
    assert why["science scoring medicine"] == 4 and "science scoring law" not in why        # on 0: nothing
    assert why["Wanderers final scoring"] == 8
    after = apply_ops(s, ops + [{"op": "game_over"}])
    assert after.automa.vp == s.automa.vp + sum(why.values()) and after.phase == "over"
