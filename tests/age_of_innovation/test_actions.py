"""One test per rule and tie-breaker of every Automa action (seed 002, Akcje Automy)."""
import pytest

from automa.age_of_innovation.actions import (advance_discipline, faction_action, gain_innovation, place_tool,
                                              score_points, send_scholar, transform_and_build, upgrade,
                                              block_spell_and_book, would_be_marked)
from automa.age_of_innovation.data import levels, round_tiles
from automa.common.hexgrid import neighbours

from .scenario import at, support, table, turn

FLAT = ["PPPPPP", "PPPPPP", "PPPPPP", "PPPPPP"]


def built(t, op="build"):
    return [op_ for op_ in t.ops if op_["op"] == op]


# -- score points --------------------------------------------------------------------------------
@pytest.mark.parametrize("level, rnd", [(1, 1), (1, 3), (2, 5), (5, 1), (5, 6)])
def test_x_is_read_from_the_difficulty_card_for_the_round(level, rnd):
    s = table(FLAT, level=level, round=rnd)
    t = turn(s, 1)
    score_points(t, "X")
    assert t.state.automa.vp - s.automa.vp == levels()[level].x_points[rnd - 1]


def test_fixed_points_and_faction_modifier_never_below_zero():
    s = table(FLAT, level=1, round=1)
    t = turn(s, 1)
    score_points(t, 3)
    assert t.state.automa.vp == s.automa.vp + 3
    t = turn(s, 1)
    assert not score_points(t, "X", -1)                      # Wanderers: X - 1 with X = 0 scores nothing
    assert t.ops == [] and "0 points" in "\n".join(t.trace.lines())
    t = turn(table(FLAT, level=2, round=1), 1)
    score_points(t, "X", 1)                                   # Kuddlers: X + 1
    assert t.ops[0]["points"] == levels()[2].x_points[0] + 1


# -- gain innovation -----------------------------------------------------------------------------
def test_gain_innovation_only_in_rounds_3_to_6_and_below_three():
    assert not gain_innovation(turn(table(FLAT, round=2), 1))
    s = table(FLAT, round=3)
    s.automa.innovations = ["a", "b", "c"]
    assert not gain_innovation(turn(s, 1))
    s = table(FLAT, round=3)
    t = turn(s, support(direction="reverse", count=2))
    assert gain_innovation(t)
    assert t.state.automa.innovations == ["5"] and t.state.innovations[4] is None


# -- block a spell and a book action -------------------------------------------------------------
def test_block_spell_then_book_each_by_directional_selection():
    s = table(FLAT)
    t = turn(s, support(direction="reading", count=2))
    block_spell_and_book(t)
    assert t.state.spells == [None, "automa", None, None, None, None]
    assert t.state.books == [None, "automa", None]


def test_book_action_blocked_even_when_every_spell_is_covered():
    s = table(FLAT)
    s.spells = ["player"] * 6
    t = turn(s, support(count=1))
    assert block_spell_and_book(t)
    assert t.state.books[0] == "automa" and "every spell is covered" in "\n".join(t.trace.lines())


# -- send a scholar ------------------------------------------------------------------------------
def test_send_scholar_follows_the_round_tile_colour():
    s = table(FLAT, round=2)
    disc = round_tiles()[s.round_tiles[1]].discipline
    t = turn(s, support(science="round_tile"))
    send_scholar(t)
    op = built(t, "science")[0]
    assert op["discipline"] == disc and op["levels"] == 3 and op["space"] == 0     # the space worth 3
    assert t.state.automa.scholars == 6


def test_round_tile_discipline_at_twelve_falls_back_to_catching_up():
    s = table(FLAT, round=2)
    disc = round_tiles()[s.round_tiles[1]].discipline
    s.players[0].science[disc] = 12
    t = turn(s, support(science="round_tile"))
    send_scholar(t)
    assert built(t, "science")[0]["discipline"] != disc
    assert "not eligible, catch up instead" in "\n".join(t.trace.lines())


