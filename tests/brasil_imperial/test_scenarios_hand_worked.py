"""Twelve whole situations of the Autômato's turn, each worked out by hand from the seed's text
(seed 001) before the engine was asked: the docstring gives the reasoning and quotes the phrase
that decides each step; the test asserts the decision and, where it matters, the trace's reason.

Geometry (pointy hexes, axial ``q,r``): the compass's headings are 0 E, 1 SE, 2 SW, 3 W, 4 NW,
5 NE, clockwise on the table; a card's relative direction ``k`` is the heading turned ``k`` x 60
degrees clockwise. The example board (``data/example_board.json``) gives the numbers: units
1, 2 FC 1; 3, 4 FC 2; 5 FC 3; Monarch FC 4; frames military-1/-2 FC 1; palaces III and IV FC 1;
palace VP 2+3+4+5+6+8 = 28; farm 1 VP, mine 2 VP, factory 3 VP.
"""
from __future__ import annotations

from automa.brasil_imperial.ops import apply_ops
from automa.brasil_imperial.resolve import automa_strength, combat, reveal
from automa.brasil_imperial.scoring import automa_score
from automa.brasil_imperial.turn import decide

from .scenario import (action_card, build, foe, game, movement_card, tile, top_action, top_movement,
                       under_top_action, units)

NOTHING = [(None, None)] * 4


def turn(s):
    d = decide(s).to_dict()
    return d, apply_ops(s, d["ops"])


def said(d: dict, *parts: str) -> bool:
    """Whether one line of the decision's trace holds every one of ``parts``."""
    return any(all(p in line for p in parts) for line in d["trace"])


def only_land(land):
    return lambda h: "plain" if h in land else "water"


def hexes(*keys: str) -> set:
    return {tuple(int(x) for x in k.split(",")) for k in keys}


# 1 ------------------------------------------------------------------------------------------
def test_s01_opening_turn_summons_at_the_capital_and_the_first_movement_card_aims_at_the_senior_capital():
    """Turn 1, Hard. Capitals: the Autômato A at 0,0; Ana (most experienced) C at -3,0; Bia B at
    3,0, both 3 hexes away.

    - Setup D / Bússola 1: "apontada para a Capital do adversário mais próximo (Caso haja mais de
      uma opção ... do jogador mais experiente)": Ana's C, heading 3 (W).
    - Action step 2: "Use a primeira linha da Carta de Ação" (no card is taken on turn 1): row 1,
      summon:1. "Se o Autômato não possuir Unidades no mapa, a Unidade convocada será posicionada
      sobre a sua Capital" and "recolhe 1 Carta de Combate": unit 1 on 0,0, 1 combat card.
    - Movement step 1: "Quando o Autômato convocar a primeira Unidade, vire para cima a pilha ...
      e use a primeira linha": row 1 of the top card, no direction, combat+ bonus. Step 2: "direcione
      a Bússola para a Capital do Jogador mais próxima. Caso haja mais de uma opção, ... do jogador
      mais experiente": Ana's C again, already in the cone ("já esteja dentro do Cone ... permanece").
    - "recolha este bônus": 2 combat cards = 2 movements; moves [ahead, ahead right]: -1,0 then
      (heading 4, NW) -1,-1.
    """
    s = game(capitals={"A": "0,0", "B": "3,0", "C": "-3,0"}, players=("ana:C", "bia:B"))
    assert s.heading == 3
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["summon:1", "gold", "gold", "gold"])
    top_movement(s, 3, fresh=True)
    s.movement_started = False
    movement_card(s, 3, [(None, "combat+"), ("units", None), ("units", None), ("units", None)], moves=[0, 1, 0])
    d, after = turn(s)
    assert (d["action"], d["action_row"]) == ("summon", 1)
    assert {"op": "summon", "unit": "1", "hex": "0,0"} in d["ops"] and {"op": "movement_start"} in d["ops"]
    assert not any(o["op"] in ("action_draw", "movement_draw") for o in d["ops"]), "both piles read from the top"
    assert (d["movement_card"], d["movement_row"], d["compass_turn"]) == (3, 1, 0)
    assert said(d, "first card, no direction", "ana's capital C", "the most experienced player's")
    assert said(d, "-3,0 already lies in the cone")
    assert after.automa.combat_cards == 2 and d["movements"] == 2
    assert d["path"] == ["0,0", "-1,0", "-1,-1"] and after.automa.units["1"].at == (-1, -1)


