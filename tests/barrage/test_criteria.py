"""Structure Placing Criteria: one scenario per criterion, tie-breaker and OTHERWISE branch."""
import pytest

from automa.barrage import criteria as C
from automa.barrage.data import DATA_DIR, automa_tiles
from automa.barrage.rules import legal_spaces
from automa.barrage.setup import new_game
from automa.barrage.state import NEUTRAL, Dam
from automa.common.datafile import load_json

from .scenario import clear_map

ORDER = ["A", "B", "C"]


def bare():
    """Three companies, an empty map (no neutral dams), no water on the headstreams."""
    s = clear_map(new_game(1, 2, seed=1))
    me, opp, other = s.turn_order
    return s, me, opp


def run(column, cid, state, me, candidates, order=ORDER):
    """(kept, reason in English): the reason is a trace line's words (``automa.common.trace.Text``)."""
    kept, why = C.CRITERIA[column][cid](state, me, candidates, order)
    return kept, str(why)


def kept(column, cid, state, me, candidates, order=ORDER):
    return run(column, cid, state, me, candidates, order)[0]


# -- registry ------------------------------------------------------------------------
def test_registry_matches_the_tile_data_ids():
    ids = load_json(DATA_DIR / "tiles.json")["criteria_ids"]
    assert {col: sorted(d) for col, d in C.CRITERIA.items()} == {col: sorted(v) for col, v in ids.items()}


def test_every_criterion_title_is_the_rulebook_wording():
    assert str(C.title("dam", "red_outline_space")) == "A building space with a red outline Dam among the eligibles."
    assert str(C.title("powerhouse", "hills_basin_6")).startswith("A Powerhouse in the indicated Hills basin (6)")
    assert "OTHERWISE" in str(C.title("dam", "downstream_owned_dam"))


# -- Dam Bases and Elevations ------------------------------------------------------------
def test_dam_most_powerful_conduit_keeps_the_basin_of_the_highest_built_conduit():
    s, me, opp = bare()
    s.conduits.update({"2A": opp, "4B": opp})          # values 3 and 5
    out, why = run("dam", "most_powerful_conduit", s, me, ["2U", "4L", "6U"])
    assert out == ["4L"] and "4B" in why


def test_dam_most_powerful_conduit_tiebreaker_owned_conduit():
    s, me, opp = bare()
    s.conduits.update({"1A": opp, "2B": me})           # both value 5
    out, why = run("dam", "most_powerful_conduit", s, me, ["1U", "1L", "2U", "2L"])
    assert out == ["2U", "2L"] and "owned" in why


def test_dam_most_powerful_conduit_tie_without_owned_keeps_all_tied():
    s, me, opp = bare()
    s.conduits.update({"1A": opp, "2B": opp})
    assert kept("dam", "most_powerful_conduit", s, me, ["1U", "2L", "3U"]) == ["1U", "2L"]


def test_dam_most_powerful_conduit_value_beats_ownership():
    s, me, opp = bare()
    s.conduits.update({"1A": opp, "2A": me})           # 5 (opponent) > 3 (owned)
    assert kept("dam", "most_powerful_conduit", s, me, ["1U", "2U"]) == ["1U"]


def test_dam_most_powerful_conduit_a_weaker_owned_conduit_does_not_break_the_tie():
    s, me, opp = bare()
    s.conduits.update({"1A": opp, "1B": me, "2B": opp})   # basin 1: 5 (opponent) and 4 (owned); basin 2: 5
    assert kept("dam", "most_powerful_conduit", s, me, ["1U", "2U", "3U"]) == ["1U", "2U"]


def test_dam_most_powerful_conduit_is_relative_to_the_eligible_spaces():
    # ruling: the strongest built conduit linked to an eligible space, not the strongest on the map
    s, me, opp = bare()
    s.conduits.update({"1A": opp, "3B": opp})          # 1A (5) links to no candidate
    assert kept("dam", "most_powerful_conduit", s, me, ["2U", "3U"]) == ["3U"]


def test_dam_most_powerful_conduit_matches_nothing_without_built_conduits():
    s, me, _ = bare()
    assert kept("dam", "most_powerful_conduit", s, me, ["1U", "2U"]) == []


