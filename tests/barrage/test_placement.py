"""The Structure Placing Procedure: one space, third structure, criteria, code, regular space."""
import pytest

from automa.barrage.data import automa_tiles, barrage_map
from automa.barrage.placement import choose_space, completed_systems
from automa.barrage.rules import legal_spaces
from automa.barrage.setup import new_game
from automa.barrage.state import NEUTRAL, Dam
from automa.common.trace import Trace

from .scenario import clear_map

# Criteria that match nothing on an empty map (no dams, conduits, powerhouses or water),
# so the start code decides.
INERT = {
    "dam": ["most_powerful_conduit", "owned_powerhouse", "upstream_powerhouse"],
    "conduit": ["dam_owned_neutral_opponent", "powerhouse_owned_opponent", "dam_opponent_neutral_owned"],
    "powerhouse": ["most_powerful_conduit", "owned_dam", "feeding_owned_dam"],
}


def bare():
    """Three companies, an empty map (no neutral dams), no water on the headstreams."""
    s = clear_map(new_game(1, 2, seed=1))
    me, opp, _ = s.turn_order
    return s, me, opp


def tile(dam=None, conduit=None, powerhouse=None, dam_start=1, conduit_start="1A", ph_start=5, letters=("A", "B", "C")):
    return {"dam": {"criteria": dam or INERT["dam"], "start": dam_start},
            "conduit": {"criteria": conduit or INERT["conduit"], "start": conduit_start},
            "powerhouse": {"criteria": powerhouse or INERT["powerhouse"], "start": ph_start},
            "headstreams": list(letters)}


def choose(s, me, structure, candidates, criteria):
    trace = Trace()
    return choose_space(s, me, structure, candidates, criteria, trace), str(trace)


# -- one space, bad input ------------------------------------------------------------
def test_single_candidate_is_built_without_looking_further():
    s, me, opp = bare()
    s.conduits["1B"] = opp
    s.powerhouses["P5_0"] = me                           # a base in basin 1 would complete a system ...
    space, why = choose(s, me, "dam_base", ["7U"], tile())  # ... but 7U is the only eligible space
    assert space == "7U" and "Only one eligible space" in why and "Third structure" not in why


def test_rejects_empty_candidates_and_unknown_structures():
    s, me, _ = bare()
    with pytest.raises(ValueError):
        choose_space(s, me, "dam_base", [], tile(), Trace())
    with pytest.raises(ValueError):
        choose_space(s, me, "building", ["1U", "2U"], tile(), Trace())


# -- step 1: third structure of a system ------------------------------------------------
def test_rulebook_example_conduit_connects_own_base_and_powerhouse():
    # seed 000: "O Autômato deve construir um Conduíte. Ele já tem uma Base de Represa e uma Usina de
    # Energia que podem ser conectados por um Conduíte. Nesse caso, ele deve automaticamente construir
    # o Conduíte ali."
    s, me, _ = bare()
    s.dams["3L"] = Dam(me, 1, 0)
    s.powerhouses["P5_0"] = me                            # 3A (value 4) leads from basin 3 to group 5
    crit = automa_tiles()[1]["criteria"]                 # "most powerful" first would pick a value-5 conduit
    space, why = choose(s, me, "conduit", legal_spaces(s, me, "conduit"), crit)
    assert space == "3A"
    assert "Third structure of a system: only 3A would complete a system (3L + 3A + P5_0)" in why
    assert "Criterion" not in why


def test_third_structure_base_uses_any_owners_conduit_and_prefers_the_regular_space():
    s, me, opp = bare()
    s.conduits["1B"] = opp                                # basin 1 -> group 5
    s.powerhouses["P5_0"] = me
    crit = tile(dam=["red_outline_space", "most_powerful_conduit", "owned_powerhouse"])
    space, why = choose(s, me, "dam_base", legal_spaces(s, me, "dam_base"), crit)
    assert space == "1L" and "only basin 1" in why and "Criterion" not in why


def test_third_structure_conduit_with_a_neutral_dam():
    s, me, _ = bare()
    s.dams["6L"] = Dam(NEUTRAL, 2, 1)
    s.powerhouses["P9_0"] = me                            # 6A leads from basin 6 to group 9
    space, _ = choose(s, me, "conduit", legal_spaces(s, me, "conduit"), tile(conduit=["most_powerful"] * 3))
    assert space == "6A"