# 2 ------------------------------------------------------------------------------------------
def test_s02_era_two_fall_through_wraps_to_a_city_placed_where_it_opens_most_spaces():
    """Era II. Card 4 (arrow 3) is laid aside, so row 3 of card 2 ("A Seta desta carta indicará
    qual a linha de Ação da próxima Carta"). Card 2's Era II column: trading post, city, pink
    pentagon, military-1.

    - Row 3: the pink pentagon is made already (the seed's own example) -> "tente executar a Ação
      da próxima linha abaixo"; row 4: military-1 is Ana's -> impossible; "até encontrar uma linha
      possível dentre as quatro": row 1, a trading post, but there is no coast ("Caso não haja um
      Terreno específico disponível ... execute a construção da próxima linha"); row 2, a city.
    - "O Autômato sempre escolherá a 1ª Cidade disponível, da esquerda para direita": city-1 is
      taken, so city-2.
    - Placement 1, "maior quantidade potencial de novos espaços": land is 0,0 (capital), 1,0,
      -1,0, 2,0, 2,-1, -2,0 and the player's capital -3,0. 1,0 opens 2,0 and 2,-1 (2); -1,0 opens
      only -2,0 (1). The city goes on 1,0.
    """
    land = hexes("0,0", "1,0", "-1,0", "2,0", "2,-1", "-2,0", "-3,0")
    s = game(capitals={"A": "0,0", "B": "-3,0"}, terrain=only_land(land))
    s.era = 2
    s.automa.products = ["pink-pentagon"]
    s.taken_frames, s.taken_cities = ["military-1"], ["city-1"]
    under_top_action(s, 4, 2)
    action_card(s, 4, ["gold"] * 4, arrow=3)
    action_card(s, 2, ["build:trading-post", "city", "product:pink-pentagon", "frame:military-1"], era=2)
    d, after = turn(s)
    assert (d["action_card"], d["action_row"], d["row_done"], d["action"]) == (2, 3, 2, "city")
    assert said(d, "manufactured pink-pentagon already") and said(d, "frame military-1 was taken already")
    assert said(d, "no free coast space")
    assert said(d, "the first city from the left: city-2")
    assert said(d, "1. most potential new building spaces", "1,0=2", "-1,0=1", "-> 1,0")
    assert d["action_target"] == "1,0" and after.cells[(1, 0)].building.ref == "city-2"


# 3 ------------------------------------------------------------------------------------------
def test_s03_a_farm_is_placed_by_criterion_one_then_two_then_three():
    """Era I, build:farm (plain). The empire: capital 0,0, its mine 1,-1 (2 VP), its farm -1,1
    (1 VP). Free land next to it: 0,-1, 2,-1, -1,0, 1,0; besides them only -1,-1 and 3,-1 are land.

    1. "Maior quantidade potencial de novos espaços": 0,-1 opens -1,-1 (1); 2,-1 opens 3,-1 (1);
       -1,0 opens -1,-1 (1); 1,0 opens nothing (0). Kept: 0,-1, 2,-1, -1,0.
    2. "Adjacente às Construções com mais Pontos de Vitória": 0,-1 and 2,-1 touch the mine (2),
       -1,0 only the farm (1). Kept: 0,-1, 2,-1.
    3. "Mais próximo à Capital": 0,-1 is 1 away, 2,-1 is 2. The farm goes on 0,-1.
    """
    land = hexes("0,0", "1,-1", "-1,1", "0,-1", "2,-1", "-1,0", "1,0", "-1,-1", "3,-1", "-3,3")
    s = game(capitals={"A": "0,0", "B": "-3,3"}, terrain=only_land(land))
    build(s, (1, -1), "mine")
    build(s, (-1, 1), "farm")
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:farm", "gold", "gold", "gold"])
    d, after = turn(s)
    assert said(d, "1. most potential new building spaces", "1,0=0", "-> 0,-1, 2,-1, -1,0")
    assert said(d, "2. next to its constructions with the most VP", "-1,0=1", "-> 0,-1, 2,-1")
    assert said(d, "3. nearest its capital", "0,-1=1", "2,-1=2", "-> 0,-1")
    assert d["action_target"] == "0,-1" and after.cells[(0, -1)].building.ref == "farm"


