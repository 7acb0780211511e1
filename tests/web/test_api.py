from __future__ import annotations

import io
import json
import os
from dataclasses import replace

import cv2
import numpy as np
import pytest

from automa.barrage.engine import apply_decision
from automa.barrage.names import in_words, with_code
from automa.barrage.state import Dam, GameState
from tests.vision.cameras import SizedCamera
from vision.barrage.board_state import MapState
from vision.barrage.changes import diff
from vision.capture import Capture
from vision.layout import load_layout
from vision.reader import Flag
from vision.slot_change import Comparison
from web.app import WebConfig, create_app
from web.barrage import game
from web.barrage.live import Look, StableView
from web.services import Source, services


def view(client, sid):
    return client.get(f"/barrage/api/sessions/{sid}").json


def test_new_game_form_names_every_problem(client):
    res = client.post("/barrage/play/new", data={"role_usa": "human", "difficulty": "nightmare", "seed": "x1"})
    assert res.status_code == 400
    page = res.get_data(as_text=True)
    assert "choose 1 to 3 Automa companies" in page and "difficulty must be" in page and "seed must be" in page
    res = client.post("/barrage/api/sessions", json={"role_usa": "automa", "profile": "nope"})
    assert res.status_code == 400 and "unknown calibration profile" in res.json["problems"][0]


def test_automa_turn_then_human_turn_then_undo(client, session_id):
    v = view(client, session_id)
    assert v["next"] == "usa" and v["decision"]["instruction"].startswith("Red Automa (usa)")
    assert v["highlight"] == ["8U"] and v["tiles"]["actions"]["actions"]
    expected = apply_decision(GameState.from_dict(client.application.extensions["automa_vision"].store
                                                  .last(session_id).state), v["decision"])
    v = client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0}).json
    assert v["seq"] == 1 and v["next"] == "germany"
    assert GameState.from_dict(services_state(client, session_id)).to_dict() == expected.to_dict()
    # the same click again (a double click, a second screen) is refused, not played twice
    res = client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0})
    assert res.status_code == 409 and "moved on" in res.json["error"]
    v = client.post(f"/barrage/api/sessions/{session_id}/human-done", json={"seq": 1}).json
    assert v["next"] == "usa" and "turn confirmed" in v["history"][-1]["label"]
    v = client.post(f"/barrage/api/sessions/{session_id}/undo", json={}).json
    assert v["seq"] == 1 and v["next"] == "germany"
    v = client.post(f"/barrage/api/sessions/{session_id}/undo", json={"to": 0}).json
    assert v["seq"] == 0 and v["next"] == "usa"
    assert client.post(f"/barrage/api/sessions/{session_id}/undo", json={}).status_code == 400


def services_state(client, sid) -> dict:
    return client.application.extensions["automa_vision"].store.last(sid).state


def test_correction_changes_the_map_and_checks_the_rules(client, session_id):
    v = client.post(f"/barrage/api/sessions/{session_id}/correct",
                    json={"seq": 0, "slot": "1U", "piece": "base+1", "owner": "germany", "drops": 1}).json
    assert {"slot": "1U", "piece": "base+1", "owner": "germany", "drops": 1} in v["pieces"]
    assert next(c for c in v["companies"] if c["company"] == "germany")["structures"]["elevation"] == 4
    assert v["next"] == "usa"                      # a correction does not end anyone's turn
    bad = client.post(f"/barrage/api/sessions/{session_id}/correct",
                      json={"seq": 1, "slot": "1U", "piece": "base", "owner": "germany", "drops": 3})
    assert bad.status_code == 400 and "capacity" in bad.json["error"]
    for body, words in (({"slot": "ZZ"}, "unknown slot"), ({"slot": "1A", "piece": "base"}, "holds one of"),
                        ({"slot": "1A", "piece": "conduit", "owner": "italy"}, "owner must be")):
        res = client.post(f"/barrage/api/sessions/{session_id}/correct", json={"seq": 1, **body})
        assert res.status_code == 400 and words in res.json["problems"][0]
    assert view(client, session_id)["seq"] == 1
    # a headstream tile holds as many drops as the camera counts (vision.barrage.labels.MAX_HEADSTREAM_DROPS)
    too_many = client.post(f"/barrage/api/sessions/{session_id}/correct", json={"seq": 1, "slot": "A", "drops": 13})
    assert too_many.status_code == 400 and "drops" in too_many.json["problems"][0]
    v = client.post(f"/barrage/api/sessions/{session_id}/correct", json={"seq": 1, "slot": "A", "drops": 12}).json
    assert v["seq"] == 2 and {"slot": "A", "piece": "headstream", "owner": None, "drops": 12} in v["pieces"]


def test_round_end_only_when_everyone_is_done(client, session_id):
    res = client.post(f"/barrage/api/sessions/{session_id}/round-end", json={"seq": 0})
    assert res.status_code == 400 and "is not over" in res.json["error"]
    v = view(client, session_id)
    while v["phase"] == "actions":
        action = "automa-done" if v["next_view"]["automa"] else "pass"
        v = client.post(f"/barrage/api/sessions/{session_id}/{action}", json={"seq": v["seq"]}).json
    assert v["phase"] == "round_end"
    v = client.post(f"/barrage/api/sessions/{session_id}/round-end", json={"seq": v["seq"]}).json
    assert v["round"] == 2 and v["phase"] == "actions" and v["next_view"]["engineers"] == 12


def test_export_import_round_trip_and_bad_files(client, session_id):
    client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0})
    exported = client.get(f"/barrage/api/sessions/{session_id}/export")
    assert "attachment" in exported.headers["Content-Disposition"]
    data = exported.get_data()
    res = client.post("/barrage/api/sessions/import", data={"file": (io.BytesIO(data), "s.json")},
                      content_type="multipart/form-data")
    assert res.status_code == 201
    assert view(client, res.json["id"])["history"] == view(client, session_id)["history"]
    broken = json.loads(data)
    broken["steps"][1]["state"]["map"]["dams"].append({"space": "9Z", "owner": "usa"})
    for bad, words in ((b"not json", "not a JSON file"), (b'{"a": 1}', "not an exported session"),
                       (json.dumps(broken).encode(), "step 1: unknown dam space '9Z'")):
        res = client.post("/barrage/api/sessions/import", data={"file": (io.BytesIO(bad), "s.json")},
                          content_type="multipart/form-data")
        assert res.status_code == 400 and words in res.json["problems"][0], res.json
    assert len(client.get("/barrage/api/sessions").json) == 2      # nothing half-imported


