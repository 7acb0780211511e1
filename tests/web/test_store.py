from __future__ import annotations

import sqlite3

import pytest

from web.store import Conflict, NoSession, Store, StoreError


def step(n: int) -> dict:
    return {"kind": "start" if n == 0 else "automa", "label": f"step {n}", "state": {"n": n},
            "flow": {"phase": "actions"}, "payload": {}}


def test_steps_persist_across_restarts_and_undo_goes_back(tmp_path):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    sid = store.create("game", {"seed": 1}, step(0), game="barrage")
    store.append(sid, step(1), expect_seq=0)
    store.append(sid, step(2), expect_seq=1)
    reopened = Store(path)                 # a crash/restart: a new process opens the same file
    assert [s.label for s in reopened.steps(sid)] == ["step 0", "step 1", "step 2"]
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reopened.undo_to(sid, 1)
    assert reopened.last(sid).state == {"n": 1}
    reopened.undo_to(sid, 0)
    with pytest.raises(StoreError, match="first one cannot be undone"):
        reopened.undo_to(sid, 0)


def test_a_stale_request_cannot_play_a_turn_twice(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    sid = store.create("game", {}, step(0), game="barrage")
    store.append(sid, step(1), expect_seq=0)
    with pytest.raises(Conflict):
        store.append(sid, step(1), expect_seq=0)
    assert len(store.steps(sid)) == 2


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    bad = {**step(1), "state": {1, 2}}     # a set is not JSON: the insert fails mid-transaction
    with pytest.raises(TypeError):
        store.create_with_steps("game", {}, [step(0), bad], game="barrage")
    assert store.sessions() == []


def test_unknown_session(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    with pytest.raises(NoSession):
        store.steps(42)
    with pytest.raises(NoSession):
        store.delete(42)
    sid = store.create("game", {}, step(0), game="barrage")
    for call in (store.delete, store.picture, store.steps, lambda i: store.undo_to(i, 0),
                 lambda i: store.append(i, step(1), expect_seq=0)):
        for bad in (0, -1, 2**63, 2**70):      # past SQLite's 64-bit INTEGER: OverflowError before
            with pytest.raises(NoSession, match=f"no session {bad}"):
                call(bad)
    assert len(store.steps(sid)) == 1


def test_a_steps_picture_is_kept_with_it_and_carried_by_a_correction(tmp_path):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    sid = store.create("game", {}, step(0), game="barrage")
    assert store.picture(sid) is None
    store.append(sid, step(1), expect_seq=0, picture=(b"first", [1.0, 2.0, 3.0]))
    first = Store(path).picture(sid)                      # kept across a restart
    assert (first.seq, first.created, first.image, first.camera) == (1, store.last(sid).created, b"first", [1.0, 2.0, 3.0])
    with pytest.raises(Conflict):                          # a refused step keeps no picture either
        store.append(sid, step(2), expect_seq=0, picture=(b"stale", [0.0, 0.0, 0.0]))
    assert store.picture(sid) == first
    store.append(sid, step(2), expect_seq=1, carry_picture=True)          # a correction moves no piece
    carried = store.picture(sid)
    assert (carried.seq, carried.created, carried.image) == (2, store.last(sid).created, b"first")
    store.append(sid, step(3), expect_seq=2)                              # typed in: no picture of its own
    store.append(sid, step(4), expect_seq=3, carry_picture=True)          # nothing to carry: step 3 has none
    assert store.picture(sid).seq == 2
    store.append(sid, step(5), expect_seq=4, picture=(b"second", [4.0, 5.0, 6.0]))
    assert store.picture(sid).image == b"second"                          # one per session, the latest
    store.delete(sid)
    assert store.picture(sid) is None


OLD_SCHEMA = """
CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, settings TEXT NOT NULL,
                       created REAL NOT NULL);
CREATE TABLE steps (session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
                    kind TEXT NOT NULL, label TEXT NOT NULL, state TEXT NOT NULL, flow TEXT NOT NULL,
                    payload TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (session_id, seq));
INSERT INTO sessions (name, settings, created) VALUES ('before games had ids', '{}', 1.0);
INSERT INTO steps VALUES (1, 0, 'start', 'start', '{"n": 0}', '{}', '{}', 1.0);
"""


def test_a_database_from_before_games_is_migrated_in_place_and_its_sessions_are_barrages(tmp_path):
    path = tmp_path / "s.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    store = Store(path)
    [old] = store.sessions()
    assert (old.name, old.game, old.steps) == ("before games had ids", "barrage", 1)
    other = store.create("other", {}, step(0), game="expeditions")
    assert [s.id for s in store.sessions("barrage")] == [old.id]
    assert [s.id for s in store.sessions("expeditions")] == [other]
    assert [s.id for s in Store(path).sessions()] == [other, old.id]     # opened again: migrated once
    with pytest.raises(NoSession, match=f"no session {other} of barrage"):
        store.session(other, "barrage")
