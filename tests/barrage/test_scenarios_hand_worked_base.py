"""Whole situations for the base levels, Medium (the rulebook's own rules) and Easy ("Baixa Tensão"),
each worked out by hand from seed 000 (Portuguese) before the engine was run (base-game rules from
shared/reference/barrage/base_rules.md where the seed assumes them). Each docstring gives the
reasoning and quotes the seed phrase that decides it. Contract values: green 205/206 = 3, yellow 300 = 5,
310 = 7, red 405 = 9, 411 = 10 (tests/barrage/scenario.py's office). Map: conduit 1A is worth 5 and
leads to group 8; basin n's water leaves to its outflow group, which flows into the basin below."""
from automa.barrage.engine import apply_decision, decide
from automa.barrage.state import NEUTRAL, Segment

from .scenario import conduit, dam, hard, invested, ops, powerhouse, scenario


def traced(d, text: str) -> bool:
    return any(text in line for line in d.trace)


def easy(s, company: str = "usa"):
    return hard(s, company, "easy")


def system_1l_1a_p8(s, drops: int = 2) -> None:
    """The Automa's system: its dam 1L (2 pieces) holding ``drops``, conduit 1A (value 5), powerhouse P8_0."""
    dam(s, "1L", "usa", pieces=2, drops=drops)
    conduit(s, "1A", "usa")
    powerhouse(s, "P8_0", "usa")


# 1 -------------------------------------------------------------------------------------------
def test_medium_adds_the_second_powerhouse_bonus_easy_does_not_so_they_fulfil_different_contracts():
    """Tile 1: production -2, green condition. 1L (2 drops) - 1A (5) - P8_0, and a second powerhouse
    P11_0 (no system of its own). France leads the Energy Track (3 to 0). Medium: "os Autômatos usarão os
    bônus de produção ativados por construir a 2ª e a 4ª Usina de Energia": 2 x 5 - 2 + 1 = 9 >= 3 (a
    green contract), so it produces and "cumprirá imediatamente o Contrato de maior valor disponível ...
    não só entre aqueles marcados como uma condição": the red 9 (405). Easy: "nem usam bônus de produção
    (ativados ao construir Usinas de Energia)": 8, and the highest contract up to 8 is the yellow 7 (310)."""
    s = scenario(actions=1, criteria=3)
    system_1l_1a_p8(s)
    powerhouse(s, "P11_0", "usa")
    s.energy["france"] = 3
    d = decide(s)
    assert d.action == "production" and d.engineers == 1
    assert [op["delta"] for op in ops(d, "energy")] == [9]
    assert [op["contract"] for op in ops(d, "fulfil")] == [405]
    assert traced(d, "fulfils the highest contract it reaches: red contract 405")
    d = decide(easy(s))
    assert d.action == "production"
    assert [op["delta"] for op in ops(d, "energy")] == [8]
    assert [op["contract"] for op in ops(d, "fulfil")] == [310]


# 2 -------------------------------------------------------------------------------------------
def test_round_five_leader_with_full_bonus_skips_production_then_everything_down_to_the_bank():
    """Round 5, tile 4 (production -1 green; a Base in the Mountains; Machinery Shop of 1 excavator for 2
    VP; maintenance / bank). The Automa has a ready system (2 x 5 - 1 = 9) but 30 energy (6 x 5, the full
    bonus of round 5) and leads France's 12: the Energy Track condition needs "ainda não está na seção
    ... OU ... não é atualmente o primeiro jogador" and both fail, so no production. No excavator: the
    Mountains Base fails "Maquinários Disponíveis" (5). "Se a rodada atual não for a 5ª rodada": no
    Machinery Shop. The wheel is empty, so "Caso contrário, o Autômato marca 1 Ponto de Vitória, colocando
    1 Engenheiro no Banco". With France at 31 the Automa is not first and produces: 9, the red 9 (405)."""
    s = scenario(actions=4, criteria=3, round_=5)
    system_1l_1a_p8(s)
    s.companies["usa"].excavators = 0
    s.energy.update(usa=30, france=12)
    d = decide(s)
    assert d.action == "bank" and d.vp_delta == 1 and d.engineers == 1
    assert traced(d, "first on the track")
    s.energy["france"] = 31
    d = decide(s)
    assert d.action == "production" and [op["contract"] for op in ops(d, "fulfil")] == [405]