def test_an_import_whose_flow_or_settings_no_step_makes_is_refused(client, session_id):
    """These were stored, and the session then answered 500 on undo (KeyError: None) or on its
    camera (a list for a profile's name); a number too large for the rules answered 500 at import."""
    client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0})
    exported = json.loads(client.get(f"/barrage/api/sessions/{session_id}/export").get_data())
    cases = [
        (lambda d: d["steps"][1].__setitem__("flow", {}), "step 1: \"next\" must name the company to move"),
        (lambda d: d["steps"][0]["flow"].__setitem__("next", None), "step 0: \"next\" must name"),
        (lambda d: d["steps"][1]["flow"].__setitem__("next", ["usa"]), "step 1: \"next\" must name"),
        (lambda d: d["steps"][1]["flow"].__setitem__("passed", "usa"), "step 1: \"passed\" must be a list"),
        (lambda d: d["steps"][1]["flow"].__setitem__("passed", ["italy"]), "step 1: flow: 'italy' is not playing"),
        (lambda d: d["settings"].__setitem__("profile", ["x"]), "\"profile\" must be a calibration profile's name"),
        (lambda d: d["steps"][1]["state"]["automa_deck"]["draw_pile"].__setitem__(0, 1e300), "step 1:"),
    ]
    for mutate, words in cases:
        broken = json.loads(json.dumps(exported))
        mutate(broken)
        res = client.post("/barrage/api/sessions/import", data=json.dumps(broken), content_type="application/json")
        assert res.status_code == 400 and words in res.json["problems"][0], (words, res.json)
    assert len(client.get("/barrage/api/sessions").json) == 1      # nothing stored
    res = client.post("/barrage/api/sessions/import", data=json.dumps(exported), content_type="application/json")
    assert res.status_code == 201 and client.post(f"/barrage/api/sessions/{res.json['id']}/undo", json={}).status_code == 200
    # a step's payload is its record, kept and exported as it came: the page reads nothing from it
    exported["steps"][1]["payload"]["decision"] = "round_end"
    res = client.post("/barrage/api/sessions/import", data=json.dumps(exported), content_type="application/json")
    assert res.status_code == 201 and view(client, res.json["id"])["seq"] == 1
    assert client.post(f"/barrage/api/sessions/{res.json['id']}/undo", json={}).status_code == 200


def test_errors_are_answers_not_crashes(client, session_id):
    assert client.get("/barrage/api/sessions/999").status_code == 404
    assert client.get("/barrage/api/sessions/999").json["error"] == "no session 999"
    assert client.get("/barrage/play/999").status_code == 404
    assert "404" in client.get("/barrage/play/999").get_data(as_text=True)
    assert client.post(f"/barrage/api/sessions/{session_id}/fly", json={"seq": 0}).status_code == 404
    assert client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={}).status_code == 400
    assert client.post(f"/barrage/api/sessions/{session_id}/pass", json={"seq": 0}).status_code == 400   # Automa's turn
    huge = io.BytesIO(b"x" * (9 * 1024 * 1024))
    res = client.post("/barrage/api/sessions/import", data={"file": (huge, "big.json")}, content_type="multipart/form-data")
    assert res.status_code == 413 and "larger than" in res.json["error"]


@pytest.mark.parametrize("method,path", [("delete", ""), ("get", ""), ("get", "/export"), ("get", "/camera.jpg"),
                                         ("post", "/undo"), ("post", "/automa-done")])
def test_a_session_id_past_sqlites_integers_is_no_session(client, session_id, method, path):
    """The URL takes an id of any length; DELETE bound 2**70 to SQLite and answered 500."""
    res = getattr(client, method)(f"/barrage/api/sessions/{2**70}{path}", json={"seq": 0})
    assert res.status_code == 404 and res.json["error"] == f"no session {2**70}"
    assert view(client, session_id)["seq"] == 0


@pytest.mark.parametrize("seq", ["Infinity", "-Infinity", "NaN", "0.5", "true", "[0]", '"zero"', '"9999999999999999999999"'])
def test_a_number_that_is_no_whole_number_is_a_problem_named_not_a_crash(client, session_id, seq):
    """JSON's Infinity once reached int() and answered 500; 0.5 and true were taken for 0 and 1."""
    res = client.post(f"/barrage/api/sessions/{session_id}/automa-done", data=f'{{"seq": {seq}}}',
                      content_type="application/json")
    assert res.status_code == 400, res.json
    assert res.json["problems"] in (["seq must be a whole number"], ["seq must be between 0 and 1000000000"])
    assert view(client, session_id)["seq"] == 0
    assert client.post(f"/barrage/api/sessions/{session_id}/automa-done", data='{"seq": 0.0}',
                       content_type="application/json").json["seq"] == 1      # a whole number written as 0.0


def test_camera_image_and_live_status_without_a_model(client, session_id):
    res = client.get(f"/barrage/api/sessions/{session_id}/camera.jpg")
    assert res.status_code == 200 and res.mimetype == "image/jpeg"
    assert cv2.imdecode(np.frombuffer(res.data, np.uint8), cv2.IMREAD_COLOR) is not None
    live = client.get(f"/barrage/api/sessions/{session_id}/live").json
    assert live["recognition_available"] is False and "model file" in live["recognition"]
    assert live["registration"] == "aruco"        # the board is found without the model
    assert live["board_chance"] is None           # nothing read, nothing to be sure of
    assert live["camera_note"] is None            # the demo's frames are full size
    assert client.get("/barrage/api/reference.svg").data.startswith(b"<svg")
    assert len(client.get("/barrage/api/layout").json["slots"]) == 67


def test_a_small_webcam_is_named_while_its_frames_come(tmp_path, monkeypatch):
    """A webcam that gives 640x480 frames, whatever it is asked for: the live status says so
    on every poll, beside the frames, not only once in the log."""
    monkeypatch.setattr("web.barrage.live.open_source", lambda spec: Capture(lambda: SizedCamera(spec), f"camera {spec}"))
    config = WebConfig(data_dir=tmp_path / "data", source=Source("camera", "0"), model=tmp_path / "no-model.onnx")
    client = create_app(config).test_client()
    sid = client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human"}).json["id"]
    assert client.get(f"/barrage/api/sessions/{sid}/camera.jpg").status_code == 200
    for _ in range(2):
        live = client.get(f"/barrage/api/sessions/{sid}/live").json
        assert live["camera_problem"] is None, "frames come: nothing stops the camera"
        assert live["camera_note"] == ("camera 0: gives 640x480 frames, smaller than 1280x720: "
                                       "pieces are read less reliably at this size")


def test_a_damaged_model_file_is_named_on_every_page_and_the_camera_goes_on(tmp_path):
    damaged = tmp_path / "damaged.onnx"
    damaged.write_bytes(b"not an onnx file")
    client = create_app(WebConfig(data_dir=tmp_path / "data", model=damaged)).test_client()
    status = client.get("/barrage/api/status").json
    assert status["recognition_available"] is False
    assert "damaged.onnx" in status["recognition"] and "not a model file" in status["recognition"]
    sid = client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human"}).json["id"]
    assert 'id="recognition"' in client.get(f"/barrage/play/{sid}").get_data(as_text=True)
    for _ in range(2):       # every poll answers, none fails on the file
        live = client.get(f"/barrage/api/sessions/{sid}/live")
        assert live.status_code == 200 and live.json["recognition"] == status["recognition"]
        assert live.json["registration"] == "aruco"          # the board is still found
    assert client.get(f"/barrage/api/sessions/{sid}/camera.jpg").status_code == 200