def test_catching_up_zero_first_then_closest_to_you_then_directional():
    s = table(FLAT)
    s.automa.science = {"banking": 3, "law": 0, "engineering": 2, "medicine": 0}
    t = turn(s, support(direction="reading", count=2))
    send_scholar(t)
    assert built(t, "science")[0]["discipline"] == "medicine"      # law and medicine on 0; the 2nd counted
    s.automa.science = {"banking": 3, "law": 5, "engineering": 2, "medicine": 4}
    s.players[0].science = {"banking": 7, "law": 6, "engineering": 9, "medicine": 2}
    t = turn(s, support(count=1))
    send_scholar(t)
    assert built(t, "science")[0]["discipline"] == "law"           # 1 below you; the others 2, 4 and 7 away


def test_two_players_catch_up_to_the_highest_marker():
    s = table(FLAT, players=2)
    s.automa.science = {"banking": 3, "law": 5, "engineering": 2, "medicine": 4}
    s.players[0].science = {"banking": 3, "law": 0, "engineering": 0, "medicine": 0}
    s.players[1].science = {"banking": 0, "law": 9, "engineering": 3, "medicine": 0}
    t = turn(s, support(count=1))
    advance_discipline(t)
    # closest to the highest placed marker: banking 0 (3 vs 3), engineering 1, medicine 4, law 4
    assert built(t, "science")[0]["discipline"] == "banking"


def test_scholar_spaces_fill_from_the_highest_and_then_one_level_without():
    s = table(FLAT)
    s.scholar_spaces["law"] = ["player", None, None, None]
    s.automa.science["law"] = 0
    t = turn(s, support())
    t.state.automa.science = {"banking": 1, "law": 0, "engineering": 1, "medicine": 1}
    send_scholar(t)
    assert built(t, "science")[0] == {"op": "science", "who": "automa", "discipline": "law", "levels": 2, "space": 1}
    s.automa.scholars = 0
    s.scholar_spaces["law"] = ["player", "automa", None, None]
    t = turn(s, support())
    send_scholar(t)
    assert built(t, "science")[0]["levels"] == 1 and built(t, "science")[0]["space"] is None
    assert "no scholar left" in "\n".join(t.trace.lines())


def test_a_discipline_with_a_marker_on_twelve_is_not_eligible():
    s = table(FLAT)
    s.automa.science = {"banking": 12, "law": 11, "engineering": 0, "medicine": 0}
    s.players[0].science["engineering"] = 12
    s.players[0].science["medicine"] = 12
    t = turn(s, support())
    advance_discipline(t)
    assert built(t, "science")[0]["discipline"] == "law" and t.state.automa.science["law"] == 12
    s.automa.science["law"] = 12
    assert not advance_discipline(turn(s, support()))


def test_druids_advance_two_levels():
    s = table(FLAT, faction="druids")
    t = turn(s, support())
    faction_action(t)
    assert built(t, "science")[0]["levels"] == 2


# -- upgrade -------------------------------------------------------------------------------------
def test_upgrade_prefers_a_workshop_next_to_you_when_a_guild_is_available():
    s = table(FLAT, [((0, 0), "automa", "workshop"), ((4, 3), "automa", "workshop"), ((5, 3), "player", "workshop")])
    t = turn(s, support(count=1))
    upgrade(t)
    assert t.state.board.buildings[at(4, 3)].kind == "guild"


def test_upgrade_gives_you_the_least_power():
    s = table(FLAT, [((1, 0), "automa", "workshop"), ((0, 0), "player", "guild"),
                     ((4, 3), "automa", "workshop"), ((5, 3), "player", "workshop")])
    t = turn(s, support(count=1))
    upgrade(t)
    assert t.state.board.buildings[at(4, 3)].kind == "guild"        # 1 power to you rather than 2
    assert "giving you the least power (1)" in "\n".join(t.trace.lines())