def test_third_structure_powerhouse_takes_the_regular_space_of_the_group():
    s, me, opp = bare()
    s.dams["2U"] = Dam(me, 1, 0)
    s.conduits["2A"] = opp                                # basin 2 -> group 6
    space, why = choose(s, me, "powerhouse", legal_spaces(s, me, "powerhouse"), tile(powerhouse=["plains"] * 3))
    assert space == "P6_0" and "only group 6" in why


def test_opponent_dam_or_opponent_powerhouse_complete_no_system():
    s, me, opp = bare()
    s.dams["2U"] = Dam(opp, 1, 0)
    s.conduits["2A"] = me
    assert completed_systems(s, me, "powerhouse", "P6_0") == []
    s.dams["2U"] = Dam(me, 1, 0)
    s.powerhouses["P6_0"] = opp
    assert completed_systems(s, me, "dam_base", "2L") == []      # the base's basin already has my dam, anyway
    assert completed_systems(s, me, "conduit", "2A") == []       # built already; and P6_0 is not mine
    assert completed_systems(s, me, "powerhouse", "P6_1") == ["2U + 2A + P6_1"]


def test_water_is_not_required_to_complete_a_system():
    s, me, _ = bare()
    s.dams["4U"] = Dam(me, 1, 0)                          # empty dam
    s.powerhouses["P12_0"] = me                           # 4B leads to group 12
    space, _ = choose(s, me, "conduit", ["1A", "4B", "9A"], tile())
    assert space == "4B"


def test_more_than_one_system_goes_on_with_all_eligible_spaces():
    # ruling: the criteria then choose among all eligible spaces, not only the completing ones
    s, me, _ = bare()
    s.dams["3L"] = Dam(me, 1, 0)
    s.powerhouses.update({"P5_0": me, "P6_0": me})        # 3A -> 5 and 3B -> 6 both complete a system
    space, why = choose(s, me, "conduit", legal_spaces(s, me, "conduit"), automa_tiles()[1]["criteria"])
    assert "2 positions would complete a system" in why
    assert space == "1A"                                  # most powerful (value 5), then code 1A


def test_two_systems_at_one_position_are_one_position():
    s, me, opp = bare()
    s.conduits.update({"3A": opp, "3B": me})              # -> groups 5 and 6
    s.powerhouses.update({"P5_0": me, "P6_1": me})
    space, why = choose(s, me, "dam_base", legal_spaces(s, me, "dam_base"), tile(dam=["red_outline_space"] * 3))
    assert space == "3L" and "only basin 3" in why and "3U + 3A + P5_0" in why


def test_an_elevation_never_completes_a_system():
    s, me, opp = bare()
    s.dams.update({"3L": Dam(me, 1, 0), "9U": Dam(me, 1, 0)})
    s.conduits["3A"] = opp
    s.powerhouses["P5_0"] = me                            # 3L + 3A + P5_0 is complete already
    space, why = choose(s, me, "elevation", ["3L", "9U"], tile(dam=["red_outline_space"] * 3))
    assert space == "9U" and "completes no system" in why


# -- step 2: the criteria -----------------------------------------------------------
def test_criteria_narrow_in_order_and_stop_at_one_space():
    s, me, opp = bare()
    s.conduits.update({"1A": opp, "2B": opp, "4B": me})   # value 5 in basins 1, 2, 4; 4B is owned
    crit = tile(dam=["most_powerful_conduit", "red_outline_space", "owned_powerhouse"])
    space, why = choose(s, me, "dam_base", ["1U", "2L", "4U", "4L", "6U"], crit)
    # criterion 1 keeps 4U, 4L (owned conduit tiebreaker), criterion 2 keeps 4U; criterion 3 is not needed
    assert space == "4U"
    assert "Criterion 1" in why and "Criterion 2" in why and "Criterion 3" not in why