def test_owned_powerhouse_through_conduit_spaces_built_or_not():
    s, me, opp = bare()
    s.powerhouses.update({"P5_0": me, "P10_0": opp})   # 1B and 3A lead to group 5; 2B to group 10
    out, why = run("dam", "owned_powerhouse", s, me, ["1U", "2U", "3L", "4U"])
    assert out == ["1U", "3L"] and "group 5" in why


def test_owned_powerhouse_matches_nothing_without_own_powerhouse():
    s, me, opp = bare()
    s.powerhouses["P5_0"] = opp
    assert kept("dam", "owned_powerhouse", s, me, ["1U", "3L"]) == []


def test_most_water_drops_counts_the_coming_flow():
    s, me, opp = bare()
    s.headstreams.update({"B": 2, "D": 1})              # B: basins 2, 5, 9; D: basins 4, 7, 10
    assert kept("dam", "most_water_drops", s, me, ["5U", "7U", "8U"]) == ["5U"]


def test_most_water_drops_a_dam_with_room_keeps_drops_a_full_dam_passes_them():
    s, me, opp = bare()
    s.headstreams.update({"B": 2, "D": 2})
    s.dams["2U"] = Dam(opp, 1, 0)                        # catches one of B's drops
    s.dams["4U"] = Dam(opp, 1, 1)                        # full: passes D's drops on
    assert kept("dam", "most_water_drops", s, me, ["2L", "4L"]) == ["4L"]


def test_most_water_drops_tiebreaker_headstream_order():
    s, me, _ = bare()
    s.headstreams.update({"B": 1, "D": 1})
    out, why = run("dam", "most_water_drops", s, me, ["5U", "7U"], ["D", "C", "B"])
    assert out == ["7U"] and "D first" in why
    assert kept("dam", "most_water_drops", s, me, ["5U", "7U"], ["B", "A", "D"]) == ["5U"]


def test_most_water_drops_tiebreaker_unprinted_letter_comes_last():
    s, me, _ = bare()
    s.headstreams.update({"A": 1, "D": 1})              # A reaches 8U, D reaches 7U
    assert kept("dam", "most_water_drops", s, me, ["8U", "7U"], ["B", "C", "D"]) == ["7U"]


def test_most_water_drops_tiebreaker_keeps_all_fed_by_the_first_letter():
    s, me, _ = bare()
    s.headstreams["C"] = 1                               # one drop passes 3U then 6U
    assert kept("dam", "most_water_drops", s, me, ["3U", "6U"], ["C", "D", "A"]) == ["3U", "6U"]


def test_most_water_drops_matches_nothing_without_water():
    s, me, _ = bare()
    assert kept("dam", "most_water_drops", s, me, ["3U", "6U"]) == []


def test_red_outline_space():
    s, me, _ = bare()
    assert kept("dam", "red_outline_space", s, me, ["1U", "1L", "5L"]) == ["1U"]
    assert kept("dam", "red_outline_space", s, me, ["1L", "5L"]) == []


def test_upstream_powerhouse_any_owner_through_empty_basins():
    s, me, opp = bare()
    s.powerhouses["P5_0"] = opp                          # group 5 -> basin 5 -> group 9 -> basin 9
    assert kept("dam", "upstream_powerhouse", s, me, ["5U", "5L", "9U", "8U"]) == ["5U", "5L", "9U"]


def test_upstream_powerhouse_other_dams_cut_the_link():
    s, me, opp = bare()
    s.powerhouses["P5_0"] = me
    s.dams["5U"] = Dam(NEUTRAL, 1, 0)
    assert kept("dam", "upstream_powerhouse", s, me, ["5L", "9L"]) == []
    s.dams.clear()
    s.dams["9U"] = Dam(opp, 1, 1)                       # full dams still count as dams
    assert kept("dam", "upstream_powerhouse", s, me, ["5L", "9L"]) == ["5L"]


def test_upstream_powerhouse_elevation_candidate_is_not_an_other_dam():
    s, me, opp = bare()
    s.powerhouses["P5_0"] = opp
    s.dams.update({"5U": Dam(me, 1, 0), "2U": Dam(me, 1, 0)})
    assert kept("dam", "upstream_powerhouse", s, me, ["2U", "5U"]) == ["5U"]


