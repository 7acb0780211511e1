"""The action phase (seed 001, "Primeira fase: Ação", "A fase de ação do Autômato", "Construções",
"Cidades", "Convocação de unidades militares", "Quadros", "Produtos", "Cartas de missões")."""
from __future__ import annotations

import pytest

from automa.brasil_imperial.cards import example_cards
from automa.brasil_imperial.ops import apply_ops
from automa.brasil_imperial.state import Objective
from automa.brasil_imperial.turn import decide

from .scenario import action_card, build, foe, game, tile, top_action, under_top_action, units

FRAMES = ["frame:military-1", "frame:military-2", "frame:culture-1", "frame:culture-2"]


def turn(s):
    d = decide(s).to_dict()
    return d, apply_ops(s, d["ops"])


def test_the_first_turn_reads_the_first_row_of_the_top_card_without_drawing():
    s = game()
    top_action(s, 4, fresh=True)
    action_card(s, 4, FRAMES, arrow=3)
    d, after = turn(s)
    assert d["action_target"] == "military-1" and d["action_row"] == 1
    assert {"op": "action_start"} in d["ops"] and not any(o["op"] == "action_draw" for o in d["ops"])
    assert after.action_deck.top == 4, "the card read stays on top of the face-up pile"


def test_then_the_top_card_is_laid_aside_and_its_arrow_picks_the_next_cards_row():
    s = game()
    under_top_action(s, 4, 2)
    action_card(s, 4, ["gold"] * 4, arrow=3)
    action_card(s, 2, FRAMES)
    d, after = turn(s)
    assert (d["action_card"], d["action_row"], d["action_target"]) == (2, 3, "culture-1")
    assert after.action_deck.discard[-1] == 4 and after.action_deck.top == 2


def test_taking_the_last_card_reshuffles_the_pile_face_up_and_reads_the_first_row():
    s = game()
    last = s.action_deck.draw_pile[-1]
    s.action_deck.discard, s.action_deck.draw_pile = s.action_deck.draw_pile[:-1], [last]
    s.action_fresh = False
    for cid in s.cards.action:
        action_card(s, cid, FRAMES, arrow=4)
    d, after = turn(s)
    assert {"op": "action_reshuffle"} in d["ops"] and d["action_row"] == 1
    assert d["action_target"] == "military-1"
    assert len(after.action_deck.draw_pile) == len(s.cards.action) and after.action_deck.shuffles == 1


def test_an_impossible_row_falls_to_the_next_row_below():
    """The seed's example: the pink pentagon (cloth) is manufactured already, so the next row."""
    s = game()
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["product:pink-pentagon", "frame:military-1", "gold", "gold"])
    s.automa.products = ["pink-pentagon"]
    d, _ = turn(s)
    assert d["action"] == "frame" and d["row_done"] == 2
    assert any("manufactured pink-pentagon already" in line for line in d["trace"])


def test_past_the_last_row_the_search_goes_on_from_the_first_row():
    """Ruling B20: "tente ... a próxima linha abaixo e proceda assim até encontrar uma linha
    possível dentre as quatro": rows 3 and 4 impossible, row 1 is done."""
    s = game()
    under_top_action(s, 3, 2)
    action_card(s, 3, ["gold"] * 4, arrow=3)
    action_card(s, 2, ["frame:military-1", "frame:military-2", "frame:culture-1", "frame:culture-2"])
    s.taken_frames = ["culture-1", "culture-2"]
    d, after = turn(s)
    assert d["action"] == "frame" and d["row_done"] == 1 and after.automa.frames == ["military-1"]
    assert after.automa.gold == 0
    assert [line.strip() for line in d["trace"] if line.strip().startswith("row ")][:3] == [
        "row 3: frame:culture-1", "row 4: frame:culture-2", "row 1: frame:military-1"]


def test_no_row_of_the_four_possible_gives_one_gold_card():
    """"Caso não seja possível executar nenhuma Ação da coluna da Era atual, recolha 1 Carta de Ouro"."""
    s = game()
    under_top_action(s, 3, 2)
    action_card(s, 3, ["gold"] * 4, arrow=3)
    action_card(s, 2, ["frame:military-1", "frame:military-2", "frame:culture-1", "frame:culture-2"])
    s.taken_frames = ["military-1", "military-2", "culture-1", "culture-2"]
    d, after = turn(s)
    assert d["action"] == "gold" and d["row_done"] is None and after.automa.gold == 1
    assert after.automa.frames == []


