"""The Age of Innovation page through Flask's test client: new game, the Automa's set-up and
turns with the target hex highlighted, the players' moves and the map editor, map export and
import, errors named (never a 500), stale clicks refused, undo."""
from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest

from tests.pages import (
    automa_turn_history,
    exported_and_imported,
    import_file,
    seq,
    started,
    state_of,
    steps_of,
)
from web.services import services

BASE = "/age-of-innovation"


def start(client, **form) -> str:
    return started(client, BASE, {"level": "2", "seed": "8", "player_terrain": "forest", "terrain": "lake", **form})


def post(client, url, **data):
    html = client.get(url).get_data(as_text=True)
    return client.post(f"{url}/player", data={"seq": seq(html), **data})


def test_index_lists_the_form_and_the_home_page_links_here(client):
    html = client.get(f"{BASE}/").get_data(as_text=True)
    assert 'id="new-game"' in html and "Automalein" in html and "The Simpletons" in html
    assert f"{BASE}/" in client.get("/").get_data(as_text=True)


def test_bad_options_are_named(client):
    res = client.post(f"{BASE}/new", data={"level": "9", "players": "2", "faction": "druids", "seed": "x"})
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    assert "level" in html and "seed" in html


def test_set_up_then_an_automa_turn_with_its_cards_and_target_hex(client, app):
    url = start(client)
    html = client.get(url).get_data(as_text=True)
    assert html.count('class="hex') == 117 and 'data-action="setup"' in html
    # the player places a workshop and takes a bonus tile, the Automa's workshops by the editor
    assert post(client, url, action="edit", row="1", col="1", change="building:player:workshop").status_code == 302
    assert post(client, url, action="bonus", who="player", position="2").status_code == 302
    assert post(client, url, action="edit", row="2", col="5", change="building:automa:workshop:marked").status_code == 302
    assert post(client, url, action="edit", row="6", col="5", change="building:automa:workshop").status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert client.post(f"{url}/automa", data={"seq": seq(html)}).status_code == 302     # set-up done
    html = client.get(url).get_data(as_text=True)
    assert 'id="action-card"' in html and 'id="support-card"' in html and "Why?" in html
    s = state_of(app, url)
    assert s.phase == "play" and s.players[0].bonus_tile is not None
    res = client.post(f"{url}/automa", data={"seq": seq(html)})
    assert res.status_code == 302
    after = state_of(app, url)
    assert after.automa.turns == 1
    assert 'data-action="' in client.get(url).get_data(as_text=True)


def test_the_target_hex_of_a_build_is_highlighted(client, app):
    url = start(client)
    post(client, url, action="edit", row="2", col="5", change="building:automa:workshop:marked")
    post(client, url, action="edit", row="6", col="5", change="building:automa:workshop")
    html = client.get(url).get_data(as_text=True)
    client.post(f"{url}/automa", data={"seq": seq(html)})
    found = False
    for _ in range(8):                      # the Automa's turns until one builds or upgrades
        html = client.get(url).get_data(as_text=True)
        m = re.search(r'class="hex target" id="hex-(\d+)-(\d+)"', html)
        if m:
            instruction = re.search(r'id="instruction">([^<]*)<', html).group(1)
            assert f"row {int(m.group(2)) + 1}, hex {int(m.group(1)) + 1}" in instruction
            found = True
            break
        client.post(f"{url}/automa", data={"seq": seq(html)})
    assert found, "no build or upgrade in the first turns of seed 8"


def test_map_editor_pass_and_science(client, app):
    url = start(client)
    assert post(client, url, action="edit", row="3", col="3", change="terrain:desert").status_code == 302
    s = state_of(app, url)
    from automa.common import hexgrid
    assert s.board.terrain[hexgrid.offset_to_axial(2, 2, "odd-r")] == "desert"
    assert post(client, url, action="science", who="player", banking="3", law="0", engineering="1",
                medicine="0").status_code == 302
    assert state_of(app, url).players[0].science == {"banking": 3, "law": 0, "engineering": 1, "medicine": 0}
    assert post(client, url, action="spell", who="player", index="4").status_code == 302
    assert state_of(app, url).spells[3] == "player"


