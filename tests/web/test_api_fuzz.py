"""Every route that takes input, for the four games and the shared pages, sent malformed input
from an explicit list (no random draw: the same requests every run). Each request must be
answered below 500, a refusal (4xx) with its problem said (JSON ``error`` or the page's
problems); a refused request changes nothing that is saved (every session's steps and every
file of the data folder compared before and after); a request taken leaves the game's pages
answering; and after each test's requests undo still works on every game's session (back one
step, the Automa's turn played again gives the same state).

tests/web/test_fuzz.py draws requests at random and checks only the status; this module
checks what each refusal leaves behind, with inputs chosen to get past the first checks
(the session's current step, a real action, one field wrong at a time).
"""
from __future__ import annotations

import io
import json
import sqlite3
from contextlib import closing
from itertools import cycle, islice
from pathlib import Path
from typing import Any

import pytest

from automa.brasil_imperial.state import hex_key, parse_hex
from automa.games import get
from tests.pages import sid_of, started, state_of, steps_of
from web import sessions
from web.services import services

PHOTO = Path(__file__).resolve().parents[1] / "fixtures" / "synth" / "clean_01.jpg"
API = "/barrage/api/sessions"
PAGES = {  # a game's page -> its new-game form (the games' own page tests use the same)
    "age-of-innovation": {"level": "2", "seed": "8", "player_terrain": "forest", "terrain": "lake"},
    "expeditions": {"level": "2", "seed": "8", "first": "automa"},
    "brasil-imperial": {"p0_name": "you", "p0_capital": "green", "p1_name": "ana", "p1_capital": "blue", "seed": "5"},
}
# form values: text of no number, numbers too big, too small or not whole, unicode, long text, paths
TEXT = ["", "abc", "-1", "1.5", "1e999", "NaN", "Infinity", "9" * 40, "²", "٣", "Игра 游戏 🎲", "../../etc/passwd",
        "\x00", "<script>alert(1)</script>", "x" * 5000, " 0 "]
# JSON values of every type
VALUES: list[Any] = [None, True, -1, 2**70, -(2**70), 1.5, 1e308, [], [1, 2], {}, {"a": {"b": []}}, "", "Игра 🎲",
                     "../../etc/passwd", "x" * 5000, "NaN"]
BAD_JSON = ["{", "{\"seq\": }", "[1, 2", "nul", "\"unterminated", "{\"seq\": NaN}", "\xff\xfe", "[" * 3000 + "]" * 3000]


def hostile(values: list, n: int, start: int = 0) -> list:
    """``n`` of ``values``, from ``start`` round the list: each field gets other values than the last."""
    return list(islice(cycle(values), start, start + n))