def test_guild_becomes_the_palace_before_a_school():
    s = table(FLAT, [((1, 1), "automa", "guild")])
    t = turn(s, support())
    upgrade(t)
    assert t.state.board.buildings[at(1, 1)].kind == "palace"
    s = table(FLAT, [((1, 1), "automa", "guild"), ((3, 3), "automa", "palace")])
    s.board.buildings[at(3, 3)].kind = "palace"
    t = turn(s, support(count=1))
    upgrade(t)
    assert t.state.board.buildings[at(1, 1)].kind == "school"


def test_without_a_guild_any_building_that_can_upgrade():
    workshops_and_guilds = [((0, 0), "automa", "guild"), ((2, 0), "automa", "guild"), ((4, 0), "automa", "guild"),
                            ((0, 2), "automa", "guild"), ((5, 3), "automa", "workshop"), ((4, 3), "player", "workshop"),
                            ((2, 2), "automa", "school")]
    s = table(FLAT, workshops_and_guilds)
    t = turn(s, support(count=1))
    upgrade(t)
    lines = "\n".join(t.trace.lines())
    assert "no guild available" in lines
    assert t.state.board.buildings[at(5, 3)].kind == "workshop"      # a workshop cannot become a guild now
    assert [op["kind"] for op in built(t, "upgrade")] in (["palace"], ["university"])


def test_nothing_to_upgrade_fails():
    s = table(FLAT, [((0, 0), "automa", "university")])
    assert not upgrade(turn(s, support()))


# -- transform and build -------------------------------------------------------------------------
def test_build_near_marked_or_unmarked_buildings_as_the_support_card_says():
    s = table(FLAT, [((0, 0), "automa", "workshop", True), ((5, 3), "automa", "workshop")], terrain="lake")
    t = turn(s, support("marked"))
    transform_and_build(t)
    h = tuple(built(t)[0]["hex"])
    assert h in s.board.reach(at(0, 0), 0) and built(t)[0]["marked"]
    t = turn(s, support("unmarked"))
    transform_and_build(t)
    h = tuple(built(t)[0]["hex"])
    assert h in s.board.reach(at(5, 3), 0) and not built(t)[0]["marked"]


def test_transform_only_when_the_terrain_differs():
    s = table(["LPPPPP", "PPPPPP"], [((1, 0), "automa", "workshop")], terrain="lake")
    t = turn(s, support())
    transform_and_build(t)
    assert not built(t, "terrain") and tuple(built(t)[0]["hex"]) == at(0, 0)     # the lake, by terrain priority
    s = table(["FPPPPP", "PPPPPP"], [((1, 0), "automa", "workshop")], terrain="lake")
    t = turn(s, support())
    transform_and_build(t)
    assert built(t, "terrain")[0] == {"op": "terrain", "hex": list(built(t)[0]["hex"]), "terrain": "lake"}


def test_navigation_reaches_across_river_hexes():
    rows = ["PRRP", "PPPP"]
    s = table(rows, [((0, 0), "automa", "workshop")], level=2, round=1)
    assert at(3, 0) not in s.board.reach(at(0, 0), 1)
    assert at(3, 0) in s.board.reach(at(0, 0), 2)
    assert at(3, 0) not in s.board.reach(at(0, 0), 0)


def test_no_workshop_left_means_upgrade_instead():
    hexes = [(c, r) for r in range(4) for c in range(6)][:9]
    s = table(FLAT, [(h, "automa", "workshop") for h in hexes])
    t = turn(s, support())
    transform_and_build(t)
    assert not built(t) and built(t, "upgrade")
    assert "no workshop left" in "\n".join(t.trace.lines())


def test_no_eligible_hex_means_upgrade_instead():
    s = table(["PP"], [((0, 0), "automa", "workshop"), ((1, 0), "player", "workshop")])
    t = turn(s, support())
    transform_and_build(t)
    assert built(t, "upgrade") and "no eligible hex -> Upgrade instead" in "\n".join(t.trace.lines())


