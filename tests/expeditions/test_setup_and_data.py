"""Setup (seed 003, "Preparação") and the bundled data."""
import pytest

from automa.common.errors import DataError, StateError
from automa.expeditions.data import _mech_line, cards, layout, levels
from automa.expeditions.setup import new_game
from automa.expeditions.state import MAP_TOKENS_ON_MAP


def test_fourteen_cards_and_the_three_without_a_central_target():
    assert sorted(cards()) == list(range(1, 15))
    assert [c.id for c in cards().values() if c.central.target is None] == [7, 8, 9]
    assert all(c.north.target is not None for c in cards().values())


def test_three_progress_cards_each_with_eight_glory_spaces_and_coin_values():
    assert sorted(levels()) == [1, 2, 3]
    for lv in levels().values():
        assert len(lv.glory_spaces) == 8 and lv.glory_spaces[-1] <= lv.last_space
        assert set(lv.coins) == {"glory", "corruption", "map"}


def test_bad_card_line_names_the_field():
    with pytest.raises(DataError, match=r"cards\[0\]\.north\.target\.multiplier"):
        _mech_line("cards.json", {"sweep": False, "distance": 1,
                                  "target": {"glory": 1, "kinds": ["corruption"], "multiplier": 4}}, "cards[0].north")
    with pytest.raises(DataError, match="kinds"):
        _mech_line("cards.json", {"sweep": False, "distance": 1, "target": {"glory": 1, "kinds": ["gold"]}}, "x")


def test_layout_regions_and_card_spaces():
    lay = layout()
    assert [len(lay.regions[r]) for r in ("north", "central", "south")] == [7, 7, 6]
    assert len(lay.card_spaces) == 5
    assert all(lay.adjacent_card_spaces(p) for p in ("N3", "C3")), "cards lie between North and Central"


def test_setup_places_mechs_deck_progress_and_map_tokens():
    s = new_game({"seed": 9})
    lay = layout()
    assert s.mechs == {"north": lay.regions["north"][0], "central": lay.regions["central"][-1]}
    assert s.mechs == {"north": "N1", "central": "C7"}, "west-most North, east-most Central"
    assert s.level == 2, "level 2 is suggested for a first game"
    assert s.progress == 0 and s.glory == 0
    assert len(s.deck.draw_pile) == 12 and len(s.deck.set_aside) == 2 and not s.deck.discard
    assert s.deck.cards() == list(range(1, 15))
    assert all(s.locations[p].face_up and not s.locations[p].map_token for p in lay.regions["south"])
    hidden = [p for r in ("north", "central") for p in lay.regions[r]]
    assert all(not s.locations[p].face_up and s.locations[p].map_token for p in hidden)
    assert len(hidden) == MAP_TOKENS_ON_MAP


def test_first_player_is_drawn_from_the_seed_and_both_happen():
    firsts = {new_game({"seed": n}).first for n in range(40)}
    assert firsts == {"player", "automa"}
    assert new_game({"seed": 3}).first == new_game({"seed": 3}).first
    assert new_game({"seed": 3, "first": "player"}).turn == "player"


def test_south_tiles_and_bad_options():
    s = new_game({"seed": 1, "south": [1, 2, 3, 4, 5, 6]})
    assert [s.locations[p].tile for p in layout().regions["south"]] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(StateError, match="south"):
        new_game({"seed": 1, "south": [1, 2]})
    with pytest.raises(StateError, match="twice"):
        new_game({"seed": 1, "south": [1, 1, 3, 4, 5, 6]})
    with pytest.raises(StateError, match="level"):
        new_game({"seed": 1, "level": 4})


def test_progress_cards_hold_the_sources_figures():
    """The three progress cards as shared/reference/expeditions/automa.json has them (Hecedu/
    SoloTools): track length, the 8 glory spaces, and the coins per map / corruption / glory token
    (the printed level 1 card reads map = 1, corruption = 1, glory = 4; E10)."""
    expected = {1: (31, (3, 8, 13, 18, 22, 25, 27, 29), {"map": 1, "corruption": 1, "glory": 4}),
                2: (29, (2, 6, 11, 15, 19, 23, 25, 27), {"map": 1, "corruption": 2, "glory": 4}),
                3: (25, (2, 5, 9, 12, 15, 19, 21, 23), {"map": 1, "corruption": 2, "glory": 5})}
    assert {n: (lv.track_length, lv.glory_spaces, lv.coins) for n, lv in levels().items()} == expected
