"""The page at a real table (issue 82): Automa turns that never vanish unseen, undo that the
camera does not replay, a camera that drops out said at once, and "Confirm" that refuses
without a steady reading."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest

from automa.barrage.names import in_words
from automa.barrage.state import GameState
from vision.capture import Capture
from web.app import WebConfig, create_app
from web.barrage import game
from web.barrage.live import Look
from web.camera_health import FROZEN_SECONDS, LOST_SECONDS, HealthWatch
from web.services import Source
from web.store import Store

API = "/barrage/api/sessions"


def services_of(client):
    return client.application.extensions["automa_vision"]


def table_shows(client, monkeypatch, seen: dict) -> None:
    """The camera reads the board steady, holding ``seen["map"]``, and recognition is on."""
    live = services_of(client).live
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(np.zeros((8, 8, 3), np.uint8), None, None, "aruco",
                                                           seen["map"]))
    monkeypatch.setattr(live, "problem", lambda profile: None)


def to_a_turn_off_the_map(client) -> int:
    """Seed 2: usa's second turn takes an excavator at the Machinery Shop, nothing on the map."""
    sid = client.post(API, json={"role_usa": "automa", "role_germany": "human", "seed": "2"}).json["id"]
    client.post(f"{API}/{sid}/automa-done", json={"seq": 0})
    client.post(f"{API}/{sid}/pass", json={"seq": 1})
    return sid


def test_an_automa_turn_that_changes_nothing_on_the_map_waits_for_done(client, monkeypatch):
    """The Workshop, the Machinery Shop, the Bank: the camera sees such a turn "done" at once,
    and the page jumped to the next turn before anyone read it."""
    sid = to_a_turn_off_the_map(client)
    store = services_of(client).store
    view = client.get(f"{API}/{sid}").json
    assert view["seq"] == 2 and view["next_view"]["automa"] and "Machinery Shop" in view["decision"]["instruction"]
    assert view["changes_map"] is False and view["targets"] == []
    seen = {"map": game.map_of(GameState.from_dict(store.last(sid).state))}
    table_shows(client, monkeypatch, seen)
    for _ in range(3):
        live = client.get(f"{API}/{sid}/live").json
        assert live["waiting"] == [] and not live["advanced"]       # nothing to wait for, and yet it stays
    assert store.last(sid).seq == 2
    assert client.post(f"{API}/{sid}/automa-done", json={"seq": 2}).json["seq"] == 3


def test_a_turn_on_the_map_moves_on_by_the_camera_but_not_once_undone(client, session_id, monkeypatch):
    store = services_of(client).store
    first = store.last(session_id)
    view = client.get(f"{API}/{session_id}").json
    assert view["changes_map"] is True and view["targets"] and all("(" in t for t in view["targets"])
    seen = {"map": game.expected_map(first)}
    table_shows(client, monkeypatch, seen)
    assert client.get(f"{API}/{session_id}/live").json["advanced"]          # seen done: played
    client.post(f"{API}/{session_id}/undo", json={})
    for _ in range(3):                                                      # the table still shows it
        live = client.get(f"{API}/{session_id}/live").json
        assert live["undone"] and live["waiting"] == [] and not live["advanced"]
    assert store.last(session_id).seq == 0