# 3 -------------------------------------------------------------------------------------------
def test_water_goes_to_the_criteria_tiles_first_headstream_and_only_as_much_as_the_dam_holds():
    """Tile 1: production (no system), Water Management of 2 drops (not flowing), a Base, an Elevation,
    workshop, wild Machinery Shop. The Automa's only dam is 10L, one piece, empty. Water from C (basin 3,
    group 6, basin 6, group 10) and from D (basin 4, group 7, basin 7, group 10) reaches basin 10 in the
    next Water Flow. "A Represa ... deve ter capacidade restante suficiente ... Qualquer peça de Gota
    D'água excedente não será colocada": 1 drop. "Se houver duas ou mais Nascentes disponíveis, usem o
    critério de desempate indicado no lado atual dos Critérios": tile 4 reads D, A, B, so D; tile 3 reads
    C, D, A, so C. The turn goes on ("o turno do Autômato continua"): no Base or Elevation tile (no
    "Ficha de Tecnologia Disponível"), the wheel is empty (no workshop), so the wild Machinery Shop, 3 VP,
    "o tipo de Maquinário que tiver menos unidades disponíveis": 4 mixers against 6 excavators, a mixer."""
    s = scenario(actions=1, criteria=4)
    dam(s, "10L", "usa")
    s.companies["usa"].tiles = ["conduit", "powerhouse"]
    d = decide(s)
    assert d.action == "machinery_shop" and d.target == "mixer"
    assert d.engineers == 2 and d.vp_delta == -3
    assert traced(d, "placed 1 drop(s) on headstream(s) D") and traced(d, "the turn continues")
    s = apply_decision(s, d)
    assert s.headstreams == {"A": 0, "B": 0, "C": 0, "D": 1}
    s = scenario(actions=1, criteria=3)
    dam(s, "10L", "usa")
    s.companies["usa"].tiles = ["conduit", "powerhouse"]
    s = apply_decision(s, decide(s))
    assert s.headstreams == {"A": 0, "B": 0, "C": 1, "D": 0}


# 4 -------------------------------------------------------------------------------------------
def test_contract_office_then_patent_office_takes_the_higher_base_tile():
    """Tile 3: production -1 green (no system), Contract Office (green), a Base, Patent Office (Base), ...
    Contract Office: "remove os Contratos indicados ... Então, ele move seu marcador de Energia 2 casas",
    refills 2 greens, and "seu turno continua". No excavator: no Base. Patent Office: "paga 2 Pontos de
    Vitória para pegar a ficha de Tecnologia Avançada indicada ... Caso haja duas fichas da mesma estrutura
    disponíveis, o Autômato pegará a ficha de nível mais alto": L2 Base, not L1 Base nor the Joker."""
    s = scenario(actions=3, criteria=1)
    s.companies["usa"].excavators = 0
    s.patent_office.slots = ["L1_JOKER", "L1_BASE", "L2_BASE"]
    d = decide(s)
    assert d.action == "patent_office" and d.engineers == 2 and d.vp_delta == -2
    assert traced(d, "discarded green contracts [205, 206]; energy +2") and traced(d, "takes L2 Base")
    s = apply_decision(s, d)
    assert "L2_BASE" in s.companies["usa"].tiles and "L1_BASE" in s.patent_office.slots
    assert s.energy["usa"] == 2
    assert not {205, 206} & set(s.contract_office.private["green"])
    assert len([c for c in s.contract_office.private["green"] if c is not None]) == 2


