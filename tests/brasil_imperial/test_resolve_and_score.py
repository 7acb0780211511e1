"""What the players enter after the Autômato moves (seed 001, "Peças de exploração", "Combate",
"Dominação de construções e pós-movimento") and its score ("Palácios", "Cartas de ouro")."""
from __future__ import annotations

import pytest

from automa.brasil_imperial.ops import apply_ops
from automa.brasil_imperial.resolve import automa_strength, combat, reveal
from automa.brasil_imperial.scoring import automa_score
from automa.common.errors import StateError

from .scenario import build, foe, game, tile, units


def explored(kind_fc=None, uids=("5",)):
    s = game()
    units(s, (-1, 2), *uids)
    tile(s, (-1, 2), face_down=False)
    s.pending = {"kind": "explore", "hex": "-1,2"}
    s.automa.combat_cards = 2
    return s


def test_a_flag_is_won_with_the_fc_on_the_spot_and_no_combat_card():
    s = explored()
    ops, text = reveal(s, "flag", 3)
    after = apply_ops(s, ops)
    assert after.automa.flags == 1 and after.cells[(-1, 2)].tile is None and after.pending is None
    assert after.automa.combat_cards == 2, "no combat card is played against a flag"
    after = apply_ops(s, reveal(s, "flag", 4)[0])
    assert after.automa.flags == 0 and after.cells[(-1, 2)].tile.kind == "flag", "it may come back for it"


def test_a_quilombo_goes_back_to_the_box_and_brings_no_mission_card():
    s = explored()
    after = apply_ops(s, reveal(s, "quilombo")[0])
    assert after.cells[(-1, 2)].tile is None and after.automa.missions == s.automa.missions


def attacking(cards=3, uids=("3", "5")):
    s = game()
    units(s, (-1, 2), *uids)
    build(s, (-1, 2), "their farm", owner="you", vp=1, era=1)
    s.cells[(-1, 2)].building.resources = 3
    foe(s, (-1, 2), vp=2, fc=2)
    s.automa.combat_cards = cards
    s = apply_ops(s, [{"op": "attack", "hex": "-1,2", "cards": min(2, cards)}])
    return s


def test_combat_uses_2_cards_and_winning_dominates_the_construction_its_resources_discarded():
    s = attacking()
    assert s.pending["cards"] == 2 and automa_strength(s) == 5
    out = combat(s, 3, 7)
    after = apply_ops(s, out.ops)
    assert out.winner == "automa" and out.automa_total == 8
    assert after.automa.combat_cards == 1
    b = after.cells[(-1, 2)].building
    assert b.dominated and b.resources == 0 and after.cells[(-1, 2)].foes == []


def test_a_players_city_is_fought_over_but_not_dominated():
    """Ruling B15: domination is of a player's construction ("Construção do jogador")."""
    s = game()
    units(s, (-1, 2), "3")
    build(s, (-1, 2), "their city", owner="you", kind="city", vp=2)
    s.automa.combat_cards = 1
    s = apply_ops(s, [{"op": "attack", "hex": "-1,2", "cards": 1}])
    after = apply_ops(s, combat(s, 5, 1).ops)
    assert not after.cells[(-1, 2)].building.dominated and after.pending is None


def test_a_tie_holds_for_the_defender():
    s = attacking()
    assert combat(s, 2, 7).winner == "player"
    assert combat(s, 2, 7, winner="automa").winner == "automa", "the players may read the base rules otherwise"


def test_defeated_units_go_to_the_stock_and_the_compass_home_or_to_the_last_lying_unit():
    s = attacking()
    after = apply_ops(s, combat(s, 0, 9).ops)
    assert after.automa.units["3"].at is None and after.compass_at == (0, 0)
    s = attacking()
    s.automa.units["1"].at, s.automa.units["1"].lying = (2, -1), 0
    s.automa.units["2"].at, s.automa.units["2"].lying = (1, 1), 0
    s.turns = 3
    s.automa.units["2"].lying = 2
    after = apply_ops(s, combat(s, 0, 9).ops)
    assert after.compass_at == (1, 1), "unit 2 lay down last"