def test_an_undo_is_remembered_across_a_restart_and_forgotten_by_the_next_step(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    step = {"kind": "start", "label": "x", "state": {}, "flow": {}, "payload": {}}
    sid = store.create("t", {}, step, game="barrage")
    store.append(sid, {**step, "kind": "automa"}, 0)
    assert not store.undone(sid)
    store.undo_to(sid, 0)
    assert store.undone(sid) and Store(tmp_path / "s.sqlite3").undone(sid)
    store.append(sid, {**step, "kind": "automa"}, 0)
    assert not store.undone(sid)
    store.undo_to(sid, 0)
    store.append(sid, {**step, "kind": "automa"}, 0)
    store.append(sid, {**step, "kind": "human"}, 1)
    store.undo_to(sid, 1)
    assert store.undone(sid)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_webcam_lost_or_frozen_and_a_board_not_found_are_each_said():
    clock = Clock()
    watch = HealthWatch(live_sensor=True, clock=clock)
    frame = np.random.default_rng(1).integers(0, 255, (48, 64, 3), np.uint8)
    assert watch.health(False, False).state == "waiting"
    watch.saw(frame)
    assert watch.health(True, True).ok and watch.health(True, False).state == "unregistered"
    clock.now += LOST_SECONDS + 0.1                       # no frame since
    lost = watch.health(True, True)
    assert lost.state == "lost" and "no picture for 1 s" in lost.message and "cable" in lost.message
    for _ in range(4):                                    # frames come again, but the same one
        watch.saw(frame)
        clock.now += FROZEN_SECONDS / 3
    frozen = watch.health(True, True)
    assert frozen.state == "frozen" and "Unplug" in frozen.message
    watch.saw(255 - frame)
    assert watch.health(True, True).ok
    demo = HealthWatch(live_sensor=False, clock=clock)     # a replay repeats its frames by design
    for _ in range(4):
        demo.saw(frame)
        clock.now += FROZEN_SECONDS
    assert demo.health(True, True).ok
    clock.now += 10 * LOST_SECONDS                         # and gives one whenever asked: never lost
    assert demo.health(True, True).ok
    video = HealthWatch(live_sensor=False, can_drop_out=True, clock=clock)    # a file: lost, never frozen
    for _ in range(4):
        video.saw(frame)
        clock.now += FROZEN_SECONDS / 2
    assert video.health(True, True).ok                     # the same frame again: a file may show a still
    clock.now += LOST_SECONDS + 0.1
    assert video.health(True, True).state == "lost"
    video.saw(frame)
    assert video.health(True, True).ok


class Webcam:
    """A webcam showing the demo replay's table, with sensor noise; ``mode`` unplugs or freezes it."""
    mode = "ok"

    def __init__(self, table: np.ndarray):
        self.table, self.rng = table, np.random.default_rng(0)

    def isOpened(self):
        return Webcam.mode != "gone"

    def set(self, *_):
        return True

    def read(self):
        if Webcam.mode == "gone":
            return False, None
        if Webcam.mode == "frozen":
            return True, self.table.copy()
        noise = self.rng.integers(0, 3, self.table.shape, np.uint8)
        return True, np.clip(self.table.astype(np.int16) + noise, 0, 255).astype(np.uint8)

    def release(self):
        pass


@pytest.fixture
def webcam_client(tmp_path, monkeypatch):
    from web.barrage.live import DemoTable
    table = DemoTable().frames[0]
    Webcam.mode = "ok"
    monkeypatch.setattr("web.barrage.live.open_source", lambda spec: Capture(lambda: Webcam(table), f"camera {spec}"))
    app = create_app(WebConfig(data_dir=tmp_path / "data", source=Source("camera", "0"), model=tmp_path / "none.onnx"))
    return app.test_client()


@pytest.mark.parametrize("failure,state", [("gone", "lost"), ("frozen", "frozen")])
def test_the_page_says_within_2_s_that_the_webcam_dropped_out(webcam_client, failure, state):
    """The server says it by the first poll over a second after the last good frame (lost) or
    after the picture last changed (frozen); the page polls every second: within 2 s."""
    client = webcam_client
    sid = client.post(API, json={"role_usa": "automa", "role_germany": "human", "seed": "7"}).json["id"]
    live = client.get(f"{API}/{sid}/live").json
    assert live["camera"]["ok"] and live["registration"] == "aruco"
    Webcam.mode = failure
    time.sleep(0.35)                                      # past the look's cache: the next poll reads the camera
    first = client.get(f"{API}/{sid}/live").json          # a failed read, or the frozen picture's first frame
    assert first["camera"]["state"] in ("ok", state)
    time.sleep(max(LOST_SECONDS, FROZEN_SECONDS) + 0.05)
    live = client.get(f"{API}/{sid}/live").json
    assert live["camera"]["state"] == state and LOST_SECONDS + 1.0 <= 2.0 and FROZEN_SECONDS + 1.0 <= 2.0
    assert live["stable"] is False and live["camera"]["message"]
    assert client.get(f"{API}/{sid}/camera.jpg").status_code == 200   # the last picture, said to be old
    Webcam.mode = "ok"
    time.sleep(0.35)
    assert client.get(f"{API}/{sid}/live").json["camera"]["ok"]


def test_confirm_refuses_without_a_steady_reading_and_says_why(client, session_id, monkeypatch):
    """Pressed just after a restart, "Confirm turn" recorded a turn with no moves and silently
    dropped the player's build."""
    client.post(f"{API}/{session_id}/automa-done", json={"seq": 0})
    store = services_of(client).store
    seen = {"map": None}
    table_shows(client, monkeypatch, seen)
    res = client.post(f"{API}/{session_id}/human-done", json={"seq": 1})
    assert res.status_code == 400 and "no steady reading" in res.json["problems"][0]
    assert "Confirm without the camera" in res.json["problems"][0] and store.last(session_id).seq == 1
    live = services_of(client).live
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(np.zeros((8, 8, 3), np.uint8), None, None, "none",
                                                           game.map_of(GameState.from_dict(store.last(session_id).state))))
    res = client.post(f"{API}/{session_id}/human-done", json={"seq": 1})
    assert res.status_code == 400 and "does not find the board" in res.json["problems"][0]
    assert store.last(session_id).seq == 1
    res = client.post(f"{API}/{session_id}/human-done", json={"seq": 1, "use_camera": False})
    assert res.status_code == 200 and store.last(session_id).seq == 2


