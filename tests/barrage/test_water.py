"""Water flow: drops stop in the first dam with room, pass full dams, leave at exits."""
from collections import Counter

from automa.barrage.state import Dam
from automa.barrage.setup import new_game
from automa.barrage.water import EXIT, route, headstream_path, water_flow_phase, group_path


def bare():
    s = new_game(1, 1, seed=1)
    s.dams.clear()
    s.headstreams = {h: 0 for h in "ABCD"}
    return s


def test_paths_follow_the_rivers():
    assert headstream_path("A") == ["1U", "1L", "8U", "8L"]
    assert headstream_path("B") == ["2U", "2L", "5U", "5L", "9U", "9L"]
    assert group_path(10) == ["10U", "10L"]
    assert group_path(12) == []


def test_drop_passes_full_dam_and_stops_in_next_with_room():
    s = bare()
    me = s.turn_order[0]
    s.dams["1U"] = Dam(me, 1, 1)      # full
    s.dams["8L"] = Dam(me, 2, 0)
    assert route(s, headstream_path("A"), 3) == Counter({"8L": 2, EXIT: 1})


def test_empty_map_sends_everything_to_the_exit():
    s = bare()
    s.headstreams["D"] = 2
    assert water_flow_phase(s) == Counter({EXIT: 2})


def test_flow_phase_shares_capacity_between_headstreams():
    s = bare()
    me = s.turn_order[0]
    s.dams["9U"] = Dam(me, 1, 0)
    s.headstreams["B"] = 1          # B reaches 9U via basins 2 and 5
    s.headstreams["C"] = 0
    s.headstreams["A"] = 1          # A never reaches basin 9
    assert water_flow_phase(s) == Counter({"9U": 1, EXIT: 1})


def test_a_del_monte_level_3_dam_keeps_a_fourth_drop():
    """Graziano Del Monte: "Your level 3 Dams can hold up to 4 Water Drops. Your level 1 and level 2
    Dams can hold 1 or 2 Water Drops respectively" (Very Hard Automa officer)."""
    s = bare()
    me = s.turn_order[0]
    s.dams["1U"] = Dam(me, 3, 3)
    s.dams["8U"] = Dam(me, 2, 1)
    assert route(s, headstream_path("A"), 3) == Counter({"8U": 1, EXIT: 2})        # no officer: 1U is full
    s.companies[me].level, s.companies[me].officer = "very-hard", "del-monte"
    assert route(s, headstream_path("A"), 3) == Counter({"1U": 1, "8U": 1, EXIT: 1})
    assert water_flow_phase(replace_headstreams(s, A=2)) == Counter({"1U": 1, "8U": 1})


def replace_headstreams(s, **drops):
    s.headstreams = {h: drops.get(h, 0) for h in "ABCD"}
    return s