def test_upstream_powerhouse_ignores_powerhouses_downstream():
    s, me, _ = bare()
    s.powerhouses["P9_0"] = me                           # below basin 5, not above it
    assert kept("dam", "upstream_powerhouse", s, me, ["5U"]) == []


def test_downstream_owned_dam_first_branch():
    s, me, _ = bare()
    s.dams["8U"] = Dam(me, 1, 0)                         # 1A and 5A lead to group 8, which flows into basin 8
    out, why = run("dam", "downstream_owned_dam", s, me, ["1U", "2U", "5L"])
    assert out == ["1U", "5L"] and "OTHERWISE" not in why


def test_downstream_owned_dam_otherwise_branch():
    s, me, opp = bare()
    s.dams["6L"] = Dam(opp, 1, 0)                        # 2A and 3B lead to group 6 -> basin 6
    out, why = run("dam", "downstream_owned_dam", s, me, ["2U", "3U", "4U"])
    # 3U is out although 3A leads to an empty basin: one link to an opponent is enough
    # 4U: 4A -> basin 7, 4B -> group 12 (an exit, no basin)
    assert out == ["4U"] and "OTHERWISE" in why


def test_downstream_owned_dam_matches_nothing_when_both_branches_fail():
    s, me, opp = bare()
    s.dams["6L"] = Dam(opp, 1, 0)
    assert kept("dam", "downstream_owned_dam", s, me, ["2U", "3L"]) == []


def test_neutral_dams_are_neither_owned_nor_opponent_downstream():
    s, me, _ = bare()
    s.dams["6L"] = Dam(NEUTRAL, 2, 1)
    out, why = run("dam", "downstream_owned_dam", s, me, ["2U", "3L"])
    assert out == ["2U", "3L"] and "OTHERWISE" in why


# -- Conduits ----------------------------------------------------------------------
def test_most_powerful_conduit_among_eligibles():
    s, me, _ = bare()
    assert kept("conduit", "most_powerful", s, me, ["1A", "1B", "2A", "4B"]) == ["1A", "4B"]


def test_second_most_powerful_is_the_second_distinct_value():
    s, me, _ = bare()
    assert kept("conduit", "second_most_powerful", s, me, ["1A", "2B", "1B", "2A"]) == ["1B"]


def test_second_most_powerful_otherwise_the_most_powerful():
    s, me, _ = bare()
    out, why = run("conduit", "second_most_powerful", s, me, ["2A", "4A"])
    assert out == ["2A", "4A"] and "OTHERWISE" in why


@pytest.fixture
def linked_map():
    s, me, opp = bare()
    s.dams.update({"3L": Dam(me, 1, 0), "6L": Dam(NEUTRAL, 2, 1), "8U": Dam(opp, 1, 0)})
    s.powerhouses.update({"P5_0": me, "P8_0": opp})
    return s, me, opp


@pytest.mark.parametrize("cid, removed, expected", [
    ("dam_owned_neutral_opponent", [], ["3A"]),
    ("dam_owned_neutral_opponent", ["3L"], ["6A"]),
    ("dam_owned_neutral_opponent", ["3L", "6L"], ["8A"]),
    ("dam_owned_neutral_opponent", ["3L", "6L", "8U"], []),
    ("dam_opponent_neutral_owned", [], ["8A"]),
    ("dam_opponent_neutral_owned", ["8U"], ["6A"]),
    ("dam_opponent_neutral_owned", ["8U", "6L"], ["3A"]),
    ("dam_opponent_neutral_owned", ["8U", "6L", "3L"], []),
])
def test_conduit_linked_to_dam_in_tiebreaker_order(linked_map, cid, removed, expected):
    s, me, _ = linked_map
    for space in removed:
        del s.dams[space]
    assert kept("conduit", cid, s, me, ["3A", "6A", "8A", "9A"]) == expected