# 4 ------------------------------------------------------------------------------------------
def test_s04_no_free_space_at_all_era_three_builds_over_era_one_by_criterion_two_era_one_cannot():
    """The empire (capital 0,0; farm 1,0; sawmill -1,0; factory 0,-1) is ringed by water.

    - Era III, build:railway: "Caso o Autômato não tenha nenhum espaço livre para construir, ele
      construirá sobre uma construção livre da Era I e depois Era II seguindo as regras anteriores
      (2 e 3)". Era I constructions: the farm 1,0 (next to no construction of its own: 0) and the
      sawmill -1,0 (next to the factory: 3). Criterion 2: over the sawmill at -1,0.
    - Era I, build:farm, same ring: the seed's sentence read literally would let a farm go over an
      Era I construction; ruling B3 keeps "construir sobre" for a construction of a later Era than
      the one it covers, so no space: the next row (a frame).
    """
    land = hexes("0,0", "1,0", "-1,0", "0,-1", "-3,3")
    s = game(capitals={"A": "0,0", "B": "-3,3"}, terrain=only_land(land))
    build(s, (1, 0), "farm")
    build(s, (-1, 0), "sawmill")
    build(s, (0, -1), "factory")
    s.era = 3
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["build:railway", "frame:military-1", "gold", "gold"])
    d, after = turn(s)
    assert said(d, "no free space at all next to its empire")
    assert said(d, "2. next to its constructions with the most VP", "1,0=0", "-1,0=3", "-> -1,0")
    assert {"op": "build", "construction": "railway", "hex": "-1,0", "over": True} in d["ops"]
    assert after.cells[(-1, 0)].building.ref == "railway" and after.cells[(-1, 0)].building.era == 3
    s.era = 1
    action_card(s, 1, ["build:farm", "frame:military-1", "gold", "gold"])
    d, after = turn(s)
    assert (d["action"], d["row_done"]) == ("frame", 2), "ruling B3: an Era I construction covers nothing"
    assert said(d, "no space for a farm")


# 5 ------------------------------------------------------------------------------------------
def test_s05_summon_onto_the_compass_with_the_summon_arch_then_three_moves_at_most_into_a_combat():
    """Unit 1 stands at 0,2 with the compass (heading 4, NW); 3 combat cards and the adder; a white
    circle on the summon arch.

    - Row 1, summon:1: unit 1 is on the map -> the next row. Row 2, summon:3: "TODAS as suas Unidades
      convocadas serão posicionadas no mesmo espaço do mapa onde a sua Bússola ... estiver": 0,2.
      "Caso o Autômato já possua um Produto na melhoria do Arco Convocar ... a segunda Unidade ...
      será a Unidade disponível mais à esquerda": unit 2 (1 is out). Combat cards stay 3 ("Máximo
      de 3 Cartas de Combate").
    - Movement: card 1 (arrow 2) laid aside, row 2 of card 2: the units icon. Ana's units: 1 + 2 VP
      at -2,2 and 3 VP at 2,2, a tie at 3: "escolha a 1ª opção no sentido horário partindo da ponta
      norte da Bússola": from the tip (240 degrees) 2,2 (0 degrees) is 120 clockwise, -2,2 (180) is
      300: 2,2. It lies only in the E cone: turn 2 x 60 clockwise.
    - Movements: adder 1 + 3 cards = 4, but "O Autômato nunca se move mais do que 3 espaços". Ahead
      x3: 1,2, then 2,2 holds Ana's unit: "haverá um combate. Após um combate, os seus movimentos
      são encerrados"; it "utilizará 2 Cartas de Combate".
    """
    s = game()
    units(s, (0, 2), "1")
    s.heading, s.automa.adder, s.automa.combat_cards = 4, 1, 3
    s.automa.products = ["white-circle"]
    foe(s, (-2, 2), vp=1)
    foe(s, (-2, 2), vp=2)
    foe(s, (2, 2), vp=3, fc=2)
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["summon:1", "summon:3", "gold", "gold"])
    top_movement(s, 1, fresh=False, second=2)
    movement_card(s, 1, NOTHING, moves=[0], arrow=2)
    movement_card(s, 2, [(None, None), ("units", None), (None, None), (None, None)], moves=[0, 0, 0])
    d, after = turn(s)
    assert d["row_done"] == 2 and said(d, "unit 1 is on the map already")
    assert [(o["unit"], o["hex"]) for o in d["ops"] if o["op"] == "summon"] == [("3", "0,2"), ("2", "0,2")]
    assert {"op": "bonus", "kind": "combat", "to": 3} in d["ops"]
    assert said(d, "2,2: opposing units worth 3 VP", "tied with -2,2: the first clockwise from the tip")
    assert d["compass_turn"] == 2 and after.heading == 0
    assert d["movements"] == 3 and said(d, "(at most 3)")
    assert d["path"] == ["0,2", "1,2", "2,2"] and d["combat"] == "2,2"
    assert after.pending == {"kind": "combat", "hex": "2,2", "cards": 2, "attacker": "automa"}
    assert {after.automa.units[u].at for u in ("1", "2", "3")} == {(2, 2)}