def test_a_misreading_said_on_the_last_turn_is_not_listed_again(client, session_id, monkeypatch):
    """A neutral dam the camera does not see: "not taken" on the turn it is first read, then
    counted, not listed again, on each turn after."""
    store = services_of(client).store
    client.post(f"{API}/{session_id}/automa-done", json={"seq": 0})
    known = game.map_of(GameState.from_dict(store.last(session_id).state))
    neutral = next(s for s, d in known.dams.items() if d.owner == "neutral")
    seen = {"map": None}
    table_shows(client, monkeypatch, seen)

    def without_the_neutral_dam():
        now = game.map_of(GameState.from_dict(store.last(session_id).state))
        return replace(now, dams={s: d for s, d in now.dams.items() if s != neutral})
    seen["map"] = without_the_neutral_dam()
    first = client.get(f"{API}/{session_id}/live").json
    said = in_words(f"the dam on {neutral} was removed")
    assert first["refused"] == [said] and first["refused_again"] == []
    assert client.post(f"{API}/{session_id}/human-done", json={"seq": 1}).status_code == 200
    client.post(f"{API}/{session_id}/automa-done", json={"seq": 2})
    seen["map"] = without_the_neutral_dam()
    again = client.get(f"{API}/{session_id}/live").json
    assert again["refused"] == [] and again["refused_again"] == [said]


def test_a_game_other_than_the_replays_is_told_the_demo_camera_shows_another(client):
    """Demo mode: a custom game showed the replay's pictures without a word."""
    demo = client.post("/barrage/play/demo").headers["Location"]
    assert 'id="replay-elsewhere"' not in client.get(demo).get_data(as_text=True)
    sid = client.post(API, json={"role_usa": "automa", "role_germany": "human", "seed": "8"}).json["id"]
    page = client.get(f"/barrage/play/{sid}").get_data(as_text=True)
    assert 'id="replay-elsewhere"' in page and "--camera N" in page
