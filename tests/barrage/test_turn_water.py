"""Which drops a turn can move (rulings V5): a dam loses water only to its producer's
production, and a dam not the mover's gains it only by flowing past every dam with room."""
from dataclasses import replace

from automa.barrage.state import Company, Dam
from automa.barrage.turn_water import can_drain, can_flow_into
from vision.barrage.board_state import MapState

NO_OFFICERS: dict[str, Company] = {}      # every dam holds one drop a piece

# Conduit 1B leads from basin 1 (dams 1U, 1L) to powerhouse group 5; headstream A feeds
# basin 1 and its water runs 1U, 1L, 8U, 8L; group 5's water runs 5U, 5L, 9U, 9L.
SYSTEM = {"conduits": {"1B": "germany"}, "powerhouses": {"P5_0": "usa"}}


def test_a_dam_loses_water_only_to_a_production_of_the_mover():
    before = MapState(dams={"1U": Dam("usa", 2, 2), "1L": Dam("neutral", 1, 1)}, **SYSTEM)
    assert can_drain(before, before, "usa", "1U")              # own dam, anyone's conduit, own powerhouse
    assert can_drain(before, before, "usa", "1L")              # a neutral dam serves any producer
    assert not can_drain(before, before, "germany", "1U")      # never another company's dam
    assert not can_drain(before, before, "germany", "1L")      # germany owns the conduit, no powerhouse of group 5
    no_powerhouse = MapState(dams=before.dams, conduits={"1B": "germany"}, powerhouses={"P6_0": "usa"})
    assert not can_drain(no_powerhouse, no_powerhouse, "usa", "1U")   # the conduit's group holds no usa powerhouse
    no_conduit = MapState(dams=before.dams, powerhouses={"P5_0": "usa"})
    assert not can_drain(no_conduit, no_conduit, "usa", "1U")
    # the L2 Powerhouse tile: build the powerhouse, then produce with it, in one turn
    assert can_drain(no_powerhouse, before, "usa", "1U")
    # a structure never leaves the map: one the camera did not see this time still serves
    assert can_drain(before, MapState(dams=before.dams), "usa", "1U")
    # the water must have been there before the turn
    assert not can_drain(MapState(dams={"1U": Dam("usa", 2, 0)}), before, "usa", "1U")


def test_water_reaches_a_dam_only_past_dams_without_room():
    before = MapState(dams={"1U": Dam("usa", 1, 0), "8U": Dam("italy", 1, 0)})
    room_above = MapState(dams={"1U": Dam("usa", 1, 0), "8U": Dam("italy", 1, 1)})
    assert not can_flow_into(before, room_above, "usa", "8U", NO_OFFICERS)     # 1U had room: the drop stops there
    filled_above = MapState(dams={"1U": Dam("usa", 1, 1), "8U": Dam("italy", 1, 1)})
    assert can_flow_into(before, filled_above, "usa", "8U", NO_OFFICERS)       # 1U filled first, the next drop ran on
    assert can_flow_into(before, filled_above, "usa", "1U", NO_OFFICERS)       # the first dam on headstream A's river
    # a dam drained this turn was full when the water passed it
    before = MapState(dams={"1U": Dam("usa", 1, 1), "8U": Dam("italy", 1, 0)})
    drained = MapState(dams={"1U": Dam("usa", 1, 0), "8U": Dam("italy", 1, 1)})
    assert can_flow_into(before, drained, "usa", "8U", NO_OFFICERS)


def test_production_water_enters_below_the_movers_powerhouse_even_one_just_built():
    # 5U is fed by headstream B through 2U, which has room: only a production's water,
    # released at group 5, can reach it, and only the owner of a group 5 powerhouse releases it there
    before = MapState(dams={"2U": Dam("usa", 2, 0), "5U": Dam("italy", 1, 0)}, powerhouses={"P5_0": "usa"})
    after = MapState(dams={"2U": Dam("usa", 2, 0), "5U": Dam("italy", 1, 1)}, powerhouses={"P5_0": "usa"})
    assert can_flow_into(before, after, "usa", "5U", NO_OFFICERS)
    assert not can_flow_into(before, after, "france", "5U", NO_OFFICERS)
    built = MapState(dams=after.dams, powerhouses={"P5_0": "usa", "P5_1": "france"})
    assert can_flow_into(before, built, "france", "5U", NO_OFFICERS)        # the L2 Powerhouse tile's production


def test_a_del_monte_level_3_dam_holding_3_drops_is_not_full():
    """Graziano Del Monte (a Very Hard Automa's officer): "Your level 3 Dams can hold up to 4 Water
    Drops". Water from headstream A stops in his 3-drop level 3 dam on 1U: it cannot reach 8U below."""
    del_monte = {"usa": Company("usa", automa=True, vp=10, level="very-hard", officer="del-monte")}
    before = MapState(dams={"1U": Dam("usa", 3, 3), "8U": Dam("italy", 1, 0)})
    below = MapState(dams={"1U": Dam("usa", 3, 3), "8U": Dam("italy", 1, 1)})
    assert not can_flow_into(before, below, "germany", "8U", del_monte)
    assert can_flow_into(before, MapState(dams={"1U": Dam("usa", 3, 4), "8U": Dam("italy", 1, 0)}),
                         "germany", "1U", del_monte)
    # the 4th drop filled it, the next ran on
    assert can_flow_into(before, MapState(dams={"1U": Dam("usa", 3, 4), "8U": Dam("italy", 1, 1)}),
                         "germany", "8U", del_monte)
    # another officer's, a Hard Automa's with Del Monte set, or nobody's officer: 3 drops fill a level 3 dam
    for companies in ({"usa": replace(del_monte["usa"], officer="adler")},
                      {"usa": replace(del_monte["usa"], level="hard")}, NO_OFFICERS):
        assert can_flow_into(before, below, "germany", "8U", companies)