# 6 ------------------------------------------------------------------------------------------
def test_s06_exploration_icon_tie_then_a_tile_on_the_way_is_explored_and_the_flag_won_with_frames():
    """Unit 3 (FC 2) stands at 0,1, heading 1 (SE); it holds military-1 (FC 1); adder 1, 1 card.

    - Action: frame:military-2 -> it now holds both military frames ("Os poderes dos Quadros serão
      utilizados pelo Autômato").
    - Movement row: the exploration icon, "a Peça de Exploração ainda virada para baixo mais
      próxima": 2,1 and -2,1 are both 2 away; ruling B4 ranks them like the units icon, first
      clockwise from the tip (60 degrees): -2,1 (180) is 120 on, 2,1 (0) is 300. -2,1 lies in the
      W cone: turn 2 x 60 clockwise, heading 3.
    - The card's exploration checks (ahead left -> SW -1,2; ahead right -> NW 0,0) find no tile;
      2 movements ahead: -1,1, then -2,1 holds the face-down tile: "Sempre que alguma Unidade ...
      passar sobre um espaço ... com uma Peça de Exploração ... este a explora e encerra seus
      movimentos".
    - It is a flag needing FC 4. "O Autômato não usará Cartas de Combate contra as Bandeiras ...
      vencerá a Bandeira apenas se possuir a quantidade mínima de FC necessária ... pode, no entanto,
      usar os Quadros que possui": unit 3 (2) + two military frames (1 + 1) = 4: won, its combat
      card kept. Needing 5 it is not won and stays face up.
    """
    s = game()
    units(s, (0, 1), "3")
    s.heading, s.automa.adder, s.automa.combat_cards = 1, 1, 1
    s.automa.frames = ["military-1"]
    tile(s, (2, 1))
    tile(s, (-2, 1))
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["frame:military-2", "gold", "gold", "gold"])
    top_movement(s, 1, fresh=False, second=2)
    movement_card(s, 1, NOTHING, moves=[0], arrow=3)
    movement_card(s, 2, [(None, None), (None, None), ("exploration", None), (None, None)], moves=[0, 0, 0],
                  explore=[5, 1])
    d, after = turn(s)
    assert after.automa.frames == ["military-1", "military-2"]
    assert said(d, "direction exploration: -2,1, 2 hexes away", "tied with 2,1")
    assert d["compass_turn"] == 2 and after.heading == 3
    assert said(d, "exploration check ahead left: -1,2 has no face-down tile")
    assert said(d, "exploration check ahead right: 0,0 has no face-down tile")
    assert d["path"] == ["0,1", "-1,1", "-2,1"] and d["explore"] == "-2,1"
    assert after.pending == {"kind": "explore", "hex": "-2,1"}
    ops, text = reveal(after, "flag", 4)
    won = apply_ops(after, ops)
    assert won.automa.flags == 1 and won.cells[(-2, 1)].tile is None and "has FC 4 there" in text
    assert won.automa.combat_cards == 1, "no combat card is used against a flag"
    lost = apply_ops(after, reveal(after, "flag", 5)[0])
    assert lost.automa.flags == 0 and lost.cells[(-2, 1)].tile.kind == "flag" and lost.pending is None


