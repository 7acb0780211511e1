"""The Brasil Imperial page through Flask's test client: the card editor (saved, exported,
imported, validated), a new game, the Autômato's turn with the compass drawn, what the players
enter, stale clicks, undo, the whole game exported and imported, and never a 500 for a bad form."""
from __future__ import annotations

import io
import json
import re

import pytest

from automa.brasil_imperial.cards import dump_cards, example_cards
from automa.brasil_imperial.ops import apply_ops
from tests.pages import (
    automa_turn_history,
    exported_and_imported,
    import_file,
    seq,
    started,
    state_of,
)
from web import sessions
from web.services import services


def start(client, **form) -> str:
    return started(client, "/brasil-imperial",
                   {"p0_name": "you", "p0_capital": "green", "p1_name": "ana", "p1_capital": "blue", "seed": "5", **form})


def test_index_and_home_link_here(client):
    html = client.get("/brasil-imperial/").get_data(as_text=True)
    assert 'id="new-game"' in html and "example cards (not the printed ones)" in html
    assert "/brasil-imperial/" in client.get("/").get_data(as_text=True)


def test_a_new_game_shows_the_automas_turn_and_the_compass(client, app):
    url = start(client)
    html = client.get(url).get_data(as_text=True)
    s = state_of(app, url)
    assert f'id="compass" data-at="{s.compass_at[0]},{s.compass_at[1]}" data-heading="{s.heading}"' in html
    assert 'id="automa-done"' in html and 'id="instruction"' in html and "Turn the action pile face up" in html
    client.post(url + "/automa", data={"seq": seq(html)})
    after = state_of(app, url)
    assert after.turns == 1
    assert client.post(url + "/automa", data={"seq": seq(html)}).status_code == 409, "a second click is stale"
    html = client.get(url).get_data(as_text=True)
    assert f'data-at="{after.compass_at[0]},{after.compass_at[1]}"' in html
    client.post(url + "/undo")
    assert state_of(app, url).turns == 0
    for _ in range(2):
        client.post(url + "/automa", data={"seq": seq(client.get(url).get_data(as_text=True))})
    html = client.get(url).get_data(as_text=True)
    first = re.search(r'back-to" data-seq="(\d+)"', html).group(1)
    assert client.post(url + "/undo", data={"to": "x"}).status_code == 400
    client.post(url + "/undo", data={"to": first})
    assert state_of(app, url).turns == 0, "back to the state after the first step, any step back"


def test_the_players_enter_a_combat_result_and_pieces(client, app):
    url = start(client)
    for _ in range(30):
        html = client.get(url).get_data(as_text=True)
        if 'id="combat"' in html:
            break
        if 'id="automa-done"' in html:
            client.post(url + "/automa", data={"seq": seq(html)})
        elif 'id="reveal"' in html:
            client.post(url + "/table", data={"seq": seq(html), "action": "reveal", "kind": "quilombo"})
        elif 'id="mission"' in html:
            client.post(url + "/table", data={"seq": seq(html), "action": "mission", "era": "1", "obj0_number": "1",
                                              "obj0_kind": "city", "obj1_number": "2", "obj1_kind": "frame",
                                              "obj2_number": "3", "obj2_kind": "other"})
        s = state_of(app, url)
        if not s.pending and s.units_on_map():
            h = f"{s.compass_at[0] + 1},{s.compass_at[1]}"
            client.post(url + "/table", data={"seq": seq(client.get(url).get_data(as_text=True)), "action": "piece",
                                              "hex": h, "what": "unit", "player": "you", "vp": "2", "fc": "1"})
    assert 'id="combat"' in html, "a unit in the way starts a combat"
    before = state_of(app, url)
    res = client.post(url + "/table", data={"seq": seq(html), "action": "combat", "cards_power": "9",
                                            "player_total": "0"})
    assert res.status_code == 302
    after = state_of(app, url)
    assert after.pending is None and after.automa.combat_cards == before.automa.combat_cards - before.pending["cards"]


@pytest.mark.parametrize("form", [
    {"action": "piece", "hex": "99,99", "what": "unit", "player": "you"},
    {"action": "piece", "hex": "abc", "what": "unit", "player": "you"},
    {"action": "piece", "hex": "0,0", "what": "dragon", "player": "you"},
    {"action": "piece", "hex": "0,0", "what": "unit", "player": "nobody"},
    {"action": "piece", "hex": "3,-3", "what": "terrain", "terrain": "water"},
    {"action": "piece", "hex": "0,0", "what": "terrain", "terrain": "lava"},
    {"action": "reveal", "kind": "flag"},
    {"action": "combat", "player_total": "x"},
    {"action": "final", "gold_vp": "1 2 3"},
    {"action": "nonsense"},
])
def test_bad_table_forms_are_named_not_crashes(client, form):
    url = start(client)
    html = client.get(url).get_data(as_text=True)
    res = client.post(url + "/table", data={"seq": seq(html), **form})
    assert res.status_code == 400 and 'id="errors"' in res.get_data(as_text=True)


