"""The Automa's instruction in the page's language (``web.age_of_innovation.say``): composed
from the decision's sentences as data, word for word the engine's English in English, and
translated with the decision's own values in Brazilian Portuguese and Polish."""
from __future__ import annotations

from collections import Counter
from functools import cache

from automa.age_of_innovation.data import factions
from automa.age_of_innovation.selfplay import play
from automa.age_of_innovation.turn import decide
from automa.common import hexgrid as hx
from automa.games import get
from tests.pages import state_of
from web.age_of_innovation.say import SENTENCES, instruction

from .scenario import at, later_turn, table

GAME = get("age-of-innovation")
ROWS = ["PPPPP", "PPLPP", "PPPPP"]
BUILT = [((1, 0), "automa", "workshop", True), ((3, 2), "automa", "workshop"), ((0, 2), "player", "workshop")]


def said(app, lang: str, decision: dict, board) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        return instruction(decision, board)


@cache
def games() -> tuple:
    """Whole self-played games: every faction once, and the two players' variant."""
    out = []
    for i, faction in enumerate([*sorted(factions()), "simpletons"]):
        options = {"seed": i, "level": 1 + i % 5, "faction": faction, "player_terrain": "forest",
                   "players": 2 if i == len(factions()) else 1}
        if "youth_terrain" in factions()[faction].setup:
            options["youth_terrain"] = "desert"
        out += [ev for ev in play(GAME.new_game(options), max_turns=2000) if ev.decision]
    return tuple(out)


def test_in_english_every_decision_of_whole_games_reads_as_the_engines_sentence(app):
    kinds = Counter()
    for ev in games():
        d = ev.decision
        assert d["sentences"], d["instruction"]
        kinds.update(s["kind"] for s in d["sentences"])
        assert said(app, "en", d, ev.state.board) == d["instruction"]
    # the games went through the common sentences (the rare ones are pinned below)
    assert kinds["setup"] + kinds["setup_by_hand"] and {"score", "build", "upgrade", "scholar", "advance", "cover", "pass", "bonus_tile",
            "rebuild_deck", "round_end", "final_scoring"} <= set(kinds)
    assert set(kinds) <= set(SENTENCES)


def test_every_sentence_is_translated_in_both_languages(app):
    for ev in games():
        d = ev.decision
        for lang in ("pt_BR", "pl"):
            assert said(app, lang, d, ev.state.board) != d["instruction"], (lang, d["instruction"])


def test_a_build_names_the_target_hex_in_each_language(app):
    for ev in games():
        d = ev.decision
        build = next((s for s in d["sentences"] if s["kind"] == "build" and not s["transform"]), None)
        if build:
            break
    col, row = hx.axial_to_offset(tuple(build["hex"]), ev.state.board.layout)
    where = {"en": f"row {row + 1}, hex {col + 1}", "pt_BR": f"linha {row + 1}, hexágono {col + 1}",
             "pl": f"rząd {row + 1}, heks {col + 1}"}
    start = {"en": f"Build an Automa workshop on {where['en']}", "pt_BR": f"Construa uma oficina da Automa em "
             f"{where['pt_BR']}", "pl": f"Zbuduj Warsztat Automy na polu {where['pl']}"}
    for lang in where:
        assert start[lang] in said(app, lang, d, ev.state.board)


def test_a_pass_gives_the_tile_and_its_coins_in_each_language(app):
    s = later_turn(table(ROWS, BUILT, round=2), action=4, support=2, pile=(1, 3), sideways=(4, 1))
    s.bonus_line, s.automa.bonus_tile = [11, None, 12, 13, None], 14
    s.bonus_coins = {11: 1, 12: 2, 13: 1}
    d = decide(s).to_dict()
    pts = next(x["points"] for x in d["sentences"] if x["kind"] == "pass")
    assert said(app, "en", d, s.board) == d["instruction"]
    pt = said(app, "pt_BR", d, s.board)
    assert f"A Automa passa e marca {pts} PV" in pt and "A Automa pega o marcador de bônus de rodada 12 (meio, " \
        "posição 3 da fileira), devolvendo as 2 moedas dele ao estoque e deixa o marcador 14 no lugar dele." in pt
    pl = said(app, "pl", d, s.board)
    assert f"Automa pasuje i zdobywa {pts} PZ" in pl and "żeton Premii Rundy 12 (środkowy, pozycja 3 w rzędzie)" in pl \
        and "monety (2)" in pl and "żeton 14" in pl


