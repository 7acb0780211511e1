"""One scenario per Automa faction: its faction action in reading order, and its abilities."""
import pytest

from automa.age_of_innovation.actions import blight_fallow_land, faction_action, place_tool
from automa.age_of_innovation.data import TERRAINS, levels
from automa.age_of_innovation.game import GAME
from automa.age_of_innovation.ops import apply_ops
from automa.age_of_innovation.scoring import final_scoring, shared_points
from automa.age_of_innovation.setup import new_game

from automa.common.errors import StateError

from .scenario import at, support, table, turn

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


# -- the Symbionts: their youth's terrain and the tool --------------------------------------------
# Seed 002, step 10.IV: "Postępuj zgodnie z dodatkowymi instrukcjami przygotowania na karcie
# Frakcji Automy"; the Symbionts' card sets up a second terrain, the youth's, with its own
# terrain priority card (reference automa.json, symbionts.special_rules; ruling A23).
def test_symbionts_youth_terrain_is_drawn_from_the_cards_left():
    drawn = {new_game(faction="symbionts", terrain="lake", player_terrain="forest", seed=s).youth_terrain
             for s in range(40)}
    assert drawn == set(TERRAINS) - {"lake", "forest"}        # every card left can come, never yours or the Automa's
    assert new_game(faction="symbionts", terrain="lake", youth_terrain="forest").youth_terrain == "forest"
    assert new_game(faction="simpletons", terrain="lake").youth_terrain is None


@pytest.mark.parametrize("faction, youth, problem", [
    ("symbionts", "lake", "second card"),            # the Automa's own card is in use
    ("simpletons", "desert", "only the Symbionts"),
])
def test_youth_terrain_refused_where_it_cannot_be(faction, youth, problem):
    with pytest.raises(StateError, match=problem):
        new_game(faction=faction, terrain="lake", youth_terrain=youth)


def test_symbionts_state_without_a_youth_terrain_is_refused():
    data = new_game(faction="symbionts", terrain="lake").to_dict()
    data["youth_terrain"] = None
    with pytest.raises(StateError, match="youth terrain"):
        GAME.load(data)


def test_the_game_option_names_the_youth_terrain():
    s = GAME.new_game({"faction": "symbionts", "terrain": "lake", "youth_terrain": "desert"})
    assert s.youth_terrain == "desert" and GAME.load(GAME.dump(s)).youth_terrain == "desert"


def _symbionts(rows, youth, built=((1, 0), "player", "workshop")):
    s = table(rows, [built, ((0, 2), "automa", "workshop", True)], faction="symbionts", terrain="lake",
              player_terrain="forest")
    s.youth_terrain = youth
    s.validate()
    return s


def test_symbionts_tool_follows_the_youths_terrain_priority_card():
    """Place a tool: valid spaces, every terrain space directly next to your buildings; then
    terrain priority (the support card's row) on the Symbiont youth's card; then directional
    selection. Next to your workshop: a swamp and a wasteland. The Automa's lake card (row A:
    lake, swamp, ...) would take the swamp; the youth's desert card (row A: desert, wasteland,
    ...) takes the wasteland."""
    rows = ["SPW", "RRR", "PRR"]
    t = turn(_symbionts(rows, "desert"), support(row="A"))
    assert place_tool(t)
    assert [tuple(op["hex"]) for op in t.ops] == [at(2, 0)]
    assert any("terrain priority of the Symbiont youth row A (desert card" in line and "wasteland first" in line
               for line in t.trace.lines())
    t = turn(_symbionts(rows, "swamp"), support(row="A"))        # the swamp youth's card: swamp first
    assert place_tool(t) and tuple(t.ops[0]["hex"]) == at(0, 0)


def test_symbionts_tool_ties_go_to_directional_selection_and_skip_taken_spaces():
    rows = ["PPP", "RRR", "PRR"]                                  # both spaces next to you are plains
    s = _symbionts(rows, "desert")
    t = turn(s, support(direction="reverse", count=1))            # right to left, 1: the rightmost
    assert place_tool(t) and tuple(t.ops[0]["hex"]) == at(2, 0)
    s.board.tools.add(at(2, 0))                                   # a space with a tool is not eligible again
    t = turn(s, support(direction="reverse", count=1))
    assert place_tool(t) and tuple(t.ops[0]["hex"]) == at(0, 0)
    s.board.tools.add(at(0, 0))
    t = turn(s, support())
    assert not place_tool(t) and "no eligible space" in " ".join(t.trace.lines())


# -- the Blight: fallow land into blighted land ---------------------------------------------------
FALLOW = [at(0, 0), at(2, 0), at(1, 1), at(3, 1)]             # reading order: row 1 left to right, then row 2


