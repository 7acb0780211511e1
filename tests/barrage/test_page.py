"""The Automa's "Why?" trace on Barrage's page in the page's language.

The engine writes each trace line as an English template and its values (``automa.common.trace``);
the page says it through its catalogue (``web/barrage/translations``), the engine's English unchanged.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from automa.barrage import criteria, ops, words
from automa.barrage.engine import action_label, decide
from automa.barrage.selfplay import play
from automa.common.trace import Text, said

CATALOGUES = Path(__file__).resolve().parents[2] / "web" / "barrage" / "translations"


def decision_in(client, lang: str) -> dict:
    """Seed 7's first turn (the Red Automa, usa), as the page gets it in ``lang``."""
    res = client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human", "seed": "7"})
    assert res.status_code == 201, res.json
    return client.get(f"/barrage/api/sessions/{res.json['id']}?lang={lang}").json["decision"]


def test_the_why_trace_is_in_portuguese_with_pt_br(client):
    en, pt = decision_in(client, "en"), decision_in(client, "pt_BR")
    flipped, actions = en["tiles"]["criteria"], en["tiles"]["actions"]
    first = f"flipped tile {flipped}: Actions side of tile {actions}, Criteria side of tile {flipped}"
    assert en["trace"][0] == first                                   # the engine's English, as before
    assert pt["trace"][0] == f"virou a ficha {flipped}: lado de Ação da ficha {actions}, lado de Critérios da ficha {flipped}"
    assert "2. Escritório de Contratos (descarte: verde)" in pt["trace"]
    assert "3. Construção de uma Base de Represa (2 engenheiros)" in pt["trace"]
    assert "      Construir no 8U." in pt["trace"]                     # the depth stays
    assert first not in pt["trace"] and "2. Contract Office (discard green)" not in pt["trace"]
    assert len(pt["trace"]) == len(en["trace"])


def test_the_why_trace_is_in_polish_with_pl(client):
    en, pl = decision_in(client, "en"), decision_in(client, "pl")
    flipped, actions = en["tiles"]["criteria"], en["tiles"]["actions"]
    assert pl["trace"][0] == f"odwrócony kafelek {flipped}: strona Akcji kafelka {actions}, strona Kryteriów kafelka {flipped}"
    assert "2. Biuro Kontraktów (odrzuć: zielony)" in pl["trace"]
    assert "  odrzuciła kontrakty (kolor: zielony) [211, 205]; energia +2" in pl["trace"]
    assert "  discarded green contracts [211, 205]; energy +2" in en["trace"]
    assert not set(pl["trace"]) & set(en["trace"])


def translations(lang: str) -> dict[str, str]:
    with (CATALOGUES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {m.id: m.string for m in read_po(f, locale=lang) if m.id}


def templates(value) -> set[str]:
    """The templates a trace line's words use: its own and its values', all the way down."""
    if isinstance(value, Text):
        return {value.template}.union(*(templates(v) for v in value.values.values()))
    if isinstance(value, (list, tuple)):
        return set().union(*(templates(v) for v in value))
    return set()


@pytest.fixture(scope="module")
def game_decisions() -> list:
    """Every decision of three whole games: each level, officers, the Leeghwater Project."""
    games = [{"levels": ["easy", "medium", "hard"]},
             {"levels": ["very-hard", "very-hard", "hard"], "officers": ["luciani", "grasso", None], "leeghwater": True},
             {"levels": ["very-hard", "very-hard", "very-hard"], "officers": ["spencer", "fouche", "adler"],
              "leeghwater": True}]
    return [ev.decision for i, g in enumerate(games) for ev in play(automas=3, humans=1, seed=i, **g) if ev.decision]


@pytest.mark.parametrize("lang", ["pt_BR", "pl"])
def test_every_template_of_a_games_traces_is_translated(game_decisions, lang):
    """Each template the traces of whole games use (values' words included) has a translation, and
    a decision's trace said in the language has the English lines' number and indentation."""
    catalogue = translations(lang)
    used = set().union(*(templates(line.text) for d in game_decisions for line in d.trace))
    assert len(used) > 60
    assert not {t for t in used if not catalogue.get(t)}
    for d in game_decisions[:40]:
        lines = said(d.to_dict()["trace_words"], lambda t: catalogue.get(t) or t)
        assert [len(s) - len(s.lstrip(" ")) for s in lines] == [len(s) - len(s.lstrip(" ")) for s in d.trace]


def test_a_decision_keeps_its_trace_words_in_json_and_says_them_in_english(game_decisions):
    for d in game_decisions:
        data = json.loads(json.dumps(d.to_dict()))
        assert said(data["trace_words"]) == data["trace"] == list(d.trace)


def test_the_trace_words_are_the_players_english():
    """The words a trace puts in a line say what ops.describe and the criteria's docstrings say."""
    for structure in ("dam_base", "elevation", "conduit", "powerhouse", "building"):
        assert str(words.A_STRUCTURE[structure]) == ops.a_name(structure)
        assert str(words.STRUCTURE[structure]) == ops.NAMES.get(structure, structure)
    for n in (1, 2, 5):
        assert str(words.engineers(n)) == ops.plural(n, "engineer")
        assert str(words.drops(n)) == ops.plural(n, "drop")
        assert str(words.segments(n)) == ops.plural(n, "segment")
    for column, found in criteria.CRITERIA.items():
        for cid, criterion in found.items():
            assert str(criteria.title(column, cid)) == criterion.__doc__.strip().splitlines()[0]


def test_joined_words_say_each_item_in_the_language():
    catalogue = {"{first}; or {rest}": "{first}; ou {rest}", "excavator": "escavador", "mixer": "betoneira"}
    ways = words.or_else([words.MACHINE["excavator"], words.MACHINE["mixer"], "3"])
    assert str(ways) == "excavator; or mixer; or 3"
    assert ways.say(lambda t: catalogue.get(t, t)) == "escavador; ou betoneira; ou 3"
    assert words.semicolons(["a"]) == "a" and words.commas([]) == ""


def test_an_actions_printed_parameters_in_words():
    assert action_label({"type": "production", "engineers": 2, "modifier": 2, "contract_colour": "green"}) == \
        " (2 engineers, +2, green contract)"
    assert action_label({"type": "construction", "structure": "dam_base", "engineers": 1,
                         "area_restriction": "mountains"}) == " of a Dam Base in the mountains (1 engineer)"
    assert action_label({"type": "machinery_shop", "machinery": ["excavator", "mixer"], "vp_change": -1,
                         "engineers": 1}) == " (excavator+mixer, -1 VP)"
    assert action_label({"type": "bank", "engineers": 1}) == ""


def test_a_failed_conditions_reason_is_words_in_the_trace():
    """A condition that fails is a trace line's value: said in the language inside its line."""
    from automa.barrage.setup import new_game

    state = new_game(automas=1, humans=1, seed=7)
    d = decide(state)
    pt = translations("pt_BR")
    lines = said(d.to_dict()["trace_words"], lambda t: pt.get(t) or t)
    reason = "Production System Ready: no own or neutral dam with water linked by a conduit to an own powerhouse"
    assert d.trace[2] == f"  not possible: {reason}"          # tile 3 tries a production first: no system yet
    assert lines[2] == f"  não é possível: {pt[reason]}" and pt[reason].startswith("Sistema de Produção Pronto")
