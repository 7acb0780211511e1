"""Spaces named as a player says them, from the map's data (issue 82)."""
from __future__ import annotations

from automa.barrage.data import barrage_map
from automa.barrage.names import action_space_name, in_words, space_name, with_code
from automa.barrage.state import ACTION_SECTIONS
from vision.layout import load_layout


def test_each_kind_of_space_is_named_by_basin_or_group_and_area():
    assert space_name("4U") == "the red-outlined dam space of basin 4, Mountains"
    assert space_name("4L") == "the lower dam space of basin 4, Mountains"
    assert space_name("1A") == "conduit space A (value 5) of basin 1, Mountains"
    assert space_name("P5_1") == "the 2nd (red-outlined) powerhouse space of group 5, Hills"
    assert space_name("P5_0") == "the 1st powerhouse space of group 5, Hills"
    assert space_name("A") == "headstream A (above basin 1)"
    assert space_name("lake:8L") == "the water of the lower dam space of basin 8, Plains"
    assert with_code("8U") == "the red-outlined dam space of basin 8, Plains (8U)"


def test_every_space_of_the_map_and_the_camera_has_its_own_name():
    board = barrage_map()
    spaces = [*board.dams, *board.conduits, *board.powerhouses, *board.headstreams]
    names = [space_name(s) for s in spaces]
    assert len(set(names)) == len(spaces) and all(n != s for n, s in zip(names, spaces))
    for s in board.dams.values():      # the area is the basin's, as the map data gives it
        assert space_name(s.id).endswith(f"basin {s.basin}, {s.area.capitalize()}")
    camera = {b.id for b in load_layout().slots}
    assert camera <= set(spaces)       # every slot the camera reads has a name


def test_an_unknown_code_comes_back_as_it_is():
    assert space_name("9Z") == "9Z" and with_code("9Z") == "9Z" and space_name("lake:9Z") == "lake:9Z"


def test_management_board_spaces_are_named_by_section_and_place():
    assert action_space_name("workshop", "r2") == "the Workshop's 2nd space (3 engineers)"
    assert action_space_name("contracts", "o") == "the Contract Office's 1st space (1 engineer)"
    assert action_space_name("bank", "b") == "the Bank"
    assert action_space_name("company", "board") == "the Company board"
    for section, spaces in ACTION_SECTIONS.items():
        if len(spaces) > 1:
            assert len({action_space_name(section, s) for s, _ in spaces}) == len(spaces)


def test_the_engines_sentences_are_said_with_names_and_codes_as_hints():
    assert in_words("build a Dam Base on 8U, 2 engineers on the Company board") == (
        "build a Dam Base on the red-outlined dam space of basin 8, Plains (8U), 2 engineers on the Company board")
    assert in_words("1 engineer on the Contract Office (space o); produce 5 energy through conduit 1A") == (
        "1 engineer on the Contract Office's 1st space (1 engineer); produce 5 energy through "
        "conduit space A (value 5) of basin 1, Mountains (1A)")
    assert in_words("usa: place a Powerhouse on P9_2") == "usa: place a Powerhouse on the 3rd (red-outlined) powerhouse space of group 9, Plains (P9_2)"
    assert in_words("the Bank (space b), headstream A, 11U, 4C, a 10VP") == "the Bank, headstream A, 11U, 4C, a 10VP"


def test_a_board_space_after_the_architect_is_named_too():
    """Battista's Architect comes before the section in the sentence: only a section's own name
    is read as one ("the Architect on the Patent Office" is not a section)."""
    assert in_words("germany: the Architect on the Patent Office (space p1)") == \
        "germany: the Architect on the Patent Office's 1st space (1 engineer)"
    assert in_words("usa: 1 engineer and the Architect on the Workshop (space r2)") == \
        "usa: 1 engineer and the Architect on the Workshop's 2nd space (3 engineers)"