# 7 ------------------------------------------------------------------------------------------
def test_s07_combat_won_on_a_players_farm_dominates_it_and_next_turn_the_weakest_unit_lies_there():
    """Units 3, 1, 2 (FC 2, 1, 1) stand at -3,2 facing E with 3 combat cards; Ana's farm at -1,2
    holds 2 resources and her unit (FC 1).

    - 3 movements ahead: -2,2, then -1,2 (Ana's construction and unit): combat, "utilizará 2 Cartas
      de Combate", the movement ends.
    - "Some o poder das Cartas de Combate, Palácios e Quadros": units 2+1+1 = 4 (culture-1, just taken,
      FC 0; no palace: the fight is not at its construction), cards 3: 7 against Ana's 6. It wins:
      "esta Construção ficará dominada ... Se houver Recursos ... descartados para a reserva";
      "Descarte todas as Cartas usadas": 3 - 2 = 1 card; Ana's unit to her stock.
    - Next turn, 1 movement: "deixará a sua Unidade mais fraca (menor FC e da esquerda para a
      direita, conforme o seu tabuleiro) deitada sobre a Construção dominada e moverá as demais":
      units 1 and 2 both FC 1, unit 1 is left of 2: unit 1 lies at -1,2; 3 and 2 go to 0,2.
    """
    s = game()
    units(s, (-3, 2), "3", "1", "2")
    s.heading, s.automa.combat_cards = 0, 3
    build(s, (-1, 2), "their farm", owner="you", vp=1, era=1)
    s.cells[(-1, 2)].building.resources = 2
    foe(s, (-1, 2), vp=1, fc=1)
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["frame:culture-1", "gold", "gold", "gold"])
    top_movement(s, 1, fresh=False, second=2)
    movement_card(s, 1, NOTHING, moves=[0], arrow=1)
    movement_card(s, 2, NOTHING, moves=[0, 0, 0])
    d, after = turn(s)
    assert d["path"] == ["-3,2", "-2,2", "-1,2"] and d["combat"] == "-1,2" and after.pending["cards"] == 2
    assert automa_strength(after) == 4
    out = combat(after, 3, 6)
    assert (out.automa_total, out.winner) == (7, "automa")
    won = apply_ops(after, out.ops)
    farm = won.cells[(-1, 2)].building
    assert farm.dominated and farm.resources == 0 and farm.owner == "you"
    assert won.cells[(-1, 2)].foes == [] and won.automa.combat_cards == 1 and won.pending is None
    top_action(won, 2, fresh=True)
    action_card(won, 2, ["frame:culture-2", "gold", "gold", "gold"])
    top_movement(won, 3, fresh=False, second=4)
    movement_card(won, 3, NOTHING, moves=[0], arrow=1)
    movement_card(won, 4, NOTHING, moves=[0, 0, 0])
    d, nxt = turn(won)
    assert d["movements"] == 1 and said(d, "unit 1 (least FC, leftmost) stays lying there")
    assert nxt.automa.units["1"].at == (-1, 2) and nxt.automa.units["1"].lying is not None
    assert nxt.automa.units["3"].at == nxt.automa.units["2"].at == (0, 2) == nxt.compass_at
    assert nxt.cells[(-1, 2)].building.dominated