# 5 -------------------------------------------------------------------------------------------
def test_conduit_completing_the_one_system_and_the_income_medium_gets_and_easy_does_not():
    """Tile 19: production +2 yellow (no complete system), a Conduit. USA owns dam 3L, powerhouse P6_0 and
    a conduit at 9A. "se houver um único sistema em potencial ... que seria completado colocando a
    estrutura, a posição que completa esse sistema deve ser escolhida": 3B (value 3, basin 3 to group 6),
    6 excavators, all it has. The Criteria tile (17, "second most powerful" first) is not read. It is
    USA's second conduit, uncovering 3 VP: "se uma receita for revelada no Tabuleiro da Companhia do
    Autômato, ele recebe imediatamente essa receita" (Medium); Easy "nunca recebem receita do seu próprio
    Tabuleiro da Companhia (ativada ao construir Bases, Elevações e Conduites)"."""
    s = scenario(actions=19, criteria=17)
    dam(s, "3L", "usa")
    powerhouse(s, "P6_0", "usa")
    conduit(s, "9A", "usa")
    d = decide(s)
    assert d.action == "construction" and d.target == "3B"
    assert invested(d)["excavators"] == 6
    assert traced(d, "only 3B would complete a system")
    assert d.vp_delta == 3
    d = decide(easy(s))
    assert d.action == "construction" and d.target == "3B" and d.vp_delta == 0


# 6 -------------------------------------------------------------------------------------------
def test_base_placement_otherwise_branch_excludes_basins_feeding_an_opponent_then_the_code_wraps():
    """Tile 1 (production and water impossible: nothing owned), a Base; Criteria of tile 18: dams
    "upstream powerhouse", "most powerful conduit already built", "downstream owned dam", code 10. The
    Automa has 4 excavators, so only Hills (4) and Plains (3) Bases; France fills basin 10. No powerhouse
    or conduit on the map: criteria 1-2 "não corresponder a nenhuma posição, ignore o critério". Criterion
    3: no owned dam downstream, so "CASO CONTRÁRIO Uma Represa não ligada (por um Conduíte) a uma bacia
    corrente abaixo com uma Represa de um oponente": basin 5 (5B to group 10) and 7 (7A to group 10) go;
    6, 8 and 9 stay. Code 10 is not possible: "recomece a verificação desde a primeira posição (1...)",
    1-4 are not possible, 5 is out: basin 6, and "posições 'não vermelhas' terão preferência": 6L."""
    s = scenario(actions=1, criteria=18)
    dam(s, "10U", "france")
    dam(s, "10L", "france")
    s.companies["usa"].excavators = 4
    d = decide(s)
    assert d.action == "construction" and d.target == "6L"
    assert invested(d)["excavators"] == 4 and d.vp_delta == 0
    assert traced(d, "keeps 6U, 6L, 8U, 8L, 9U, 9L") and traced(d, "after wrapping round to 1")


# 7 -------------------------------------------------------------------------------------------
def test_conduit_most_powerful_affordable_then_the_neutral_dam_beats_the_opponents():
    """Tile 10: production, Water Management (no own dam: neither can be done), a Conduit; Criteria of
    tile 1: "O Conduíte mais poderoso entre os possíveis", then "ligado a uma Represa do Autômato / neutra
    / de um oponente. Desempate: do Autômato, neutro, de um oponente". 8 excavators: value 5 (1A, 2B, 4B)
    is out; value 4: 1B, 3A, 5B, 6A. Basin 6 holds a neutral dam, basin 1 France's: 6A."""
    s = scenario(actions=10, criteria=1)
    dam(s, "6L", NEUTRAL, pieces=2)
    dam(s, "1L", "france")
    s.companies["usa"].excavators = 8
    d = decide(s)
    assert d.action == "construction" and d.target == "6A"
    assert invested(d)["excavators"] == 8
    assert traced(d, "keeps 1B, 3A, 5B, 6A") and traced(d, "keeps 6A (linked to a neutral dam")