def test_cards_5_and_6_print_the_gold_card_in_the_last_row_of_eras_two_and_three():
    cs = example_cards()
    for cid in (5, 6):
        assert [cs.action[cid].columns[e][3].kind for e in (1, 2)] == ["gold", "gold"]
    # Ruling B21: "caso nenhuma ação da Era II ou III seja possível, o Autômato recebe 1 Carta de
    # Ouro": the printed gold card is no action; the arrow of card 4 points at row 4 of card 5.
    s = game()
    s.era = 2
    under_top_action(s, 4, 5)               # card 5, Era II: monarch, trading post, city, gold
    action_card(s, 4, ["gold"] * 4, arrow=4)
    s.taken_cities = s.board.ids("cities")
    d, after = turn(s)
    assert (d["action_row"], d["row_done"], d["action"]) == (4, 1, "summon") and after.automa.gold == 0
    assert {"op": "summon", "unit": "monarch", "hex": "0,0"} in d["ops"]
    s.automa.units["monarch"].at = (0, 0)
    s.compass_at = (0, 0)
    d, after = turn(s)
    assert d["row_done"] is None and d["action"] == "gold" and after.automa.gold == 1


# -- constructions -------------------------------------------------------------------------
def only_land(land):
    return lambda h: "plain" if h in land else "water"


def test_construction_goes_where_it_opens_the_most_new_building_spaces():
    """The seed's example: building here raises its potential of new building spaces by 2."""
    land = {(0, 0), (1, 0), (1, -1), (-1, 0), (2, 0), (2, -1)}
    s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land | {(-3, 0)}))
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:farm", "gold", "gold", "gold"])
    d, after = turn(s)
    assert d["action_target"] == "1,0"
    assert any("1. most potential new building spaces" in line and "1,0=2" in line and "1,-1=1" in line
               for line in d["trace"])
    assert after.cells[(1, 0)].building.ref == "farm"


def test_only_spaces_it_could_build_on_now_count_as_potential_new_building_spaces():
    """Ruling B24: a space under an exploration tile or a player's unit is not counted."""
    land = {(0, 0), (1, 0), (1, -1), (-1, 0), (2, 0), (2, -1)}
    for cover in (lambda s: tile(s, (2, 0)), lambda s: foe(s, (2, 0))):
        s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land | {(-3, 0)}))
        cover(s)
        top_action(s, 1, fresh=True)
        action_card(s, 1, ["build:farm", "gold", "gold", "gold"])
        d, _ = turn(s)
        assert any("1. most potential new building spaces" in line and "1,0=1" in line and "1,-1=1" in line
                   for line in d["trace"])


def test_then_next_to_its_constructions_with_the_most_vp_then_reading_order():
    land = {(0, 0), (1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (1, -1)}
    s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land | {(-3, 0)}))
    build(s, (1, 0), "mine")            # 2 VP
    build(s, (-1, 0), "farm")           # 1 VP
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:farm", "gold", "gold", "gold"])
    d, _ = turn(s)
    assert any(line.strip().startswith("2. next to its constructions with the most VP") and "-> 1,-1, 0,1" in line
               for line in d["trace"])
    assert d["action_target"] == "1,-1", "(1,-1) and (0,1) both touch the mine; (1,-1) comes first reading"


def test_then_nearest_the_capital():
    land = {(0, 0), (-1, 0), (3, 0), (4, -1), (-3, 0)}
    s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land))
    build(s, (3, 0), "city-1", kind="city", vp=0)
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:farm", "gold", "gold", "gold"])
    d, _ = turn(s)
    assert d["action_target"] == "-1,0"
    assert any("3. nearest its capital" in line for line in d["trace"])


def test_no_space_of_its_terrain_means_the_next_row():
    s = game()                                  # every hex is plain: no coast for a trading post
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:trading-post", "frame:military-1", "gold", "gold"], era=2)
    s.era = 2
    d, _ = turn(s)
    assert d["action"] == "frame" and any("no free coast space" in line for line in d["trace"])


def test_no_free_space_at_all_builds_over_its_era_one_then_era_two_constructions():
    land = {(0, 0), (1, 0), (-1, 0), (-3, 0)}
    s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land))
    build(s, (1, 0), "factory")                 # Era II
    build(s, (-1, 0), "farm")                   # Era I
    s.era = 3
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:railway", "gold", "gold", "gold"])
    d, after = turn(s)
    assert d["action_target"] == "-1,0" and after.cells[(-1, 0)].building.ref == "railway"
    s2 = after
    s2.cells[(-1, 0)].building = None
    s2.cells[(-1, 0)].terrain = "water"
    top_action(s2, 1, fresh=True)
    d, after = turn(s2)
    assert d["action_target"] == "1,0", "no Era I construction left: over the Era II one"