# 8 ------------------------------------------------------------------------------------------
def test_s08_defeated_its_compass_goes_to_the_last_unit_moved_which_then_moves_and_frees_the_farm():
    """Units 3 and 2 stand at 0,2 (E); unit 4 lay down on Ana's mine at 2,-2 on turn 0, unit 1 on her
    farm at -1,2 on turn 1 (both dominated). Adder 1, 1 combat card; Ana's unit (FC 3) at 1,2.

    - 2 movements: 1,2 holds Ana's unit: combat with its only card ("sempre que possível" 2).
    - Units 2 + 1 = 3, culture-1 FC 0, card 1: 4 against 5: Ana wins; "mova as Unidades derrotadas
      para os seus respectivos Estoques". "Caso o Autômato seja derrotado ... e possua Unidades
      deitadas pelo mapa, seu movimento e Bússola partirão da última Unidade movida": unit 1 (lay
      down on turn 1, after unit 4): the compass goes to -1,2.
    - Next turn, the adder only: 1 movement. "Caso o Autômato domine uma construção e possua apenas 1
      Unidade, no próximo turno a Unidade poderá ser movida, cessando assim a dominação": unit 1
      stands and moves ahead to 0,2; the farm is Ana's again; unit 4 still holds the mine.
    """
    s = game()
    units(s, (0, 2), "3", "2")
    s.heading, s.automa.adder, s.automa.combat_cards, s.turns = 0, 1, 1, 2
    for h, ref, uid, lay in (((2, -2), "their mine", "4", 0), ((-1, 2), "their farm", "1", 1)):
        build(s, h, ref, owner="you", vp=1, era=1)
        s.cells[h].building.dominated = True
        s.automa.units[uid].at, s.automa.units[uid].lying = h, lay
    foe(s, (1, 2), vp=1, fc=3)
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["frame:culture-1", "gold", "gold", "gold"])
    top_movement(s, 1, fresh=False, second=2)
    movement_card(s, 1, NOTHING, moves=[0], arrow=1)
    movement_card(s, 2, NOTHING, moves=[0, 0, 0])
    d, after = turn(s)
    assert d["combat"] == "1,2" and after.pending["cards"] == 1
    out = combat(after, 1, 5)
    assert (out.automa_total, out.winner) == (4, "player")
    lost = apply_ops(after, out.ops)
    assert lost.automa.units["3"].at is None and lost.automa.units["2"].at is None
    assert lost.compass_at == (-1, 2) and lost.automa.combat_cards == 0
    top_action(lost, 2, fresh=True)
    action_card(lost, 2, ["frame:culture-2", "gold", "gold", "gold"])
    top_movement(lost, 3, fresh=False, second=4)
    movement_card(lost, 3, NOTHING, moves=[0], arrow=1)
    movement_card(lost, 4, NOTHING, moves=[0, 0, 0])
    d, nxt = turn(lost)
    assert said(d, "its only unit on the dominated construction at -1,2 moves: the domination ends")
    assert d["path"] == ["-1,2", "0,2"] and nxt.automa.units["1"].lying is None
    assert not nxt.cells[(-1, 2)].building.dominated and nxt.cells[(2, -2)].building.dominated
    assert nxt.automa.units["4"].at == (2, -2) and nxt.automa.units["4"].lying == 0


# 9 ------------------------------------------------------------------------------------------
def test_s09_the_seeds_mission_card_revealed_then_one_action_per_incomplete_part():
    """Era II; card 4 (arrow 4) laid aside: row 4 of card 2, mission:2. The map is all plain.

    - "A Carta de Missão do Autômato da Era atual será revelada apenas quando uma de suas Cartas de
      Ação pedir a execução de um Objetivo específico": the players reveal it first. It is the seed's
      card: 1 "Possui 1 Unidade no mapa", 2 "2 Quadros e 1 Feitoria" (two frame parts, a trading post).
    - "Não é realizar um objetivo completamente, mas apenas uma Ação daquele tipo ... ainda
      incompleto": a frame; "escolha o 1º Quadro disponível mais à esquerda daquele tipo" (any type):
      military-1 is Ana's, so military-2.
    - Both frames marked: the trading post, but no coast: "ou uma Construção sem o terreno disponível,
      selecione a primeira construção possível, de acordo com a Era atual, que aparece da esquerda
      para a direita": trading post (no coast), then the factory. Placement: the six spaces round the
      capital each open 3 new ones, none touches a construction, all 1 away: ruling B2, the first in
      reading order, 0,-1.
    - All of objective 2 marked: row 4 is impossible; rows wrap to row 1, a city (city-1).
    """
    s = game()
    s.era = 2
    s.taken_frames = ["military-1"]
    under_top_action(s, 4, 2)
    action_card(s, 4, ["gold"] * 4, arrow=4)
    action_card(s, 2, ["city", "city", "city", "mission:2"], era=2)
    d = decide(s).to_dict()
    assert d["ops"] == [{"op": "await_mission", "era": 2}]
    s = apply_ops(s, d["ops"] + [{"op": "mission", "era": 2, "objectives": [
        {"objective": 1, "kind": "summon"}, {"objective": 2, "kind": "frame"}, {"objective": 2, "kind": "frame"},
        {"objective": 2, "kind": "construction", "ref": "trading-post"}, {"objective": 3, "kind": "other"}]}])
    assert s.pending is None
    d, after = turn(s)
    assert (d["action_row"], d["action"], d["action_target"]) == (4, "frame", "military-2")
    s = apply_ops(s, [{"op": "objective", "era": 2, "index": i} for i in (2, 3)])
    d, after = turn(s)
    assert said(d, "no space for a trading-post: the first possible construction of Era 2 from the left")
    assert d["action"] == "build" and d["action_target"] == "0,-1"
    assert after.cells[(0, -1)].building.ref == "factory"
    assert said(d, "still tied: the first in reading order, 0,-1")
    s = apply_ops(s, [{"op": "objective", "era": 2, "index": 4}])
    d, after = turn(s)
    assert said(d, "objective 2 of the Era 2 mission is complete")
    assert (d["row_done"], d["action"]) == (1, "city") and "city-1" in d["instruction"]