def test_a_criterion_matching_nothing_is_skipped():
    s, me, opp = bare()
    s.powerhouses["P10_0"] = opp
    crit = tile(conduit=["dam_owned_neutral_opponent", "powerhouse_owned_opponent", "most_powerful"], conduit_start="5A")
    space, why = choose(s, me, "conduit", ["1A", "2B", "7A", "9B"], crit)
    # criterion 1: no dams -> skipped; criterion 2: 2B and 7A lead to group 10 (opponent) -> kept;
    # criterion 3: 2B (5) beats 7A (2)
    assert space == "2B" and "matches no eligible space" in why


def test_criteria_that_keep_several_fall_through_to_the_code():
    s, me, _ = bare()
    crit = tile(conduit=["most_powerful", "most_powerful", "most_powerful"], conduit_start="3A")
    space, why = choose(s, me, "conduit", legal_spaces(s, me, "conduit"), crit)
    assert space == "4B" and "Code 3A" in why            # value 5: 1A, 2B, 4B; from 3A on the first is 4B


# -- step 3: the code with wrap-around, for each structure ---------------------------
@pytest.mark.parametrize("start, expected", [(5, "9L"), (9, "9L"), (10, "2L"), (1, "2L")])
def test_dam_code_wraps_from_10_to_1(start, expected):
    s, me, _ = bare()
    space, why = choose(s, me, "dam_base", ["9L", "2L"], tile(dam_start=start))
    assert space == expected
    assert ("wrapping round to 1" in why) == (start == 10)


@pytest.mark.parametrize("start, expected", [("10B", "3A"), ("4A", "5B"), ("10A", "10A"), ("3B", "5B")])
def test_conduit_code_wraps_from_10b_to_1a(start, expected):
    s, me, _ = bare()
    space, _ = choose(s, me, "conduit", ["10A", "3A", "5B"], tile(conduit_start=start))
    assert space == expected


@pytest.mark.parametrize("start, expected", [(12, "P6_1"), (7, "P9_0"), (6, "P6_1")])
def test_powerhouse_code_wraps_from_12_to_5(start, expected):
    s, me, _ = bare()
    space, _ = choose(s, me, "powerhouse", ["P9_0", "P6_1"], tile(ph_start=start))
    assert space == expected


def test_elevation_code_uses_the_dam_column():
    s, me, _ = bare()
    s.dams.update({"2U": Dam(me, 2, 0), "6L": Dam(me, 1, 0), "9U": Dam(me, 1, 0)})
    space, _ = choose(s, me, "elevation", legal_spaces(s, me, "elevation"), tile(dam_start=7))
    assert space == "9U"


# -- step 4: regular spaces before red-outlined ones --------------------------------
def test_regular_dam_space_preferred_once_the_basin_is_chosen():
    s, me, _ = bare()
    space, why = choose(s, me, "dam_base", ["4U", "4L", "6U"], tile(dam_start=3))
    assert space == "4L" and "Regular spaces are preferred" in why


def test_red_outline_criterion_overrides_the_regular_preference():
    # seed 000: non-red spaces are preferred "a menos que indicado em contrário" (unless indicated otherwise)
    s, me, _ = bare()
    space, _ = choose(s, me, "dam_base", ["4U", "4L", "6U"], tile(dam=["red_outline_space"] + INERT["dam"][:2], dam_start=3))
    assert space == "4U"


def test_red_dam_space_when_the_regular_one_is_taken():
    s, me, opp = bare()
    s.dams["4L"] = Dam(opp, 1, 0)
    space, _ = choose(s, me, "dam_base", legal_spaces(s, me, "dam_base"), tile(dam_start=4))
    assert space == "4U"


@pytest.mark.parametrize("taken, expected", [([], "P8_0"), (["P8_0"], "P8_1"), (["P8_0", "P8_1"], "P8_2")])
def test_regular_powerhouse_space_preferred_in_the_chosen_group(taken, expected):
    s, me, opp = bare()
    for space in taken:
        s.powerhouses[space] = opp
    space, _ = choose(s, me, "powerhouse", legal_spaces(s, me, "powerhouse"), tile(ph_start=8))
    assert space == expected


def test_powerhouse_group_with_only_red_spaces_left_takes_the_first():
    s, me, opp = bare()
    s.powerhouses["P10_0"] = opp
    space, why = choose(s, me, "powerhouse", legal_spaces(s, me, "powerhouse"), tile(ph_start=10))
    assert space == "P10_1" and "Only red-outlined" in why


