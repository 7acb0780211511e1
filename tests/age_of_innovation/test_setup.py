"""Set-up (seed 002, Przygotowanie rozgrywki; Przygotowanie talii Automy; Umieszczanie
pierwszych Warsztatów)."""
import pytest

from automa.age_of_innovation.data import cards, round_tiles
from automa.age_of_innovation.ops import apply_ops
from automa.age_of_innovation.setup import new_game, round_tile_order, starting_decks
from automa.age_of_innovation.turn import decide
from automa.common.errors import StateError

from .scenario import at, table


@pytest.mark.parametrize("level, size", [(1, 5), (2, 6), (3, 7), (4, 8), (5, 8)])
def test_starter_deck_per_level(level, size):
    deck, reserve = starting_decks(level, seed=11)
    assert len(deck.draw_pile) == size
    assert sorted(deck.draw_pile + reserve) == list(range(1, 15))        # every card, once
    assert len(deck.sideways) == 2 and deck.sideways == deck.draw_pile[-2:]   # the 2 bottom cards
    starters = {1, 2, 3, 4, 5, 6}
    if level == 1:
        assert set(deck.draw_pile) == starters - {3} and reserve[0] == 3  # *3 on top of the reserve
    elif level == 2:
        assert set(deck.draw_pile) == starters
    else:
        assert starters <= set(deck.draw_pile)
    if level == 5:
        assert 13 in deck.draw_pile


def test_level_1_adds_card_3_at_the_end_of_round_1():
    s = new_game(level=1, seed=5, player_terrain="forest")
    assert 3 not in s.deck.cards() and s.reserve[0] == 3
    s = apply_ops(s, [{"op": "setup_done"}, {"op": "draw", "count": 2}, {"op": "turn"}, {"op": "rebuild_deck"},
                      {"op": "pass", "who": "automa"}])
    assert 3 in s.deck.cards() and len(s.deck.cards()) == 6


def test_round_tiles_never_put_the_spade_in_round_5_or_6():
    for seed in range(200):
        tiles, final = round_tile_order(seed)
        assert len(set(tiles)) == 6 and 1 <= final <= 4
        assert not any(round_tiles()[t].spade for t in tiles[4:])


def test_the_automa_takes_the_first_of_five_bonus_tiles_alone():
    s = new_game(seed=8, player_terrain="forest")
    assert len(s.bonus_line) == 5 and s.bonus_line[0] is None and s.automa.bonus_tile is not None
    assert s.turn_order == ["player", "automa"] and s.automa.vp == 20
    assert s.automa.science == {"banking": 1, "law": 1, "engineering": 1, "medicine": 1}   # Simpletons' symbols
    assert s.automa.scholars == 7 and s.automa_supply("workshop") == 9


def test_two_players_plus_automa_set_up():
    s = new_game(players=2, seed=8, player_terrain="forest")
    assert len(s.bonus_line) == 6 and sum(t is None for t in s.bonus_line) == 1   # 6 tiles, one random to the Automa
    assert s.turn_order == ["player", "player2", "automa"]                      # the Automa starts third
    with pytest.raises(StateError, match="Simpletons"):
        new_game(players=2, faction="druids")


def test_druids_start_two_up_in_medicine():
    assert new_game(faction="druids", player_terrain="lake").automa.science["medicine"] == 2


def test_terrain_drawn_at_random_is_never_yours():
    for seed in range(30):
        assert new_game(seed=seed, player_terrain="desert").terrain != "desert"
    with pytest.raises(StateError, match="differ"):
        new_game(terrain="lake", player_terrain="lake")


def test_wasteland_example_initial_workshops_from_the_setup_card():
    """Seed 002 example: preferred terrain Wasteland (red); the setup section shows A (marked)
    and B (unmarked); the Automa's workshops go on those hexes, the one on A with a power token."""
    s = table(["WPPWP", "PPPPP", "PWPPP"], [((1, 1), "player", "workshop")], terrain="wasteland")
    s.phase = "setup"
    s.board.setup_letters = {"wasteland": {"A": at(0, 0), "B": at(1, 2), "C": at(3, 0)}}
    s.setup_card = 1                       # *1: A marked, B unmarked
    d = decide(s)
    after = apply_ops(s, d.ops)
    a, b = after.board.buildings[at(0, 0)], after.board.buildings[at(1, 2)]
    assert (a.owner, a.kind, a.marked) == ("automa", "workshop", True)
    assert (b.owner, b.kind, b.marked) == ("automa", "workshop", False)
    assert after.phase == "play" and at(3, 0) not in after.board.buildings
    assert "row 1, hex 1 (A, with a power token)" in d.instruction


def test_unknown_setup_letters_are_named_for_the_players():
    s = new_game(seed=3, terrain="swamp", player_terrain="forest")
    d = decide(s)
    letters = cards()[apply_ops(s, d.ops).setup_card]
    assert f"swamp hexes marked {letters.setup_marked} (with a power token) and {letters.setup_unmarked}" in d.instruction
    assert not apply_ops(s, d.ops).board.owned("automa")


def test_setup_coins_on_every_tile_left_in_the_line():
    s = new_game(seed=2, player_terrain="forest")
    s = apply_ops(s, [{"op": "bonus_tile", "who": "player", "position": 2}])
    after = apply_ops(s, decide(s).ops)
    assert sorted(after.bonus_coins) == sorted(t for t in after.bonus_line if t is not None)
    assert set(after.bonus_coins.values()) == {1} and len(after.bonus_coins) == 3
