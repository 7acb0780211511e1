"""Every worked example of seed 002, with the rulebook's own numbers.

The figures themselves are not in the text; each board below is drawn to show exactly what the
example's words say (which hexes are eligible, which tie-breaker keeps which).
"""
from automa.age_of_innovation.actions import _eligible_build_hexes, block_spell_and_book, transform_and_build
from automa.age_of_innovation.data import cards, levels
from automa.age_of_innovation.ops import apply_ops
from automa.age_of_innovation.turn import decide

from .scenario import at, later_turn, support, table, turn

DESERTS = ["PPDDP",
           "PDDDP",
           "PPDDP"]
# the Automa's unmarked workshop in the middle (2, 1); the desert at (3, 0) is taken (red in the figure)
DESERT_BUILDINGS = [((2, 1), "automa", "workshop"), ((3, 0), "automa", "workshop", True)]


def desert_build(direction, count):
    s = table(DESERTS, DESERT_BUILDINGS, terrain="desert")
    t = turn(s, support("unmarked", False, "A", direction, count))
    assert transform_and_build(t)
    built = [op for op in t.ops if op["op"] == "build"][0]
    return tuple(built["hex"]), t


def test_directional_selection_desert_example_left_to_right_3():
    """'The support card shows a left-to-right arrow with 3: count the eligible deserts in
    reading order and take the third.' Eligible, in reading order: (2,0), (1,1), (3,1), (2,2), (3,2)."""
    h, t = desert_build("reading", 3)
    assert h == at(3, 1)
    assert "1:row 1, hex 3 (desert), 2:row 2, hex 2 (desert), 3:row 2, hex 4 (desert)" in "\n".join(t.trace.lines())


def test_directional_selection_desert_example_right_to_left_2():
    """'If the arrow pointed right to left with 2, the Automa would take the hex with the light
    blue tick' - the second counted backwards from the bottom-right eligible hex."""
    h, _ = desert_build("reverse", 2)
    assert h == at(2, 2)



def test_directional_selection_on_hexes_wraps_around_both_ways():
    """'Jeśli miniesz ostatnią opcję przed zakończeniem odliczania, kontynuuj od pierwszej
    opcji.' The 5 eligible deserts: left to right 7 passes the last and lands on the 2nd in
    reading order; right to left 6 lands again on the bottom-right one it started from."""
    assert desert_build("reading", 7)[0] == at(1, 1)
    assert desert_build("reverse", 6)[0] == at(3, 2)

def test_spell_example_wraps_around_to_the_rightmost_spell():
    """'Choosing a spell with the icon when 3 spells have been cast: the rightmost spell is
    chosen, because you wrap around while counting.' Three free spells, arrow right to left 4."""
    s = table(DESERTS, DESERT_BUILDINGS, terrain="desert")
    s.spells = ["player", None, "player", None, "player", None]
    t = turn(s, 10)
    assert (cards()[10].support.direction, cards()[10].support.count) == ("reverse", 4)
    block_spell_and_book(t)
    assert t.state.spells[5] == "automa"
    assert "(wrapping around)" in "\n".join(t.trace.lines())


def test_transform_and_build_example_with_navigation_1():
    """'The Automa plays blue. With navigation 1 the ticked hexes are all those that shorten the
    distance between marked and unmarked buildings. No faction tie-breaker. Terrain priority:
    lakes come first, so only the outlined hexes (yellow and red) stay. The yellow one is
    nearest to your buildings; the Automa builds there, without a power token, because that hex
    is nearer to an unmarked than to a marked building.'"""
    rows = ["PPPPPLPLR",
            "PPPPPLRRP",
            "PPPPPPPPP",
            "PPPPPPPPP",
            "PPPPPPPPP"]
    built = [((0, 4), "automa", "workshop", True), ((6, 0), "automa", "workshop"), ((3, 0), "player", "workshop")]
    s = table(rows, built, terrain="lake", level=2, round=3)
    assert s.navigation() == 1
    sup = support("unmarked", True, "B", "reading", 3)
    # navigation 1 reaches across the river hex (6,1) to (6,2) and (7,2)
    eligible = _eligible_build_hexes(turn(s, sup), ignore_reach=False)
    assert sorted(eligible) == sorted(at(*c) for c in [(5, 0), (5, 1), (6, 2), (7, 0), (7, 2)])
    t = turn(s, sup)
    transform_and_build(t)
    lines = "\n".join(t.trace.lines())
    assert "bringing together (shortest distance marked-unmarked now 8): 3 left" in lines   # the ticks
    assert "lake first: 2 left (row 1, hex 6, row 2, hex 6)" in lines                     # yellow and red
    assert "nearest to your buildings (2): 1 left (row 1, hex 6)" in lines                 # yellow
    build = [op for op in t.ops if op["op"] == "build"][0]
    assert tuple(build["hex"]) == at(5, 0) and build["marked"] is False
    assert not any(op["op"] == "terrain" for op in t.ops)     # already a lake: no transformation


def test_card_pair_example_upgrade_and_score_points_reverse_one_step():
    """'The pair shows 2 actions, Upgrade and Score points; the pencil points at the support
    card's directional selection, here in reverse reading order with one step.'"""
    rows = ["PPPPP", "PPPPP", "PPPPP"]
    built = [((0, 0), "automa", "workshop"), ((4, 0), "automa", "workshop", True), ((2, 2), "automa", "workshop")]
    s = later_turn(table(rows, built, level=2, round=1), action=1, support=2, pile=(3,))
    assert cards()[1].actions == ("upgrade", "score_points")
    assert (cards()[2].support.direction, cards()[2].support.count) == ("reverse", 1)
    d = decide(s)
    after = apply_ops(s, d.ops)
    assert after.board.buildings[at(2, 2)].kind == "guild"          # the last in reading order
    assert after.automa.vp == s.automa.vp + levels()[2].x_points[0]


def test_shortest_distance_goes_around_your_buildings():
    """'The path may cross any number of river hexes and the Automa's buildings, never one of
    your buildings.' The example: the distance between the blue workshop and the blue guild."""
    rows = ["PPPPP",
            "PRPPP",
            "PPPPP"]
    s = table(rows, [((0, 1), "automa", "workshop"), ((4, 1), "automa", "guild", True),
                     ((2, 1), "automa", "workshop")])
    b = s.board
    assert b.distance(at(0, 1), at(4, 1), ("player",)) == 4          # across the river and the Automa's workshop
    s2 = table(rows, [((0, 1), "automa", "workshop"), ((4, 1), "automa", "guild", True),
                      ((2, 1), "player", "workshop"), ((2, 0), "player", "workshop"), ((3, 0), "player", "workshop")])
    assert s2.board.distance(at(0, 1), at(4, 1), ("player",)) == 5   # around your buildings, through row 3