def test_without_the_automas_buildings_the_parameters_are_translated(app):
    s = later_turn(table(["PPP"], [], terrain="lake", level=2, round=3), action=4, support=3, pile=(1,))
    d = decide(s).to_dict()
    assert d["sentences"][0]["kind"] == "by_hand_transform_and_build"
    assert said(app, "en", d, s.board) == d["instruction"]
    pl = said(app, "pl", d, s.board)
    assert "w Zasięgu (nawigacja 1) nieoznaczonych budynków Automy, zbliżając budynki oznaczone i nieoznaczone" in pl
    assert "Priorytet Terenu, rząd B (Jezioro, Las, Bagno" in pl and "od lewej do prawej 3" in pl
    pt = said(app, "pt_BR", d, s.board)
    assert "ao alcance (navegação 1) das construções não marcadas da Automa" in pt
    assert "linha B (lago, floresta, pântano" in pt and "da esquerda para a direita 3" in pt


def test_the_initial_workshops_are_named_by_row_and_hex_in_each_language(app):
    """Seed 002's example: A (marked) on the first hex of row 1, B on the second hex of row 3."""
    s = table(["WPPWP", "PPPPP", "PWPPP"], [((1, 1), "player", "workshop")], terrain="wasteland")
    s.phase = "setup"
    s.board.setup_letters = {"wasteland": {"A": at(0, 0), "B": at(1, 2), "C": at(3, 0)}}
    s.setup_card = 1
    d = decide(s).to_dict()
    assert said(app, "en", d, s.board) == d["instruction"] == \
        "Place the Automa's initial workshops on row 1, hex 1 (A, with a power token) and row 3, hex 2 (B)."
    assert said(app, "pl", d, s.board) == \
        "Umieść początkowe Warsztaty Automy na polach: rząd 1, heks 1 (A, ze znacznikiem Mocy) i rząd 3, heks 2 (B)."
    assert said(app, "pt_BR", d, s.board) == "Coloque as oficinas iniciais da Automa em linha 1, hexágono 1 " \
        "(A, com um marcador de poder) e linha 3, hexágono 2 (B)."


def test_a_decision_without_sentences_keeps_the_engines_english(app):
    d = {"instruction": "Something the engine said.", "sentences": [{"kind": "unknown"}]}
    assert said(app, "pl", d, None) == "Something the engine said."


def test_the_page_shows_the_instruction_in_the_chosen_language(app):
    client = app.test_client()
    res = client.post("/age-of-innovation/new", data={"level": "2", "seed": "8", "player_terrain": "forest",
                                                      "terrain": "lake"})
    url = res.headers["Location"]
    html = {lang: client.get(f"{url}?lang={lang}").get_data(as_text=True) for lang in ("en", "pl", "pt_BR")}
    sentence = next(x for x in decide(state_of(app, url)).to_dict()["sentences"])
    assert sentence["kind"] == "setup_by_hand"          # the page's map has no set-up letters
    m, u = sentence["marked"], sentence["unmarked"]
    assert f"Place the Automa&#39;s initial workshops on the lake hexes marked {m} (with a power token) and {u} " \
           "on the Initial Workshop Setup card" in html["en"]
    assert f"Umieść początkowe Warsztaty Automy na heksach terenu Jezioro oznaczonych na Karcie Przygotowania " \
           f"Początkowego Warsztatu literami {m} (ze znacznikiem Mocy) i {u}, i zaznacz je na mapie." in html["pl"]
    assert f"Coloque as oficinas iniciais da Automa nos hexágonos de lago marcados {m} (com um marcador de poder) " \
           f"e {u} na carta" in html["pt_BR"]