def test_the_card_editor_saves_exports_and_imports(client, app):
    html = client.get("/brasil-imperial/cards/example").get_data(as_text=True)
    assert 'id="example-label"' in html and 'id="save-cards"' not in html
    assert client.post("/brasil-imperial/cards/example", data={}).status_code == 400
    assert client.post("/brasil-imperial/cards/copy", data={"name": "mine", "source": "example"}).status_code == 302
    html = client.get("/brasil-imperial/cards/mine").get_data(as_text=True)
    form = dict(re.findall(r'<select name="([^"]+)"[^>]*>.*?<option value="([^"]*)"[^>]*selected', html, re.S))
    form.update(dict(re.findall(r'<input name="(m\d+_(?:explore|moves))"[^>]*value="([^"]*)"', html)))
    form["a0_e0_r0"] = "gold"
    form["m0_moves"] = "1 1"
    assert client.post("/brasil-imperial/cards/mine", data=form).status_code == 302
    exported = json.loads(client.get("/brasil-imperial/cards/mine/export").get_data(as_text=True))
    assert exported["action"][0]["columns"][0][0] == "gold" and exported["movement"][0]["moves"] == [1, 1]
    assert not exported["example"]
    bad = dict(form, m0_moves="7")
    res = client.post("/brasil-imperial/cards/mine", data=bad)
    assert res.status_code == 400 and "digits 0-5" in res.get_data(as_text=True)
    res = client.post("/brasil-imperial/cards/import", data={"name": "again", "file": (io.BytesIO(
        json.dumps(exported).encode()), "cards.json")}, content_type="multipart/form-data")
    assert res.status_code == 302
    url = start(client, cards="again")
    assert state_of(app, url).cards.action[exported["action"][0]["id"]].columns[0][0].kind == "gold"


def test_an_import_with_a_bad_card_is_refused_by_name(client):
    raw = dump_cards(example_cards())
    raw["action"][2]["columns"][1][3] = "fly:away"
    res = client.post("/brasil-imperial/cards/import", data={"name": "bad", "file": (io.BytesIO(
        json.dumps(raw).encode()), "c.json")}, content_type="multipart/form-data")
    assert res.status_code == 400 and "unknown action" in res.get_data(as_text=True)
    for name in ("../etc", "example", ""):
        res = client.post("/brasil-imperial/cards/copy", data={"name": name, "source": "example"})
        assert res.status_code == 400
    assert client.get("/brasil-imperial/cards/nothing-here").status_code == 404


def test_the_page_and_the_editor_speak_portuguese_and_polish(client):
    assert "Brasil Imperial contra o Autômato" in client.get("/brasil-imperial/?lang=pt_BR").get_data(as_text=True)
    html = client.get("/brasil-imperial/cards/example?lang=pt_BR").get_data(as_text=True)
    assert "Cartas de Movimento" in html and "Construir: Fazenda" in html, "construction names from the board, in Portuguese"
    html = client.get("/brasil-imperial/cards/example?lang=pl").get_data(as_text=True)
    assert "Karty ruchu" in html


def test_a_mission_card_is_entered_with_objectives_in_parts(client, app):
    url = start(client)
    html = client.get(url).get_data(as_text=True)
    with app.app_context():          # the Autômato's action asked for its mission card
        cur = sessions.current("brasil-imperial", int(url.rsplit("/", 1)[1]))
        s = apply_ops(cur.state, [{"op": "await_mission", "era": 1}])
        sessions.record("brasil-imperial", cur.info.id, int(seq(html)), "table", "mission asked", s, {})
    html = client.get(url).get_data(as_text=True)
    assert 'id="mission"' in html and 'id="automa-done"' not in html, "the Autômato waits for its mission card"
    form = {"seq": seq(html), "action": "mission", "era": "1", "obj0_number": "1", "obj0_kind": "summon",
            "obj1_number": "2", "obj1_kind": "frame", "obj2_number": "2", "obj2_kind": "construction",
            "obj2_ref": "trading-post", "obj3_number": "3", "obj3_kind": "other"}
    assert client.post(url + "/table", data=form).status_code == 302
    parts = state_of(app, url).automa.missions[1]
    assert [(o.number, o.kind, o.ref) for o in parts] == [(1, "summon", None), (2, "frame", None),
                                                          (2, "construction", "trading-post"), (3, "other", None)]
    html = client.get(url).get_data(as_text=True)
    res = client.post(url + "/table", data={"seq": seq(html), "action": "objective", "era": "1", "index": "3",
                                            "done": "on"})
    assert res.status_code == 302 and state_of(app, url).automa.missions[1][2].done
    bad = dict(form, seq=seq(client.get(url).get_data(as_text=True)), obj3_number="")
    assert client.post(url + "/table", data=bad).status_code == 400, "objective 3 has no part"