# 10 -----------------------------------------------------------------------------------------
def test_s10_era_three_card_five_gives_its_gold_card_then_every_palace_and_gold_card_scores():
    """Era II -> III (the players' era op). Card 4 (arrow 4) laid aside: row 4 of card 5, whose
    printed Era III column is bank, Monarch, city, gold. The map is all plain, the Monarch stands on
    its mine at 1,0, every city is gone (city-1 is its own at 0,1).

    - Row 4, the gold symbol: "As Cartas de Ação nº 5 e nº 6 ... mostram o símbolo da Carta de Ouro na
      última linha ... caso nenhuma ação da Era II ou III seja possível, o Autômato recebe 1 Carta de
      Ouro" (ruling B21: the symbol is no action of its own). Row 1, bank: no coast; row 2, the
      Monarch is on the map; row 3, no city left: 1 gold card, its fifth ("Não há limites").
    - A player attacks its mine: "Palácios III e IV ... também geram mais Força de Combate para as
      Construções indicadas": Monarch 4 + palaces III and IV (1 + 1) = 6.
    - The end: "Todas as cartas que oferecerem Pontos de Vitória serão adicionadas ... independentemente
      se seu critério foi cumprido"; "Para o Autômato, todos os Palácios já estão pontuando": mine 2 +
      city-1 2 + palaces 28 + gold 3+0+2+0+5 = 10 -> 42.
    """
    s = game()
    s = apply_ops(s, [{"op": "era", "era": 2}, {"op": "era", "era": 3}])
    build(s, (1, 0), "mine")
    build(s, (0, 1), "city-1", kind="city", vp=2)
    s.taken_cities = [c for c in s.board.ids("cities") if c != "city-1"]
    units(s, (1, 0), "monarch")
    s.automa.gold = 4
    under_top_action(s, 4, 5)
    action_card(s, 4, ["gold"] * 4, arrow=4)
    top_movement(s, 1, fresh=False, second=2)
    movement_card(s, 1, NOTHING, moves=[0], arrow=1)
    movement_card(s, 2, NOTHING, moves=[0])
    d, after = turn(s)
    assert [a.code for a in after.cards.action[5].columns[2]] == ["build:bank", "monarch", "city", "gold"]
    assert (d["action_card"], d["action_row"], d["row_done"], d["action"]) == (5, 4, None, "gold")
    assert said(d, "the gold card symbol") and said(d, "no free coast space")
    assert said(d, "unit monarch is on the map already") and said(d, "no city left on the general board")
    assert after.automa.gold == 5 and d["movements"] == 0
    attacked = apply_ops(after, [{"op": "attack", "hex": "1,0", "cards": 0, "attacker": "you"}])
    assert automa_strength(attacked) == 6
    end = apply_ops(after, [{"op": "final", "gold_vp": [3, 0, 2, 0, 5], "other_vp": 0}])
    sc = automa_score(end)
    assert (sc.constructions, sc.cities, sc.palaces, sc.gold, sc.total) == (2, 2, 28, 10, 42) and end.over


