"""Slot readings -> map part of the engine state; rule breaks are flagged, not fixed."""
from automa.barrage.setup import new_game
from automa.barrage.state import Dam
from vision.barrage.board_state import MapState, apply_to_state, build_map, slot_readings
from vision.barrage.slot_model import CropReading
from vision.reader import SlotReading

from .drawn import LAYOUT


def empty_readings(**changes):
    out = []
    for b in LAYOUT.slots:
        r = SlotReading(b.id, b.kind, None if b.kind == "headstream" else "empty", None,
                        0 if b.kind in ("dam", "headstream") else None, 0.99)
        out.append(changes.get(b.id, r))
    return out


def dam(space, owner, piece="base", drops=0, conf=0.99):
    return SlotReading(space, "dam", piece, owner, drops, conf)


def test_readings_become_the_map():
    readings = empty_readings(**{"1U": dam("1U", "germany", "base+2", 2),
                                 "4B": SlotReading("4B", "conduit", "conduit", "italy", None, 0.99),
                                 "P5_0": SlotReading("P5_0", "powerhouse", "powerhouse", "usa", None, 0.99),
                                 "A": SlotReading("A", "headstream", None, None, 3, 0.99)})
    board, flags = build_map(readings)
    assert flags == []
    assert board.dams["1U"].owner == "germany" and board.dams["1U"].pieces == 3 and board.dams["1U"].drops == 2
    assert board.conduits == {"4B": "italy"} and board.powerhouses == {"P5_0": "usa"}
    assert board.headstreams["A"] == 3 and board.unknown == []
    # each slot read keeps how sure the reading was; it does not make two maps differ
    assert board.confidence["1U"] == 0.99 and len(board.confidence) == len(LAYOUT.slots)
    assert board == MapState(board.dams, board.conduits, board.powerhouses, board.headstreams)


def test_rule_breaks_are_flagged_not_fixed():
    readings = empty_readings(**{
        "4B": SlotReading("4B", "conduit", "conduit", "none", None, 0.99),
        "2U": dam("2U", "france", "base", drops=3),
        "1U": dam("1U", "usa"), "1L": dam("1L", "usa"),
        "P5_0": SlotReading("P5_0", "powerhouse", "powerhouse", "neutral", None, 0.99),
        "3U": dam("3U", "italy", conf=0.4)})
    board, flags = build_map(readings)
    problems = {f.slot: f.problem for f in flags}
    assert "no owner" in problems["4B"] and "4B" not in board.conduits
    assert "capacity" in problems["2U"] or "holds 1" in problems["2U"]
    assert board.dams["2U"].drops == 3, "the reading is kept as read"
    assert "two dams in basin 1" in problems["1L"]
    assert "neutral" in problems["P5_0"]
    assert "low confidence" in problems["3U"]


def test_more_pieces_than_a_company_owns_is_flagged():
    conduits = {f"{b}{l}": SlotReading(f"{b}{l}", "conduit", "conduit", "germany", None, 0.99)
                for b in range(1, 4) for l in "AB"}
    _, flags = build_map(empty_readings(**conduits))
    assert any(f.slot == "germany" and "6 conduit" in f.problem for f in flags)


def test_occluded_slots_are_unknown_and_dams_take_their_lake_drops():
    crops = []
    for b in LAYOUT.boxes:
        if b.key == "lake:5L":
            crops.append(CropReading(None, None, 2, False, 0.9))
        elif b.id == "5L" and b.kind == "dam":
            crops.append(CropReading("base+2", "italy", None, False, 0.9))
        elif b.id == "6U" and b.kind == "dam":
            crops.append(CropReading("base", "usa", None, True, 0.9))
        else:
            crops.append(CropReading("empty" if b.kind in ("dam", "conduit", "powerhouse") else None, None,
                                     0 if b.kind in ("lake", "headstream") else None, False, 0.99))
    readings = slot_readings(LAYOUT, crops)
    assert len(readings) == len(LAYOUT.slots)
    board, _ = build_map(readings)
    assert board.dams["5L"].drops == 2 and board.dams["5L"].pieces == 3
    assert "6U" in board.unknown and "6U" not in board.dams


def test_apply_to_state_updates_supply_and_validates():
    state = new_game(automas=1, humans=1, seed=1)
    company = state.turn_order[0]
    board = MapState(dams=dict(state.dams), conduits={"4B": company}, headstreams={"A": 2})
    new, flags = apply_to_state(state, board)
    assert flags == []
    assert new.conduits == {"4B": company} and new.headstreams["A"] == 2
    assert new.companies[company].structures["conduit"] == 4
    stranger = next(c for c in ("usa", "germany", "italy", "france", "netherlands") if c not in state.companies)
    same, flags = apply_to_state(state, MapState(conduits={"4B": stranger}))
    assert same is state and "not playing" in flags[0].problem


def test_a_copied_map_is_equal_and_changes_apart():
    original = MapState(dams={"1U": Dam("usa", 1, 0)}, conduits={"1A": "usa"}, headstreams={"A": 1}, unknown=["2U"])
    copy = original.copy()
    assert copy == original
    copy.dams["1U"], copy.conduits["2A"], copy.headstreams["A"] = Dam("usa", 2, 0), "usa", 0
    copy.unknown.append("3U")
    assert original.dams["1U"].pieces == 1 and "2A" not in original.conduits
    assert original.headstreams["A"] == 1 and original.unknown == ["2U"]


def test_four_drops_break_a_rule_only_where_del_monte_is_not_the_owner():
    """Rulings V14: a level 3 dam of a company with Del Monte holds 4 drops; 5 is still too many."""
    readings = empty_readings(**{"1U": dam("1U", "italy", "base+2", drops=4), "2U": dam("2U", "usa", "base+2", drops=4),
                                 "3U": dam("3U", "italy", "base+1", drops=3)})
    _, flags = build_map(readings, del_monte=["italy"])
    problems = {f.slot: f.problem for f in flags}
    assert "1U" not in problems
    assert problems["2U"] == "4 drops but the dam holds 3"
    assert problems["3U"] == "3 drops but the dam holds 2"
    _, flags = build_map(empty_readings(**{"1U": dam("1U", "italy", "base+2", drops=5)}), del_monte=["italy"])
    assert [f.problem for f in flags if f.slot == "1U"] == ["5 drops but the dam holds 4"]
    _, flags = build_map(empty_readings(**{"1U": dam("1U", "italy", "base+2", drops=4)}))
    assert [f.problem for f in flags if f.slot == "1U"] == ["4 drops but the dam holds 3"]