# 8 -------------------------------------------------------------------------------------------
def test_small_system_misses_the_red_condition_contract_office_then_machinery_shop():
    """Tile 12: production 0 red, Contract Office (red), a Conduit of value 4 or more, Machinery Shop of
    2 excavators for 4 VP. The system 2L (1 drop) - 2A (3) - P6_0 makes 3, below both reds (9, 10): "é
    igual ou maior que o requerimento de energia de pelo menos um Contrato disponível do tipo ... indicado
    pela ficha" fails. Contract Office: both reds go, +2 energy, the turn goes on. A conduit of value 4
    needs 8 excavators ("Um Conduíte de valor 3 ou mais - pelo menos 6 Escavadores"), it has 6. Round 1:
    the Machinery Shop, 2 engineers, 4 VP, 2 excavators. Engineers: 1 + 2."""
    s = scenario(actions=12, criteria=1)
    dam(s, "2L", "usa", drops=1)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    d = decide(s)
    assert d.action == "machinery_shop" and d.engineers == 3 and d.vp_delta == -4
    assert traced(d, "Contract Requirement: best production is 3 energy")
    assert traced(d, "needs at least 8 excavators, it has 6")
    s = apply_decision(s, d)
    assert s.companies["usa"].excavators == 8 and s.energy["usa"] == 2
    assert not {405, 411} & set(s.contract_office.private["red"])


# 9 -------------------------------------------------------------------------------------------
def test_last_engineer_still_produces_with_a_two_engineer_action():
    """Tile 5: production 0 green, 2 engineers. One engineer left: "Se um jogador Autômato não tiver os
    Engenheiros exigidos para realizar sua última ação ... ele a realizará de qualquer forma usando apenas
    seu último Engenheiro". 2 x 5 = 10, the red 10 (411, on the right)."""
    s = scenario(actions=5, criteria=1)
    system_1l_1a_p8(s)
    s.energy["france"] = 3
    s.companies["usa"].engineers = 1
    d = decide(s)
    assert d.action == "production" and d.engineers == 1
    assert [op["delta"] for op in ops(d, "energy")] == [10]
    assert [op["contract"] for op in ops(d, "fulfil")] == [411]


# 10 ------------------------------------------------------------------------------------------
def test_workshop_turns_three_segments_and_takes_back_what_reaches_the_entry():
    """Tile 5: production, Water Management, an Elevation, a Conduit, Workshop (2 engineers, 5 VP, 3
    segments). No system, no own dam (nothing to raise, no water to catch), no conduit piece left. The
    wheel holds a Base tile with 5 excavators 3 segments from the entry and a Conduit tile with 4
    excavators 4 segments away: "gira sua Roda de Construção o número de segmentos indicado apenas se ela
    não estiver completamente vazia ... deve pegar de volta imediatamente quaisquer Maquinários e/ou
    fichas de Tecnologia que tiverem voltado para o segmento de entrada": the Base tile and its 5
    excavators come back, the Conduit tile stays."""
    s = scenario(actions=5, criteria=1)
    usa = s.companies["usa"]
    usa.structures["conduit"] = 0
    usa.tiles = ["elevation", "powerhouse"]
    usa.excavators = 0
    usa.wheel[3] = Segment(tiles=["dam_base"], excavators=5)
    usa.wheel[4] = Segment(tiles=["conduit"], excavators=4)
    usa.vp = 2
    d = decide(s)
    assert d.action == "workshop" and d.engineers == 2 and d.vp_delta == -5
    assert traced(d, "turns the construction wheel 3 segment")
    s = apply_decision(s, d)
    usa = s.companies["usa"]
    assert usa.vp == -3     # "Os Pontos de Vitória dos Autômatos podem cair abaixo de zero"
    assert usa.excavators == 5 and "dam_base" in usa.tiles and "conduit" not in usa.tiles


# 11 ------------------------------------------------------------------------------------------
def test_equal_systems_prefer_the_neutral_dam_and_equal_contracts_the_right_one():
    """Tile 11: production +1 green. Two systems feed the Automa's P6_0 and make 1 x 3 + 1 = 4 each: its
    own 2L (1 drop) through its 2A (3), and a neutral 3L (1 drop) through its 3B (3). "Em caso de empate, o
    Autômato vai preferir usar um sistema que contenha uma Represa Neutra": the drop leaves 3L. The
    highest contract up to 4 is a green 3, and both are 3: "em caso de empate, o contrato no espaço à
    direita": 206."""
    s = scenario(actions=11, criteria=1)
    dam(s, "2L", "usa", drops=1)
    conduit(s, "2A", "usa")
    dam(s, "3L", NEUTRAL, drops=1)
    conduit(s, "3B", "usa")
    powerhouse(s, "P6_0", "usa")
    s.energy["france"] = 3
    d = decide(s)
    assert d.action == "production"
    assert [op["delta"] for op in ops(d, "energy")] == [4]
    assert [op["count"] for op in ops(d, "drops") if op.get("source") == "dam:3L"] == [1]
    assert not [op for op in ops(d, "drops") if op.get("source") == "dam:2L"]
    assert [op["contract"] for op in ops(d, "fulfil")] == [206]