# 11 -----------------------------------------------------------------------------------------
def test_s11_easy_game_never_reads_a_star_card_and_reshuffles_after_the_last():
    """Easy: "Retire todas as 4 Cartas com o símbolo da Estrela dos baralhos" (the example set: action
    8 and 9, movement 8 and 9), 7 cards left in each pile. Every row of every card is the gold symbol,
    so each turn no action is possible: 1 gold card a turn.

    - Turn 1 reads the top card (step 2), turns 2-7 take the top card and read the next (step 3):
      the 7 cards each read once. Turn 8 takes the last card: "embaralhe toda a pilha ... e use a
      primeira linha" (step 4). 8 gold cards.
    - "É possível configurar o Baralho de Movimento independente do Baralho de Ações": Epic actions
      (no feather cards 3, 4) with a Hard movement pile (all 9).
    """
    s = game(difficulty="easy")
    stars = {c.id for c in s.cards.action.values() if c.symbol == "star"}
    stars |= {c.id for c in s.cards.movement.values() if c.symbol == "star"}
    assert len([c for c in s.cards.action.values() if c.symbol == "star"]) + len(
        [c for c in s.cards.movement.values() if c.symbol == "star"]) == 4
    assert s.action_deck.cards() == [1, 2, 3, 4, 5, 6, 7] and s.movement_deck.cards() == [1, 2, 3, 4, 5, 6, 7]
    for cid in s.cards.action:
        action_card(s, cid, ["gold"] * 4)
    read = []
    for _ in range(7):
        d, s = turn(s)
        read.append(d["action_card"])
        assert not any(o["op"] == "action_reshuffle" for o in d["ops"])
    assert sorted(read) == [1, 2, 3, 4, 5, 6, 7] and not stars & set(read)
    d, s = turn(s)
    assert {"op": "action_reshuffle"} in d["ops"] and d["action_row"] == 1 and s.automa.gold == 8
    mixed = game(difficulty="epic", movement_difficulty="hard")
    assert mixed.action_deck.cards() == [1, 2, 5, 6, 7, 8, 9] and mixed.movement_deck.cards() == list(range(1, 10))


# 12 -----------------------------------------------------------------------------------------
def test_s12_player_city_tie_turns_the_compass_then_a_step_off_the_map_is_skipped():
    """Unit 5 stands at 4,-2 on the map's east edge, heading 5 (NE), 2 combat cards. Ana's cities:
    4,0 (SE, 60 degrees) and 2,-2 (W, 180), both 2 away.

    - Card 1 (arrow 2) laid aside, row 2 of card 2: "Cidades ... Direciona a Bússola ... na direção
      da Cidade mais próxima do jogador"; tied, ruling B4 (the units icon's "1ª opção no sentido
      horário partindo da ponta norte"): from the tip (300), 4,0 is 120 on, 2,-2 is 240: 4,0. It lies
      only in the SE cone: "apenas o suficiente", 2 x 60 clockwise (4 the other way), heading 1.
    - Moves [ahead left, ahead, ahead right] with 2 movements: ahead left (E) is 5,-2, off the map;
      "alguns movimentos não serão possíveis. Neste caso, siga se possível para o próximo espaço como
      indicado na Carta" (ruling B9: no movement spent): ahead 4,-1, then ahead right (SW) 3,0.
    - Without Ana's cities: "Não havendo Cidades, não altere a Bússola": heading 5 stays; ahead left
      (NW) 4,-3; then ahead (NE) 5,-4 and ahead right (E) 5,-3 are both off: 1 of 2 movements.
    """
    s = game(capitals={"A": "0,0", "B": "-3,0"})
    units(s, (4, -2), "5")
    s.heading, s.automa.combat_cards = 5, 2
    build(s, (4, 0), "their city", owner="you", kind="city", vp=2)
    build(s, (2, -2), "their other city", owner="you", kind="city", vp=2)
    top_action(s, 1, fresh=True)
    action_card(s, 1, ["frame:culture-1", "gold", "gold", "gold"])
    top_movement(s, 1, fresh=False, second=2)
    movement_card(s, 1, NOTHING, moves=[0], arrow=2)
    movement_card(s, 2, [(None, None), ("player_city", None), (None, None), (None, None)], moves=[5, 0, 1])
    before = s.copy()
    d, after = turn(s)
    assert said(d, "direction player_city: 4,0, 2 hexes away", "tied with 2,-2")
    assert d["compass_turn"] == 2 and after.heading == 1
    assert said(d, "move 1 ahead left: 5,-2 is off the map, skipped")
    assert d["path"] == ["4,-2", "4,-1", "3,0"] and "combat" not in d
    before.cells[(4, 0)].building = None
    before.cells[(2, -2)].building = None
    d, after = turn(before)
    assert said(d, "direction player_city: none on the map") and said(d, "no such target: the compass stays")
    assert d["compass_turn"] == 0 and after.heading == 5
    assert d["path"] == ["4,-2", "4,-3"] and said(d, "1 of 2 movements made")
