"""The Barrage Automa's sentence and moves in the page's language (``web.barrage.say``): composed per
step from the decision's steps and ops, word for word the engine's English (with the spaces
named by ``automa.barrage.names.in_words``) in English, and translated with the decision's own
values in Brazilian Portuguese and Polish; the spaces' names too."""
from __future__ import annotations

from functools import cache

import pytest

from automa.barrage.data import barrage_map
from automa.barrage.names import in_words, space_name
from automa.barrage.ops import SECTION_NAMES
from automa.barrage.selfplay import play
from web.barrage import say

OFFICERS = ["adler", "del-monte", "fiesler", "mcdowell", "jordan", "krylov", "sekibo", "luciani", "battista",
            "spencer", "fouche", "audia", "grasso"]


@cache
def decisions() -> tuple[dict, ...]:
    """Every decision of whole self-played games: 1 to 3 Automas, every officer, the expansion."""
    out = []
    for seed in range(len(OFFICERS)):
        k = 1 + seed % 3
        out += [ev.decision.to_dict() for ev in play(automas=k, humans=1, seed=seed, leeghwater=True,
                                                       levels=["very-hard"] * k,
                                                       officers=[OFFICERS[(seed + i) % len(OFFICERS)] for i in range(k)])
                if ev.decision is not None]
    return tuple(out)


def in_lang(app, lang: str, fn, *args):
    with app.test_request_context(f"/?lang={lang}"):
        return fn(*args)


def test_in_english_every_sentence_is_the_engines_with_the_spaces_named(app):
    kinds = set()
    for d in decisions():
        kinds |= {s["action"] for s in d["steps"]} | ({"sekibo"} if d["human_first_action"] else set()) \
            | ({"no engineer"} if not d["steps"] and not d["human_first_action"] else set())
        shown = in_lang(app, "en", say.said, d)
        assert (shown["summary"], shown["instruction"]) == (in_words(d["summary"]), in_words(d["instruction"]))
        assert shown["moves"] == [in_words(m) for m in d["moves"]]
    assert {"construction", "production", "water_management", "contract_office", "workshop", "machinery_shop",
            "patent_office", "external_work", "sekibo"} <= kinds


def test_every_sentence_and_move_is_translated(app):
    for d in decisions()[:200]:
        for lang in ("pt_BR", "pl"):
            shown = in_lang(app, lang, say.said, d)
            assert shown["instruction"] != in_words(d["instruction"]), (lang, d["instruction"])
            assert not set(shown["moves"]) & {in_words(m) for m in d["moves"]}, (lang, d["moves"])


def test_every_space_is_named_in_english_as_the_engine_names_it(app):
    board = barrage_map()
    for space in [*board.dams, *board.conduits, *board.powerhouses, *board.headstreams, "lake:4U", "XX"]:
        assert in_lang(app, "en", say.space_name, space) == space_name(space)
    assert set(SECTION_NAMES) <= set(say.SECTIONS)          # every section the engine names has words here


@pytest.mark.parametrize("lang, dam, conduit, powerhouse, place", [
    ("pt_BR", "espaço de represa contornado em vermelho da bacia 8, Planícies",
     "espaço de conduíte A (valor 3) da bacia 5, Colinas", "1º espaço de usina de energia do grupo 8, Planícies",
     "Oficina, 2º espaço (3 engenheiros)"),
    ("pl", "pole tamy z czerwoną obwódką w dorzeczu 8, Równiny", "pole kanału A (wartość 3) w dorzeczu 5, Wzgórza",
     "1. pole elektrowni w grupie 8, Równiny", "Warsztat, 2. pole (inżynierowie: 3)"),
])
def test_spaces_in_other_languages(app, lang, dam, conduit, powerhouse, place):
    board = barrage_map()
    assert (board.dams["8U"].red, board.conduits["5A"].value, board.powerhouses["P8_0"].index) == (True, 3, 0)
    assert in_lang(app, lang, say.space_name, "8U") == dam
    assert in_lang(app, lang, say.with_code, "5A") == f"{conduit} (5A)"
    assert in_lang(app, lang, say.space_name, "P8_0") == powerhouse
    assert in_lang(app, lang, say.board_place, "workshop", "r2") == place
    assert in_lang(app, "en", say.board_place, "workshop", "r2") == "the Workshop's 2nd space (3 engineers)"