def test_the_page_moves_on_when_the_camera_sees_the_instruction_done(client, session_id, monkeypatch):
    store = services_from(client).store
    expected = game.expected_map(store.last(session_id))
    seen = {"map": game.map_of(GameState.from_dict(store.last(session_id).state))}
    look = lambda *a, **k: Look(np.zeros((8, 8, 3), np.uint8), None, None, "aruco", seen["map"])
    monkeypatch.setattr(services_from(client).live, "look", look)
    live = client.get(f"/barrage/api/sessions/{session_id}/live").json
    assert live["advanced"] is False                                                 # not done yet
    # the page says what it waits for: each slot the instruction changes, as the camera sees it now
    known = game.map_of(GameState.from_dict(store.last(session_id).state))
    targets = list(dict.fromkeys(m.space for m in diff(known, expected)))
    assert targets and [w.split(":")[0] for w in live["waiting"]] == [with_code(t) for t in targets]
    assert all(w.endswith("there") for w in live["waiting"])
    # done, and a neutral dam misread as gone: nothing removes a dam, so that is no obstacle
    neutral = next(s for s, d in expected.dams.items() if d.owner == "neutral")
    seen["map"] = replace(expected, dams={s: d for s, d in expected.dams.items() if s != neutral})
    assert client.get(f"/barrage/api/sessions/{session_id}/live").json["advanced"] is True
    v = view(client, session_id)
    assert v["seq"] == 1 and v["next"] == "germany"
    # human turn: the camera's moves are listed, and confirming takes them into the state;
    # a change the rules never make is listed apart and not taken
    seen["map"] = game.map_of(GameState.from_dict(store.last(session_id).state))
    seen["map"].conduits["1A"] = "germany"
    del seen["map"].dams[neutral]
    live = client.get(f"/barrage/api/sessions/{session_id}/live").json
    assert live["moves"] == [in_words("germany built a conduit on 1A")]
    assert live["refused"] == [in_words(f"the dam on {neutral} was removed")]
    v = client.post(f"/barrage/api/sessions/{session_id}/human-done", json={"seq": 1}).json
    assert {"slot": "1A", "piece": "conduit", "owner": "germany", "drops": 0} in v["pieces"]
    assert any(p["slot"] == neutral and p["owner"] == "neutral" for p in v["pieces"])
    assert "not taken" in store.last(session_id).label and neutral in store.last(session_id).label


def test_the_camera_is_read_knowing_the_sessions_companies(client, session_id, monkeypatch):
    """Rulings V4: the session's companies go with every reading, so a white piece is never
    read as France in a game France does not play; V14: and those with Graziano Del Monte,
    whose level 3 dams hold 4 drops."""
    asked = []

    def look(profile, turns, since_last_step, companies, del_monte=()):
        asked.append((companies, del_monte))
        return Look(np.zeros((8, 8, 3), np.uint8), None, None, "aruco")
    monkeypatch.setattr(services_from(client).live, "look", look)
    client.get(f"/barrage/api/sessions/{session_id}/live")
    client.get(f"/barrage/api/sessions/{session_id}/camera.jpg")
    assert asked == [(("germany", "usa"), ())] * 2
    sid = client.post("/barrage/api/sessions", json={"role_usa": "automa", "level_usa": "very-hard",
                                                    "officer_usa": "del-monte", "role_germany": "human"}).json["id"]
    client.get(f"/barrage/api/sessions/{sid}/live")
    assert asked[-1] == (("germany", "usa"), ("usa",))


def test_a_change_the_rules_never_make_is_a_misreading_not_a_move():
    """Structures only ever arrive in Barrage: a piece gone, a dam lowered or a new owner
    on the camera's map is put back as the game knows it; so are drops gone from a headstream
    in the actions phase. A dam's water comes and goes."""
    known = MapState(dams={"2L": Dam("usa", 2, 1), "5U": Dam("neutral", 1, 1)}, conduits={"1A": "italy"},
                     powerhouses={"P1_0": "usa"}, headstreams={"A": 1})
    seen = MapState(dams={"2L": Dam("usa", 1, 0)}, conduits={"1B": "germany"},
                    powerhouses={"P1_0": "germany"}, headstreams={"A": 0})
    fixed, refused = game.read_against(known, seen)
    assert fixed == MapState(dams={"2L": Dam("usa", 2, 0), "5U": Dam("neutral", 1, 1)},
                             conduits={"1B": "germany", "1A": "italy"}, powerhouses={"P1_0": "usa"}, headstreams={"A": 1})
    assert sorted(m.space for m in refused) == ["1A", "2L", "5U", "A", "P1_0"]
    assert "1 drop left headstream A" in [m.text for m in refused]   # drops leave a headstream only in Water Flow
    assert [m.text for m in diff(known, fixed)] == ["1 drop left the dam on 2L", "germany built a conduit on 1B"]
    assert seen.dams == {"2L": Dam("usa", 1, 0)} and "1A" not in seen.conduits      # the reading itself is kept
    assert seen.headstreams == {"A": 0}
    # drops placed on a headstream (Water Management) are taken
    fixed, refused = game.read_against(known, replace(known, headstreams={"A": 3}))
    assert fixed.headstreams == {"A": 3} and not refused
    # a dam read higher, or under another owner, keeps the known owner and the higher count
    fixed, refused = game.read_against(known, replace(known, dams={**known.dams, "2L": Dam("italy", 3, 2)}))
    assert fixed.dams["2L"] == Dam("usa", 3, 2) and [(m.kind, m.space) for m in refused] == [("owner", "2L")]


def test_a_structure_that_appears_on_a_turn_is_the_builders():
    """Only the company whose turn it is builds, a neutral dam is never built, and an
    elevation goes only on the builder's own dam: a new piece read as someone else's is
    taken as the builder's, an elevation on another's dam is put back, and the readings
    are listed."""
    known = MapState(dams={"5U": Dam("neutral", 1, 1)}, headstreams={"A": 1})
    seen = MapState(dams={"5U": Dam("neutral", 1, 1), "2L": Dam("neutral", 1, 0)}, conduits={"1A": "germany"},
                    powerhouses={"P5_0": "usa"}, headstreams={"A": 1})
    fixed, refused = game.read_against(known, seen, "usa")
    assert [m.text for m in diff(known, fixed)] == ["usa built a dam on 2L", "usa built a conduit on 1A",
                                                     "usa built a powerhouse on P5_0"]
    assert sorted(m.text for m in refused) == ["germany built a conduit on 1A (on usa's turn: taken as usa's)",
                                               "neutral built a dam on 2L (on usa's turn: taken as usa's)"]
    assert seen.conduits == {"1A": "germany"}                   # the reading itself is kept
    # with nobody's turn known, the reading stands
    assert game.read_against(known, seen) == (seen, [])
    # an elevation goes only on the builder's own dam, never on a neutral one
    known = MapState(dams={"5U": Dam("neutral", 1, 1), "3U": Dam("usa", 1, 0), "4U": Dam("italy", 2, 0)})
    seen = MapState(dams={"5U": Dam("neutral", 2, 1), "3U": Dam("usa", 2, 0), "4U": Dam("italy", 3, 0)})
    fixed, refused = game.read_against(known, seen, "usa")
    assert fixed.dams == {"5U": Dam("neutral", 1, 1), "3U": Dam("usa", 2, 0), "4U": Dam("italy", 2, 0)}
    assert sorted(m.text for m in refused) == ["italy added 1 elevation to the dam on 4U (on usa's turn)",
                                               "neutral added 1 elevation to the dam on 5U (on usa's turn)"]


