"""Every worked example of the Barrage Automa rulebook, with the rulebook's numbers.

Seeds: 000 (Portuguese rulebook, which carries the illustrated examples) and
004 (English). Each test quotes the example it reproduces.
"""
from automa.barrage.engine import apply_decision, decide
from automa.barrage.state import Segment, validate

from .scenario import conduit, dam, powerhouse, scenario, set_contracts, set_tiles


def test_production_example_red_automa_with_plus_two_tile():
    """000, Ação de Produção: "O Autômato vermelho tem um sistema pronto para produzir: uma Usina de
    Energia conectada por um Conduíte de valor 3 a uma Represa vermelha que armazena 2 peças de Gota
    D'água (1). O Autômato ainda não é o primeiro na Trilha de Energia (2). Com o bônus de +2 indicado
    pela ficha de Ação, este sistema produziria 8 Unidades de Energia, o suficiente para cumprir pelo
    menos um dos Contratos Verdes disponíveis (3). O Autômato vai produzir e cumprir o Contrato vermelho
    de valor 8 à direita."  Tile 17 is a +2 production for a green contract."""
    s = scenario("usa", ("france",), actions=17, criteria=1)
    dam(s, "2L", "usa", pieces=2, drops=2)
    conduit(s, "2A", "usa")                 # value 3, to powerhouse group 6
    powerhouse(s, "P6_0", "usa")
    s.energy = {"usa": 0, "france": 4}      # not first on the energy track
    set_contracts(s, "red", [400, 404])     # two red 8s: the right one is fulfilled
    d = decide(s)
    assert d.action == "production"
    energy = [op for op in d.ops if op["op"] == "energy"]
    assert energy[0]["delta"] == 8, "2 drops x value 3 + 2 from the tile"
    assert [op["contract"] for op in d.ops if op["op"] == "fulfil"] == [404]
    after = apply_decision(s, d)
    assert 404 in after.companies["usa"].contracts
    assert after.dams["2L"].drops == 0
    assert after.energy["usa"] >= 8
    assert after.contract_office.private["red"][1] not in (None, 404), "the fulfilled contract is replaced"
    assert d.engineers == 2


def test_water_example_dam_holding_one_drop_gets_one():
    """000, Ação de Gestão de Água: "Esta Represa vermelha do Autômato só pode conter 1 Gota D'água. O
    Autômato deve colocá-la na Nascente correspondente." (a 2-drop action places only 1: "any exceeding
    Water Drop will not be placed", 004)."""
    s = scenario("usa", ("france",), actions=1, criteria=9)   # tile 1: Water Management, 2 drops
    dam(s, "3L", "usa", pieces=1)                              # headstream C feeds basin 3
    d = decide(s)
    placed = [op for op in d.ops if op["op"] == "drops" and op["source"] == "supply"]
    assert placed == [{"op": "drops", "source": "supply", "target": "headstream:C", "count": 1}]
    water = d.steps[0]
    assert water.action == "water_management" and water.engineers == 1
    eng = [op for op in d.ops if op["op"] == "engineers" and op["section"] == "water"]
    assert eng[0]["space"] == "p2", "first free Water Management space"


def test_water_example_first_drop_fills_someone_elses_dam():
    """000: "a Represa do Autômato vermelho nas Colinas pode ser enchida com uma peça de Gota D'água,
    depois que 1 peça de Gota D'água for contida pela Represa branca nas Montanhas. Se o Autômato tiver
    que colocar até 2 peças de Gota D'água, ele deve colocá-las na Nascente mais à direita." 004: "(This
    can mean filling someone else's dam with the first Water Drop)"."""
    s = scenario("usa", ("france",), actions=1, criteria=9)
    dam(s, "4L", "france", pieces=1)            # white dam in the Mountains, basin 4 (headstream D)
    dam(s, "7L", "usa", pieces=1)               # red dam in the Hills: basin 4 -> group 7 -> basin 7
    d = decide(s)
    placed = [op for op in d.ops if op["op"] == "drops" and op["source"] == "supply"]
    assert placed == [{"op": "drops", "source": "supply", "target": "headstream:D", "count": 2}]
    assert d.steps[0].action == "water_management"