def test_the_page_gives_the_turn_in_the_chosen_language(client, session_id):
    """Seed 7's first turn: the Red Automa discards the green contracts, then builds a Dam Base on 8U."""
    views = {lang: client.get(f"/barrage/api/sessions/{session_id}?lang={lang}").json for lang in ("en", "pt_BR", "pl")}
    d = views["en"]["decision"]
    assert [s["action"] for s in d["steps"]] == ["contract_office", "construction"] and d["vp_delta"] == -3
    assert d["instruction"] == (
        "Red Automa (usa): Discard the green contracts and move energy +2, 1 engineer on the Contract Office's 1st "
        "space (1 engineer); then build a Dam Base on the red-outlined dam space of basin 8, Plains (8U), 2 engineers "
        "on the Company board (3 engineers, -3 VP in all).")
    assert views["pt_BR"]["decision"]["instruction"] == (
        "Autômato vermelho (usa): Descarte os contratos de cor verde e avance a energia +2, 1 engenheiro em: "
        "Escritório de Contratos, 1º espaço (1 engenheiro); depois construa uma Base de Represa no espaço de represa "
        "contornado em vermelho da bacia 8, Planícies (8U), 2 engenheiros em: Tabuleiro da Companhia (3 engenheiros, "
        "-3 PV no total).")
    assert views["pl"]["decision"]["summary"] == (
        "Odrzuć kontrakty (kolor: zielony) i przesuń znacznik energii o +2, 1 inżynier — Biuro Kontraktów, 1. pole "
        "(1 inżynier); potem zbuduj Podstawę Tamy: pole tamy z czerwoną obwódką w dorzeczu 8, Równiny (8U), "
        "inżynierowie: 2 — plansza Kompanii (inżynierowie: 3, łącznie -3 PZ).")
    assert views["pl"]["targets"] == ["pole tamy z czerwoną obwódką w dorzeczu 8, Równiny (8U)"]
    assert views["en"]["targets"] == ["the red-outlined dam space of basin 8, Plains (8U)"]
    # the moves one a line, translated too, and the trace line by line (tests/barrage/test_page.py)
    assert d["moves"][6:9] == ["usa: put the Dam Base tile and 3 excavators on the construction wheel",
                               "usa: turn the construction wheel 1 segment",
                               "usa: place a Dam Base on the red-outlined dam space of basin 8, Plains (8U)"]
    assert views["pt_BR"]["decision"]["moves"][6:9] == [
        "usa: coloque a ficha Base de Represa e 3 escavadores na roda de construção",
        "usa: gire a roda de construção 1 segmento",
        "usa: coloque uma Base de Represa no espaço de represa contornado em vermelho da bacia 8, Planícies (8U)"]
    assert views["pl"]["decision"]["moves"][8] == \
        "usa: połóż Podstawę Tamy: pole tamy z czerwoną obwódką w dorzeczu 8, Równiny (8U)"
    assert len(views["pl"]["decision"]["trace"]) == len(d["trace"]) and views["pl"]["decision"]["trace"][0] != d["trace"][0]


def test_sekibos_tile_and_a_pass_are_said_in_each_language(app):
    sekibo = next(d for d in decisions() if d["human_first_action"])
    info = sekibo["human_first_action"]
    pt = in_lang(app, "pt_BR", say.instruction, sekibo)
    assert pt.startswith(f"Jogador {in_lang(app, 'pt_BR', lambda: str(say.COLOURS[sekibo['colour']]))} "
                         f"({sekibo['automa']}), regra de Sekibo: sua primeira ação nesta rodada é decidida pela ficha "
                         f"de Autômato {info['tile']}: ")
    passed = {"colour": "red", "automa": "usa", "steps": [], "human_first_action": None}
    assert in_lang(app, "en", say.instruction, passed) == "Red Automa (usa) has no engineer left and passes."
    assert in_lang(app, "pl", say.instruction, passed) == "Automa (usa, kolor czerwony) nie ma już inżynierów i pasuje."