def test_a_second_dam_in_a_basin_or_powerhouse_in_a_group_is_a_misreading():
    """base_rules §3: a company owns at most one dam per basin and one powerhouse per group
    (rulings V3). A new dam or powerhouse of the builder's that breaks this is put back and
    listed; the same piece on a free basin or group is a move."""
    known = MapState(dams={"1U": Dam("usa", 1, 0)}, powerhouses={"P5_0": "usa"})
    seen = replace(known, dams={**known.dams, "1L": Dam("italy", 1, 0)}, powerhouses={"P5_0": "usa", "P5_1": "usa"})
    fixed, refused = game.read_against(known, seen, "usa")
    assert fixed == known
    assert sorted(m.text for m in refused) == [
        "italy built a dam on 1L (on usa's turn: taken as usa's)",
        "usa built a dam on 1L (usa already has a dam in that basin)",
        "usa built a powerhouse on P5_1 (usa already has a powerhouse in that group)"]
    # for another company the same pieces are legal
    fixed, refused = game.read_against(known, replace(seen, powerhouses={"P5_0": "usa", "P5_1": "italy"}), "italy")
    assert [m.text for m in diff(known, fixed)] == ["italy built a dam on 1L", "italy built a powerhouse on P5_1"]
    assert refused == []

def test_the_page_lists_a_new_piece_under_the_player_whose_turn_it_is(client, session_id, monkeypatch):
    store = services_from(client).store
    client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0})      # germany's turn next
    seen = game.map_of(GameState.from_dict(store.last(session_id).state))
    seen.conduits["1A"] = "usa"                                                     # germany's conduit, misread
    monkeypatch.setattr(services_from(client).live, "look",
                        lambda *a, **k: Look(np.zeros((8, 8, 3), np.uint8), None, None, "aruco", seen))
    live = client.get(f"/barrage/api/sessions/{session_id}/live").json
    assert live["moves"] == [in_words("germany built a conduit on 1A")]
    assert live["refused"] == [in_words("usa built a conduit on 1A (on germany's turn: taken as germany's)")]


def services_from(client):
    with client.application.app_context():
        return services()


def test_home_and_demo_game(client):
    assert "Recognition unavailable" in client.get("/barrage/").get_data(as_text=True)
    res = client.post("/barrage/play/demo")
    assert res.status_code == 302
    sid = int(res.headers["Location"].rsplit("/", 1)[1])
    assert view(client, sid)["settings"]["companies"] == ["usa", "germany"]


def test_drops_no_action_of_the_movers_can_move_are_a_misreading():
    """Rulings V5: a dam loses drops only to a production of the player whose turn it is
    (their own or a neutral dam, a conduit from its basin, their powerhouse in the conduit's
    group); a dam not theirs gains drops only by water flowing past every dam with room.
    Those that break this are put back and listed; the others are moves."""
    known = MapState(dams={"1U": Dam("usa", 2, 2), "1L": Dam("neutral", 1, 1), "3U": Dam("italy", 2, 1),
                           "3L": Dam("germany", 2, 0), "8U": Dam("italy", 1, 0)},
                     conduits={"1B": "italy"}, powerhouses={"P5_0": "usa"}, headstreams={"A": 0})
    seen = replace(known, dams={"1U": Dam("usa", 2, 1), "1L": Dam("neutral", 1, 0), "3U": Dam("italy", 2, 0),
                                "3L": Dam("germany", 2, 1), "8U": Dam("italy", 1, 1)})
    fixed, refused = game.read_against(known, seen, "usa")
    assert sorted(m.text for m in refused) == [
        "1 drop added to the dam on 3L (no water usa's turn sets flowing can reach it)",   # 3U above it had room
        "1 drop left the dam on 3U (no production of usa's draws on it)"]                 # italy's dam
    # usa produced from its own 1U and the neutral 1L through italy's 1B: the water entered
    # group 5, and 8U's drop came down from headstream A past both (full or just drained)
    assert [m.text for m in diff(known, fixed)] == ["1 drop left the dam on 1L", "1 drop left the dam on 1U",
                                                    "1 drop added to the dam on 8U"]
    # the mover's own dam may gain drops with no flow (tiles, abilities put them straight in)
    fixed, refused = game.read_against(known, replace(known, dams={**known.dams, "1U": Dam("usa", 2, 2),
                                                                   "3L": Dam("germany", 2, 0)}), "germany")
    assert not refused
    fixed, refused = game.read_against(known, replace(known, dams={**known.dams, "3L": Dam("germany", 2, 2)}), "germany")
    assert not refused and fixed.dams["3L"].drops == 2
    # with nobody's turn known (the round's end), water is taken as read
    assert game.read_against(known, seen) == (seen, [])


def test_of_several_new_structures_only_the_surest_is_taken():
    """Rulings V6: a turn builds one structure (a construction action, or a contract's free
    structure after a production). When the camera reads several new ones, the one it is
    surest of is taken and the others are listed apart; a map with no confidences (not read
    by a camera) keeps them all."""
    known = MapState(dams={"3U": Dam("usa", 1, 0)})
    seen = MapState(dams={"3U": Dam("usa", 2, 0), "7U": Dam("usa", 1, 0)}, conduits={"10B": "usa"},
                    powerhouses={"P9_2": "germany"},
                    confidence={"3U": 0.54, "7U": 0.62, "10B": 0.97, "P9_2": 0.81})
    fixed, refused = game.read_against(known, seen, "usa")
    assert [m.text for m in diff(known, fixed)] == ["usa built a conduit on 10B"]
    assert sorted(m.text for m in refused) == [
        "germany built a powerhouse on P9_2 (on usa's turn: taken as usa's)",
        "usa added 1 elevation to the dam on 3U (a turn builds one structure: the camera is surer of 10B)",
        "usa built a dam on 7U (a turn builds one structure: the camera is surer of 10B)",
        "usa built a powerhouse on P9_2 (a turn builds one structure: the camera is surer of 10B)"]
    assert fixed.dams == {"3U": Dam("usa", 1, 0)} and seen.dams["3U"] == Dam("usa", 2, 0)   # the reading is kept
    # the elevation, read surest, is the one taken
    fixed, refused = game.read_against(known, replace(seen, confidence={**seen.confidence, "3U": 0.99}), "usa")
    assert [m.text for m in diff(known, fixed)] == ["usa added 1 elevation to the dam on 3U"]
    # no confidences, no choice: every new piece stands
    fixed, refused = game.read_against(known, replace(seen, confidence={}), "usa")
    assert len([m for m in diff(known, fixed) if m.kind != "drops"]) == 4
    # read through the pipeline, the decoder's shares rank them, not the calibrated chances
    ranked = replace(seen, shares={"3U": 0.9, "7U": 0.6, "10B": 0.7, "P9_2": 0.5})
    fixed, refused = game.read_against(known, ranked, "usa")
    assert [m.text for m in diff(known, fixed)] == ["usa added 1 elevation to the dam on 3U"]