def _blight(fallow=FALLOW, blighted=()):
    s = table(["PPPP", "PPPP", "PPPP"], [((0, 2), "automa", "workshop", True), ((3, 2), "player", "workshop")],
              faction="blight", terrain="lake", player_terrain="forest", round=3)
    s.board.fallow, s.board.blighted = set(fallow), set(blighted)
    s.validate()
    return s


@pytest.mark.parametrize("direction, count, chosen", [
    ("reading", 3, [at(1, 1), at(3, 1)]),      # 3rd of 4, then the 3rd of the 3 left
    ("reverse", 2, [at(1, 1), at(2, 0)]),      # from the bottom right: (3,1) (1,1) ...; then (3,1) (2,0) ...
    ("reading", 6, [at(2, 0), at(3, 1)]),      # past the last option: continue from the first (wrap-around)
])
def test_blight_transforms_two_fallow_land_by_directional_selection(direction, count, chosen):
    """"Transform 2 Fallow Land into Blighted Land" (the Blight's faction card, reference
    automa.json): each one chosen by directional selection ("Jeśli miniesz ostatnią opcję
    przed zakończeniem odliczania, kontynuuj od pierwszej opcji"), the second counted again
    among the fallow land left (ruling A25)."""
    s = _blight()
    t = turn(s, support(direction=direction, count=count))
    assert blight_fallow_land(t, 2)
    assert [(op["op"], op["land"], tuple(op["hex"])) for op in t.ops] == [("land", "blighted", h) for h in chosen]
    after = apply_ops(s, t.ops)
    assert after.board.blighted == set(chosen) and after.board.fallow == set(FALLOW) - set(chosen)
    assert sum("transformation" in line for line in t.trace.lines()) == 2


def test_blight_with_less_fallow_land_left():
    t = turn(_blight([at(2, 0)], [at(0, 0)]), support(count=3))
    assert blight_fallow_land(t, 2) and [tuple(op["hex"]) for op in t.ops] == [at(2, 0)]
    assert "transformation 2: no fallow land left" in " ".join(t.trace.lines())
    t = turn(_blight([], [at(0, 0), at(2, 0)]), support())
    assert not blight_fallow_land(t, 2) and not t.ops              # nothing left: the step fails


def test_blight_faction_action_in_reading_order_with_fallow_land_on_the_map():
    t = turn(_blight(), support("marked"))
    faction_action(t)
    assert [op["op"] for op in t.ops] == ["terrain", "build", "land", "land", "vp"]


def test_fallow_and_blighted_land_in_the_map_file():
    s = _blight([at(1, 1)], [at(0, 0)])
    again = GAME.load(GAME.dump(s))
    assert again.board.fallow == {at(1, 1)} and again.board.blighted == {at(0, 0)}
    data = GAME.dump(s)
    data["board"]["blighted"].append(list(at(1, 1)))
    with pytest.raises(StateError, match="not both"):
        GAME.load(data)


# -- the Gognomes: achievements -----------------------------------------------------------------
# Seed 002, Komponenty: "2 karty Osiągnięć dla Frakcji Bógnomów", "6 żetonów Osiągnięć";
# Koniec gry: "Automa może mieć również na swojej karcie Frakcji dodatkowe warunki Punktacji";
# the card's end step: make sure the Gognomes got the points of their achievements (ruling A26).
def test_gognomes_achievements_score_when_entered_and_are_listed_at_the_end():
    s = table(["PP"], [((0, 0), "automa", "workshop")], faction="gognomes", round=6)
    after = apply_ops(s, [{"op": "achievement", "token": 2, "points": 5},
                          {"op": "achievement", "token": 5, "points": 3}])
    assert after.automa.vp == s.automa.vp + 8 and after.automa.achievements == {2: 5, 5: 3}
    ops, lines = final_scoring(after)
    assert not any("Gognomes" in op["why"] for op in ops)          # scored when entered, never twice
    assert any("token 2 (5 VP), token 5 (3 VP), 8 VP in all" in line for line in lines)
    assert GAME.load(GAME.dump(after)).automa.achievements == {2: 5, 5: 3}


@pytest.mark.parametrize("faction, ops, problem", [
    ("gognomes", [{"op": "achievement", "token": 2, "points": 5}] * 2, "already"),
    ("gognomes", [{"op": "achievement", "token": 7, "points": 5}], "token 1-6"),
    ("simpletons", [{"op": "achievement", "token": 1, "points": 5}], "only the Gognomes"),
])
def test_achievements_refused_where_they_cannot_be(faction, ops, problem):
    with pytest.raises(StateError, match=problem):
        apply_ops(table(["PP"], faction=faction), ops)