@pytest.mark.parametrize("data, message", [
    ({"action": "edit", "row": "1", "col": "99", "change": "terrain:lake"}, "between"),
    ({"action": "edit", "row": "1", "col": "2", "change": "terrain:river"}, "river"),
    ({"action": "edit", "row": "1", "col": "2", "change": "building:automa:castle"}, "choose what"),
    ({"action": "edit", "row": "1", "col": "1", "change": "remove"}, "no building"),
    ({"action": "science", "who": "player", "banking": "13", "law": "0", "engineering": "0", "medicine": "0"}, "between"),
    ({"action": "spell", "who": "nobody", "index": "1"}, "choose a player"),
    ({"action": "fly"}, "unknown move"),
    ({"action": "edit", "row": "1", "col": "2", "change": "building:player:workshop"}, "river"),
])
def test_bad_moves_are_named_not_crashed(client, data, message):
    url = start(client)
    res = post(client, url, **data)
    assert res.status_code == 400
    assert message in res.get_data(as_text=True)


def test_stale_clicks_are_refused_and_undo_goes_back(client, app):
    url = start(client)
    html = client.get(url).get_data(as_text=True)
    old = seq(html)
    assert client.post(f"{url}/automa", data={"seq": old}).status_code == 302
    assert client.post(f"{url}/automa", data={"seq": old}).status_code == 409
    assert state_of(app, url).phase == "play"
    client.post(f"{url}/undo")
    assert state_of(app, url).phase == "setup"


def test_map_export_and_import(client, app):
    url = start(client)
    post(client, url, action="edit", row="1", col="1", change="building:player:guild")
    res = client.get(f"{url}/map.json")
    assert res.status_code == 200 and "attachment" in res.headers["Content-Disposition"]
    board = json.loads(res.get_data(as_text=True))
    board["rows"][0] = "L" + board["rows"][0][1:]
    html = client.get(url).get_data(as_text=True)
    res = client.post(f"{url}/map", data={"seq": seq(html), "map": (io.BytesIO(json.dumps(board).encode()), "m.json")},
                      content_type="multipart/form-data")
    assert res.status_code == 302
    assert state_of(app, url).board.terrain[(0, 0)] == "lake"
    html = client.get(url).get_data(as_text=True)
    bad = client.post(f"{url}/map", data={"seq": seq(html), "map": (io.BytesIO(b'{"rows": 5}'), "m.json")},
                      content_type="multipart/form-data")
    assert bad.status_code == 400 and "map refused" in bad.get_data(as_text=True)


def test_a_whole_round_through_the_page(client, app):
    url = start(client)
    post(client, url, action="edit", row="2", col="5", change="building:automa:workshop:marked")
    post(client, url, action="edit", row="6", col="5", change="building:automa:workshop")
    for _ in range(30):
        html = client.get(url).get_data(as_text=True)
        if 'id="done"' not in html:
            break
        client.post(f"{url}/automa", data={"seq": seq(html)})
    s = state_of(app, url)
    assert s.automa.passed and "you still play this round" in client.get(url).get_data(as_text=True)
    pos = next(i for i, t in enumerate(s.bonus_line) if t is not None) + 1
    assert post(client, url, action="pass", who="player", position=str(pos)).status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert 'data-action="round_end"' in html
    client.post(f"{url}/automa", data={"seq": seq(html)})
    assert state_of(app, url).round == 2


@pytest.mark.parametrize("body", [b'{"rows": ["PP"], "buildings": 5}', b'{"rows": ["PP"], "buildings": [7]}',
                                  b'{"rows": ["PP"], "setup_letters": {"lake": {"A": 3}}}', b'[[[[[[]]]]]]',
                                  b'{"rows": ["PP"], "tools": [[1, 2, 3]]}', b'\xff\xfe'])
def test_hostile_map_files_are_refused_by_name(client, body):
    url = start(client)
    html = client.get(url).get_data(as_text=True)
    res = client.post(f"{url}/map", data={"seq": seq(html), "map": (io.BytesIO(body), "m.json")},
                      content_type="multipart/form-data")
    assert res.status_code == 400, res.get_data(as_text=True)[:300]


def test_undo_back_to_any_step_of_the_history(client, app):
    url = start(client)
    for col in ("1", "4", "5"):             # forest, swamp and plains in the base map's first row
        assert post(client, url, action="edit", row="1", col=col, change="terrain:lake").status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert html.count("back to here") == 3
    assert client.post(f"{url}/undo", data={"to": "1"}).status_code == 302
    s = state_of(app, url)
    from automa.common import hexgrid
    assert s.board.terrain[hexgrid.offset_to_axial(0, 0, "odd-r")] == "lake"
    assert s.board.terrain[hexgrid.offset_to_axial(3, 0, "odd-r")] == "swamp"
    assert client.post(f"{url}/undo", data={"to": "9"}).status_code == 400