def test_it_builds_only_over_a_construction_no_players_unit_holds():
    """"Sobre uma construção livre" (ruling B3): of two Era I farms, reading order takes the left
    one; with a player's unit on it, the other."""
    land = {(0, 0), (1, 0), (-1, 0), (-3, 0)}
    picks = []
    for held in (False, True):
        s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land))
        build(s, (1, 0), "farm")
        build(s, (-1, 0), "farm")
        if held:
            foe(s, (-1, 0))
        s.era = 3
        top_action(s, 1, fresh=True)
        action_card(s, 1, ["build:railway", "gold", "gold", "gold"])
        picks.append(turn(s)[0]["action_target"])
    assert picks == ["-1,0", "1,0"]


def test_no_piece_left_on_the_board_is_impossible():
    s = game()
    for h in [(1, 0), (0, 1), (-1, 1)]:
        build(s, h, "farm")
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:farm", "frame:military-1", "gold", "gold"])
    assert turn(s)[0]["action"] == "frame"


def test_a_city_is_the_first_from_the_left_adjacent_to_its_empire():
    s = game()
    s.taken_cities = ["city-1"]
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["city", "gold", "gold", "gold"])
    d, after = turn(s)
    h = tuple(int(x) for x in d["action_target"].split(","))
    assert after.cells[h].building.ref == "city-2" and max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) == 1


def test_a_city_never_covers_a_construction_with_no_free_space_the_next_row():
    """Ruling B26: "construirá sobre uma construção livre da Era I e depois Era II" lets an Era's
    construction cover an earlier Era's; a city has no Era, so with no free land space touching
    its empire the city row is impossible and the next row (a railway, over the Era I farm) is built."""
    land = {(0, 0), (-1, 0), (-3, 0)}
    s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land))
    build(s, (-1, 0), "farm")                   # Era I: the only land beside its capital
    s.era = 3
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["city", "build:railway", "gold", "gold"])
    d, after = turn(s)
    assert after.cells[(-1, 0)].building.ref == "railway" and d["action_target"] == "-1,0"
    assert not any(c.building and c.building.kind == "city" and c.building.owner == "automa"
                   for c in after.cells.values())


# -- units, frames, products ---------------------------------------------------------------
def test_summon_onto_the_capital_with_a_combat_card_and_the_movement_pile_turned_up():
    s = game()
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["summon:2", "gold", "gold", "gold"])
    d, after = turn(s)
    assert {"op": "summon", "unit": "2", "hex": "0,0"} in d["ops"] and after.automa.units["2"].at is not None
    assert after.movement_started and {"op": "movement_start"} in d["ops"]
    assert d["movement_row"] == 1, "the movement pile's first card, first row, the same turn"


def test_summon_onto_the_compass_space_when_units_are_on_the_map_and_cards_stop_at_3():
    s = game()
    units(s, (2, -1), "1")
    s.automa.combat_cards = 3
    s.movement_fresh = False
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["summon:1", "summon:3", "gold", "gold"])
    d, after = turn(s)
    assert d["row_done"] == 2, "unit 1 is on the map already"
    assert {"op": "summon", "unit": "3", "hex": "2,-1"} in d["ops"]
    assert after.automa.units["3"].at == after.automa.units["1"].at
    assert {"op": "bonus", "kind": "combat", "to": 3} in d["ops"]


def test_the_summon_arch_product_brings_the_leftmost_unit_of_the_stock_too():
    s = game()
    s.automa.products = ["white-circle"]        # a circle: the summon arch on the example board
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["summon:4", "gold", "gold", "gold"])
    d, after = turn(s)
    assert [o["unit"] for o in d["ops"] if o["op"] == "summon"] == ["4", "1"]
    assert after.automa.units["2"].at is None and after.automa.combat_cards == 1


def test_frames_taken_by_anyone_are_impossible_and_products_fill_their_arch_left_to_right():
    s = game()
    s.taken_frames = ["military-1"]
    s.automa.products = ["white-circle"]
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["frame:military-1", "product:green-circle", "gold", "gold"])
    d, _ = turn(s)
    assert d["action"] == "product" and "summon arch (circle), space 2" in d["instruction"]


