"""The compass (seed 001, "Bússola" and "Rotação da bússola e sentido horário"): the cone, turning
just enough, the nearest option, the first clockwise from the tip, and the icons' targets."""
from __future__ import annotations

from automa.brasil_imperial.compass import headings_towards, in_cone, nearest, target_of, turn_towards

from .scenario import build, foe, game, tile

# pointy hexes: headings 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE (clockwise on screen)


def test_the_cone_holds_60_degrees_around_the_tip():
    assert in_cone("pointy", (0, 0), 0, (3, -1))        # 19 degrees north of east
    assert not in_cone("pointy", (0, 0), 0, (-1, 2))    # straight down the table
    assert headings_towards("pointy", (0, 0), (2, 0)) == [0]


def test_a_hex_on_a_cone_line_lies_in_two_cones():
    assert headings_towards("pointy", (0, 0), (1, 1)) == [0, 1]      # 30 degrees: between E and SE
    assert headings_towards("pointy", (0, 0), (-1, 2)) == [1, 2]     # 90 degrees: between SE and SW
    assert headings_towards("flat", (0, 0), (1, 1)) == [0, 1]


def test_turn_just_enough_the_nearest_of_two_headings():
    # (-1,2) lies in the cones of SE (1) and SW (2)
    t = turn_towards("pointy", (0, 0), 0, (-1, 2))
    assert (t.heading, t.steps) == (1, 1), "from east: one step clockwise reaches SE"
    t = turn_towards("pointy", (0, 0), 3, (-1, 2))
    assert (t.heading, t.steps) == (2, -1), "from west: one step anticlockwise reaches SW"


def test_a_target_right_behind_turns_clockwise_first():
    t = turn_towards("pointy", (0, 0), 0, (-2, 0))
    assert (t.heading, t.steps) == (3, 3)


def test_a_target_in_the_cone_or_missing_leaves_the_compass():
    assert turn_towards("pointy", (0, 0), 0, (3, -1)).steps == 0
    assert turn_towards("pointy", (0, 0), 4, None).heading == 4
    assert turn_towards("pointy", (1, 1), 4, (1, 1)).heading == 4


def test_nearest_target_then_first_clockwise_from_the_tip():
    s = game()
    for h in [(2, 0), (0, 2), (-2, 0), (1, -4)]:
        tile(s, h)
    s.compass_at, s.heading = (0, 0), 0
    assert nearest(s, [(2, 0), (0, 2), (-2, 0), (1, -4)])[0] == (2, 0)
    s.heading = 1                                     # tip at 60 degrees: (0,2) lies right on it
    assert nearest(s, [(2, 0), (0, 2), (-2, 0)])[0] == (0, 2)
    s.heading = 2                                     # tip at 120: (-2,0) is 60 clockwise, (2,0) 240
    assert nearest(s, [(2, 0), (0, 2), (-2, 0)])[0] == (-2, 0)


def test_exploration_points_to_the_nearest_face_down_tile_only():
    s = game()
    tile(s, (0, -3))
    tile(s, (1, 0), face_down=False, kind="flag", fc=3)
    s.compass_at = (0, 0)
    assert target_of(s, "exploration")[0] == (0, -3)
    s.cells[(0, -3)].tile = None
    assert target_of(s, "exploration")[0] is None


def test_units_points_to_the_most_vp_of_opposing_units_ties_clockwise():
    s = game()
    s.compass_at, s.heading = (0, 0), 0
    foe(s, (-2, 0), vp=2)
    foe(s, (-2, 0), vp=1)
    foe(s, (1, 0), vp=3)
    foe(s, (0, 3), vp=1)
    assert target_of(s, "units")[0] in ((-2, 0), (1, 0))
    assert target_of(s, "units")[0] == (1, 0), "3 VP each: (1,0) is on the tip, (-2,0) half a turn on"
    s.heading = 3
    assert target_of(s, "units")[0] == (-2, 0)


def test_own_city_or_else_the_capital_and_player_city_or_nothing():
    s = game()
    s.compass_at = (2, -2)
    assert target_of(s, "own_city")[0] == (0, 0), "no city of its own: its capital"
    build(s, (-1, 3), "city-1", kind="city", vp=2)
    assert target_of(s, "own_city")[0] == (-1, 3)
    assert target_of(s, "player_city")[0] is None
    build(s, (3, -3), "their city", owner="you", kind="city")
    assert target_of(s, "player_city")[0] == (3, -3)


def test_capital_nearest_then_the_most_experienced_players():
    s = game(capitals={"A": "0,0", "B": "3,0", "C": "-3,0"}, players=("first:C", "second:B"))
    s.compass_at = (0, 0)
    assert target_of(s, "capital")[0] == (-3, 0)
    s.compass_at = (1, 0)
    assert target_of(s, "capital")[0] == (3, 0)


def test_a_target_under_the_compass_leaves_it_as_it_is():
    """Ruling B22: standing on a player's city it won a combat on, the nearest player's city is the
    one under the compass; no direction leads to it ("Caso a nova direção requisitada não exista"),
    so the compass stays, even with another city of the player's further off."""
    s = game()
    s.compass_at, s.heading = (2, 0), 0                  # the tip east, the other city west
    build(s, (2, 0), "their city", owner="you", kind="city")
    build(s, (-2, 0), "their second city", owner="you", kind="city")
    target, _ = target_of(s, "player_city")
    assert target == (2, 0)
    t = turn_towards(s.orientation, s.compass_at, s.heading, target)
    assert (t.heading, t.steps) == (0, 0) and "own hex" in t.reason
