"""A game registers in one folder per layer and is served everywhere: the home page, its own
page (written against web.sessions alone), the saved games and the command line."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import automa
import web
from automa_vision.cli import main as cli
from web.app import WebConfig, create_app

STUB = Path(__file__).resolve().parent / "stub"


def _forget_stub() -> None:
    for name in [m for m in sys.modules if m.split(".")[:2] in (["automa", "stub_game"], ["web", "stub_game"])]:
        del sys.modules[name]


@pytest.fixture
def engine_only(monkeypatch):
    """Countdown's engine folder alone, as a game whose page is not written yet."""
    monkeypatch.setattr(automa, "__path__", [*automa.__path__, str(STUB / "automa")])
    yield
    _forget_stub()


@pytest.fixture
def stub(engine_only, monkeypatch):
    """Countdown with its engine folder and its page folder."""
    monkeypatch.setattr(web, "__path__", [*web.__path__, str(STUB / "web")])


def client_of(tmp_path):
    return create_app(WebConfig(data_dir=tmp_path / "data", model=tmp_path / "no-model.onnx")).test_client()


def test_the_home_page_lists_every_game_with_its_page(stub, tmp_path):
    home = client_of(tmp_path).get("/").get_data(as_text=True)
    assert 'href="/barrage/"' in home and "Barrage" in home
    assert 'href="/stub-game/"' in home and "Countdown" in home and "takes tokens until none is left" in home
    assert home.index("Barrage") < home.index("Countdown")         # Barrage first, the others by name


def test_a_game_without_a_page_is_listed_for_the_command_line(engine_only, tmp_path):
    home = client_of(tmp_path).get("/").get_data(as_text=True)
    card = home[home.index('data-game="stub-game"'):]
    card = card[:card.index("</li>")]
    assert "Countdown" in card and "href=" not in card and "automa-vision stub-game new" in card


def test_the_command_line_lists_and_plays_the_game(engine_only, capsys):
    with pytest.raises(SystemExit):
        cli(["--help"])
    assert "stub-game" in capsys.readouterr().out
    assert cli(["stub-game", "new", "--tokens", "5", "--greedy"]) == 0
    assert json.loads(capsys.readouterr().out) == {"tokens": 5, "greedy": True, "taken": 0}


def test_a_saved_game_is_played_undone_exported_and_imported_through_the_generic_layer(stub, tmp_path):
    client = client_of(tmp_path)
    res = client.post("/stub-game/new", data={"tokens": "4", "greedy": "yes", "name": "table 2"})
    assert res.status_code == 302
    sid = int(res.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/stub-game/{sid}").get_data(as_text=True)
    assert "4 tokens" in page and "The Automa takes 2 token(s)." in page
    assert client.post(f"/stub-game/api/{sid}/automa-done", json={"seq": 0}).json == {"tokens": 2, "greedy": True, "taken": 2}
    assert client.post(f"/stub-game/api/{sid}/automa-done", json={"seq": 0}).status_code == 409     # a second click
    res = client.post(f"/stub-game/api/{sid}/take", json={"seq": 1, "n": 3})     # more than the 2 on the table
    assert res.status_code == 400 and res.json["error"] == "tokens must be a whole number 0-99, not -1"
    assert client.post(f"/stub-game/api/{sid}/take", json={"seq": 1, "n": 1}).json["tokens"] == 1
    assert client.post(f"/stub-game/api/{sid}/automa-done", json={"seq": 2}).json["tokens"] == 0
    assert client.post(f"/stub-game/api/{sid}/undo").json["tokens"] == 1
    assert client.post(f"/stub-game/api/{sid}/undo").json["tokens"] == 2
    exported = client.get(f"/stub-game/api/{sid}/export").json
    assert exported["game"] == "stub-game" and [s["kind"] for s in exported["steps"]] == ["start", "automa"]
    assert exported["settings"]["options"] == {"tokens": 4, "greedy": True}
    res = client.post("/stub-game/api/import", data=json.dumps(exported))
    assert res.status_code == 201
    copy = res.json["id"]
    assert "2 tokens" in client.get(f"/stub-game/{copy}").get_data(as_text=True)
    assert [s.id for s in client.application.extensions["automa_vision"].store.sessions("stub-game")] == [copy, sid]


def test_the_new_game_form_names_every_bad_option(stub, tmp_path):
    res = client_of(tmp_path).post("/stub-game/new", data={"tokens": "many", "greedy": "perhaps"})
    assert res.status_code == 400
    page = res.get_data(as_text=True)
    assert "tokens must be a whole number" in page and "greedy must be yes or no" in page


def test_imports_refuse_another_game_and_an_unknown_one_by_name(stub, tmp_path):
    client = client_of(tmp_path)
    sid = int(client.post("/stub-game/new", data={"tokens": "3"}).headers["Location"].rsplit("/", 1)[1])
    exported = client.get(f"/stub-game/api/{sid}/export").json
    res = client.post("/barrage/api/sessions/import", data=json.dumps(exported), content_type="application/json")
    assert res.status_code == 400
    assert res.json["problems"] == ["import refused: the file is a session of Countdown: import it on Countdown's page"]
    res = client.post("/stub-game/api/import", data=json.dumps({**exported, "game": "chess"}))
    assert res.status_code == 400 and "unknown game 'chess' (known: barrage" in res.json["problems"][0]
    bad = {**exported, "steps": [{**exported["steps"][0], "state": {"tokens": -1, "taken": 0, "greedy": False}}]}
    res = client.post("/stub-game/api/import", data=json.dumps(bad))
    assert res.json["problems"] == ["import refused: step 0: tokens must be a whole number 0-99, not -1"]
    assert len(client.application.extensions["automa_vision"].store.sessions()) == 1     # nothing stored


def test_a_page_never_opens_another_games_session(stub, tmp_path):
    client = client_of(tmp_path)
    barrage = client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human", "seed": "7"}).json["id"]
    countdown = int(client.post("/stub-game/new", data={}).headers["Location"].rsplit("/", 1)[1])
    assert client.get(f"/stub-game/{barrage}").status_code == 404
    assert client.post(f"/stub-game/api/{barrage}/undo").status_code == 404
    assert client.get(f"/barrage/api/sessions/{countdown}").status_code == 404
    assert client.get(f"/barrage/play/{countdown}").status_code == 404
    assert [s["id"] for s in client.get("/barrage/api/sessions").json] == [barrage]


def test_the_old_addresses_of_barrages_page_lead_to_it(tmp_path):
    client = client_of(tmp_path)
    res = client.post("/api/sessions?x=1", json={"role_usa": "automa", "role_germany": "human", "seed": "7"})
    assert res.status_code == 308 and res.headers["Location"] == "/barrage/api/sessions?x=1"
    res = client.post("/api/sessions", json={"role_usa": "automa", "role_germany": "human", "seed": "7"},
                      follow_redirects=True)
    assert res.status_code == 201
    assert client.get(f"/play/{res.json['id']}", follow_redirects=True).status_code == 200