def test_new_workshop_marked_only_when_the_nearest_building_is_marked_ties_excluded():
    # (2, 0) lies 2 from the marked (0, 0) and 2 from the unmarked (4, 0): a tie, so no power token
    s = table(["LPLPP"], [((0, 0), "automa", "workshop", True), ((4, 0), "automa", "workshop")], terrain="desert")
    s.board.terrain[at(1, 0)] = "river"
    s.board.terrain[at(3, 0)] = "river"
    t = turn(s, support())
    assert not would_be_marked(t, at(2, 0))
    s.board.buildings[at(4, 0)].marked = True
    assert would_be_marked(turn(s, support()), at(2, 0))



def test_the_nearest_automa_building_is_measured_around_your_buildings():
    """Marking reads "najbliższy ... budynek Automy" by the seed's distance, whose path "nie może
    zawierać heksów zajmowanych przez twoje budynki": (3, 0) is 2 from the unmarked (5, 0) in a
    straight line, but with your workshops on (4, 0) and (4, 1) the path goes round in 5 steps,
    so the marked (0, 0), 3 away, is the nearest and the workshop is marked."""
    rows = ["PPPPPPP", "PPPPPPP", "PPPPPPP"]
    automa = [((0, 0), "automa", "workshop", True), ((5, 0), "automa", "workshop")]
    s = table(rows, automa)
    assert not would_be_marked(turn(s, support()), at(3, 0))
    s = table(rows, automa + [((4, 0), "player", "workshop"), ((4, 1), "player", "workshop")])
    assert s.board.distance(at(3, 0), at(5, 0), ("player",)) == 5
    assert would_be_marked(turn(s, support()), at(3, 0))

def test_bring_together_keeps_the_hexes_that_shorten_the_distance():
    s = table(["PPPPP"], [((0, 0), "automa", "workshop", True), ((2, 0), "automa", "workshop")])
    t = turn(s, support("unmarked", True))
    transform_and_build(t)
    assert tuple(built(t)[0]["hex"]) == at(1, 0)
    assert "bringing together (shortest distance marked-unmarked now 2): 1 left" in "\n".join(t.trace.lines())


def test_bring_together_keeps_everything_when_nothing_shortens_the_distance():
    # your workshop at (1, 0) cuts every path: nothing the Automa builds can shorten it
    s = table(["PPPP"], [((0, 0), "automa", "workshop", True), ((2, 0), "automa", "workshop"),
                         ((1, 0), "player", "workshop")])
    t = turn(s, support("unmarked", True))
    transform_and_build(t)
    assert tuple(built(t)[0]["hex"]) == at(3, 0)
    assert "none qualifies, all 1 stay" in "\n".join(t.trace.lines())


def test_bring_together_not_needed_when_a_marked_building_is_within_reach():
    s = table(["PPPPP"], [((0, 0), "automa", "workshop", True), ((1, 0), "automa", "workshop")])
    t = turn(s, support("unmarked", True))
    transform_and_build(t)
    assert "already within Reach of an unmarked one, no narrowing" in "\n".join(t.trace.lines())


def test_terrain_priority_row_a_or_b():
    rows = ["PSF", "PPP"]          # swamp and forest next to a lake Automa's workshop at (1, 1)
    s = table(rows, [((1, 1), "automa", "workshop")], terrain="lake", player_terrain="desert")
    t = turn(s, support(row="A"))
    transform_and_build(t)
    assert tuple(built(t)[0]["hex"]) == at(1, 0)      # row A for lake: lake, swamp, ...
    t = turn(s, support(row="B"))
    transform_and_build(t)
    assert tuple(built(t)[0]["hex"]) == at(2, 0)      # row B for lake: lake, forest, ...


def test_nearest_to_your_buildings_before_directional_selection():
    s = table(["PPPPP", "PPPPP", "PPPPP"], [((2, 1), "automa", "workshop"), ((4, 2), "player", "workshop")])
    t = turn(s, support(count=1))
    transform_and_build(t)
    h = tuple(built(t)[0]["hex"])
    assert s.board.distance(h, at(4, 2), ("player",)) == 1