def test_a_turn_places_one_piece_a_bare_dam_or_one_elevation():
    """Rulings V6: a construction places one piece, so a dam is built bare and raised one
    elevation at a time. A new dam read with elevations is taken bare, a dam read two
    elevations higher is taken one higher, each holding no more drops than its pieces, and
    the readings are listed; with nobody's turn known the reading stands."""
    known = MapState(dams={"3U": Dam("usa", 1, 1)})
    seen = MapState(dams={"3U": Dam("usa", 1, 1), "7U": Dam("usa", 3, 2)}, confidence={"7U": 0.9})
    fixed, refused = game.read_against(known, seen, "usa")
    assert [m.text for m in diff(known, fixed)] == ["usa built a dam on 7U", "1 drop added to the dam on 7U"]
    assert fixed.dams["7U"] == Dam("usa", 1, 1)
    assert [m.text for m in refused] == ["usa built a dam on 7U with 2 elevations (a turn builds one structure: "
                                         "taken as a bare dam)"]
    fixed, refused = game.read_against(known, replace(seen, dams={"3U": Dam("usa", 3, 3)}), "usa")
    assert fixed.dams == {"3U": Dam("usa", 2, 2)}
    assert [m.text for m in refused] == ["usa added 2 elevations to the dam on 3U (a turn builds one structure: "
                                         "taken as one elevation)"]
    # one elevation more, or a bare new dam, is a move as read
    one_more = replace(seen, dams={"3U": Dam("usa", 2, 1), "7U": Dam("usa", 1, 0)}, confidence={})
    assert game.read_against(known, one_more, "usa") == (one_more, [])
    assert game.read_against(known, seen) == (seen, [])


def test_a_turn_that_builds_leaves_no_drop_on_a_headstream():
    """Rulings V7: drops stay on a headstream only from Water Management and from contract
    rewards that build nothing (components.json); flowing drops run on at once. On a human's
    turn the camera reads both a new structure and drops added to a headstream: the reading
    it is less sure of is put back and listed (with no confidences, the drops)."""
    known = MapState(dams={"3U": Dam("usa", 1, 0)}, headstreams={"A": 1, "B": 0})
    seen = replace(known, conduits={"10B": "usa"}, headstreams={"A": 2, "B": 1})
    fixed, refused = game.read_against(known, seen, "usa")
    assert [m.text for m in diff(known, fixed)] == ["usa built a conduit on 10B"]
    assert sorted(m.text for m in refused) == [
        "1 drop added to headstream A (a turn that builds leaves no drop on a headstream)",
        "1 drop added to headstream B (a turn that builds leaves no drop on a headstream)"]
    # an elevation is a build too (contract 49's free elevation comes with flowing drops)
    fixed, refused = game.read_against(known, replace(seen, conduits={}, dams={"3U": Dam("usa", 2, 0)}), "usa")
    assert fixed.headstreams == known.headstreams and len(refused) == 2
    # a turn that builds nothing (Water Management) may put drops there
    fixed, refused = game.read_against(known, replace(seen, conduits={}), "usa")
    assert fixed.headstreams == {"A": 2, "B": 1} and not refused
    # an Automa's turn goes on after its Water Management action, and may then build
    fixed, refused = game.read_against(known, seen, "usa", automa=True)
    assert fixed.headstreams == {"A": 2, "B": 1} and not refused
    # read by a camera, the less sure reading goes: here the conduit, and the drops stand
    sure = {"10B": 0.71, "A": 0.93, "B": 0.64, "3U": 0.99}
    fixed, refused = game.read_against(known, replace(seen, confidence=sure), "usa")
    assert [m.text for m in diff(known, fixed)] == ["1 drop added to headstream A", "1 drop added to headstream B"]
    assert [m.text for m in refused] == ["usa built a conduit on 10B (a turn that builds brings no water there: "
                                         "the camera is surer of the water on A, B)"]
    fixed, refused = game.read_against(known, replace(seen, confidence={**sure, "10B": 0.95}), "usa")
    assert [m.text for m in diff(known, fixed)] == ["usa built a conduit on 10B"] and len(refused) == 2


def test_a_turn_that_builds_fills_no_other_dam_without_a_production():
    """Rulings V7: on a human's turn that builds, water reaches a dam not theirs only from a
    production (the L2 Powerhouse tile), which empties a dam; the mover's own dams may fill
    (the L1 Base and L2 Elevation tiles put drops straight in). Drops read added to another's
    dam with no dam read losing any are put back and listed, or the build is, when the camera
    is surer of the water."""
    known = MapState(dams={"1U": Dam("usa", 2, 2), "1L": Dam("neutral", 1, 1), "8U": Dam("italy", 1, 0),
                           "3U": Dam("usa", 1, 0)},
                     conduits={"1B": "italy"}, powerhouses={"P5_0": "usa"}, headstreams={"A": 0})
    seen = replace(known, dams={**known.dams, "8U": Dam("italy", 1, 1), "3U": Dam("usa", 1, 1)},
                   conduits={**known.conduits, "10B": "usa"})
    fixed, refused = game.read_against(known, seen, "usa")
    assert [m.text for m in diff(known, fixed)] == ["1 drop added to the dam on 3U", "usa built a conduit on 10B"]
    assert [m.text for m in refused] == [
        "1 drop added to the dam on 8U (a turn that builds fills no other dam without a production)"]
    # usa produced from 1U (its drops ran down into 8U): every reading stands
    produced = replace(seen, dams={**seen.dams, "1U": Dam("usa", 2, 1)})
    fixed, refused = game.read_against(known, produced, "usa")
    assert fixed == produced and not refused
    # the water read surer than the build: the build goes
    sure = replace(seen, confidence={"8U": 0.97, "3U": 0.9, "10B": 0.6})
    fixed, refused = game.read_against(known, sure, "usa")
    assert [m.text for m in diff(known, fixed)] == ["1 drop added to the dam on 3U", "1 drop added to the dam on 8U"]
    assert [m.text for m in refused] == ["usa built a conduit on 10B (a turn that builds brings no water there: "
                                         "the camera is surer of the water on 8U)"]
    # a turn that builds nothing (Water Management), or an Automa's, keeps the water
    assert game.read_against(known, replace(seen, conduits=known.conduits), "usa")[1] == []
    assert game.read_against(known, seen, "usa", automa=True)[1] == []


