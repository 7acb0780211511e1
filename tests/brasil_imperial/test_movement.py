"""The movement phase (seed 001, "Segunda fase: Movimento", "A fase de movimento do Autômato",
"Movimentos pelo mapa", "Peças de exploração", "Dominação de construções e pós-movimento")."""
from __future__ import annotations

from automa.brasil_imperial.movement import bonus_ops
from automa.brasil_imperial.ops import apply_ops
from automa.brasil_imperial.turn import decide

from .scenario import action_card, build, foe, game, movement_card, tile, top_action, top_movement, units

NO_ACTION = ["frame:military-1", "frame:military-2", "frame:culture-1", "frame:culture-2"]


def ready(capitals=None, at=(0, 2), heading=0, uids=("1",), adder=0, cards=0, fresh=False, card=1, second=None,
          **kw):
    """A game whose action phase takes a frame, with units standing at ``at``."""
    s = game(capitals=capitals or {"A": "0,0", "B": "3,0"}, **kw)
    top_action(s, 1, fresh=True)
    action_card(s, 1, NO_ACTION)
    units(s, at, *uids)
    s.heading, s.automa.adder, s.automa.combat_cards = heading, adder, cards
    top_movement(s, card, fresh=fresh, second=second)
    return s


def turn(s):
    d = decide(s).to_dict()
    return d, apply_ops(s, d["ops"])


def test_no_units_on_the_map_no_movement_phase():
    s = game()
    top_action(s, 1, fresh=True)
    action_card(s, 1, NO_ACTION)
    d, after = turn(s)
    assert "movement_card" not in d and after.movement_deck == s.movement_deck
    assert any("no military unit on the map" in line for line in d["trace"])


def test_no_bonus_no_movement():
    s = ready(second=2)
    movement_card(s, 1, [(None, None)] * 4, moves=[0, 0, 0])
    movement_card(s, 2, [(None, None)] * 4, moves=[0, 0, 0])
    d, after = turn(s)
    assert d["movements"] == 0 and d["path"] == ["0,2"] and after.compass_at == (0, 2)


def test_movements_are_the_bonuses_at_most_3():
    s = ready(at=(-3, 2), adder=1, cards=3, second=2)
    movement_card(s, 1, [(None, None)] * 4, moves=[0, 0, 0], arrow=1)
    movement_card(s, 2, [(None, None)] * 4, moves=[0, 0, 0])
    d, after = turn(s)
    assert d["movements"] == 3 and d["path"] == ["-3,2", "-2,2", "-1,2", "0,2"]


def test_bonuses_are_capped_adder_one_combat_cards_three():
    s = game()
    s.automa.adder, s.automa.combat_cards = 1, 3
    assert bonus_ops(s, "adder+")[0] is None and bonus_ops(s, "combat+")[0] is None
    s.automa.adder, s.automa.combat_cards = 0, 0
    assert bonus_ops(s, "adder-")[0] is None and bonus_ops(s, "combat-")[0] is None
    assert bonus_ops(s, "combat+")[0] == {"op": "bonus", "kind": "combat", "to": 1}


def test_the_arrow_picks_the_row_of_the_next_card_and_the_era_bonus_follows_the_era():
    s = ready(cards=1, second=2)
    s.era = 3
    movement_card(s, 1, [(None, None)] * 4, moves=[0], arrow=3)
    movement_card(s, 2, [(None, "adder+"), (None, "adder+"), (None, "era"), (None, "adder+")], moves=[0],
                  era_bonus=("adder+", "adder+", "combat-"))
    d, after = turn(s)
    assert d["movement_card"] == 2 and d["movement_row"] == 3
    assert after.automa.combat_cards == 0 and after.automa.adder == 0
    assert d["movements"] == 0


def test_the_first_card_without_a_direction_points_to_the_nearest_players_capital():
    s = game()
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["summon:1", "gold", "gold", "gold"])
    s.heading = 3
    top_movement(s, 1, fresh=True)
    s.movement_started = False
    movement_card(s, 1, [(None, "combat+"), (None, None), (None, None), (None, None)], moves=[1])
    d, after = turn(s)
    assert d["movement_row"] == 1 and after.heading == 0 and d["compass_turn"] == 3
    assert after.automa.combat_cards == 2, "the summon's card and the row's bonus"