def test_setup_card_letters_entered_on_the_map_place_the_initial_workshops(client, app):
    url = start(client)
    assert post(client, url, action="edit", row="1", col="3", change="letter:A").status_code == 302   # a lake
    assert post(client, url, action="edit", row="2", col="5", change="letter:B").status_code == 302
    assert post(client, url, action="setup_card", card="*2").status_code == 302    # *2: A marked, B unmarked
    html = client.get(url).get_data(as_text=True)
    assert '<text class="setup-letter"' in html
    assert client.post(f"{url}/automa", data={"seq": seq(html)}).status_code == 302
    s = state_of(app, url)
    from automa.common import hexgrid
    a = s.board.buildings[hexgrid.offset_to_axial(2, 0, "odd-r")]
    b = s.board.buildings[hexgrid.offset_to_axial(4, 1, "odd-r")]
    assert (a.owner, a.marked, b.owner, b.marked) == ("automa", True, "automa", False)


def test_two_players_each_have_their_science_markers(client, app):
    url = start(client, players="2", faction="simpletons")
    html = client.get(url).get_data(as_text=True)
    assert 'id="science-form-player"' in html and 'id="science-form-player2"' in html
    assert post(client, url, action="science", who="player2", banking="0", law="4", engineering="0",
                medicine="0").status_code == 302
    s = state_of(app, url)
    assert s.players[1].science["law"] == 4 and s.players[0].science["law"] == 0


def test_a_whole_game_exported_and_imported_again(client, app):
    """The session as one file through the shared layer (web.sessions): every step, imported as
    a new session whose history and state are the same; the Automa's next step is the same."""
    url = start(client, name="Exported game")
    post(client, url, action="edit", row="2", col="5", change="building:automa:workshop:marked")
    html = client.get(url).get_data(as_text=True)
    client.post(f"{url}/automa", data={"seq": seq(html)})
    copy = exported_and_imported(client, app, url)
    assert len(steps_of(app, copy)) == 3 and state_of(app, copy).to_dict() == state_of(app, url).to_dict()
    first, again = client.get(url).get_data(as_text=True), client.get(copy).get_data(as_text=True)
    instruction = re.compile(r'id="instruction">(.*?)</p>', re.S)
    assert instruction.search(first).group(1) == instruction.search(again).group(1)
    assert again.count("back to here") == 2 and "Exported game" in again


@pytest.mark.parametrize("body, problem", [
    (b"", "choose an exported game file"),
    (b"not json", "import refused"),
    (b'{"format": "automa-vision-session", "version": 2, "game": "expeditions", "name": "x", "settings": {},'
     b' "steps": [{"kind": "start", "label": "x", "state": {}}]}', "Expeditions"),
    (b'{"format": "automa-vision-session", "version": 2, "game": "age-of-innovation", "name": "x",'
     b' "settings": {}, "steps": [{"kind": "start", "label": "x", "state": {"level": 9}}]}', "step 0"),
])
def test_a_bad_game_file_is_refused_by_name_and_nothing_stored(client, app, body, problem):
    res = import_file(client, BASE, body)
    assert res.status_code == 400 and problem in res.get_data(as_text=True)
    with app.app_context():
        assert services().store.sessions("age-of-innovation") == []


def test_symbionts_youth_terrain_from_the_new_game_form(client, app):
    url = start(client, faction="symbionts", youth_terrain="desert")
    assert state_of(app, url).youth_terrain == "desert"
    assert 'id="youth-priority"' in client.get(url).get_data(as_text=True)
    url = start(client, faction="druids", youth_terrain="desert")       # ignored for every other faction
    assert state_of(app, url).youth_terrain is None
    res = client.post(f"{BASE}/new", data={"faction": "symbionts", "terrain": "lake", "youth_terrain": "lake"})
    assert res.status_code == 400 and "second card" in res.get_data(as_text=True)