def test_a_box_whose_picture_has_not_changed_holds_what_the_game_knows():
    """Rulings V8: a slot whose picture is the one the camera showed when the game last
    read the table is read as the game has it, hidden or not; a dam's structure and its
    lake are judged apart. Readings so put back are listed; changed boxes go through the
    other rules as before."""
    known = MapState(dams={"2L": Dam("usa", 2, 1), "5U": Dam("neutral", 1, 1)}, conduits={"1A": "usa"},
                     headstreams={"A": 1, "B": 0})
    seen = MapState(dams={"2L": Dam("usa", 1, 2), "5U": Dam("neutral", 1, 0), "3U": Dam("usa", 1, 0)},
                    conduits={"1A": "usa", "1B": "usa"}, headstreams={"A": 2}, unknown=["B"])
    still = {"2L", "lake:5U", "5U", "1B", "B", "A"}
    fixed, refused = game.read_against(known, seen, "usa", pictures=Comparison(frozenset(still), {}))
    assert fixed.dams == {"2L": Dam("usa", 2, 2),          # the structure as it stood, its lake changed: 2 drops read
                          "5U": Dam("neutral", 1, 1),      # neither changed
                          "3U": Dam("usa", 1, 0)}          # a dam built where the picture changed
    assert fixed.conduits == {"1A": "usa"} and fixed.headstreams == {"A": 1, "B": 0} and fixed.unknown == []
    assert [m.text for m in diff(known, fixed)] == ["1 drop added to the dam on 2L", "usa built a dam on 3U"]
    assert sorted(m.text for m in refused) == [
        "1 drop added to headstream A (the picture there has not changed)",
        "1 drop left the dam on 5U (the picture there has not changed)",
        "the dam on 2L lost 1 elevation(s) (the picture there has not changed)",
        "usa built a conduit on 1B (the picture there has not changed)"]
    # a dam whose space is still but whose lake changed stays unknown when it was hidden
    fixed, _ = game.read_against(known, replace(seen, unknown=["2L"], dams={"5U": Dam("neutral", 1, 1)}), "usa",
                                 pictures=Comparison(frozenset({"2L"}), {}))
    assert fixed.unknown == ["2L"]
    # a new dam whose lake did not change holds no water yet
    fixed, _ = game.read_against(known, replace(seen, dams={**known.dams, "3U": Dam("usa", 1, 1)}), "usa",
                                 pictures=Comparison(frozenset({"lake:3U"}), {}))
    assert fixed.dams["3U"] == Dam("usa", 1, 0)
    # without pictures nothing changes
    nothing_still = Comparison(frozenset(), {})
    assert game.read_against(known, seen, "usa")[0] == game.read_against(known, seen, "usa", pictures=nothing_still)[0]


def test_drops_seen_coming_on_a_headstream_overrule_an_unsure_count():
    """Rulings V9: where the pictures show k drop-sized shapes come on a headstream tile, a
    count read unsure with fewer than the game's drops and k is taken as that many, and the
    reading is listed. A sure count, a hidden tile and a count already that high stand."""
    known = MapState(headstreams={"A": 2, "B": 0, "C": 1, "D": 0})
    seen = MapState(headstreams={"A": 2, "B": 0, "C": 1}, unknown=["D"],
                    confidence={"A": 0.62, "B": 0.99, "C": 0.55})
    arrived = {"A": 1, "B": 1, "C": 1, "D": 2}
    fixed, listed = game.read_against(known, replace(seen, headstreams={**seen.headstreams, "C": 3}), "usa",
                                      pictures=Comparison(frozenset(), arrived))
    assert fixed.headstreams == {"A": 3, "B": 0, "C": 3} and fixed.unknown == ["D"]
    assert [m.text for m in listed] == [
        "headstream A read with 2 drops, unsure (1 drop-sized shapes came in its picture: taken as 3)"]
    # two drops that came, read as one: the game's two and both
    fixed, _ = game.read_against(known, replace(seen, headstreams={**seen.headstreams, "A": 3}), "usa",
                                 pictures=Comparison(frozenset(), {"A": 2}))
    assert fixed.headstreams["A"] == 4
    # a count read below the game's is put back to it, and raised by what came (V8's other rules still apply)
    fixed, _ = game.read_against(known, replace(seen, headstreams={**seen.headstreams, "A": 1}), "usa",
                                 pictures=Comparison(frozenset(), {"A": 1}))
    assert [m.text for m in diff(known, fixed)] == ["1 drop added to headstream A"]
    # nothing came: the reading goes through the other rules as before
    nothing_came = Comparison(frozenset(), {})
    assert game.read_against(known, seen, "usa", pictures=nothing_came)[0] == game.read_against(known, seen, "usa")[0]


def germany_at_the_table(client, session_id, monkeypatch):
    """Germany's (human) turn, with the camera's looks replaced by ``looks[-1]``: the first
    one holds still on the map the game knows, in a random picture."""
    store, live_ = services_from(client).store, services_from(client).live
    client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0})          # germany (human) next
    step = store.last(session_id)
    known = game.map_of(GameState.from_dict(step.state))
    picture = np.random.default_rng(0).integers(0, 255, (732, 500, 3)).astype(np.uint8)
    camera = np.array([500.0, 700.0, 2000.0])
    looks = [Look(picture, None, None, "aruco", known, stable_view=StableView(picture, camera))]
    monkeypatch.setattr(live_, "look", lambda *a, **k: looks[-1])
    return store, live_, step, known, picture, camera, looks


def test_the_page_compares_the_pictures_of_the_turn_before_with_the_turns(client, session_id, monkeypatch):
    """A human turn confirmed with the camera keeps the picture it was read from (rulings V8).
    On the next turn, the Automa's instruction read as done on boxes whose picture has not
    changed is a misreading: the page waits; once the picture changes, it moves on. The
    picture belongs to that step alone: after an undo it is not used."""
    store, live_, step, known, picture, camera, looks = germany_at_the_table(client, session_id, monkeypatch)
    client.post(f"/barrage/api/sessions/{session_id}/human-done", json={"seq": step.seq})    # germany built nothing
    usa_turn = store.last(session_id)
    assert usa_turn.label.endswith("(germany): turn confirmed")
    expected = game.expected_map(usa_turn)
    assert expected is not None and diff(known, expected)
    # the camera reads the instruction done, but the picture is the one germany's turn ended on
    looks.append(Look(picture, None, None, "aruco", expected, stable_view=StableView(picture.copy(), camera)))
    assert not client.get(f"/barrage/api/sessions/{session_id}/live").json["advanced"]
    assert store.last(session_id).seq == usa_turn.seq
    # the pieces moved: the picture changed everywhere
    looks.append(Look(picture, None, None, "aruco", expected, stable_view=StableView(255 - picture, camera)))
    assert client.get(f"/barrage/api/sessions/{session_id}/live").json["advanced"]
    # the picture kept now is the one the Automa's step was read from; back at usa's turn by
    # undo, none is known for that step; the table still shows the undone turn, which the
    # camera does not play again (issue 82): the players press Done to play it
    client.post(f"/barrage/api/sessions/{session_id}/undo", json={})
    assert store.last(session_id).seq == usa_turn.seq
    assert live_.compared_since(session_id, store.last(session_id), store.picture(session_id), looks[0], None) is None
    looks.append(looks[1])
    live = client.get(f"/barrage/api/sessions/{session_id}/live").json
    assert live["undone"] and live["waiting"] == [] and not live["advanced"]
    assert store.last(session_id).seq == usa_turn.seq
    assert client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": usa_turn.seq}).status_code == 200
    assert not client.get(f"/barrage/api/sessions/{session_id}/live").json["undone"]


