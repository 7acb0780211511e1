"""Hostile input the page once answered with 500, or with a read outside its folders
(issue 82): each case is refused with its problem named, and nothing is stored."""
from __future__ import annotations

import json
from urllib.parse import unquote

import pytest

API = "/barrage/api"


def game_form(**extra) -> dict:
    return {"role_usa": "automa", "role_germany": "human", **extra}


@pytest.mark.parametrize("seed", ["²", "١٢٣", "𝟕", "7²", "٣"])
def test_a_seed_of_digits_int_cannot_read_is_refused(client, seed):
    """``"²".isdigit()`` is True, ``int("²")`` raises: it answered 500."""
    res = client.post(f"{API}/sessions", json=game_form(seed=seed))
    assert res.status_code == 400 and "seed must be a whole number" in res.json["problems"][0]
    assert client.get(f"{API}/sessions").json == []


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [100_000, 5_000])
def test_json_nested_too_deep_is_refused_on_create_and_import(client, depth):
    """A RecursionError in the JSON parser answered 500."""
    res = client.post(f"{API}/sessions", data='{"seed": ' + nested(depth) + "}", content_type="application/json")
    assert res.status_code == 400 and res.json["problems"] == ["the request's JSON nests too deep"]
    session = json.dumps({"format": "automa-vision-session", "version": 1, "name": "x", "settings": {}, "steps": []})
    data = session.replace('"steps": []', '"steps": ' + nested(depth))
    res = client.post(f"{API}/sessions/import", data=data, content_type="application/json")
    assert res.status_code == 400 and "nests deeper than" in res.json["problems"][0], res.json
    assert client.get(f"{API}/sessions").json == []


@pytest.mark.parametrize("name", ["Игра", "游戏", "a \"quoted\"; name\\", "Ünïcødé 🎲"])
def test_a_game_of_any_name_is_exported_with_its_name(client, name):
    """A header is Latin-1: "Игра" in the download's filename left the export unanswered."""
    sid = client.post(f"{API}/sessions", json=game_form(seed="7", name=name)).json["id"]
    res = client.get(f"{API}/sessions/{sid}/export")
    assert res.status_code == 200 and res.json["name"] == name
    header = res.headers["Content-Disposition"]
    header.encode("latin-1")
    plain = header.split('filename="', 1)[1].split('"', 1)[0]
    assert plain.isascii() and plain.startswith(f"session-{sid}-") and plain.endswith(".json")
    assert unquote(header.split("filename*=UTF-8''", 1)[1]) == f"session-{sid}-{name}.json"


@pytest.mark.parametrize("profile", ["../../elsewhere", "/etc", "table\n", "a/b", 7])
def test_an_imported_game_names_no_profile_outside_the_profiles_folder(client, profile):
    """An imported game's calibration profile pointed at ``../../…/profile.json`` and the server read it."""
    sid = client.post(f"{API}/sessions", json=game_form(seed="7")).json["id"]
    exported = client.get(f"{API}/sessions/{sid}/export").json
    exported["settings"]["profile"] = profile
    res = client.post(f"{API}/sessions/import", data=json.dumps(exported), content_type="application/json")
    assert res.status_code == 400 and "calibration profile's name" in res.json["problems"][0]
    assert [s["id"] for s in client.get(f"{API}/sessions").json] == [sid]


def test_the_camera_never_reads_a_profile_outside_its_folder(app, tmp_path):
    live = app.extensions["automa_vision"].live
    outside = tmp_path / "elsewhere" / "profile.json"
    outside.parent.mkdir()
    outside.write_text("{}")
    rel = "../../elsewhere"
    assert (live.profiles_dir / rel / "profile.json").resolve() == outside.resolve()
    assert live.profile_path(rel) is None and live.profile_path(str(outside.parent)) is None