def parts(doc: Any, depth: int = 4, at: tuple = ()) -> list[tuple]:
    """The path (keys and indices) of every part of a JSON document, ``depth`` levels deep."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    out: list[tuple] = []
    for key, value in items if depth else ():
        out += [(*at, key), *parts(value, depth - 1, (*at, key))]
    return out


def variants(doc: Any, n: int) -> list[Any]:
    """``n`` copies of ``doc``, each with one part (spread evenly over all of them) replaced by a
    value of another type, the values taken in turn from ``VALUES``."""
    paths = parts(doc)
    out = []
    for i, path in enumerate(paths[::max(1, len(paths) // n)][:n]):
        copy = json.loads(json.dumps(doc))
        node = copy
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = VALUES[i % len(VALUES)]
        out.append(copy)
    return out


# -- what is saved --------------------------------------------------------------------------
def saved(app) -> dict:
    """Every session (its name, settings, game and steps as stored, less the steps' times) and
    every file of the data folder but the session database (card sets, calibration profiles)."""
    root = app.extensions["automa_vision"].config.data_dir
    with closing(sqlite3.connect(root / "sessions.sqlite3")) as db:       # one read, not a request's
        sessions = {sid: (*rest, []) for sid, *rest in db.execute("SELECT id, name, settings, game FROM sessions")}
        for sid, *step in db.execute("SELECT session_id, seq, kind, label, state, flow, payload FROM steps "
                                     "ORDER BY session_id, seq"):
            sessions[sid][3].append(tuple(step))
    files = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
             if p.is_file() and not p.name.startswith("sessions.sqlite3")}
    return {"sessions": sessions, "files": files}


def last_seq(app, sid: int) -> int:
    with app.app_context():
        return services().store.last(sid).seq


@pytest.fixture
def table(app, client, session_id) -> dict[str, int]:
    """A session of each game, each with the Automa's first turn played (steps 0 and 1): the
    Barrage one is tests/web/conftest.py's ``session_id``."""
    sids = {"barrage": session_id}
    assert client.post(f"{API}/{session_id}/automa-done", json={"seq": 0}).status_code == 200
    for page, form in PAGES.items():
        res = client.post(f"/{page}/new", data=form)
        assert res.status_code == 302, res.get_data(as_text=True)[:500]
        sids[page] = int(res.headers["Location"].rsplit("/", 1)[1])
        assert client.post(f"/{page}/{sids[page]}/automa", data={"seq": "0"}).status_code == 302
    assert all(last_seq(app, sid) == 1 for sid in sids.values())
    return sids


def said(res) -> str:
    """The problem a refusal names: the JSON ``error`` (and ``problems``), or the page's list of problems."""
    text = res.get_data(as_text=True)
    if res.mimetype == "application/json":
        body = json.loads(text)
        return " ".join([body["error"], *body.get("problems", [])]).strip()
    assert res.mimetype == "text/html", res.mimetype
    for start in ('<ul class="problems"', '<section class="card error-page">'):
        if start in text:
            return text[text.index(start):].split("</ul>" if "problems" in start else "</h1>")[0]
    return ""


def replay(client, app, game: str, sid: int) -> None:
    """The Automa's first turn played again on session ``sid``, back at step 0."""
    if game == "barrage":
        assert client.post(f"{API}/{sid}/automa-done", json={"seq": 0}).status_code == 200
    else:
        assert client.post(f"/{game}/{sid}/automa", data={"seq": "0"}).status_code == 302
    assert last_seq(app, sid) == 1


def undo_works(client, app, table: dict[str, int]) -> None:
    """On every game's session, undo goes back to step 0 and the Automa's turn, played again, is
    step 1 again, as the fixture left it. Checked once a test: a refused request leaves what is
    saved as it was (``send``), so undo after it is undo before it."""
    before = saved(app)
    for game, sid in table.items():
        if game == "barrage":
            assert client.post(f"{API}/{sid}/undo", json={}).json["seq"] == 0
        else:
            assert client.post(f"/{game}/{sid}/undo", data={}).status_code == 302
        assert last_seq(app, sid) == 0
        replay(client, app, game, sid)
    assert saved(app) == before


def send(client, app, table, game: str, method: str, url: str, **kwargs):
    """One hostile request, checked: below 500; refused with its problem said and nothing saved
    changed; or taken, every session there was unchanged but ``game``'s, which may have one step
    more that undo takes back, or one less that the Automa's turn played again gives back (a
    request taken may add a session or a file: a new game, a card set)."""
    before = saved(app)
    res = client.open(url, method=method, **kwargs)
    where = (method, url[:120], {k: str(v)[:200] for k, v in kwargs.items()})
    assert res.status_code < 500, (where, res.status_code, res.get_data(as_text=True)[:600])
    after = saved(app)
    if res.status_code >= 400:
        assert said(res), (where, res.status_code, res.get_data(as_text=True)[:600])
        assert after == before, (where, res.status_code)
    else:
        sid = table[game]
        for k, steps in before["sessions"].items():
            if k == sid and after["sessions"][k][3] == steps[3][:1]:       # an undo taken: step 1 played again
                replay(client, app, game, sid)
                assert saved(app)["sessions"][k] == steps, where
            elif k == sid and after["sessions"][k] != steps:
                assert len(after["sessions"][k][3]) == len(steps[3]) + 1, where
                shown(client, game, sid)            # the step taken does not break the game's pages
                undo = client.post(f"{API}/{sid}/undo", json={}) if game == "barrage" else \
                    client.post(f"/{game}/{sid}/undo")
                assert undo.status_code < 400 and saved(app)["sessions"][k] == steps, where
            else:
                assert after["sessions"][k] == steps, where
        for k in after["sessions"].keys() - before["sessions"].keys():     # a new game or an import: it plays
            playable(client, after["sessions"][k][2], k)
    return res


def form_cases(base: dict[str, str], fields: list[str], per_field: int = 3, start: int = 0) -> list[dict[str, str]]:
    """``base`` (a form that gets past the first checks) with nothing, with each field missing,
    with each field hostile (``TEXT`` from ``start`` on), and with fields added."""
    cases: list[dict[str, str]] = [{}, {**base, "zz_extra": "1", "seq ": "0"}]
    for i, field in enumerate(fields):
        cases.append({k: v for k, v in base.items() if k != field})
        cases += [{**base, field: v} for v in hostile(TEXT, per_field, start + i * per_field)]
    return cases


def json_cases(base: dict[str, Any], fields: list[str], per_field: int = 3) -> list[dict]:
    """Keyword arguments of ``client.open``: ``base`` with each field missing or of each JSON
    type, a body that is no object, invalid JSON, and the fields as a form or as text."""
    cases: list[dict] = [{"json": {}}, {"json": [base]}, {"json": None}, {"json": {**base, "zz_extra": [1]}},
                         {"data": json.dumps(base), "content_type": "text/plain"},
                         {"data": {k: str(v) for k, v in base.items()}}]
    cases += [{"data": text, "content_type": "application/json"} for text in BAD_JSON]
    for i, field in enumerate(fields):
        cases.append({"json": {k: v for k, v in base.items() if k != field}})
        cases += [{"json": {**base, field: v}} for v in hostile(VALUES, per_field, i * per_field)]
    return cases


# -- the game pages' shared routes (web/pages.py), for each of the three games ------------
GAMES = list(PAGES)


@pytest.mark.parametrize("game", GAMES)
def test_the_automa_turn_and_undo_refuse_malformed_steps(client, app, table, game):
    sid = table[game]
    for form in form_cases({"seq": "1"}, ["seq"], per_field=len(TEXT)):
        send(client, app, table, game, "POST", f"/{game}/{sid}/automa", data=form)
    for to in ["-1", "1", "2", "abc", "1.5", "9" * 40, "NaN", "²", "Игра"]:     # 1: the last step, nothing to undo to
        send(client, app, table, game, "POST", f"/{game}/{sid}/undo", data={"to": to})
    send(client, app, table, game, "POST", f"/{game}/{sid}/undo", json={"to": 0})    # JSON: the form's to is absent
    undo_works(client, app, table)


SECOND_STEP = {"age-of-innovation": ("player", {"action": "area", "who": "player", "size": "3"}),
               "expeditions": ("player", {"action": "end"}), "brasil-imperial": ("table", {"action": "era"})}


@pytest.mark.parametrize("game", ["barrage", *GAMES])
def test_a_second_click_on_undo_undoes_no_step_more(client, app, table, game):
    """The undo button sent no step number: a double click (or a second screen's click) undid
    two steps, and an undo cannot be undone. With the step shown, the second one is refused."""
    sid = table[game]
    if game == "barrage":
        assert client.post(f"{API}/{sid}/human-done", json={"seq": 1, "use_camera": False}).json["seq"] == 2
        assert client.post(f"{API}/{sid}/undo", json={"seq": 2}).json["seq"] == 1
        before = saved(app)
        res = client.post(f"{API}/{sid}/undo", json={"seq": 2})
    else:
        route, form = SECOND_STEP[game]
        assert client.post(f"/{game}/{sid}/{route}", data={"seq": "1", **form}).status_code == 302
        page = client.get(f"/{game}/{sid}").get_data(as_text=True)
        undo_form = page[page.index(f'action="/{game}/{sid}/undo" class="inline">'):page.index('id="undo"')]
        assert '<input type="hidden" name="seq" value="2">' in undo_form
        assert client.post(f"/{game}/{sid}/undo", data={"seq": "2"}).status_code == 302
        before = saved(app)
        res = client.post(f"/{game}/{sid}/undo", data={"seq": "2"})
    assert res.status_code == 409 and "the game moved on meanwhile (step 1, expected 2)" in said(res)
    assert saved(app) == before and last_seq(app, sid) == 1
    undo_works(client, app, table)


@pytest.mark.parametrize("game", GAMES)
def test_unknown_sessions_and_other_games_sessions_are_not_found(client, app, table, game):
    other = table["barrage"]
    for sid in [0, 999, 2**63, 2**70, other]:
        for method, path, kw in [("GET", "", {}), ("POST", "/automa", {"data": {"seq": "1"}}),
                                 ("POST", "/undo", {"data": {}}), ("GET", "/export", {})]:
            res = send(client, app, table, game, method, f"/{game}/{sid}{path}", **kw)
            assert res.status_code == 404
    for path in ["/-1", "/abc", "/1.5", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc", "/1/../../x"]:
        assert send(client, app, table, game, "GET", f"/{game}{path}").status_code == 404
    undo_works(client, app, table)


def test_unknown_games_are_not_found(client, app, table):
    for method, url in [("GET", "/no-such-game/"), ("POST", "/no-such-game/new"), ("POST", "/no-such-game/1/automa"),
                        ("GET", "/%2e%2e/%2e%2e/etc/passwd"), ("GET", "/Игра/1"), ("POST", "/barrage-x/api/sessions"),
                        ("GET", "/static/../../web/app.py"), ("GET", "/barrage/static/%2e%2e/api.py")]:
        assert send(client, app, table, "barrage", method, url, data={"seq": "1"}).status_code in (404, 405), url
    undo_works(client, app, table)


def session_file(client, game: str, sid: int) -> dict:
    url = f"{API}/{sid}/export" if game == "barrage" else f"/{game}/{sid}/export"
    return json.loads(client.get(url).get_data(as_text=True))


def broken_files(exported: dict) -> list[bytes]:
    """An exported session made wrong in every part that is read."""
    def edited(**changes) -> bytes:
        return json.dumps({**exported, **changes}).encode()
    step = exported["steps"][-1]
    files = [b"", b"not json", b"\xff\xfe\x00", b"[]", b"null", b"1e999", b"[" * 5000 + b"]" * 5000,
             edited(format="other"), edited(version=99), edited(version="2"), edited(game="../../etc"),
             edited(game="barrage" if exported["game"] != "barrage" else "expeditions"), edited(name=""),
             edited(name=["x"]), edited(settings=[]), edited(settings={"profile": "../../x"}), edited(steps=[]),
             edited(steps={}), edited(steps=[None]), edited(steps=[{**step, "kind": "DROP TABLE"}]),
             edited(steps=[{**step, "label": ["x"]}]), edited(steps=[{**step, "label": "x" * 600}]),
             edited(steps=[{**step, "state": None}]), edited(steps=[{**step, "state": []}]),
             edited(steps=[{**step, "state": {}}]), edited(steps=[{**step, "flow": []}]),
             edited(steps=[{**step, "payload": "x"}]), edited(steps=[step, 7])]
    files += [edited(steps=[{**step, "state": state}]) for state in variants(step["state"], 40)]
    return files


@pytest.mark.parametrize("game", ["barrage", *GAMES])
def test_an_import_of_a_broken_file_stores_nothing(client, app, table, game):
    exported = session_file(client, game, table[game])
    url = f"{API}/import" if game == "barrage" else f"/{game}/import"
    for data in broken_files(exported):
        res = send(client, app, table, game, "POST", url, data={"file": (io.BytesIO(data), "game.json")},
                   content_type="multipart/form-data")
        if res.status_code != 400:          # a state the game's load takes (and stores as it dumps it): it plays
            playable(client, game, res.json["id"] if game == "barrage" else int(res.headers["Location"].rsplit("/", 1)[1]))
    for kw in [{}, {"data": {"file": "not a file"}}, {"data": {"other": (io.BytesIO(b"{}"), "x.json")}},
               {"data": {"file": (io.BytesIO(PHOTO.read_bytes()), "photo.jpg")}}, {"json": exported["steps"]}]:
        assert send(client, app, table, game, "POST", url, **kw).status_code == 400
    undo_works(client, app, table)


def shown(client, game: str, sid: int) -> None:
    """Session ``sid``'s pages answer 200."""
    if game == "barrage":
        urls = [f"/barrage/play/{sid}", f"{API}/{sid}", f"{API}/{sid}/live", f"{API}/{sid}/export"]
    else:
        urls = [f"/{game}/{sid}", f"/{game}/{sid}/export"]
    answers = {url: client.get(url).status_code for url in urls}
    assert set(answers.values()) == {200}, answers


def playable(client, game: str, sid: int) -> None:
    """Session ``sid``'s pages answer, and its Automa's turn is played or refused, never a 500."""
    shown(client, game, sid)
    res = client.post(f"{API}/{sid}/automa-done", json={"seq": 0}) if game == "barrage" else \
        client.post(f"/{game}/{sid}/automa", data={"seq": "0"})
    assert res.status_code < 500, res.get_data(as_text=True)[:500]


def test_an_oversized_upload_is_refused_before_it_is_read(client, app, table):
    big = b"{" + b" " * (8 * 1024 * 1024 + 10) + b"}"
    for game, url in [("barrage", f"{API}/import"), ("expeditions", "/expeditions/import"),
                      ("brasil-imperial", "/brasil-imperial/cards/import"),
                      ("barrage", "/calibration/api/table-1/photo")]:
        res = send(client, app, table, game, "POST", url, data={"file": (io.BytesIO(big), "big.json"),
                                                                "photo": (io.BytesIO(big), "big.jpg")},
                   content_type="multipart/form-data")
        assert res.status_code == 413 and "larger than 8 MB" in said(res)
    undo_works(client, app, table)


@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_form_refuses_what_its_options_do_not_take(client, app, table, game):
    base = PAGES[game]
    for form in form_cases({**base, "name": "t"}, [*base, "name"], per_field=3):
        send(client, app, table, game, "POST", f"/{game}/new", data=form)
    send(client, app, table, game, "POST", f"/{game}/new", json=base)
    send(client, app, table, game, "POST", f"/{game}/new", data=b"\xff\x00garbage",
         content_type="multipart/form-data; boundary=x")
    undo_works(client, app, table)


# -- each game's own forms ------------------------------------------------------------------
AOI_PLAYER = [  # (action, a form that gets past the first checks)
    ("edit", {"col": "1", "row": "1", "change": "terrain:forest"}),
    ("edit", {"col": "1", "row": "1", "change": "building:automa:workshop:marked"}),
    ("edit", {"col": "1", "row": "1", "change": "letter:A"}), ("edit", {"col": "1", "row": "1", "change": "land:fallow"}),
    ("science", {"who": "player", "banking": "1", "law": "0", "engineering": "0", "medicine": "0"}),
    ("spell", {"who": "player", "index": "1"}), ("book", {"who": "player", "index": "1"}),
    ("pass", {"who": "player", "position": "2"}), ("bonus", {"who": "player", "position": "2"}),
    ("area", {"who": "player", "size": "3"}), ("achievement", {"token": "1", "points": "3"}),
    ("setup_card", {"card": "*1"}), ("", {}), ("Игра", {}), ("../x", {}),
]
EXPEDITIONS_PLAYER = [
    ("move", {"to": "N1"}), ("vanquish", {"count": "1"}), ("glory", {}), ("end", {}),
    ("reveal", {"location": "S1", "tile": "3", "tokens": "4o 3t"}),
    ("figures", {"coins": "3", "quests": "1", "glory": "0", "upgraded": "0", "corruption": "0"}), ("", {}), ("x" * 300, {}),
]
BRASIL_TABLE = [
    ("reveal", {"kind": "flag", "fc": "2"}), ("combat", {"winner": "player", "cards_power": "1", "player_total": "3"}),
    ("mission", {"era": "1", "obj0_number": "1", "obj0_kind": "summon", "obj1_number": "2", "obj1_kind": "city",
                 "obj2_number": "3", "obj2_kind": "other", "obj2_ref": "x"}),
    ("objective", {"era": "1", "index": "1", "done": "on"}), ("era", {}),
    ("piece", {"hex": "0,0", "what": "unit", "player": "you", "vp": "1", "fc": "1"}),
    ("piece", {"hex": "0,0", "what": "construction", "player": "ana", "ref": "x", "vp": "1"}),
    ("piece", {"hex": "0,0", "what": "terrain", "terrain": "forest"}), ("piece", {"hex": "0,0", "what": "clear"}),
    ("attack", {"hex": "0,0", "player": "you"}), ("taken", {"frame_x": "on"}),
    ("final", {"gold_vp": "1 2", "other_vp": "3"}), ("", {}), ("\x00", {}),
]
OWN_FORMS = [("age-of-innovation", "player", AOI_PLAYER), ("expeditions", "player", EXPEDITIONS_PLAYER),
             ("brasil-imperial", "table", BRASIL_TABLE)]


@pytest.mark.parametrize("game,route,actions", OWN_FORMS, ids=[g for g, _, _ in OWN_FORMS])
def test_the_players_forms_refuse_malformed_fields(client, app, table, game, route, actions):
    sid = table[game]
    forms, start = [{}], 0          # each field of each action one hostile value, the next of TEXT each time
    for action, fields in actions:
        forms += [{**form, "seq": form.get("seq", "1"), "action": action}
                  for form in form_cases({"seq": "1", "action": action, **fields}, list(fields), 1, start)[1:]]
        start += len(fields)
    for form in forms:
        send(client, app, table, game, "POST", f"/{game}/{sid}/{route}", data=form)
    for seq in ["0", "2", "-1", "abc", "9" * 40]:        # a stale or malformed step number
        send(client, app, table, game, "POST", f"/{game}/{sid}/{route}", data={"seq": seq, "action": "end"})
    undo_works(client, app, table)


def test_the_age_of_innovation_map_import_refuses_malformed_maps(client, app, table):
    game, sid = "age-of-innovation", table["age-of-innovation"]
    good = json.loads(client.get(f"/{game}/{sid}/map.json").get_data(as_text=True))
    maps: list[Any] = [None, [], {}, "x", 7, {**good, "terrain": None}, {**good, "terrain": []},
                       {**good, "layout": "Игра"}, {**good, "buildings": {"x": 1}}, {**good, "buildings": [["a"]]}]
    maps += variants(good, 50)
    url = f"/{game}/{sid}/map"
    for raw in maps:
        send(client, app, table, game, "POST", url, data={"seq": "1", "map_json": json.dumps(raw)})
    for text in BAD_JSON:
        send(client, app, table, game, "POST", url, data={"seq": "1", "map_json": text})
    send(client, app, table, game, "POST", url, data={"seq": "1", "map": (io.BytesIO(b"{" * 70_000), "m.json")},
         content_type="multipart/form-data")
    send(client, app, table, game, "POST", url, data={"seq": "1", "map": (io.BytesIO(PHOTO.read_bytes()), "m.jpg")},
         content_type="multipart/form-data")
    undo_works(client, app, table)


# -- Brasil Imperial's card sets -----------------------------------------------------------
BAD_NAMES = ["example", "..", "%2e%2e", "..%2f..%2fetc", "a%00b", "Игра", "x" * 41, "%20", "a%0a", "-x", "con.json"]


def test_brasil_imperials_card_sets_refuse_bad_names_and_files(client, app, table):
    game = "brasil-imperial"
    for name in BAD_NAMES:
        for method, path, kw in [("GET", "", {}), ("POST", "", {"data": {"a0_arrow": "1"}}), ("GET", "/export", {}),
                                 ("POST", "/delete", {})]:
            send(client, app, table, game, method, f"/{game}/cards/{name}{path}", **kw)
        send(client, app, table, game, "POST", f"/{game}/cards/copy", data={"name": name.replace("%", ""),
                                                                              "source": "example"})
    for source in ["", "../../x", "missing", "Игра", "x" * 5000]:
        send(client, app, table, game, "POST", f"/{game}/cards/copy", data={"name": "mine", "source": source})
    example = client.get(f"/{game}/cards/example/export").get_data()
    files = [b"", b"{", b"[]", b"null", b"\xff\xfe", b"[" * 5000 + b"]" * 5000, PHOTO.read_bytes(),
             b"{" * 300_000, *(json.dumps(cards).encode() for cards in variants(json.loads(example), 50))]
    for data in files:
        send(client, app, table, game, "POST", f"/{game}/cards/import",
             data={"name": "mine", "file": (io.BytesIO(data), "cards.json")}, content_type="multipart/form-data")
    # a set of the player's, saved, then its editor sent malformed fields: the file is not changed
    assert client.post(f"/{game}/cards/copy", data={"name": "mine", "source": "example"}).status_code == 302
    fields = ["a0_arrow", "m0_arrow", "m0_explore", "m0_moves", "a0_e0_r0", "m0_r0_dir", "a0_symbol"]
    for form in form_cases({"a0_arrow": "1", "m0_arrow": "1", "m0_moves": "1"}, fields, per_field=2)[1:]:
        send(client, app, table, game, "POST", f"/{game}/cards/mine", data=form)
    undo_works(client, app, table)


@pytest.mark.parametrize("part,value,problem", [
    (("map", "hexes", "3,1"), None, "an option&#39;s value is malformed ("),
    (("map", "capitals", "green"), [1], "an option&#39;s value is malformed ("),
    (("board", "units"), 5, "board.units: expected a list"), (("board", "units", 0, "id"), [], "board.units[0].id")])
def test_brasil_imperials_table_file_of_the_wrong_shape_is_refused(client, app, part, value, problem):
    """The engine read the table file's parts unchecked: a capital's hex that is no object (or a
    unit's id that is a list) raised TypeError, and the new-game form answered 500. The board is
    now checked first and its mistake named; the map's still come as a malformed value."""
    url = started(client, "/brasil-imperial", PAGES["brasil-imperial"])
    exported = json.loads(client.get(f"{url}/table.json").get_data(as_text=True))
    node = exported
    for key in part[:-1]:
        node = node[key]
    node[part[-1]] = value
    before = saved(app)
    res = client.post("/brasil-imperial/new", data={**PAGES["brasil-imperial"],
                                                    "table": (io.BytesIO(json.dumps(exported).encode()), "t.json")},
                      content_type="multipart/form-data")
    assert res.status_code == 400 and problem in said(res)
    assert saved(app) == before


def exploring(app, url: str) -> tuple[str, str]:
    """The Brasil Imperial game at ``url`` with the Autômato's compass on a face-down tile it has
    just flipped (its ``explore`` op), saved as the next step. (The hex, the step's number.)"""
    game = get("brasil-imperial")
    with app.app_context():
        step = services().store.steps(sid_of(url))[-1]
        state = game.load(step.state)
        h = next(h for h, c in sorted(state.cells.items()) if c.tile is not None and c.tile.face_down)
        state.compass_at = h
        state = game.apply(state, {"ops": [{"op": "explore", "hex": hex_key(h)}]})
        seq = sessions.record("brasil-imperial", sid_of(url), step.seq, "table", "explored", state)
    return hex_key(h), str(seq)


def test_brasil_imperials_flipped_tile_stays_until_it_is_entered(client, app):
    """Clearing the players' pieces off the hex took the flipped tile too: the exploration then
    waited for a tile that was gone, and entering it answered 500 from then on."""
    url = started(client, "/brasil-imperial", PAGES["brasil-imperial"])
    h, seq = exploring(app, url)
    res = client.post(f"{url}/table", data={"seq": seq, "action": "piece", "hex": h, "what": "clear"})
    assert res.status_code == 302
    s = state_of(app, url)
    assert s.cells[parse_hex(h, "h")].tile is not None and s.pending == {"kind": "explore", "hex": h}
    before = saved(app)
    res = client.post(f"{url}/table", data={"seq": str(int(seq) + 1), "action": "piece", "hex": h, "what": "tile"})
    assert res.status_code == 400 and f"the tile on {h} waits to be entered" in said(res) and saved(app) == before
    res = client.post(f"{url}/table", data={"seq": str(int(seq) + 1), "action": "reveal", "kind": "quilombo"})
    assert res.status_code == 302 and state_of(app, url).pending is None


def test_a_step_a_saved_games_state_cannot_take_is_refused_not_a_500(client, app, monkeypatch):
    """A saved state the engine's load takes but its ops cannot (found once: an exploration waiting
    on a hex without a tile, which the engine's load now refuses): the players' step answered
    500. Any such engine failure (here made to happen) answers 400 and changes nothing."""
    url = started(client, "/brasil-imperial", PAGES["brasil-imperial"])
    _, seq = exploring(app, url)
    game = get("brasil-imperial")

    def fails(state, decision):
        raise AttributeError("'NoneType' object has no attribute 'kind'")

    monkeypatch.setattr(game, "apply", fails)
    before = saved(app)
    res = client.post(f"{url}/table", data={"seq": seq, "action": "reveal", "kind": "flag", "fc": "0"})
    monkeypatch.undo()
    assert res.status_code == 400 and "internal error (AttributeError); the game state was not changed" in said(res)
    assert saved(app) == before
    assert client.post(f"{url}/undo").status_code == 302 and steps_of(app, url)[-1].seq == int(seq) - 1


def test_brasil_imperials_new_game_refuses_a_bad_table_file_and_card_set(client, app, table):
    game, base = "brasil-imperial", PAGES["brasil-imperial"]
    exported = json.loads(client.get(f"/{game}/{table[game]}/table.json").get_data(as_text=True))
    files = [b"{", b"[]", b"\xff\xfe", b"{}", b"x" * 250_000, *(json.dumps(t).encode() for t in variants(exported, 50))]
    for data in files:
        send(client, app, table, game, "POST", f"/{game}/new", data={**base, "table": (io.BytesIO(data), "t.json")},
             content_type="multipart/form-data")
    for cards in ["", "../../x", "Игра", "missing", "x" * 5000]:
        send(client, app, table, game, "POST", f"/{game}/new", data={**base, "cards": cards})
    undo_works(client, app, table)


# -- Barrage's JSON API ---------------------------------------------------------------------
NEW_BARRAGE = {"role_usa": "automa", "role_germany": "human", "seed": "7", "difficulty": "hard", "name": "t",
               "level_usa": "hard", "officer_usa": "", "leeghwater": "0", "profile": ""}


def test_barrage_refuses_a_malformed_new_game(client, app, table):
    for kw in json_cases(NEW_BARRAGE, list(NEW_BARRAGE), per_field=4):
        send(client, app, table, "barrage", "POST", API, **kw)
    for form in form_cases(NEW_BARRAGE, ["role_usa", "seed", "difficulty", "profile", "name"], per_field=2):
        send(client, app, table, "barrage", "POST", "/barrage/play/new", data=form)
    undo_works(client, app, table)


STEP_BODIES = {
    "automa-done": {"seq": 1}, "pass": {"seq": 1}, "round-end": {"seq": 1},
    "human-done": {"seq": 1, "use_camera": False, "move": "build"},
    "correct": {"seq": 1, "slot": "1U", "piece": "base", "owner": "usa", "drops": 1},
}


@pytest.mark.parametrize("action", list(STEP_BODIES))
def test_a_barrage_step_refuses_malformed_bodies(client, app, table, action):
    sid = table["barrage"]
    for kw in json_cases(STEP_BODIES[action], list(STEP_BODIES[action]), per_field=len(VALUES)):
        send(client, app, table, "barrage", "POST", f"{API}/{sid}/{action}", **kw)
    undo_works(client, app, table)


@pytest.mark.parametrize("owner", [["usa"], {"usa": 1}, [[]]])
def test_a_barrage_correction_whose_owner_is_no_text_is_refused(client, app, session_id, owner):
    """A JSON list or object as the owner answered 500 (``owner not in`` a set: unhashable)."""
    assert client.post(f"{API}/{session_id}/automa-done", json={"seq": 0}).status_code == 200
    before = saved(app)
    res = client.post(f"{API}/{session_id}/correct", json={"seq": 1, "slot": "1U", "piece": "base", "owner": owner})
    assert res.status_code == 400 and res.json["problems"] == ["owner must be one of: germany, neutral, usa"]
    assert saved(app) == before
    assert client.post(f"{API}/{session_id}/correct",
                       json={"seq": 1, "slot": "1U", "piece": "base", "owner": "germany"}).json["seq"] == 2


def test_barrage_undo_delete_and_unknown_actions(client, app, table):
    sid = table["barrage"]
    for kw in json_cases({"to": 0}, ["to"], per_field=len(VALUES)):
        send(client, app, table, "barrage", "POST", f"{API}/{sid}/undo", **kw)
    for action in ["fly", "Игра", "..", "undo ", "%00", "x" * 2000]:
        assert send(client, app, table, "barrage", "POST", f"{API}/{sid}/{action}", json={"seq": 1}).status_code == 404
    for other in [0, 2**63, 2**70, table["expeditions"]]:
        for method, path in [("GET", ""), ("DELETE", ""), ("POST", "/undo"), ("POST", "/automa-done"),
                             ("GET", "/export"), ("GET", "/live"), ("GET", "/camera.jpg"), ("GET", "/../1")]:
            res = send(client, app, table, "barrage", method, f"{API}/{other}{path}", json={"seq": 1})
            assert res.status_code in (404, 405), (method, other, path, res.status_code)
        assert send(client, app, table, "barrage", "GET", f"/barrage/play/{other}").status_code == 404
    undo_works(client, app, table)


def test_barrage_queries_and_the_old_addresses(client, app, table):
    for query in ["profile=../../x", "profile=%00", "profile=" + "x" * 5000, "profile=Игра", "profile="]:
        send(client, app, table, "barrage", "GET", f"/barrage/api/layout?{query}")
    for url in ["/api/sessions/1/../../x", "/play/%2e%2e", "/api/" + "x" * 3000]:
        send(client, app, table, "barrage", "POST", url, json={"seq": 1})
    undo_works(client, app, table)


# -- the calibration wizard ------------------------------------------------------------------
def upload(data: bytes, field: str = "photo", name: str = "p.jpg") -> dict:
    return {"data": {field: (io.BytesIO(data), name)}, "content_type": "multipart/form-data"}


def test_the_calibration_wizard_refuses_bad_names(client, app, table):
    routes = [("GET", ""), ("POST", "/snapshot"), ("POST", "/photo"), ("GET", "/preview.jpg"), ("POST", "/lens"),
              ("POST", "/markers"), ("POST", "/register"), ("GET", "/rectified.jpg"), ("POST", "/reference"),
              ("GET", "/layout"), ("POST", "/layout"), ("POST", "/recognition"), ("GET", "/teach"),
              ("POST", "/teach"), ("POST", "/teach/1"), ("GET", "/teach/1.jpg"), ("POST", "/save")]
    for name in ["..", "%2e%2e", "..%2f..%2fetc", "a%00b", "x" * 41, "%20", "-x", "a%0a"]:
        for method, path in routes:
            res = send(client, app, table, "barrage", method, f"/calibration/api/{name}{path}", json={})
            # without a model the recognition step answers that it is unavailable, for any name
            assert res.status_code in (400, 404, 405) or path == "/recognition", (name, path, res.status_code)
    undo_works(client, app, table)


def test_the_calibration_wizard_refuses_malformed_steps(client, app, table):
    base = "/calibration/api/table-1"
    pdf = b"%PDF-1.4 not a picture"
    # the wizard's picture first, so that each step gets past "take a snapshot or upload a photo first"
    assert send(client, app, table, "barrage", "POST", f"{base}/photo", **upload(PHOTO.read_bytes())).status_code == 200
    for data, name in [(b"", "p.jpg"), (pdf, "p.jpg"), (b"\xff\xd8\xff\xc0\x00\x11\x08\x4e\x20\x4e\x20", "p.jpg"),
                       (b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "../../p.png"), (b"GIF89a", "Игра.gif")]:
        assert send(client, app, table, "barrage", "POST", f"{base}/photo", **upload(data, name=name)).status_code == 400
        assert send(client, app, table, "barrage", "POST", f"{base}/lens",
                    **upload(data, "photos", name)).status_code == 400
    for path in ["/photo", "/lens", "/teach/1"]:
        assert send(client, app, table, "barrage", "POST", base + path, json={"photo": "x"}).status_code == 400
    for path in ["/markers", "/rectified.jpg", "/reference", "/recognition", "/teach", "/save"]:
        send(client, app, table, "barrage", "POST" if "." not in path else "GET", base + path, json={})
    for kw in json_cases({"method": "corners", "points": [[0, 0], [10, 0], [10, 10], [0, 10]]}, ["method", "points"],
                         per_field=len(VALUES)):
        send(client, app, table, "barrage", "POST", f"{base}/register", **kw)
    for kw in json_cases({"slots": {"1U": {"x": 130, "y": 259, "w": 73, "h": 59}}}, ["slots"], per_field=len(VALUES)):
        send(client, app, table, "barrage", "POST", f"{base}/layout", **kw)
    for box in [{"x": v} for v in VALUES] + [{"zz": 1}, {"x": 990, "w": 300}]:
        send(client, app, table, "barrage", "POST", f"{base}/layout", json={"slots": {"1U": box}})
    for kw in json_cases({"companies": ["usa"], "photos": [{"photo": 1, "slots": {}}]}, ["companies", "photos"],
                         per_field=len(VALUES)):
        send(client, app, table, "barrage", "POST", f"{base}/teach", **kw)
    for k in [0, 4, 99, 2**70]:
        send(client, app, table, "barrage", "GET", f"{base}/teach/{k}.jpg")
        send(client, app, table, "barrage", "POST", f"{base}/teach/{k}", **upload(pdf))
    for query in ["companies=" + c for c in ["", ",,,", "usa,usa", "Игра", "../x", "x" * 5000, "neutral"]] + \
            ["full=1", "full=" + "9" * 40]:
        send(client, app, table, "barrage", "GET", f"{base}/teach?{query}")
        send(client, app, table, "barrage", "GET", f"{base}/preview.jpg?{query}")
    undo_works(client, app, table)


# -- languages ---------------------------------------------------------------------------------
def test_any_language_asked_for_is_answered(client, app, table):
    pages = ["/", "/barrage/", "/calibration/", *(f"/{g}/{table[g]}" for g in GAMES), "/brasil-imperial/cards"]
    for lang in ["", "xx", "../../etc", "pt_BR%0A", "Игра", "x" * 5000, "pl;q=2"]:
        for page in pages:
            res = send(client, app, table, "barrage", "GET", f"{page}?lang={lang}")
            assert res.status_code == 200 and "lang=" + lang.split("\n")[0] not in res.headers.get("Set-Cookie", "")
        client.set_cookie("lang", lang[:1000])
        res = send(client, app, table, "barrage", "GET", "/", headers={"Accept-Language": lang.replace("\n", "") + ";q=x,"})
        assert res.status_code == 200
    undo_works(client, app, table)