def test_later_a_row_without_a_direction_leaves_the_compass():
    s = ready(heading=3, second=2)
    movement_card(s, 1, [(None, None)] * 4, moves=[0])
    movement_card(s, 2, [(None, None)] * 4, moves=[0])
    _, after = turn(s)
    assert after.heading == 3


def test_an_adjacent_exploration_tile_in_the_cards_order_is_explored_first():
    s = ready(cards=3, second=2)
    tile(s, (1, 1))          # ahead left of (0,2) facing east
    tile(s, (0, 3))          # ahead right
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, explore=[1, 5], moves=[0, 0, 0])
    d, after = turn(s)
    assert d["path"] == ["0,2", "0,3"] and d["explore"] == "0,3"
    assert after.pending == {"kind": "explore", "hex": "0,3"} and not after.cells[(0, 3)].tile.face_down


def test_without_movements_an_adjacent_tile_is_not_explored():
    """"Caso haja uma Peça de Exploração adjacente ... e o Autômato possua movimentos"."""
    s = ready(second=2)
    tile(s, (1, 2))          # right ahead of (0,2) facing east
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, explore=[0], moves=[0])
    d, after = turn(s)
    assert d["movements"] == 0 and "explore" not in d and after.cells[(1, 2)].tile.face_down


def test_a_tile_met_on_the_way_is_explored_and_ends_the_movements_left():
    """"Sempre que alguma Unidade/Bússola ... passar sobre um espaço ... com uma Peça de Exploração
    ainda por ser explorada, este a explora e encerra seus movimentos neste turno"."""
    s = ready(at=(-3, 2), cards=3, second=2)
    tile(s, (-1, 2))
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, explore=[], moves=[0, 0, 0])
    d, after = turn(s)
    assert d["path"] == ["-3,2", "-2,2", "-1,2"] and d["explore"] == "-1,2"
    assert after.pending == {"kind": "explore", "hex": "-1,2"}


def test_the_seeds_example_a_tile_out_of_the_cards_order_then_two_moves_for_two_combat_cards():
    s = ready(at=(-2, 2), cards=2, second=2)
    tile(s, (-3, 2))         # right behind: not among the card's exploration checks
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, explore=[0, 1, 5], moves=[0, 0, 1])
    d, after = turn(s)
    assert d["path"] == ["-2,2", "-1,2", "0,2"] and after.pending is None


def test_a_step_off_the_map_is_skipped_for_the_next_one():
    s = ready(capitals={"A": "0,0", "B": "-3,0"}, at=(4, -1), cards=2, second=2)
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, moves=[0, 2, 2])
    d, _ = turn(s)
    assert d["path"] == ["4,-1", "3,0", "2,1"]
    assert any("off the map, skipped" in line for line in d["trace"])


def test_entering_opposing_units_or_construction_is_a_combat_that_ends_the_movement():
    s = ready(at=(-3, 2), adder=1, cards=3, second=2)
    foe(s, (-1, 2), vp=1, fc=2)
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, moves=[0, 0, 0])
    d, after = turn(s)
    assert d["path"] == ["-3,2", "-2,2", "-1,2"] and d["combat"] == "-1,2"
    assert after.pending == {"kind": "combat", "hex": "-1,2", "cards": 2, "attacker": "automa"}
    s = ready(at=(-3, 2), cards=3, second=2)
    build(s, (-2, 2), "their farm", owner="you", vp=1, era=1)
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, moves=[0, 0, 0])
    d, _ = turn(s)
    assert d["path"] == ["-3,2", "-2,2"] and d["combat"] == "-2,2"


def test_all_units_on_the_strongest_units_space_move_together_the_lying_one_stays():
    s = ready(at=(-2, 2), uids=("1", "3", "5"), cards=1, second=2)
    s.automa.units["2"].at, s.automa.units["2"].lying = (1, 1), 0
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, moves=[0])
    _, after = turn(s)
    assert {u: after.automa.units[u].at for u in ("1", "2", "3", "5")} == {
        "1": (-1, 2), "2": (1, 1), "3": (-1, 2), "5": (-1, 2)}