def test_kuddlers_nearest_to_you_first_then_your_terrain():
    # the lake Automa's workshop at (1, 1): the general terrain priority (lake card) would take the
    # forest at (1, 0); the Kuddlers first keep the hexes nearest to your workshop at (3, 2)
    rows = ["LFPPP", "PPPPP", "PPPPF"]
    s = table(rows, [((1, 1), "automa", "workshop"), ((3, 2), "player", "workshop")], faction="kuddlers",
              terrain="lake", player_terrain="forest")
    t = turn(s, support())
    faction_action(t)
    h = tuple(built(t)[0]["hex"])
    assert s.board.distance(h, at(3, 2), ("player",)) == 1 and h != at(1, 0)
    assert "nearest to your buildings (1): 2 left" in "\n".join(t.trace.lines())


def test_mimics_your_terrain_priority_first():
    rows = ["LFPPP", "PPPPP", "PPPPF"]
    s = table(rows, [((1, 1), "automa", "workshop"), ((3, 2), "player", "workshop")], faction="mimics",
              terrain="lake", player_terrain="plains")
    t = turn(s, support())
    faction_action(t)
    h = tuple(built(t)[0]["hex"])
    assert s.board.terrain[h] == "plains" and h != at(1, 0)          # your plains first, not the forest
    assert "your terrain priority row A (plains card" in "\n".join(t.trace.lines())


def test_powermongers_give_you_the_most_power_and_advance_when_you_gain_two():
    rows = ["PPPPP", "PPPPP", "PPPPP"]
    s = table(rows, [((2, 1), "automa", "workshop"), ((4, 0), "player", "guild"), ((0, 2), "player", "workshop")],
              faction="powermongers")
    t = turn(s, support())
    faction_action(t)
    h = tuple(built(t)[0]["hex"])
    assert s.board.power_for_players(h, ("player",)) == 2
    assert built(t, "science")                                        # you may gain 2: the Automa advances 1


def test_wanderers_ignore_reach():
    rows = ["PPPPPPP", "RRRRRRR", "PPPPPPL"]
    s = table(rows, [((0, 0), "automa", "workshop")], faction="wanderers", terrain="lake")
    t = turn(s, support())
    faction_action(t)
    assert tuple(built(t)[0]["hex"]) == at(6, 2)                      # the lake far beyond the river


def test_symbionts_place_a_tool_next_to_you():
    s = table(FLAT, [((0, 0), "automa", "workshop"), ((4, 3), "player", "workshop")], faction="symbionts")
    t = turn(s, support())
    faction_action(t)
    tool = built(t, "tool")[0]
    assert tuple(tool["hex"]) in neighbours(at(4, 3))
    assert not place_tool(turn(table(["P"], [((0, 0), "player", "workshop")], faction="symbionts"), support()))


def test_school_and_university_bring_no_competency():
    s = table(FLAT, [((1, 1), "automa", "guild"), ((3, 3), "automa", "palace")])
    t = turn(s, support())
    upgrade(t)
    assert t.said == ["Upgrade the Automa's guild on row 2, hex 2 to a school (it takes no competency tile)."]


def test_powermongers_do_not_advance_when_you_gain_only_one_power():
    # "Whenever you gain 2 or more Power via buildings": next to your workshop alone (1 power) nothing
    rows = ["PPPPP", "PPPPP", "PPPPP"]
    s = table(rows, [((2, 1), "automa", "workshop"), ((4, 1), "player", "workshop")], faction="powermongers")
    t = turn(s, support())
    faction_action(t)
    h = tuple(built(t)[0]["hex"])
    assert s.board.power_for_players(h, ("player",)) == 1
    assert not built(t, "science")