def test_conduit_linked_to_dam_basin_with_owned_and_opponent_dams_counts_as_owned_first():
    s, me, opp = bare()
    s.dams.update({"5U": Dam(me, 1, 0), "5L": Dam(opp, 1, 0), "7L": Dam(opp, 1, 0)})
    assert kept("conduit", "dam_owned_neutral_opponent", s, me, ["5A", "7A"]) == ["5A"]
    assert kept("conduit", "dam_opponent_neutral_owned", s, me, ["5A", "7A"]) == ["5A", "7A"]


@pytest.mark.parametrize("cid, removed, expected", [
    ("powerhouse_owned_opponent", [], ["1B"]),
    ("powerhouse_owned_opponent", ["P5_0"], ["1A"]),
    ("powerhouse_owned_opponent", ["P5_0", "P8_0"], []),
    ("powerhouse_opponent_owned", [], ["1A"]),
    ("powerhouse_opponent_owned", ["P8_0"], ["1B"]),
    ("powerhouse_opponent_owned", ["P8_0", "P5_0"], []),
])
def test_conduit_linked_to_powerhouse_in_tiebreaker_order(linked_map, cid, removed, expected):
    s, me, _ = linked_map                                # 1A -> group 8, 1B -> group 5, 2A -> group 6
    for space in removed:
        del s.powerhouses[space]
    assert kept("conduit", cid, s, me, ["1A", "1B", "2A"]) == expected


# -- Powerhouses ------------------------------------------------------------------
def test_powerhouse_most_powerful_conduit():
    s, me, opp = bare()
    s.conduits.update({"1A": opp, "3A": me})              # 5 -> group 8; 4 -> group 5
    assert kept("powerhouse", "most_powerful_conduit", s, me, ["P5_0", "P8_0", "P8_1", "P10_0"]) == ["P8_0", "P8_1"]


def test_powerhouse_most_powerful_conduit_tiebreaker_owned():
    s, me, opp = bare()
    s.conduits.update({"1A": opp, "2B": me})              # both 5: group 8 (opponent's), group 10 (owned)
    out, why = run("powerhouse", "most_powerful_conduit", s, me, ["P8_0", "P10_0", "P5_0"])
    assert out == ["P10_0"] and "owned" in why


def test_powerhouse_most_powerful_conduit_tiebreaker_looks_at_every_conduit_into_the_group():
    s, me, opp = bare()
    s.conduits.update({"1B": opp, "3A": me, "5B": opp})   # value 4 each: 1B, 3A -> group 5; 5B -> group 10
    assert kept("powerhouse", "most_powerful_conduit", s, me, ["P10_0", "P5_1"]) == ["P5_1"]
    s.conduits["7A"] = me                                  # a weaker owned conduit into group 10 changes nothing
    assert kept("powerhouse", "most_powerful_conduit", s, me, ["P10_0", "P5_1"]) == ["P5_1"]


def test_powerhouse_most_powerful_conduit_matches_nothing_without_built_conduits():
    s, me, _ = bare()
    assert kept("powerhouse", "most_powerful_conduit", s, me, ["P8_0", "P10_0"]) == []


def test_powerhouse_owned_dam():
    s, me, opp = bare()
    s.dams.update({"6U": Dam(me, 1, 0), "1U": Dam(opp, 1, 0)})   # 6A -> group 9, 6B -> group 7; 1B -> 5
    assert kept("powerhouse", "owned_dam", s, me, ["P5_0", "P7_0", "P9_1"]) == ["P7_0", "P9_1"]
    del s.dams["6U"]
    assert kept("powerhouse", "owned_dam", s, me, ["P5_0", "P7_0"]) == []


def test_powerhouse_plains():
    s, me, _ = bare()
    assert kept("powerhouse", "plains", s, me, ["P7_0", "P8_0", "P12_1"]) == ["P8_0", "P12_1"]
    assert kept("powerhouse", "plains", s, me, ["P5_0", "P7_1"]) == []


@pytest.mark.parametrize("group", [5, 6, 7])
def test_powerhouse_hills_basin(group):
    s, me, _ = bare()
    candidates = ["P5_0", "P6_0", "P6_1", "P7_1", "P8_0"]
    assert kept("powerhouse", f"hills_basin_{group}", s, me, candidates) == [c for c in candidates if c.startswith(f"P{group}_")]
    assert kept("powerhouse", f"hills_basin_{group}", s, me, ["P8_0", "P11_0"]) == []


