"""Every route of the app, fuzzed (Hypothesis): no request, however hostile, answers 500.

The routes are read from the app's own URL map, so a page added later is fuzzed too. Each
example is one request: a route, a method it takes, its URL's values (existing session ids
and profile names among hostile ones) and a body (JSON of any shape and depth, form fields,
a multipart upload, raw bytes), its fields drawn from the names the pages read and values
they accept, so that the requests reach past the first check. Afterwards the store's SQLite
file passes ``PRAGMA integrity_check`` and every session still reads.

``FUZZ_RANDOM=1`` draws new examples each run; by default the draw is the same every run,
so ``make test`` is repeatable.
"""
from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from automa.games import registry
from vision.layout import load_layout
from web.app import WebConfig, create_app

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "900"))       # with the sweep's, over 1,000 requests
PHOTO = Path(__file__).resolve().parents[1] / "fixtures" / "synth" / "clean_01.jpg"
HOSTILE = ["²", "١٢٣", "../../etc/passwd", "..", "a/b", "Игра", "游戏", "x\n", "\x00", "1e999", "NaN", "-1",
           "9" * 40, "'; DROP TABLE steps; --", "<script>alert(1)</script>", " ", "", "%2e%2e", "table-1", "t"]
NUMBERS = st.one_of(st.integers(-3, 12), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([2**63, 2**70, -(2**63), 3e38, 1e308]))


def png_claiming(w: int, h: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def _values() -> dict[str, list]:
    """Field names the pages read, with values they accept (and some they must refuse)."""
    slots = [b.id for b in load_layout().slots]
    values: dict[str, list] = {
        "seq": [0, 1, 2, 3], "to": [0, 1, "", None], "slot": slots, "piece": ["empty", "base", "base+2", "conduit",
        "powerhouse"], "owner": ["usa", "germany", "neutral", "italy", None], "drops": [0, 1, 3, 99],
        "use_camera": [True, False, "0"], "difficulty": ["easy", "medium", "hard"], "seed": ["7", "²", "12"],
        "profile": ["", "table-1", "../../x"], "name": ["Игра", "t", "x" * 200], "method": ["markers", "corners"],
        "points": [[[100, 50], [700, 60], [720, 900], [90, 880]], [[3e38, 3e38]] * 4],
        "slots": [{"1U": {"x": 130, "y": 259, "w": 73, "h": 59}}, {"9Z": {}}],
        "format": ["automa-vision-session"], "version": [1, 2], "game": list(registry()),
    }
    for company in ("usa", "germany", "italy", "france"):
        values[f"role_{company}"] = ["automa", "human", "off"]
    for game in registry().values():
        for option in game.options:
            values.setdefault(option.name, []).extend([option.default, *option.choices][:6])
    return values


VALUES = _values()
LEAF = st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=12), st.sampled_from(HOSTILE))
JSON = st.recursive(LEAF, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8) | st.sampled_from(sorted(VALUES)), inner, max_size=5),
                    max_leaves=16)
FIELDS = st.fixed_dictionaries({}, optional={k: st.sampled_from(v) | JSON for k, v in VALUES.items()})
UPLOAD = st.sampled_from([b"", b"%PDF-1.4", png_claiming(30000, 30000), png_claiming(5000, 5000),
                          b"\xff\xd8\xff\xc0\x00\x11\x08\x4e\x20\x4e\x20", *([PHOTO.read_bytes()] if PHOTO.exists() else [])])