def test_a_guild_available_prefers_only_workshops_next_to_you():
    # "Warsztaty Automy sąsiadujące z twoimi budynkami": the Automa's guild next to your workshop is
    # not one; no workshop is next to you, so every building stays and the least power wins: the
    # lone workshop (0), not the guild (1)
    s = table(FLAT, [((0, 0), "automa", "workshop"), ((4, 3), "automa", "guild"), ((5, 3), "player", "workshop")])
    t = turn(s, support(count=1))
    upgrade(t)
    assert t.state.board.buildings[at(0, 0)].kind == "guild"
    assert t.state.board.buildings[at(4, 3)].kind == "guild"


def test_a_scholar_never_takes_the_marker_past_twelve():
    s = table(FLAT)
    s.automa.science = {"banking": 11, "law": 12, "engineering": 12, "medicine": 12}
    t = turn(s, support())
    send_scholar(t)
    assert built(t, "science")[0]["levels"] == 3 and t.state.automa.science["banking"] == 12
    assert "to 12" in t.said[0]


def test_gain_innovation_counts_only_the_innovations_left_on_the_display():
    s = table(FLAT, round=4)
    s.innovations = [None, "2", None, "4", "5", "6"]
    t = turn(s, support(direction="reading", count=2))
    gain_innovation(t)
    assert t.state.automa.innovations == ["4"]


def test_round_6_sends_the_scholar_by_the_final_round_tiles_colour():
    """Ruling A4: in round 6 the current round tile is the Automa's final round tile."""
    from automa.age_of_innovation.data import final_tiles
    s = table(FLAT, round=6)
    disc = final_tiles()[s.final_tile].discipline
    s.round_tiles[5] = next(t for t in round_tiles() if round_tiles()[t].discipline != disc
                            and t not in s.round_tiles[:5] and not round_tiles()[t].spade)
    t = turn(s, support(science="round_tile"))
    send_scholar(t)
    assert built(t, "science")[0]["discipline"] == disc


def test_wanderers_ignore_reach_but_still_bring_together():
    """Ruling A27: "Ignore range restrictions" lifts only "w Zasięgu ... budynku"; the support
    card's bring-together icon still narrows the hexes. Marked (2, 0), unmarked (6, 0): 4 apart.
    (0, 0) comes first in reading order but would be marked and 6 from the unmarked workshop."""
    s = table(["PPPPPPP", "PPPPPPP"], [((2, 0), "automa", "workshop", True), ((6, 0), "automa", "workshop")],
              faction="wanderers", terrain="lake")
    t = turn(s, support("marked", True, count=1))
    faction_action(t)
    h = tuple(built(t)[0]["hex"])
    assert h != at(0, 0)
    assert "bringing together (shortest distance marked-unmarked now 4)" in "\n".join(t.trace.lines())
    after = t.state.board
    marked = [x for x in after.owned("automa") if after.buildings[x].marked]
    unmarked = [x for x in after.owned("automa") if not after.buildings[x].marked]
    assert min(after.distance(m, u, ("player",)) for m in marked for u in unmarked) < 4
    t = turn(s, support("marked", False, count=1))
    faction_action(t)
    assert tuple(built(t)[0]["hex"]) == at(0, 0)          # without the icon: every empty hex, the first


def test_catching_up_counts_the_disciplines_backwards_with_a_right_to_left_arrow():
    """Directional selection over one row (ruling A15: banking, law, engineering, medicine): right
    to left starts at the last eligible discipline; 3 steps over 2 options wrap to the last again."""
    s = table(FLAT)
    s.automa.science = {"banking": 0, "law": 4, "engineering": 0, "medicine": 2}
    assert _pick(s, "reverse", 1) == "engineering" and _pick(s, "reverse", 2) == "banking"
    assert _pick(s, "reverse", 3) == "engineering" and _pick(s, "reading", 1) == "banking"


def _pick(s, direction, count):
    t = turn(s, support(direction=direction, count=count))
    advance_discipline(t)
    return built(t, "science")[0]["discipline"]