def test_the_kept_picture_survives_a_restart(client, session_id, monkeypatch, tmp_path):
    """The picture a turn was read from is kept in the session store with its step, so a
    server restarted between two turns still compares the next turn's picture with it."""
    store, live_, step, known, picture, camera, looks = germany_at_the_table(client, session_id, monkeypatch)
    client.post(f"/barrage/api/sessions/{session_id}/human-done", json={"seq": step.seq})
    usa_turn = store.last(session_id)
    kept = store.picture(session_id)
    assert (kept.seq, kept.created) == (usa_turn.seq, usa_turn.created)
    restarted = create_app(WebConfig(data_dir=tmp_path / "data", model=tmp_path / "no-model.onnx"))
    again = services_from(restarted.test_client())
    expected = game.expected_map(usa_turn)
    same = Look(picture, None, None, "aruco", expected, stable_view=StableView(picture.copy(), camera))
    compared = again.live.compared_since(session_id, again.store.last(session_id), again.store.picture(session_id),
                                         same, None)
    assert compared.still == {b.key for b in again.live.layout(None).boxes}          # nothing changed since
    assert compared.arrived == {}
    monkeypatch.setattr(again.live, "look", lambda *a, **k: same)
    assert not restarted.test_client().get(f"/barrage/api/sessions/{session_id}/live").json["advanced"]
    # a damaged picture is no picture: the page reads the camera as if none were kept
    damaged = replace(again.store.picture(session_id), image=b"not a png")
    fresh = services_from(create_app(WebConfig(data_dir=tmp_path / "data", model=tmp_path / "no-model.onnx"))
                          .test_client()).live
    assert StableView.decode(damaged.image, damaged.camera) is None
    assert fresh.compared_since(session_id, usa_turn, damaged, same, None) is None


def test_a_turn_read_as_no_move_where_pictures_changed_is_asked_about(client, session_id, monkeypatch):
    """The camera reads no move, but the picture changed on a few slots: the page names them
    for the players to check (a raised dam read at its old height is the likeliest). Many
    changed slots are the light or a hand, not a turn: then it names none."""
    layout = services_from(client).live.layout(None)
    keys = [b.key for b in layout.boxes]
    assert game.unread(layout, set(keys) - {"2B", "lake:6U", "6U"}) == ["6U", "2B"]      # layout order
    assert game.unread(layout, set(keys[game.UNREAD_LIMIT + 1:])) == []
    store, live_, step, known, picture, camera, looks = germany_at_the_table(client, session_id, monkeypatch)
    assert client.get(f"/barrage/api/sessions/{session_id}/live").json["unread"] == []     # no picture kept yet
    # germany's turn reached by the camera reading the Automa's instruction done: its picture is kept
    store.undo_to(session_id, 0)
    store.append(session_id, game.automa_done(store.last(session_id)), 0, picture=looks[0].stable_view.encode())
    step = store.last(session_id)
    box = layout.slot("2B")
    raised = picture.copy()
    raised[round(box.y / 2):round((box.y + box.h) / 2), round(box.x / 2):round((box.x + box.w) / 2)] = 0
    looks.append(Look(raised, None, None, "aruco", known, stable_view=StableView(raised, camera)))
    live = client.get(f"/barrage/api/sessions/{session_id}/live").json
    assert live["moves"] == [] and "2B" in live["unread"] and len(live["unread"]) <= game.UNREAD_LIMIT
    # a correction moves no piece: the picture stands for the corrected step too
    client.post(f"/barrage/api/sessions/{session_id}/correct", json={"seq": step.seq, "slot": "2B", "piece": "empty"})
    corrected = store.last(session_id)
    assert corrected.kind == "correction" and corrected.seq == step.seq + 1
    assert live_.compared_since(session_id, corrected, store.picture(session_id), looks[-1], None) is not None


def test_a_damaged_profile_is_named_for_its_games_and_a_profile_saved_again_is_read_again(tmp_path):
    """A profile.json cut short answers every poll and page with a banner naming it, the others
    are read as before, and the profile saved again (as the wizard does) is loaded on the next poll."""
    app = create_app(WebConfig(data_dir=tmp_path / "data"))
    client = app.test_client()
    path = app.extensions["automa_vision"].config.profiles_dir / "table" / "profile.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"slot_overrides": ')
    sid = client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human", "profile": "table"}).json["id"]
    plain = client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human"}).json["id"]
    for _ in range(2):
        live = client.get(f"/barrage/api/sessions/{sid}/live")
        assert live.status_code == 200 and live.json["recognition_available"] is False
        assert "table/profile.json cannot be read (JSONDecodeError" in live.json["recognition"]
    plain_live = client.get(f"/barrage/api/sessions/{plain}/live").json
    assert plain_live["recognition_available"] is True
    assert 0.0 <= plain_live["board_chance"] <= 1.0        # the demo's frame read: how sure of it all
    assert client.get("/barrage/api/status").json["recognition_available"] is True      # the models are fine
    assert "profile.json cannot be read" in client.get(f"/barrage/play/{sid}").get_data(as_text=True)
    assert client.get(f"/barrage/api/sessions/{sid}/camera.jpg").status_code == 200
    assert client.get("/barrage/api/layout?profile=table").json["slots"]                   # the map is still drawn
    path.write_text('{"slot_overrides": {}}')
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))  # a later save, on any file system
    assert client.get(f"/barrage/api/sessions/{sid}/live").json["recognition_available"] is True


def test_a_slot_set_by_hand_this_turn_holds_what_the_player_set(client, session_id, monkeypatch):
    """Rulings V12: the page says "click the slot on the map to correct it before confirming";
    a slot a player set by hand since the turn began is not then read again from the camera,
    whose reading there is listed as not taken. A correction of an earlier turn binds no more."""
    store = services_from(client).store
    client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0})      # germany's turn next
    seen = game.map_of(GameState.from_dict(store.last(session_id).state))
    seen.conduits["1A"] = "germany"                     # a conduit read where there is none
    monkeypatch.setattr(services_from(client).live, "look",
                        lambda *a, **k: Look(np.zeros((8, 8, 3), np.uint8), None, None, "aruco", seen))
    live = client.get(f"/barrage/api/sessions/{session_id}/live").json
    assert live["moves"] == [in_words("germany built a conduit on 1A")]
    # drawn on the map as confirming would leave it
    assert live["seen"] == [{"slot": "1A", "piece": "conduit", "owner": "germany", "drops": 0}]
    # the player says 1A is empty: the map already has it so, but the camera must not put it back
    client.post(f"/barrage/api/sessions/{session_id}/correct", json={"seq": 1, "slot": "1A", "piece": "empty"})
    live = client.get(f"/barrage/api/sessions/{session_id}/live").json
    assert live["moves"] == []
    assert live["refused"] == [in_words("germany built a conduit on 1A (set by hand this turn)")]
    assert live["seen"] == []
    v = client.post(f"/barrage/api/sessions/{session_id}/human-done", json={"seq": 2}).json
    assert not any(p["slot"] == "1A" for p in v["pieces"])
    assert store.last(session_id).label == "Black player (germany): turn confirmed " \
        "(not taken: germany built a conduit on 1A (set by hand this turn))"
    # the next turn (the Automa's) reads 1A from the camera again
    assert game.set_by_hand(store.steps(session_id)) == frozenset()