# 12 ------------------------------------------------------------------------------------------
def test_powerhouse_goes_to_the_owned_conduit_on_a_tie_for_the_most_powerful_built_conduit():
    """Tile 13: production +1 yellow, Water Management (nothing owned: neither), a Powerhouse; Criteria of
    tile 8: "Uma Usina de Energia nas Planícies", then "ligada ao Conduíte mais poderoso já construído (do
    Autômato ou de um oponente). Desempate: Conduíte do Autômato", then "ligada a uma Represa do Autômato",
    code 12. No dam, so no system to complete. Plains: groups 8-12. Built conduits of value 5: France's 1A
    (to group 8) and the Automa's 2B (to group 10); the tie-break keeps group 10. One group: P10_0, its
    regular space. (Without the tie-break, code 12 would wrap to group 8.)"""
    s = scenario(actions=13, criteria=8)
    conduit(s, "1A", "france")
    conduit(s, "2B", "usa")
    d = decide(s)
    assert d.action == "construction" and d.target == "P10_0"
    assert invested(d)["mixers"] == 2 and d.vp_delta == 0
    assert traced(d, "P10_0")


# 13 ------------------------------------------------------------------------------------------
def test_an_opponent_dam_upstream_stops_the_one_flowing_drop_then_the_hills_base_pays_the_red_outline():
    """Tile 2: production (no system), Water Management of 1 flowing drop, a Base in the Hills; Criteria of
    tile 1. The Automa's dam 8L is below basin 1, where France's empty 1L would stop a drop from A: "somente
    realizará essa ação se pelo menos uma das peças ... puder chegar a uma de suas próprias Represas": not
    performed, no engineer. The Hills Base: dam criteria match nothing on this map (no built conduit, no
    owned powerhouse); code 1 goes on to basin 5, the first Hills basin with a free space: France holds 5L,
    so 5U, red-outlined: "se um Autômato construir uma estrutura em um espaço com um ícone de borda
    vermelha, ele pagará 3 PVs". Building turns the wheel one segment ("usando sua Roda de Construção
    normalmente"); it is USA's second Base, whose income turns it one more (Medium only). (A company owns at most one dam per basin, base_rules.md: with its own dam on 5L the Automa
    could not take 5U, and basin 6 would be chosen.)"""
    s = scenario(actions=2, criteria=1)
    dam(s, "8L", "usa")
    dam(s, "1L", "france")
    dam(s, "5L", "france")
    d = decide(s)
    assert d.action == "construction" and d.target == "5U"
    assert d.engineers == 2 and d.vp_delta == -3
    assert traced(d, "not possible: no drop can reach")
    assert sum(op["steps"] for op in ops(d, "rotate")) == 2     # the construction's own turn, and the income
    d = decide(easy(s))
    assert d.target == "5U" and d.vp_delta == -3
    assert sum(op["steps"] for op in ops(d, "rotate")) == 1
    del s.dams["5L"]
    dam(s, "5L", "usa")
    del s.dams["8L"]
    assert decide(s).target == "6L"


# 14 ------------------------------------------------------------------------------------------
def test_elevation_reads_the_dam_column_among_own_affordable_dams():
    """Tile 5: production (no conduit: no system), Water Management (every own dam is full: "A Represa ...
    deve ter capacidade restante suficiente": not performed), an Elevation; Criteria of tile 1 (dam
    column: most powerful built conduit, "Uma Represa ligada a uma Usina de Energia pertencente ao
    Autômato", upstream powerhouse; code 1). Own dams 1L, 6L, 9L, one piece and one drop each; 3 mixers:
    a Mountains Elevation (4) is out. No conduit is built; the Automa's P12_0 is reached by conduit 9B,
    so 9L. (Code 1 alone would give 6L.) Plains: 2 mixers."""
    s = scenario(actions=5, criteria=1)
    for space in ("1L", "6L", "9L"):
        dam(s, space, "usa", drops=1)
    powerhouse(s, "P12_0", "usa")
    s.companies["usa"].mixers = 3
    d = decide(s)
    assert d.action == "construction" and d.target == "9L"
    assert invested(d)["tile"] == "elevation" and invested(d)["mixers"] == 2
    assert d.engineers == 2 and d.vp_delta == 0