# -- the placement flowchart (seed 000) ----------------------------------------------
def test_flowchart_example_base_with_code_10():
    # seed 000: "Fluxo do procedimento de colocação de estruturas. O Autômato deve construir uma Base."
    # Tile 20's dam column: upstream powerhouse, most powerful conduit, most water drops; code 10.
    crit = automa_tiles()[20]["criteria"]
    assert crit["dam"] == {"criteria": ["upstream_powerhouse", "most_powerful_conduit", "most_water_drops"], "start": 10}
    s, me, opp = bare()
    s.dams.update({"10U": Dam(opp, 1, 0), "10L": Dam(NEUTRAL, 3, 1)})   # basin 10 is full
    space, why = choose(s, me, "dam_base", legal_spaces(s, me, "dam_base"), crit)
    # no system, no criterion matches -> code 10 -> basin 10 has no space -> wrap to basin 1 -> 1L
    assert space == "1L"
    assert [line.strip().split(":")[0] for line in why.splitlines()[1:5]] == [
        "Third structure of a system",
        'Criterion 1 "A Dam linked (through basins without other Dams) to an upstream Powerhouse."',
        'Criterion 2 "A Dam linked to the most powerful Conduit already built (owned or opponent). Tiebreaker',
        'Criterion 3 "A Dam able to receive the most Water Drops in the current Map condition. Tiebreaker']
    # the "Yes" exit of the first criterion box
    s.powerhouses["P6_0"] = opp                           # group 6 -> basin 6 -> group 10 -> (basin 10 full)
    s.dams["6L"] = Dam(opp, 1, 0)
    space, why = choose(s, me, "dam_base", legal_spaces(s, me, "dam_base"), crit)
    assert space == "6U" and "Criterion 2" not in why


# -- every tile can be run -------------------------------------------------------------
def _ring(items, start, key=lambda x: x):
    """``items`` in Reference Map order from ``start`` on, wrapping at the end."""
    return [x for x in items if key(x) >= start] + [x for x in items if key(x) < start]


@pytest.mark.parametrize("number", range(1, 21))
def test_every_tile_on_an_empty_map(number):
    """On an empty map only the value, area and red-outline criteria can narrow; the code does the rest."""
    crit = automa_tiles()[number]["criteria"]
    bmap = barrage_map()
    s, me, _ = bare()

    dam = crit["dam"]
    base, _ = choose(s, me, "dam_base", legal_spaces(s, me, "dam_base"), crit)
    assert base == f"{dam['start']}{'U' if 'red_outline_space' in dam['criteria'] else 'L'}"

    con = crit["conduit"]
    first = next(c for c in con["criteria"] if c in ("most_powerful", "second_most_powerful"))
    value = 5 if first == "most_powerful" else 4
    by_code = sorted(bmap.conduits.values(), key=lambda c: c.code)
    expected = next(c.id for c in _ring(by_code, bmap.conduits[con["start"]].code, lambda c: c.code) if c.value == value)
    conduit, _ = choose(s, me, "conduit", legal_spaces(s, me, "conduit"), crit)
    assert conduit == expected

    ph = crit["powerhouse"]
    hills = [int(c[-1]) for c in ph["criteria"] if c.startswith("hills_basin_")]
    groups = _ring(list(range(5, 13)), ph["start"])
    group = hills[0] if hills else next(g for g in groups if g >= 8) if "plains" in ph["criteria"] else groups[0]
    powerhouse, _ = choose(s, me, "powerhouse", legal_spaces(s, me, "powerhouse"), crit)
    assert powerhouse == f"P{group}_0"

    s.dams.update({"3L": Dam(me, 1, 0), "7U": Dam(me, 1, 0), "9L": Dam(me, 2, 0)})
    elevation, _ = choose(s, me, "elevation", legal_spaces(s, me, "elevation"), crit)
    own = {3: "3L", 7: "7U", 9: "9L"}
    assert elevation == ("7U" if "red_outline_space" in dam["criteria"] else
                         own[next(b for b in _ring(list(range(1, 11)), dam["start"]) if b in own)])