def test_after_a_domination_the_weakest_unit_stays_lying_there():
    s = ready(at=(-2, 2), uids=("3", "1", "5"), cards=1, second=2)
    build(s, (-2, 2), "their farm", owner="you", vp=1, era=1)
    s.cells[(-2, 2)].building.dominated = True
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, moves=[0])
    d, after = turn(s)
    assert after.automa.units["1"].at == (-2, 2) and after.automa.units["1"].lying is not None
    assert after.automa.units["3"].at == after.automa.units["5"].at == (-1, 2)
    assert after.cells[(-2, 2)].building.dominated


def test_a_lone_unit_on_a_dominated_construction_moves_and_the_domination_ends():
    s = ready(at=(-2, 2), uids=("3",), cards=1, second=2)
    build(s, (-2, 2), "their farm", owner="you", vp=1, era=1)
    s.cells[(-2, 2)].building.dominated = True
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, moves=[0])
    _, after = turn(s)
    assert after.automa.units["3"].at == (-1, 2) and not after.cells[(-2, 2)].building.dominated


def test_it_wins_a_flag_it_stands_on_at_the_start_with_enough_fc_and_movements():
    s = ready(at=(-2, 2), uids=("5",), cards=1, second=2)
    tile(s, (-2, 2), face_down=False, kind="flag", fc=3)
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, moves=[0])
    d, after = turn(s)
    assert after.automa.flags == 1 and after.cells[(-2, 2)].tile is None and d["path"] == ["-2,2"]
    assert any("FC 4" in line for line in d["trace"]), "unit 5 (FC 3) and the frame just taken (FC 1)"
    s.cells[(-2, 2)].tile.fc = 5
    _, after = turn(s)
    assert after.automa.flags == 0 and after.compass_at == (-1, 2), "FC 4 < 5: it moves on"


def test_card_seven_shuffles_the_pile_for_the_next_turn_which_reads_its_first_row():
    s = ready(cards=1, second=7)
    movement_card(s, 1, [(None, None)] * 4, moves=[0], arrow=2)
    movement_card(s, 7, [(None, None)] * 4, moves=[0], shuffle=True)
    d, after = turn(s)
    assert {"op": "movement_reshuffle", "fresh": True} in d["ops"]
    assert after.movement_fresh and after.movement_deck.discard == [] and after.movement_deck.shuffles == 1
    top_action(after, 2, fresh=True)
    action_card(after, 2, NO_ACTION)
    after.automa.frames = []
    d, _ = turn(after)
    assert d["movement_row"] == 1 and not any(o["op"] == "movement_draw" for o in d["ops"])


def test_taking_the_last_movement_card_reshuffles_and_reads_the_first_row():
    s = ready(cards=1)
    pile = s.movement_deck.draw_pile
    s.movement_deck.discard, s.movement_deck.draw_pile = pile[1:], pile[:1]
    d, after = turn(s)
    assert {"op": "movement_reshuffle"} in d["ops"] and d["movement_row"] == 1
    assert len(after.movement_deck.draw_pile) == len(s.cards.movement)


def test_units_move_over_water_and_pass_a_revealed_flag_without_stopping():
    """Rulings B10 and B16: every hex of the map can be crossed; a flag is fought only when its
    tile is explored or at the start of a movement phase on it."""
    s = ready(at=(-3, 2), cards=3, second=2, terrain=lambda h: "water" if h == (-2, 2) else "plain")
    tile(s, (-1, 2), face_down=False, kind="flag", fc=9)
    for cid in (1, 2):
        movement_card(s, cid, [(None, None)] * 4, moves=[0, 0, 0])
    d, after = turn(s)
    assert d["path"] == ["-3,2", "-2,2", "-1,2", "0,2"] and after.automa.flags == 0


def test_the_gold_card_icon_on_a_movement_card_gives_one_gold_card_and_no_movement():
    """Ruling B23: "Carta de Ouro: Ganha 1 Carta de Ouro ... Não há limites"; cards 5 and 6 are the
    action cards' exception, so the icon otherwise stands on movement cards (a row or card 7's Era
    bonus). It adds no movement."""
    s = ready(second=2)
    s.era = 2
    s.automa.gold = 5
    movement_card(s, 1, [(None, None)] * 4, moves=[0], arrow=2)
    movement_card(s, 2, [(None, None), (None, "era"), (None, None), (None, None)], moves=[0],
                  era_bonus=("combat+", "gold", "adder+"))
    d, after = turn(s)
    assert after.automa.gold == 6 and {"op": "gold", "to": 6} in d["ops"]
    assert d["movements"] == 0 and after.compass_at == (0, 2)