# 15 ------------------------------------------------------------------------------------------
def test_second_most_powerful_conduit_is_the_next_value_down_then_the_code():
    """Tile 19: production (no system), a Conduit; Criteria of tile 17: "O segundo Conduíte mais poderoso
    entre os possíveis, se houver", then dam and powerhouse links (nothing built: ignored), code 9A. 6
    excavators: values 3, 2 and 1 are possible; the most powerful is 3, the second 2: 6B, 7A, 8B, 10A.
    From 9A: 9A, 9B, 10A: 10A, for 4 excavators."""
    s = scenario(actions=19, criteria=17)
    d = decide(s)
    assert d.action == "construction" and d.target == "10A"
    assert invested(d)["excavators"] == 4


# 16 ------------------------------------------------------------------------------------------
def test_maintenance_turns_a_loaded_wheel_for_free_instead_of_the_bank():
    """As scenario 2 (round 5, production, the Mountains Base and the Machinery Shop all impossible), but
    the wheel holds a Base tile one segment from the entry: "Se a Roda de Construção não estiver vazia
    ..., o Autômato coloca 1 Engenheiro na Oficina para girá-la um segmento" (no VP). The tile comes back."""
    s = scenario(actions=4, criteria=3, round_=5)
    s.companies["usa"].excavators = 0
    s.companies["usa"].tiles.remove("dam_base")
    s.companies["usa"].wheel[1] = Segment(tiles=["dam_base"])
    d = decide(s)
    assert d.action == "workshop" and d.engineers == 1 and d.vp_delta == 0
    assert "dam_base" in apply_decision(s, d).companies["usa"].tiles


# 17 ------------------------------------------------------------------------------------------
def test_the_board_bonus_counts_in_the_contract_condition_so_only_medium_produces():
    """Tile 3: production -1 green. 2L (1 drop) - 2A (3) - P6_0, and a second powerhouse P11_0. "O
    potencial máximo de energia produzível (incluindo o bônus/penalidade de produção indicado na ficha)"
    with "eventualmente o bônus ativado no Tabuleiro da Companhia": Medium 3 - 1 + 1 = 3, a green 3 is
    reached, it produces and takes the right one of the two 3s (206). Easy has no board bonus: 2 < 3, "se
    uma delas não for satisfeita, o Autômato não produzirá"; it goes on to the Contract Office."""
    s = scenario(actions=3, criteria=1)
    dam(s, "2L", "usa", drops=1)
    conduit(s, "2A", "usa")
    powerhouse(s, "P6_0", "usa")
    powerhouse(s, "P11_0", "usa")
    s.energy["france"] = 3
    d = decide(s)
    assert d.action == "production" and [op["delta"] for op in ops(d, "energy")] == [3]
    assert [op["contract"] for op in ops(d, "fulfil")] == [206]
    d = decide(easy(s))
    assert d.action != "production" and ops(d, "discard_contracts")
    assert traced(d, "Contract Requirement: best production is 2 energy")


# 18 ------------------------------------------------------------------------------------------
def test_two_drops_go_one_by_one_to_the_first_letter_that_still_reaches_an_own_dam():
    """Tile 1: Water Management of 2 drops (not flowing). Own dams: 1L (2 pieces, empty, under A) and 3L
    (1 piece, empty, under C). "O Autômato sempre tentará receber o maior número de peças": 2 either way
    (A + A, or C + A). "Se a primeira letra se referir a uma das Nascentes possíveis, coloquem a peça de
    Gota D'água ali, e assim por diante": Criteria of tile 3 (C, D, A): the first drop on C, which then
    holds no more, the second on A. Criteria of tile 4 (D, A, B; C unlisted, last): D reaches nothing, so
    both on A."""
    for criteria, expected in ((3, {"A": 1, "B": 0, "C": 1, "D": 0}), (4, {"A": 2, "B": 0, "C": 0, "D": 0})):
        s = scenario(actions=1, criteria=criteria)
        dam(s, "1L", "usa", pieces=2)
        dam(s, "3L", "usa")
        s.companies["usa"].tiles = ["conduit", "powerhouse"]
        d = decide(s)
        assert traced(d, "placed 2 drop(s)")
        assert apply_decision(s, d).headstreams == expected