def test_water_example_headstream_letters_break_ties():
    """000: "Entre as possíveis Nascentes onde as peças de Gota D'água podem ser colocadas, a Nascente A
    será escolhida primeiro, depois a B, depois a C." (tile letters A, B, C)."""
    s = scenario("usa", ("france",), actions=2, criteria=9)    # tile 2: 1 drop that flows now; tile 9 letters A B C
    dam(s, "8U", "usa", pieces=1)     # reached from A (basin 1 -> group 8 -> basin 8)
    dam(s, "9U", "usa", pieces=1)     # reached from B (2 -> 5 -> 9)
    d = decide(s)
    moves = [(op["source"], op["target"]) for op in d.ops if op["op"] == "drops"]
    assert moves[:2] == [("supply", "headstream:A"), ("headstream:A", "dam:8U")], "the drop flows at once to 8U"
    s2 = scenario("usa", ("france",), actions=2, criteria=2)   # tile 2 letters B C D: B first
    dam(s2, "8U", "usa", pieces=1)
    dam(s2, "9U", "usa", pieces=1)
    moves = [(op["source"], op["target"]) for op in decide(s2).ops if op["op"] == "drops"]
    assert moves[:2] == [("supply", "headstream:B"), ("headstream:B", "dam:9U")]


def test_contract_office_example_discards_two_greens_and_moves_energy_two():
    """000, Ação do Escritório de Contratos: "Com a ação mostrada, o Autômato deve descartar (e então
    substituir) os 2 Contratos verdes disponíveis no Escritório de Contratos. Então, o marcador de
    Energia vermelho é movido 2 casas." 004: "its turn continues"."""
    s = scenario("usa", ("france",), actions=3, criteria=1)    # tile 3: Contract Office, green
    before = list(s.contract_office.private["green"])
    d = decide(s)
    assert d.steps[0].action == "contract_office"
    assert len(d.steps) == 2, "the dashed Contract Office action does not end the turn"
    after = apply_decision(s, d)
    assert set(before) <= set(after.contract_office.discards["green"])
    assert None not in after.contract_office.private["green"]
    assert not set(before) & set(after.contract_office.private["green"])
    assert [op["delta"] for op in d.ops if op["op"] == "energy"][:1] == [2]


def test_base_building_example():
    """000, Ação de Construção: "O Autômato deve construir uma Base. Ele tem uma peça de Base (1), a ficha
    de Tecnologia correspondente (2) e 5 Escavadores (3) disponíveis. Além disso, há um espaço de
    construção disponível para a Base no Mapa (4). O Autômato vai construí-la." Tile 4 builds a base in
    the Mountains, which costs 5 excavators."""
    s = scenario("usa", ("france", "italy"), actions=4, criteria=1)
    s.companies["usa"].excavators = 5
    for space in ("1U", "1L", "2U", "2L", "3U", "3L", "4U"):
        dam(s, space, "france" if space.endswith("U") else "italy")
    d = decide(s)
    assert d.action == "construction" and d.target == "4L", "the one free Mountains space"
    after = apply_decision(s, d)
    usa = after.companies["usa"]
    assert usa.excavators == 0 and usa.structures["dam_base"] == 4
    assert usa.wheel[5].excavators == 5 and "dam_base" in usa.wheel[5].tiles, "invested, then the wheel turned once"
    assert d.engineers == 2
    assert [op for op in d.ops if op["op"] == "engineers"][0]["section"] == "company"


def test_construction_engineers_go_on_the_company_board_every_time():
    """000: "A primeira ação de construção do Autômato vermelho na rodada atual requer 2 Engenheiros (1):
    ele deve colocar 2 Engenheiros no seu Tabuleiro da Companhia, ignorando o requerimento do espaço de
    ação (2). A segunda ação também requer 2 Engenheiros (3): o Autômato vai colocá-los no seu tabuleiro"."""
    s = scenario("usa", ("france",), actions=4, criteria=1)
    s.companies["usa"].tiles.append("L1_BASE")
    s.companies["usa"].excavators = 10
    d1 = decide(s)
    s1 = apply_decision(s, d1)
    set_tiles(s1, actions=4, criteria=2)
    d2 = decide(s1)
    s2 = apply_decision(s1, d2)
    assert d1.action == d2.action == "construction"
    board = s2.action_spaces["company"]["board"]
    assert [p.engineers for p in board] == [2, 2]