def test_defeating_the_unit_lying_on_a_dominated_construction_frees_it():
    """"Isso irá garantir que a Construção fique dominada até que o jogador consiga derrotar
    aquela Unidade": a player attacks the lying unit and wins; the group elsewhere keeps the compass."""
    s = game()
    units(s, (2, -2), "5")
    s.automa.units["1"].at, s.automa.units["1"].lying = (-1, 2), 0
    build(s, (-1, 2), "their farm", owner="you", vp=1, era=1)
    s.cells[(-1, 2)].building.dominated = True
    s = apply_ops(s, [{"op": "attack", "hex": "-1,2", "cards": 0, "attacker": "you"}])
    assert automa_strength(s) == 1, "the lying unit 1 defends with its FC"
    after = apply_ops(s, combat(s, 0, 3).ops)
    assert after.automa.units["1"].at is None and not after.cells[(-1, 2)].building.dominated
    assert after.compass_at == (2, -2) and after.automa.units["5"].at == (2, -2)


def test_no_result_is_taken_without_a_pending_combat_and_bad_ops_change_nothing():
    s = game()
    with pytest.raises(StateError, match="no combat"):
        combat(s, 1, 1)
    with pytest.raises(StateError, match="ops\\[1\\]"):
        apply_ops(s, [{"op": "gold", "to": 1}, {"op": "gold", "to": 1}])
    assert s.automa.gold == 0


def test_every_palace_scores_from_the_start_and_every_gold_card_counts():
    s = game()
    palaces = sum(p.vp for p in s.board.palaces)
    assert automa_score(s).total == palaces
    build(s, (1, 0), "mine")
    build(s, (0, 1), "city-1", kind="city", vp=2)
    s.automa.gold = 2
    after = apply_ops(s, [{"op": "final", "gold_vp": [3, 0], "other_vp": 4}])
    sc = automa_score(after)
    assert (sc.constructions, sc.cities, sc.palaces, sc.gold, sc.other) == (2, 2, palaces, 3, 4)
    assert sc.total == 2 + 2 + palaces + 3 + 4 and after.over


def test_palaces_three_and_four_add_their_fc_when_its_construction_is_attacked():
    """Ruling B19: every palace counts for it from the start; III and IV strengthen its constructions."""
    s = game()
    build(s, (1, 0), "mine")
    units(s, (1, 0), "3")
    s.automa.combat_cards = 2
    s = apply_ops(s, [{"op": "attack", "hex": "1,0", "cards": 2, "attacker": "you"}])
    palaces = {p.id: p.fc for p in s.board.palaces}
    assert palaces["II"] == 0 and palaces["III"] + palaces["IV"] == 2
    assert automa_strength(s) == 2 + 2, "unit 3 (FC 2) and palaces III and IV"
    out = combat(s, 1, 5)
    assert out.winner == "automa" and out.automa_total == 5, "5 against 5: the Autômato defends, so it holds"
    after = apply_ops(s, out.ops)
    assert after.cells[(1, 0)].building.owner == "automa" and after.automa.combat_cards == 0


def test_only_palaces_three_and_four_give_it_fc_never_palace_two():
    """"Os Palácios III e IV ... também geram mais Força de Combate ... Entretanto, o Palácio II não
    gera nenhum bônus ao Autômato": an FC entered on palace II (or I, V, VI) is not added."""
    from dataclasses import replace
    s = game()
    s.board = replace(s.board, palaces=tuple(replace(p, fc=i + 1) for i, p in enumerate(s.board.palaces)))
    build(s, (1, 0), "mine")
    units(s, (1, 0), "3")
    s = apply_ops(s, [{"op": "attack", "hex": "1,0", "cards": 0, "attacker": "you"}])
    assert automa_strength(s) == 2 + 3 + 4, "unit 3 (FC 2), palace III (3) and IV (4) only"


def test_a_palace_strengthens_only_the_constructions_the_table_names_for_it():
    """"Os Palácios III e IV ... geram mais Força de Combate para as Construções indicadas": palace
    III entered for forts adds nothing to a mine; palace IV, entered for none in particular, does."""
    import copy as _copy

    from automa.brasil_imperial.board import example_board_data, load_board
    raw = _copy.deepcopy(example_board_data())
    raw["palaces"][2]["constructions"] = ["fort"]
    s = game()
    s.board = load_board(raw)
    build(s, (1, 0), "mine")
    units(s, (1, 0), "3")
    s = apply_ops(s, [{"op": "attack", "hex": "1,0", "cards": 0, "attacker": "you"}])
    assert automa_strength(s) == 2 + 1, "unit 3 (FC 2) and palace IV (1), not palace III"
    raw["palaces"][2]["constructions"] = ["castle"]
    with pytest.raises(StateError, match="palaces\\[2\\].constructions"):
        load_board(raw)