def test_the_slots_set_by_hand_are_those_corrected_since_the_last_turn():
    """Rulings V12: the corrections after the last step that is not one; a dam's correction
    sets its water too, so its lake's box is held as well."""
    def step(seq, kind, slot=None):
        return game.Step(seq, kind, kind, {}, {}, {"slot": slot} if slot else {}, 0.0)
    steps = [step(0, "start"), step(1, "correction", "2B"), step(2, "automa"),
             step(3, "correction", "5U"), step(4, "correction", "A")]
    assert game.set_by_hand(steps) == frozenset({"5U", "lake:5U", "A"})
    assert game.set_by_hand(steps[:3]) == frozenset()
    known = MapState(dams={"5U": Dam("usa", 2, 1)}, headstreams={"A": 1})
    seen = MapState(dams={"5U": Dam("usa", 3, 0)}, conduits={"1A": "usa"}, headstreams={"A": 3})
    fixed, refused = game.read_against(known, seen, "usa", by_hand=game.set_by_hand(steps))
    assert fixed.dams == known.dams and fixed.headstreams == known.headstreams and fixed.conduits == {"1A": "usa"}
    assert sorted(m.text for m in refused) == [
        "1 drop left the dam on 5U (set by hand this turn)",
        "2 drops added to headstream A (set by hand this turn)",
        "usa added 1 elevation to the dam on 5U (set by hand this turn)"]
    # nor do drops seen coming overrule a count set by hand (rulings V9 is for the camera's counts)
    unsure = replace(known, headstreams={"A": 0}, confidence={"A": 0.5})     # no build: rulings V7 aside
    arrived = Comparison(frozenset(), {"A": 2})
    assert game.read_against(known, unsure, "usa", pictures=arrived)[0].headstreams == {"A": 3}
    assert game.read_against(known, unsure, "usa", pictures=arrived, by_hand={"A"})[0].headstreams == {"A": 1}


def test_a_slot_set_by_hand_on_an_automas_turn_no_longer_holds_the_page_back(client, session_id, monkeypatch):
    """Rulings V12 on an Automa's turn: the instruction carried out but a conduit read where
    there is none keeps the page waiting, until the players set that slot by hand."""
    store = services_from(client).store
    seen = game.expected_map(store.last(session_id))
    seen.conduits["1A"] = "usa"
    monkeypatch.setattr(services_from(client).live, "look",
                        lambda *a, **k: Look(np.zeros((8, 8, 3), np.uint8), None, None, "aruco", seen))
    assert client.get(f"/barrage/api/sessions/{session_id}/live").json["advanced"] is False
    client.post(f"/barrage/api/sessions/{session_id}/correct", json={"seq": 0, "slot": "1A", "piece": "empty"})
    assert client.get(f"/barrage/api/sessions/{session_id}/live").json["advanced"] is True
    assert view(client, session_id)["next"] == "germany"
    assert not any(p["slot"] == "1A" for p in view(client, session_id)["pieces"])


def test_the_page_asks_about_the_slots_the_camera_is_unsure_of_or_cannot_see():
    """Issue 4: low confidence is shown to the user. On a human's turn the page lists the
    stable reading's flagged slots and its hidden ones, once each, but not where the game
    holds the answer: boxes whose picture has not changed (rulings V8), slots set by hand
    this turn (rulings V12); a company's supply flag names no slot to look at."""
    seen = MapState(dams={"5U": Dam("usa", 2, 0)}, unknown=["1A", "6U"])
    flags = [Flag("5U", "low confidence (0.62)"), Flag("5U", "2 drops but the dam holds 1"),
             Flag("2B", "low confidence (0.70)"), Flag("A", "low confidence (0.55)"),
             Flag("usa", "4 dam_base pieces on the map, but a company owns 3")]
    layout = load_layout()
    asked = game.to_check(layout, seen, flags)
    assert [(f.slot, f.problem) for f in asked] == [
        ("5U", "low confidence (0.62)"), ("2B", "low confidence (0.70)"), ("A", "low confidence (0.55)"),
        ("1A", "hidden from the camera"), ("6U", "hidden from the camera")]
    # a dam is held when its space and its lake both are: 6U's lake changed, so it is still asked
    asked = game.to_check(layout, seen, flags, still={"2B", "A", "6U", "5U", "lake:5U"}, by_hand={"1A"})
    assert [(f.slot, f.problem) for f in asked] == [("6U", "hidden from the camera")]


def test_the_live_status_lists_the_slots_to_check_on_a_human_turn(client, session_id, monkeypatch):
    store = services_from(client).store
    seen = game.expected_map(store.last(session_id))
    seen.unknown = ["1A"]
    flags = (Flag("5U", "low confidence (0.62)"),)
    monkeypatch.setattr(services_from(client).live, "look", lambda *a, **k: Look(
        np.zeros((8, 8, 3), np.uint8), None, None, "aruco", seen, stable_flags=flags))
    # the Automa's turn asks nothing (it moves on by itself, or by its button)
    assert client.get(f"/barrage/api/sessions/{session_id}/live").json["unsure"] == []
    client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0})
    assert client.get(f"/barrage/api/sessions/{session_id}/live").json["unsure"] == [
        {"slot": "5U", "name": with_code("5U"), "why": "low confidence (0.62)"},
        {"slot": "1A", "name": with_code("1A"), "why": "hidden from the camera"}]


def test_an_automa_turn_says_what_the_camera_does_not_see_done_yet(client, session_id):
    store = services_from(client).store
    step = store.last(session_id)
    expected = game.expected_map(step)
    dam = next(s for s, d in expected.dams.items() if d.owner == "usa")       # the Automa's new dam
    seen = replace(expected, dams={s: d for s, d in expected.dams.items() if s != dam},
                   conduits={**expected.conduits, "1A": "usa"}, unknown=["5U"])
    # each space named as a player says it, the code a hint; a dam's pieces said, 1 too (issue 82)
    assert game.waiting_for(step, seen) == [f"{with_code(dam)}: usa's dam of 1 piece; the camera sees nothing there",
                                            f"{with_code('1A')}: nothing; the camera sees usa's conduit there",
                                            "the red-outlined dam space of basin 5, Hills (5U): hidden from the camera"]
    assert game.waiting_for(step, expected) == []
    client.post(f"/barrage/api/sessions/{session_id}/automa-done", json={"seq": 0})
    assert game.waiting_for(store.last(session_id), expected) is None      # a human's turn: no instruction


def test_drops_the_pictures_see_coming_as_the_instruction_says_are_the_instruction_done(client, session_id,
                                                                                         monkeypatch):
    """An Automa's instruction that puts drops on a headstream tile is seen done when its
    pictures show that many drops coming, whatever the tile's count reads (printed drop
    icons mislead the counters; rulings V9)."""
    step = services_from(client).store.last(session_id)
    expected = game.expected_map(step)
    known = game.map_of(game.load(step)[0])
    tile = sorted(expected.headstreams)[0]
    # the instruction as if it also put one drop on the tile (a Water Management action)
    instructed = replace(expected, headstreams={**expected.headstreams, tile: known.headstreams.get(tile, 0) + 1})
    monkeypatch.setattr(game, "expected_map", lambda step: instructed)
    seen = replace(instructed, headstreams={**instructed.headstreams, tile: instructed.headstreams[tile] + 2})
    moved = {m.space for m in diff(known, instructed)}                # the instruction's slots, the tile too
    all_still = frozenset(b.key for b in load_layout().boxes if b.id not in moved)
    assert game.waiting_for(step, seen, Comparison(all_still, {}))                  # the count read wrong: waiting
    assert game.waiting_for(step, seen, Comparison(all_still, {tile: 1})) == []
    assert game.waiting_for(step, seen, Comparison(all_still, {tile: 2}))           # two came: not the instruction
    assert game.waiting_for(step, seen, Comparison(all_still, {tile: 1}), by_hand={tile})
    assert seen.headstreams[tile] == instructed.headstreams[tile] + 2              # the reading itself is left alone