@st.composite
def bodies(draw) -> dict:
    """Keyword arguments of the test client's ``open`` for one request body."""
    kind = draw(st.sampled_from(["none", "json", "json", "form", "multipart", "raw", "deep"]))
    if kind == "json":
        return {"json": draw(FIELDS | JSON)}
    if kind == "form":
        return {"data": {k: str(v) for k, v in draw(FIELDS).items()}}
    if kind == "multipart":
        field = draw(st.sampled_from(["photo", "photos", "file"]))
        files = [(io.BytesIO(draw(UPLOAD)), draw(st.sampled_from(["p.jpg", "p.png", "../x.json", "Игра.jpg"])))
                 for _ in range(draw(st.integers(1, 3)))]
        return {"data": {field: files}, "content_type": "multipart/form-data"}
    if kind == "raw":
        return {"data": draw(st.binary(max_size=64)), "content_type": draw(st.sampled_from(
            ["application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]))}
    if kind == "deep":
        depth = draw(st.sampled_from([50, 5000, 100_000]))
        return {"data": '{"seq": ' + "[" * depth + "]" * depth + "}", "content_type": "application/json"}
    return {}


PARAM = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    data = tmp_path_factory.mktemp("fuzz") / "data"
    app = create_app(WebConfig(data_dir=data, model=data / "no-model.onnx"))
    client = app.test_client()
    ids = [client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human", "seed": str(s)})
           .json["id"] for s in (7, 8)]
    rules = [r for r in app.url_map.iter_rules() if not r.endpoint.endswith("static")]
    return app, client, ids, rules, data


def fill(rule: str, draw, ids: list[int]) -> str:
    """The rule's URL with each of its values drawn: an existing id or a hostile one for an int,
    a profile name or hostile text for the rest."""
    def value(m: re.Match) -> str:
        if m.group(1) == "int":
            return str(draw(st.sampled_from(ids) | st.integers(0, 2**70)))
        text = draw(st.sampled_from(HOSTILE + ["automa-done", "human-done", "pass", "correct", "round-end", "undo"])
                    | st.text(max_size=20))
        return "".join(ch if ch.isprintable() and ch not in "/?#%" else "-" for ch in text) or "x"
    return PARAM.sub(value, rule)


answered: list[tuple[str, str, int]] = []
SWEEP = [({}, "/"), ({"data": "[" * 100_000 + "]" * 100_000, "content_type": "application/json"}, "/"),
         ({"data": b"\xff\xfe\x00garbage", "content_type": "multipart/form-data; boundary=x"}, "/"),
         ({"json": {"seq": 2**70, "to": -1, "slot": "../..", "name": "Игра\n"}}, "/")]


def test_every_route_answers_a_hostile_request_of_each_kind(fuzzed):
    """Every route and method, each with every kind of body, once: so that each is fuzzed
    however many routes the games' pages add (the random draw below may miss a few)."""
    app, client, ids, rules, _ = fuzzed
    for rule in rules:
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for i, (body, _) in enumerate(SWEEP):
                values = [str(ids[0]), "2" + "0" * 25, "..", "Игра"][i]
                url = PARAM.sub(lambda m: values, rule.rule)
                res = client.open(url, method=method, **body)
                answered.append((method, rule.rule, res.status_code))
                assert res.status_code < 500, (method, url, res.status_code, res.get_data(as_text=True)[:300])


@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not os.environ.get("FUZZ_RANDOM"),
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_request_answers_500(fuzzed, data):
    app, client, ids, rules, _ = fuzzed
    if data.draw(st.integers(0, 5)) == 0:
        return play(client, ids, data)
    rule = data.draw(st.sampled_from(rules))
    method = data.draw(st.sampled_from(sorted(rule.methods - {"HEAD", "OPTIONS"})))
    url = fill(rule.rule, data.draw, ids)
    query = data.draw(st.sampled_from(["", "?full=1", "?profile=../../x", "?profile=%0a", "?t=1"]))
    res = client.open(url + query, method=method, **data.draw(bodies()))
    answered.append((method, rule.rule, res.status_code))
    assert res.status_code < 500, (method, url, res.status_code, res.get_data(as_text=True)[:500])
    if res.mimetype == "application/json":
        json.loads(res.get_data(as_text=True))          # JSON a browser can read (no NaN)


def play(client, ids: list[int], data) -> None:
    """A step a player could send (a session's current ``seq``, a real action) with fuzzed
    fields: the requests that get past the first checks into the game."""
    # everything drawn first: what is drawn must not depend on the answers (Hypothesis replays it)
    sid = data.draw(st.sampled_from(ids))
    action = data.draw(st.sampled_from(["automa-done", "human-done", "pass", "correct", "round-end", "undo"]))
    body = {**data.draw(FIELDS), "use_camera": data.draw(st.sampled_from([False, True]))}
    view = client.get(f"/barrage/api/sessions/{sid}")
    body["seq"] = view.json["seq"] if view.status_code == 200 else 0     # 404: deleted by an earlier example
    res = client.post(f"/barrage/api/sessions/{sid}/{action}", json=body)
    answered.append(("POST", "/barrage/api/sessions/<int:sid>/<action>", res.status_code))
    assert res.status_code < 500, (action, body, res.status_code, res.get_data(as_text=True)[:500])


def test_the_fuzzed_store_is_whole_and_every_route_was_reached(fuzzed):
    app, client, _, rules, data = fuzzed
    if not answered:
        pytest.skip("the fuzz test did not run")
    assert len(answered) >= 1000 or EXAMPLES < 900
    assert {r for _, r, _ in answered} == {r.rule for r in rules}       # every route fuzzed
    assert any(rule.endswith("/<action>") and 200 <= status < 300 for _, rule, status in answered)   # steps were played
    with sqlite3.connect(data / "sessions.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for s in client.get("/barrage/api/sessions").json:
        assert client.get(f"/barrage/api/sessions/{s['id']}").status_code == 200