# -- mission cards -------------------------------------------------------------------------
def test_a_mission_row_reveals_the_eras_mission_card_first():
    s = game()
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["mission:2", "gold", "gold", "gold"])
    d = decide(s).to_dict()
    assert d["needs"] == "mission" and d["ops"] == [{"op": "await_mission", "era": 1}]
    s = apply_ops(s, d["ops"])
    s = apply_ops(s, [{"op": "mission", "era": 1, "objectives": [
        {"kind": "frame", "ref": "culture"}, {"kind": "construction", "ref": "any"}, {"kind": "other"}]}])
    d, after = turn(s)
    assert d["action"] == "build" and after.cells[tuple(map(int, d["action_target"].split(",")))].building.ref == "farm"


def test_mission_only_acts_on_incomplete_objectives_and_never_reforms():
    s = game()
    s.automa.missions[1] = [Objective("frame", "culture", done=True, number=1), Objective("other", "reform", number=2),
                            Objective("frame", "culture", number=3)]
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["mission:1", "mission:2", "mission:3", "gold"])
    d, _ = turn(s)
    assert d["row_done"] == 3 and d["action_target"] == "culture-1", "the leftmost frame of the type"
    assert any("never takes the Reform action" in line for line in d["trace"])


def test_a_mission_construction_without_its_terrain_takes_the_first_possible_of_the_era():
    s = game(terrain=lambda h: "forest")
    s.automa.missions[1] = [Objective("construction", "mine", number=1), Objective("other", number=2),
                            Objective("other", number=3)]
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["mission:1", "gold", "gold", "gold"])
    d, after = turn(s)
    h = tuple(map(int, d["action_target"].split(",")))
    assert after.cells[h].building.ref == "sawmill", "no hill for the mine, no plain for the farm: the sawmill"


def test_rule_two_looks_at_the_construction_with_the_most_vp_not_a_sum():
    """Ruling B1: "adjacente às Construções com mais Pontos de Vitória" (the units icon says "a maior
    soma"): (1,-1) touches two farms and a sawmill (1 VP each), (-1,1) the mine (2 VP)."""
    land = {(0, 0), (1, 0), (0, -1), (1, -2), (2, -2), (-1, 1), (-1, 2), (-2, 2), (-3, 0)}
    s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land | {(1, -1)}))
    build(s, (1, 0), "farm")
    build(s, (0, -1), "farm")
    build(s, (1, -2), "sawmill")
    build(s, (-1, 2), "mine")
    build(s, (2, -2), "sawmill", owner="you")
    build(s, (-2, 2), "sawmill", owner="you")
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:farm", "gold", "gold", "gold"])
    d, _ = turn(s)
    assert d["action_target"] == "-1,1"
    assert any("1,-1=1" in line and "-1,1=2" in line for line in d["trace"])


@pytest.mark.parametrize("beside", [{"ref": "city-5", "kind": "city", "vp": 4}, {"ref": "factory", "owner": "you"}],
                         ids=["its_city", "a_players_factory"])
def test_rule_two_counts_its_own_constructions_not_its_cities_or_a_players(beside):
    """Ruling B1: "no espaço adjacente às Construções com mais Pontos de Vitória" reads the
    Autômato's constructions. (1,-1) and (-1,1) open no new space (criterion 1: 0 each); neither
    its city of 4 VP nor a player's factory (3 VP) next to (1,-1) outweighs its farm (1 VP) next to (-1,1)."""
    land = {(0, 0), (1, -1), (2, -1), (-1, 1), (-1, 2), (-3, 0)}
    s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land))
    build(s, (2, -1), **beside)
    build(s, (-1, 2), "farm")
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:farm", "gold", "gold", "gold"])
    d, _ = turn(s)
    assert d["action_target"] == "-1,1"
    assert any("1,-1=0" in line and "-1,1=1" in line for line in d["trace"])


def test_a_summon_after_every_unit_was_lost_continues_the_movement_pile():
    """Ruling B14: the pile is turned face up once, with the first unit ever summoned."""
    s = game()
    s.movement_started, s.movement_fresh = True, False
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["summon:1", "gold", "gold", "gold"])
    d, _ = turn(s)
    assert {"op": "movement_start"} not in d["ops"] and any(o["op"] == "movement_draw" for o in d["ops"])