# 19 ------------------------------------------------------------------------------------------
def test_powerhouse_feeding_an_own_dam_through_empty_basins_only():
    """Tile 16: production red (no conduit: no system), Contract Office red (dashed, done), a Powerhouse;
    Criteria of tile 1 (powerhouse: "Uma Usina de Energia que alimenta uma Represa do Autômato (através de
    bacias sem outras Represas)", most powerful built conduit, owned dam; code 5). The Automa's dam is 9L.
    Group 9 flows into basin 9; group 5 flows into basin 5, empty, and on through group 9 to basin 9: both
    feed 9L. Nothing built matches criteria 2-3; code 5: P5_0. With France's dam on 5L, group 5's water
    meets "outras Represas" first: only group 9 is left, P9_0."""
    s = scenario(actions=16, criteria=1)
    dam(s, "9L", "usa", drops=1)
    d = decide(s)
    assert d.action == "construction" and d.target == "P5_0"
    assert traced(d, "keeps P5_0, P5_1, P9_0, P9_1, P9_2 (feeding an owned dam)")
    dam(s, "5L", "france")
    d = decide(s)
    assert d.action == "construction" and d.target == "P9_0"
    assert traced(d, "keeps P9_0, P9_1, P9_2 (feeding an owned dam)")


# 20 ------------------------------------------------------------------------------------------
def test_income_phase_pays_medium_its_uncovered_board_incomes_and_easy_nothing():
    """USA with 2 conduits built (9A, 10A) has uncovered its conduit track's first income, 3 VP (USA board).
    "A Fase de Receita e Nascentes é jogada como de costume. Os Autômatos receberão a receita ativada nos
    seus Tabuleiros da Companhia": Medium scores 3 VP (credits would be VP too). Easy: "Jogadores
    Autômatos nunca recebem receita do seu próprio Tabuleiro da Companhia": nothing."""
    from automa.barrage.phases import income_phase
    s = scenario(actions=1, criteria=3)
    conduit(s, "9A", "usa")
    conduit(s, "10A", "usa")
    vp = s.companies["usa"].vp
    income_phase(s)
    assert s.companies["usa"].vp == vp + 3
    s = easy(scenario(actions=1, criteria=3))
    conduit(s, "9A", "usa")
    conduit(s, "10A", "usa")
    assert income_phase(s) == [] and s.companies["usa"].vp == vp


# 21 ------------------------------------------------------------------------------------------
def test_the_tiles_value_restriction_overrides_the_third_structure_rule():
    """Tile 9: production (6L has water but no conduit), Water Management (6L, one piece, already full),
    a Conduit of value 3 or more; Criteria of tile 1. Own 6L and P7_0 would make a system with 6B, worth
    2: "Alguns símbolos de ação indicam uma restrição específica à estrutura ...; essa restrição supera
    qualquer um dos critérios". Eligible with 6 excavators: the value-3 conduits 2A, 3B, 4A, 5A, 7B, 8A,
    9B, none completing a system. "O Conduíte mais poderoso": all (3); "ligado a uma Represa": none built
    on their basins, ignored; "ligado a uma Usina de Energia do Autômato / de um oponente": 4A leads to
    group 7, where P7_0 stands."""
    s = scenario(actions=9, criteria=1)
    dam(s, "6L", "usa", drops=1)
    powerhouse(s, "P7_0", "usa")
    d = decide(s)
    assert d.action == "construction" and d.target == "4A"
    assert traced(d, "no eligible space would complete a system")
    assert traced(d, "keeps 4A (linked to an owned powerhouse")