def test_feeding_owned_dam_through_basins_without_other_dams():
    s, me, _ = bare()
    s.dams["9U"] = Dam(me, 1, 1)                          # full: still fed (a dam, whatever it holds)
    # group 5 -> basin 5 (empty) -> group 9 -> basin 9; group 9 -> basin 9; group 6 -> basin 6 -> ... 10
    assert kept("powerhouse", "feeding_owned_dam", s, me, ["P5_0", "P6_0", "P9_0"]) == ["P5_0", "P9_0"]
    s.dams["5L"] = Dam(NEUTRAL, 2, 1)                     # another dam between group 5 and 9U
    assert kept("powerhouse", "feeding_owned_dam", s, me, ["P5_0", "P6_0", "P9_0"]) == ["P9_0"]


def test_feeding_owned_dam_otherwise_not_directly_feeding_an_opponent():
    s, me, opp = bare()
    s.dams.update({"5L": Dam(NEUTRAL, 2, 1), "6U": Dam(opp, 1, 0)})
    out, why = run("powerhouse", "feeding_owned_dam", s, me, ["P5_0", "P6_0", "P11_0"])
    assert out == ["P5_0", "P11_0"] and "OTHERWISE" in why


def test_feeding_owned_dam_matches_nothing_when_all_feed_opponents():
    s, me, opp = bare()
    s.dams["6U"] = Dam(opp, 1, 0)
    assert kept("powerhouse", "feeding_owned_dam", s, me, ["P6_0", "P6_1"]) == []


def test_not_feeding_opponent_dam_first_branch():
    s, me, opp = bare()
    s.dams.update({"6U": Dam(opp, 1, 0), "9U": Dam(me, 1, 0)})
    out, why = run("powerhouse", "not_feeding_opponent_dam", s, me, ["P6_0", "P9_0", "P11_0"])
    assert out == ["P9_0", "P11_0"] and "OTHERWISE" not in why


def test_not_feeding_opponent_dam_directly_means_the_first_dam_met():
    s, me, opp = bare()
    s.dams.update({"5U": Dam(me, 1, 0), "9U": Dam(opp, 1, 0)})   # own dam shields the opponent's
    assert kept("powerhouse", "not_feeding_opponent_dam", s, me, ["P5_0", "P9_0"]) == ["P5_0"]


def test_not_feeding_opponent_dam_otherwise_branch_cannot_match():
    # every space directly feeds an opponent, so none directly feeds an owned dam either
    s, me, opp = bare()
    s.dams.update({"6U": Dam(opp, 1, 0), "10U": Dam(opp, 1, 0), "10L": Dam(me, 1, 0)})
    out, why = run("powerhouse", "not_feeding_opponent_dam", s, me, ["P6_0", "P10_0"])
    assert out == [] and "OTHERWISE" not in why and "none" in why


# -- every tile's columns run on a busy map ---------------------------------------------
def busy():
    s, me, opp = bare()
    s.dams.update({"1U": Dam(me, 2, 1), "6L": Dam(NEUTRAL, 2, 1), "9U": Dam(opp, 1, 1), "5L": Dam(me, 1, 0)})
    s.conduits.update({"1A": opp, "3A": me, "6A": me})
    s.powerhouses.update({"P8_0": me, "P9_0": opp, "P5_0": opp})
    s.headstreams.update({"A": 2, "B": 1, "C": 1})
    return s, me


@pytest.mark.parametrize("tile", range(1, 21))
def test_every_tile_criterion_keeps_a_subset(tile):
    s, me = busy()
    crit = automa_tiles()[tile]["criteria"]
    for column, structure in (("dam", "dam_base"), ("dam", "elevation"), ("conduit", "conduit"), ("powerhouse", "powerhouse")):
        candidates = legal_spaces(s, me, structure)
        for cid in crit[column]["criteria"]:
            out, why = C.CRITERIA[column][cid](s, me, candidates, crit["headstreams"])
            assert set(out) <= set(candidates) and out == [c for c in candidates if c in out]
            assert str(why)