def test_a_table_file_exported_from_a_game_starts_the_next_one(client, app):
    url = start(client)
    table = json.loads(client.get(url + "/table.json").get_data(as_text=True))
    assert set(table) == {"board", "map"} and table["map"]["capitals"] == {"green": "-3,-1", "blue": "3,1",
                                                                            "yellow": "3,-3"}
    table["map"]["hexes"]["0,0"]["terrain"] = "water"
    data = {"p0_name": "you", "p0_capital": "blue", "seed": "2",
            "table": (io.BytesIO(json.dumps(table).encode()), "table.json")}
    res = client.post("/brasil-imperial/new", data=data, content_type="multipart/form-data")
    assert res.status_code == 302, res.get_data(as_text=True)
    s = state_of(app, res.headers["Location"])
    assert s.cells[(0, 0)].terrain == "water" and s.automa.capital == "green"
    table["map"]["hexes"]["0,0"]["terrain"] = "lava"
    data["table"] = (io.BytesIO(json.dumps(table).encode()), "table.json")
    res = client.post("/brasil-imperial/new", data=data, content_type="multipart/form-data")
    assert res.status_code == 400 and "lava" in res.get_data(as_text=True)


def test_a_hexs_terrain_is_set_at_the_table(client, app):
    url = start(client)
    html = client.get(url).get_data(as_text=True)
    res = client.post(url + "/table", data={"seq": seq(html), "action": "piece", "hex": "0,0", "what": "terrain",
                                            "terrain": "hill"})
    assert res.status_code == 302 and state_of(app, url).cells[(0, 0)].terrain == "hill"


def test_a_whole_game_exported_and_imported_again(client, app):
    url = start(client, name="Exported game")
    for _ in range(2):
        client.post(url + "/automa", data={"seq": seq(client.get(url).get_data(as_text=True))})
    copy = exported_and_imported(client, app, url)
    assert state_of(app, copy) == state_of(app, url)
    first, again = client.get(url).get_data(as_text=True), client.get(copy).get_data(as_text=True)
    assert first.replace(url, "URL") == again.replace(copy, "URL"), "the same page: map, history, what comes next"


def test_a_bad_game_file_is_refused_by_name_and_nothing_stored(client, app):
    url = start(client)
    data = json.loads(client.get(url + "/export").get_data(as_text=True))
    data["steps"][0]["state"]["era"] = 9
    res = import_file(client, "/brasil-imperial", json.dumps(data).encode())
    assert res.status_code == 400 and "step 0" in res.get_data(as_text=True)
    assert import_file(client, "/brasil-imperial", b"{}").status_code == 400
    with app.app_context():
        assert [s.id for s in services().store.sessions("brasil-imperial")] == [int(url.rsplit("/", 1)[1])]


def test_the_history_and_the_table_forms_speak_portuguese(client, app):
    """The Autômato's turns in the history are said in the page's language from their decision
    (the label stored is the engine's English), and so are the start and the terrain names."""
    english, html, history = automa_turn_history(client, app, start(client), "pt_BR")
    assert "Partida iniciada" in history and english[:40] not in history
    assert "Vire para cima a pilha de Cartas de Ação" in history
    assert '<option value="plain">planície</option>' in html and '<option value="water">água</option>' in html


def why(html: str) -> str:
    """The Autômato's "Why?" trace as the page shows it."""
    return re.search(r'<details id="why">.*?<pre>(.*?)</pre>', html, re.DOTALL).group(1)


@pytest.mark.parametrize("lang, said", [
    ("pt_BR", ["turno 1, Era 1", "pilha de Cartas de Ação", "preparação: a Bússola sobre a Capital"]),
    ("pl", ["tura 1, era 1", "stos kart akcji", "przygotowanie: kompas na stolicy"]),
])
def test_the_automas_why_is_said_in_the_pages_language(client, lang, said):
    """The trace's lines are the engine's English templates, said through the page's catalogue
    with their values (the card, the row, the capital) put in."""
    url = start(client)
    english = why(client.get(url + "?lang=en").get_data(as_text=True))
    assert "turn 1, Era 1" in english and "action pile" in english
    html = client.get(url + f"?lang={lang}").get_data(as_text=True)
    shown = why(html)
    for line in said:
        assert line in shown, (lang, line)
    assert "turn 1, Era 1" not in shown and "action pile" not in shown and "setup: the compass" not in shown
    assert len(shown.splitlines()) == len(english.splitlines()), "line for line, the same trace"
    assert not [a for a, b in zip(shown.splitlines(), english.splitlines()) if a == b], "no line left in English"
