"""The pieces the wizard's "Teach it my table" asks for, and the state a photo's slots give
(``calibration.teaching``); the wizard's run with the shipped models is in test_teach_table.py."""
from __future__ import annotations

import pytest

from calibration import teaching
from calibration.adapt import box_labels
from vision.layout import load_layout
from vision.reader import SlotReading

LAYOUT = load_layout()


@pytest.mark.parametrize("companies", [teaching.BASE_COMPANIES, teaching.COMPANIES, ("italy",)])
def test_the_plan_shows_every_company_at_every_height_and_every_kind_both_ways(companies):
    photos = teaching.plan(companies)
    assert len(photos) == teaching.PHOTOS
    spaces = [s for p in photos for s in p if s not in "ABCD"]
    assert len(spaces) == len(set(spaces))                     # no space used twice
    for company in companies:
        heights = {v.split(":")[2] for p in photos for v in p.values() if v.startswith(f"dam:{company}:")}
        assert heights == {"1", "2", "3"}
        for kind in ("conduit", "powerhouse"):
            assert sum(v == f"{kind}:{company}" for p in photos for v in p.values()) == teaching.PHOTOS
    labels = [box_labels(teaching.state_of(p, LAYOUT, companies), LAYOUT)[0] for p in photos]
    kinds = LAYOUT.kinds
    for kind in ("headstream", "dam", "conduit", "powerhouse", "lake"):
        seen = {bool(changed[i]) for changed in labels for i, k in enumerate(kinds) if k == kind}
        assert seen == {True, False}, kind                     # each gate is taught both ways


def test_a_photos_slots_become_the_state_it_shows():
    state = teaching.state_of({"4U": "dam:usa:3:2", "4A": "conduit:italy", "P8_2": "powerhouse:usa", "B": "drops:3",
                               "5L": "dam:neutral:1", "6U": "empty"}, LAYOUT, ("usa", "italy"))
    assert sorted(state.companies) == ["italy", "usa"]
    assert (state.dams["4U"].owner, state.dams["4U"].pieces, state.dams["4U"].drops) == ("usa", 3, 2)
    assert state.dams["5L"].owner == "neutral" and "6U" not in state.dams
    assert state.conduits == {"4A": "italy"} and state.powerhouses == {"P8_2": "usa"}
    assert state.headstreams == {"A": 0, "B": 3, "C": 0, "D": 0}


@pytest.mark.parametrize("slots, problem", [
    ({"4U": "conduit:usa"}, "slot 4U"), ({"4A": "conduit:germany"}, "slot 4A"), ({"4A": "conduit:neutral"}, "slot 4A"),
    ({"4U": "dam:usa:4"}, "slot 4U"), ({"A": "drops:8"}, "slot A"), ({"A": 3}, "slot A"), ({"Z9": "empty"}, "'Z9'"),
    ({"4U": "dam:usa:1:-1"}, "slot 4U"), (["4U"], "{slot id: value}")])
def test_a_slot_value_no_table_shows_is_refused_by_its_slot(slots, problem):
    with pytest.raises(teaching.TeachingError, match=problem.replace("{", r"\{").replace("}", r"\}")):
        teaching.state_of(slots, LAYOUT, ("usa", "italy"))


def test_companies_are_known_ones_in_their_order_and_the_base_game_by_default():
    assert teaching.companies_of(None) == teaching.companies_of([]) == ("usa", "germany", "italy", "france")
    assert teaching.companies_of(["france", "usa"]) == ("usa", "france")
    for bad in (["spain"], "usa", [1]):
        with pytest.raises(teaching.TeachingError):
            teaching.companies_of(bad)


def test_a_reading_as_the_value_the_page_shows_and_corrects():
    def read(kind, piece=None, owner=None, drops=None, unknown=False):
        return SlotReading("x", kind, piece, owner, drops, 0.9, unknown=unknown)
    assert teaching.value(read("dam", "base+1", "usa", drops=2)) == "dam:usa:2:2"
    assert teaching.value(read("dam", "base", "italy")) == "dam:italy:1"
    assert teaching.value(read("conduit", "conduit", "france")) == "conduit:france"
    assert teaching.value(read("powerhouse", "empty")) == "empty"
    assert teaching.value(read("headstream", drops=4)) == "drops:4"
    assert teaching.value(read("dam", unknown=True)) is None
