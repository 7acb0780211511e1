"""The page's human turn as moves, not boards: the legal moves ranked by the camera's
evidence, the best one tap from confirmed, the runner-ups one tap away, a change no move
explains flagged and not applied (vision.barrage.move_ranking, web.barrage.game.ranked_moves)."""
from __future__ import annotations

import numpy as np

from automa.barrage.names import in_words, with_code
from automa.barrage.state import GameState
from vision.layout import load_layout
from vision.slot_change import Comparison
from web.barrage import game
from web.barrage.live import Look
from web.services import services


def live_of(client, sid):
    return client.get(f"/barrage/api/sessions/{sid}/live").json


def human_turn(client, sid, monkeypatch, change) -> dict:
    """Germany's (the human's) turn, the camera seeing the map with ``change`` made to it."""
    with client.application.app_context():
        store, live = services().store, services().live
    client.post(f"/barrage/api/sessions/{sid}/automa-done", json={"seq": 0})
    seen = game.map_of(GameState.from_dict(store.last(sid).state))
    change(seen)
    seen.confidence = {s: 0.97 for s in ("1A", "P6_0", "2B")}
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(np.zeros((8, 8, 3), np.uint8), None, None, "aruco", seen))
    return {"store": store, "seen": seen}


def test_the_best_move_first_with_its_confidence_and_two_runner_ups(client, session_id, monkeypatch):
    human_turn(client, session_id, monkeypatch, lambda seen: seen.conduits.update({"1A": "germany"}))
    live = live_of(client, session_id)
    assert live["ranked"][0]["key"] == "conduit:1A" and len(live["ranked"]) == 3
    assert live["ranked"][0]["text"] == in_words("germany built a conduit on 1A")
    assert live["ranked"][0]["confidence"] > 0.5 > live["ranked"][1]["confidence"]
    assert live["ranked"][0]["slots"] == ["1A"] and live["unexplained"] == []


def test_one_tap_confirms_the_best_move_or_a_runner_up(client, session_id, monkeypatch):
    turn = human_turn(client, session_id, monkeypatch, lambda seen: seen.conduits.update({"1A": "germany"}))
    runner_up = live_of(client, session_id)["ranked"][1]["key"]
    v = client.post(f"/barrage/api/sessions/{session_id}/human-done", json={"seq": 1, "move": "conduit:1A"}).json
    assert {"slot": "1A", "piece": "conduit", "owner": "germany", "drops": 0} in v["pieces"]
    assert turn["store"].last(session_id).payload["chosen"] == "conduit:1A"
    client.post(f"/barrage/api/sessions/{session_id}/undo", json={})
    client.post(f"/barrage/api/sessions/{session_id}/human-done", json={"seq": 1, "move": runner_up})
    assert turn["store"].last(session_id).payload["chosen"] == runner_up


def test_a_move_that_is_not_legal_now_is_refused_with_nothing_stored(client, session_id, monkeypatch):
    turn = human_turn(client, session_id, monkeypatch, lambda seen: None)
    for bad in ("conduit:nowhere", "dam_base:" + "x" * 80, 7):
        res = client.post(f"/barrage/api/sessions/{session_id}/human-done", json={"seq": 1, "move": bad})
        assert res.status_code == 400 and turn["store"].last(session_id).seq == 1


def test_a_change_no_legal_move_explains_is_flagged_not_applied(client, session_id, monkeypatch):
    # on Germany's turn a conduit of the USA's appears: no move of Germany's makes it
    human_turn(client, session_id, monkeypatch, lambda seen: seen.conduits.update({"2B": "usa"}))
    live = live_of(client, session_id)
    assert live["ranked"][0]["key"] == "none"
    [flag] = live["unexplained"]
    assert flag["slot"] == "2B" and flag["name"] == with_code("2B") and "no legal move of germany's" in flag["why"]


def test_the_slots_whose_picture_changed_and_none_when_every_box_did():
    everything_but = lambda *changed: frozenset(
        b.key for b in load_layout().boxes if b.id not in changed)
    assert game.pictures_changed(Comparison(everything_but("1A", "1U"), {})) == {"1A", "1U", "lake:1U"}
    still = everything_but() - {"lake:2U"}                         # a dam's water moved: its lake
    assert game.pictures_changed(Comparison(still, {})) == {"lake:2U"}
    assert game.pictures_changed(Comparison(frozenset(), {})) == frozenset()     # the light or the board moved
    assert game.pictures_changed(None) == frozenset()