def test_the_blights_fallow_land_is_marked_in_the_editor_and_drawn(client, app):
    url = start(client, faction="blight")
    assert 'value="land:fallow"' in client.get(url).get_data(as_text=True)
    assert post(client, url, action="edit", row="1", col="1", change="land:fallow").status_code == 302
    assert post(client, url, action="edit", row="1", col="3", change="land:blighted").status_code == 302
    river = post(client, url, action="edit", row="1", col="2", change="land:fallow")      # the base map's river
    assert river.status_code == 400 and "river" in river.get_data(as_text=True)
    s = state_of(app, url)
    assert len(s.board.fallow) == 1 and len(s.board.blighted) == 1
    html = client.get(url).get_data(as_text=True)
    assert 'class="land fallow"' in html and 'class="land blighted"' in html
    post(client, url, action="edit", row="1", col="1", change="land:none")
    assert not state_of(app, url).board.fallow
    assert 'value="land:fallow"' not in client.get(start(client)).get_data(as_text=True)


def test_gognomes_achievements_entered_on_the_page(client, app):
    url = start(client, faction="gognomes")
    vp = state_of(app, url).automa.vp
    assert post(client, url, action="achievement", token="3", points="4").status_code == 302
    s = state_of(app, url)
    assert s.automa.achievements == {3: 4} and s.automa.vp == vp + 4
    assert "token 3 (4 VP)" in client.get(url).get_data(as_text=True)
    again = post(client, url, action="achievement", token="3", points="4")
    assert again.status_code == 400 and "already entered" in again.get_data(as_text=True)
    other = start(client)
    res = post(client, other, action="achievement", token="1", points="2")
    assert res.status_code == 400 and "only the Gognomes" in res.get_data(as_text=True)


def test_the_exported_file_is_named_after_any_session_name(client):
    url = start(client, name="Gra z Automą: Игра")
    header = client.get(f"{url}/export").headers["Content-Disposition"]
    plain = re.search(r'filename="([^"]+)"', header).group(1)
    assert plain.isascii() and plain.startswith("age-of-innovation-") and plain.endswith(".json")
    assert "filename*=UTF-8''" in header and "%D0%98" in header        # И, percent-encoded (RFC 5987)


def test_the_history_and_the_seats_speak_portuguese(client, app):
    """The Automa's steps in the history are said in the page's language from their decision (the
    label stored is the engine's English); the seats are "você" and "Automa", not state ids."""
    english, html, history = automa_turn_history(client, app, start(client), "pt_BR")
    assert "Partida iniciada" in history and english[:40] not in history
    assert "Coloque as oficinas iniciais da Automa" in history
    assert "ordem de turno: você, Automa" in html and ">você: oficina</option>" in html


def why(client, url: str, lang: str | None = None) -> list[str]:
    """The lines of the Automa's "Why?" trace as the page shows them in ``lang``."""
    html = client.get(url + (f"?lang={lang}" if lang else "")).get_data(as_text=True)
    block = re.search(r'<details id="why"><summary>[^<]*</summary><pre>(.*?)</pre>', html, re.DOTALL).group(1)
    return [unescape(line) for line in block.splitlines() if line.strip()]


@pytest.mark.parametrize("lang, title, action, place", [
    ("pt_BR", "Rodada 1, turno 1 da Automa", "Transformar e Construir", "linha 2, hexágono 6 (floresta)"),
    ("pl", "Runda 1, tura Automy 1", "Przekształcenie Terenu i Budowa", "rząd 2, heks 6 (Las)"),
])
def test_the_automas_trace_speaks_the_pages_language(client, lang, title, action, place):
    """The "Why?" trace is said line by line in the page's language (the engine's templates in
    the page's catalogue), the words inside a line too (a hex named by its row, its terrain), and
    no line is left in the engine's English. Seed 8: the Automa's first turn builds on row 2, hex 6."""
    url = start(client)
    post(client, url, action="edit", row="2", col="5", change="building:automa:workshop:marked")
    post(client, url, action="edit", row="6", col="5", change="building:automa:workshop")
    client.post(f"{url}/automa", data={"seq": seq(client.get(url).get_data(as_text=True))})   # set-up done
    english = why(client, url)
    assert english[0] == "Round 1, Automa turn 1" and "  Transform and Build" in english
    assert any("row 2, hex 6 (forest)" in line for line in english)
    said = why(client, url, lang)
    assert said[0] == title and f"  {action}" in said and any(place in line for line in said)
    assert len(said) == len(english) and not set(said) & set(english)
    assert not any(word in line for line in said for word in ("row ", "forest", "lake", "eligible", "nearest"))