def test_workshop_example_two_engineers_first_free_space_then_later_in_the_round():
    """000, Oficina: "a ação da Oficina a ser realizada requer 2 Engenheiros (1). O Autômato vermelho
    colocará 2 Engenheiros no primeiro espaço de ação disponível na seção Oficina (2)." and later in the
    round "colocará os Engenheiros no primeiro espaço de ação disponível, ignorando este requerimento e
    também o custo adicional." Tile 5: Workshop, 2 engineers, 3 segments, -5 VP."""
    s = scenario("usa", ("france", "italy", "germany"), actions=5, criteria=1)
    usa = s.companies["usa"]
    usa.structures = {"dam_base": 5, "elevation": 0, "conduit": 0, "powerhouse": 4}   # constructions fail
    usa.wheel[1] = Segment(tiles=["conduit"], excavators=4)
    usa.wheel[3] = Segment(mixers=2)
    usa.tiles.remove("conduit")
    usa.excavators -= 4
    usa.mixers -= 2
    d = decide(s)
    assert d.action == "workshop" and d.vp_delta == -5
    eng = [op for op in d.ops if op["op"] == "engineers"]
    assert eng == [{"op": "engineers", "section": "workshop", "space": "r1", "count": 2, "company": "usa"}]
    after = apply_decision(s, d)
    assert "conduit" in after.companies["usa"].tiles and after.companies["usa"].excavators == 6 - 4 + 4
    assert after.companies["usa"].mixers == 4 - 2 + 2, "segments 1 and 3 reach the entry segment within 3 turns"
    from automa.barrage.state import Placement
    s.action_spaces["workshop"] = {sp: [Placement("france", 1)] for sp in ("r1", "r2", "r3")}
    d_late = decide(s)
    eng = [op for op in d_late.ops if op["op"] == "engineers"]
    assert eng[0]["space"] == "r1bis", "first free space after r1, r2, r3 (4 players)"


def test_machinery_shop_example_pays_five_for_two_different_machines():
    """000, Loja de Maquinário: "O Autômato vermelho paga 5 PVs para pegar 2 Maquinários diferentes."
    Tile 18: Machinery Shop, 2 engineers, excavator + mixer, -5 VP."""
    s = scenario("usa", ("france",), actions=18, criteria=1)
    usa = s.companies["usa"]
    usa.structures["dam_base"] = 0                      # its construction fails
    d = decide(s)
    assert d.action == "machinery_shop" and d.vp_delta == -5 and d.engineers == 2
    after = apply_decision(s, d)
    assert (after.companies["usa"].excavators, after.companies["usa"].mixers) == (7, 5)


def test_patent_office_example_takes_the_base_tile():
    """000, Escritório de Patentes: "A ficha de Autômato indica uma ficha de Tecnologia Avançada para
    construir Bases. Essa ficha está disponível no Escritório de Patentes, então o Autômato a pega."
    004: "Automa will place 1 Engineer, pay 2 VP". Tile 3's 4th action is the base patent."""
    s = scenario("usa", ("france",), actions=3, criteria=1)
    usa = s.companies["usa"]
    usa.structures["dam_base"] = 0
    s.patent_office.slots = ["L1_CONDUIT", "L1_BASE", "L1_JOKER"]
    d = decide(s)
    assert d.action == "patent_office" and d.target == "L1_BASE"
    assert d.steps[-1].vp_delta == -2 and d.steps[-1].engineers == 1
    eng = [op for op in d.ops if op["op"] == "engineers" and op["section"] == "patent"]
    assert eng[0]["space"] == "p2", "the engineer goes on the space of the tile's slot"
    after = apply_decision(s, d)
    assert "L1_BASE" in after.companies["usa"].tiles and after.patent_office.slots[1] is None
    validate(after)