def test_the_seeds_mission_card_two_frames_and_a_trading_post_is_one_objective_in_two_parts():
    """The seed's mission card: 1 "Possui 1 Unidade no mapa", 2 "2 Quadros e 1 Feitoria"."""
    s = game(terrain=lambda h: "coast")
    s.era = 2
    s = apply_ops(s, [{"op": "mission", "era": 2, "objectives": [
        {"objective": 1, "kind": "summon"}, {"objective": 2, "kind": "frame"},
        {"objective": 2, "kind": "construction", "ref": "trading-post"}, {"objective": 3, "kind": "other"}]}])
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["mission:2", "gold", "gold", "gold"], era=2)
    d, _ = turn(s)
    assert d["action"] == "frame" and d["action_target"] == "military-1", "the first incomplete part, leftmost frame"
    s = apply_ops(s, [{"op": "objective", "era": 2, "index": 2, "done": True}])
    d, after = turn(s)
    assert d["action"] == "build" and after.cells[tuple(map(int, d["action_target"].split(",")))].building.ref == "trading-post"
    s = apply_ops(s, [{"op": "objective", "era": 2, "index": 3, "done": True}])
    assert turn(s)[0]["action"] == "gold", "objective 2 complete: the next rows"
    action_card(s, 1, ["mission:1", "gold", "gold", "gold"], era=2)
    d, _ = turn(s)
    assert d["action"] == "summon" and {"op": "summon", "unit": "1", "hex": "0,0"} in d["ops"]


def test_a_mission_summon_with_the_summon_arch_brings_the_leftmost_unit_too():
    """"Essa regra também se aplicará quando uma Carta de Missão exigir uma convocação": the
    objective summons the first unit of the stock, the arch's product the next leftmost one."""
    s = game()
    s.automa.products = ["green-circle"]        # a circle: the summon arch on the example board
    s.automa.units["1"].at = (0, 0)
    s.movement_started = True
    s.automa.missions[1] = [Objective("summon", number=1), Objective("other", number=2),
                            Objective("other", number=3)]
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["mission:1", "gold", "gold", "gold"])
    d, after = turn(s)
    assert [o["unit"] for o in d["ops"] if o["op"] == "summon"] == ["2", "3"]
    assert {"op": "bonus", "kind": "combat", "to": 1} in d["ops"], "one combat card for the summon"


def test_the_monarch_icon_summons_the_monarch_with_one_combat_card():
    """"Convocação do Monarca: Convoca a Unidade Monarca do Autômato e recolhe 1 Carta de Combate";
    on the map already, the row is impossible."""
    s = game()
    s.automa.combat_cards = 1
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["monarch", "frame:military-1", "gold", "gold"])
    d, after = turn(s)
    assert d["action"] == "summon" and {"op": "summon", "unit": "monarch", "hex": "0,0"} in d["ops"]
    assert {"op": "bonus", "kind": "combat", "to": 2} in d["ops"]
    top_action(after, 1, fresh=True)
    d, _ = turn(after)
    assert d["action"] == "frame" and any("unit monarch is on the map already" in x for x in d["trace"])


def test_a_defeated_unit_back_in_the_stock_answers_to_its_number_again():
    """"Unidades derrotadas no Estoque seguirão a mesma ordem": unit 2, defeated, is the one the
    "2ª" row summons, onto the compass's space where unit 4 stands."""
    s = game()
    units(s, (1, 1), "4")
    s.movement_fresh = False
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["summon:2", "gold", "gold", "gold"])
    d, after = turn(s)
    assert {"op": "summon", "unit": "2", "hex": "1,1"} in d["ops"]


def test_with_every_city_taken_the_city_row_is_impossible():
    s = game()
    s.taken_cities = [c.id for c in s.board.cities]
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["city", "frame:science-1", "gold", "gold"])
    d, _ = turn(s)
    assert (d["action"], d["row_done"]) == ("frame", 2)
    assert any("no city left on the general board" in x for x in d["trace"])


def test_a_mission_product_is_the_leftmost_not_made_of_the_shape_it_names():
    """"Escolha o 1º Produto mais à esquerda disponível" for a generic objective; one naming a
    shape (or a product) keeps to it."""
    s = game()
    s.automa.products = ["pink-pentagon", "white-circle"]
    s.automa.missions[1] = [Objective("product", number=1), Objective("product", "circle", number=2),
                            Objective("product", "pink-pentagon", number=3)]
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["mission:1", "gold", "gold", "gold"])
    assert turn(s)[0]["action_target"] == "brown-square"
    action_card(s, 1, ["mission:2", "gold", "gold", "gold"])
    assert turn(s)[0]["action_target"] == "green-circle"
    action_card(s, 1, ["mission:3", "frame:culture-1", "gold", "gold"])
    d, _ = turn(s)
    assert d["action"] == "frame", "the pink pentagon is made already: the next row"
