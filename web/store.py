"""Game sessions in SQLite: one row per step, each holding the full state after it.

Why full states rather than op logs: undo is then "drop the last rows", a
crash can never leave a half-applied turn (each step is one transaction),
and an exported session can be checked state by state on import.

Beside the steps, each session keeps the camera's picture of the table that its
latest camera-read step took its map from (rulings V8: the next turn is compared
with it). It is written in the same transaction as that step, so a restart loses
neither, and it belongs to that step alone (its seq and time): after an undo or a
later step it no longer matches and is not used. An undo is remembered the same way (the
step it went back to, by seq and time), so the camera does not play the undone turn again.

Every session belongs to one game (its registry id, ``automa.games``). Databases written
before sessions had a game are brought up to date when opened: their sessions are Barrage's,
the only game there was.
"""
from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    created REAL NOT NULL,
    game TEXT NOT NULL DEFAULT 'barrage'
);
CREATE TABLE IF NOT EXISTS steps (
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    state TEXT NOT NULL,
    flow TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS pictures (
    session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    created REAL NOT NULL,
    image BLOB NOT NULL,
    camera TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS undos (
    session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    created REAL NOT NULL
);
"""


class StoreError(ValueError):
    """A request the store refuses (nothing to undo, ...); nothing was changed."""
    status = 400


class NoSession(StoreError):
    status = 404


class Conflict(StoreError):
    """Another request changed the session first (a double click, a second screen)."""
    status = 409


@dataclass(frozen=True)
class Step:
    seq: int
    kind: str              # start | automa | human | correction | phases
    label: str
    state: dict            # the game's state after the step (its Game.dump)
    flow: dict             # whose turn comes next, as the game's page keeps it (web.barrage.game.Flow)
    payload: dict          # the decision, the ops or the moves of the step
    created: float


@dataclass(frozen=True)
class Picture:
    """The picture step ``seq`` (made at ``created``) took its map from: an encoded image and
    the camera position it was seen from."""
    seq: int
    created: float
    image: bytes
    camera: list[float]


@dataclass(frozen=True)
class SessionInfo:
    id: int
    name: str
    settings: dict
    created: float
    steps: int
    game: str


# SQLite's INTEGER is 64-bit; an id beyond it (a URL's <int:sid> takes any length) names no
# session, and binding it would raise OverflowError instead of saying so.
MAX_ID = 2**63 - 1


def _known_id(sid: int) -> None:
    if not 0 < sid <= MAX_ID:
        raise NoSession(f"no session {sid}")


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """A database from before sessions had a game gains the column, in one transaction:
        every session in it is Barrage's."""
        with self._tx() as db:
            columns = {row[1] for row in db.execute("PRAGMA table_info(sessions)")}
            if "game" not in columns:
                db.execute("ALTER TABLE sessions ADD COLUMN game TEXT NOT NULL DEFAULT 'barrage'")

    def _connect(self) -> sqlite3.Connection:
        # A connection per call: Flask serves requests on several threads.
        db = sqlite3.connect(self.path, timeout=10)
        db.execute("PRAGMA foreign_keys=ON")
        return db

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed as a whole or not at all."""
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            yield db
            db.commit()
        except BaseException:
            db.rollback()
            raise
        finally:
            db.close()

    # -- sessions ------------------------------------------------------------------
    def create(self, name: str, settings: dict, first: dict[str, Any], *, game: str) -> int:
        """A new session of ``game`` with its first step (``first``: kind, label, state, flow, payload)."""
        return self.create_with_steps(name, settings, [first], game=game)

    def create_with_steps(self, name: str, settings: dict, steps: list[dict[str, Any]], *, game: str) -> int:
        if not steps:
            raise StoreError("a session needs at least one step")
        with self._tx() as db:
            cur = db.execute("INSERT INTO sessions (name, settings, created, game) VALUES (?, ?, ?, ?)",
                             (name, json.dumps(settings), time.time(), game))
            sid = int(cur.lastrowid)
            for seq, step in enumerate(steps):
                self._insert(db, sid, seq, step)
        return sid

    def sessions(self, game: str | None = None) -> list[SessionInfo]:
        """The sessions of ``game`` (of every game when None), newest first."""
        with closing(self._connect()) as db:
            rows = db.execute("SELECT s.id, s.name, s.settings, s.created, COUNT(t.seq), s.game FROM sessions s "
                              "LEFT JOIN steps t ON t.session_id = s.id WHERE ? IS NULL OR s.game = ? "
                              "GROUP BY s.id ORDER BY s.id DESC", (game, game)).fetchall()
        return [SessionInfo(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5]) for r in rows]

    def session(self, sid: int, game: str | None = None) -> SessionInfo:
        """Session ``sid``; NoSession if there is none, or it is not ``game``'s (when given)."""
        for info in self.sessions():
            if info.id == sid:
                if game is not None and info.game != game:
                    raise NoSession(f"no session {sid} of {game} (it is a session of {info.game})")
                return info
        raise NoSession(f"no session {sid}")

    def delete(self, sid: int) -> None:
        _known_id(sid)
        with self._tx() as db:
            if db.execute("DELETE FROM sessions WHERE id = ?", (sid,)).rowcount == 0:
                raise NoSession(f"no session {sid}")

    # -- steps ---------------------------------------------------------------------
    def steps(self, sid: int) -> list[Step]:
        self.session(sid)
        with closing(self._connect()) as db:
            rows = db.execute("SELECT seq, kind, label, state, flow, payload, created FROM steps "
                              "WHERE session_id = ? ORDER BY seq", (sid,)).fetchall()
        return [Step(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), json.loads(r[5]), r[6]) for r in rows]

    def last(self, sid: int) -> Step:
        return self.steps(sid)[-1]

    def append(self, sid: int, step: dict[str, Any], expect_seq: int,
               picture: tuple[bytes, list[float]] | None = None, carry_picture: bool = False) -> int:
        """Add a step after step ``expect_seq``; refused if another request added one meanwhile
        (two clicks on "done" must not play a turn twice). ``picture``: the (image, camera)
        the new step took its map from, kept in its place; ``carry_picture``: the new step
        moves no piece (a correction), so the previous step's picture, if it has one, stands
        for it too."""
        _known_id(sid)
        with self._tx() as db:
            top = db.execute("SELECT MAX(seq) FROM steps WHERE session_id = ?", (sid,)).fetchone()[0]
            if top is None:
                raise NoSession(f"no session {sid}")
            if top != expect_seq:
                raise Conflict(f"the game moved on meanwhile (step {top}, expected {expect_seq}): reload the page")
            created = self._insert(db, sid, top + 1, step)
            if picture is not None:
                image, camera = picture
                db.execute("INSERT OR REPLACE INTO pictures (session_id, seq, created, image, camera) "
                           "VALUES (?, ?, ?, ?, ?)", (sid, top + 1, created, image, json.dumps(camera)))
            elif carry_picture:
                before = db.execute("SELECT created FROM steps WHERE session_id = ? AND seq = ?", (sid, top)).fetchone()[0]
                db.execute("UPDATE pictures SET seq = ?, created = ? WHERE session_id = ? AND seq = ? AND created = ?",
                           (top + 1, created, sid, top, before))
        return top + 1

    def picture(self, sid: int) -> Picture | None:
        """The session's kept picture, whichever step it belongs to; None if it has none."""
        _known_id(sid)
        with closing(self._connect()) as db:
            row = db.execute("SELECT seq, created, image, camera FROM pictures WHERE session_id = ?", (sid,)).fetchone()
        return None if row is None else Picture(row[0], row[1], bytes(row[2]), json.loads(row[3]))

    def undo_to(self, sid: int, seq: int, expect_seq: int | None = None) -> None:
        """Go back to the state after step ``seq``: every later step is removed. ``expect_seq``:
        the last step the page showed; refused if it is no longer the last (a second click on
        "undo" must not undo a step more)."""
        _known_id(sid)
        with self._tx() as db:
            top = db.execute("SELECT MAX(seq) FROM steps WHERE session_id = ?", (sid,)).fetchone()[0]
            if top is None:
                raise NoSession(f"no session {sid}")
            if expect_seq is not None and top != expect_seq:
                raise Conflict(f"the game moved on meanwhile (step {top}, expected {expect_seq}): reload the page")
            if not 0 <= seq < top:
                raise StoreError(f"cannot go back to step {seq}: the session has steps 0-{top}"
                                 + (" and the first one cannot be undone" if top == 0 else ""))
            db.execute("DELETE FROM steps WHERE session_id = ? AND seq > ?", (sid, seq))
            created = db.execute("SELECT created FROM steps WHERE session_id = ? AND seq = ?", (sid, seq)).fetchone()[0]
            db.execute("INSERT OR REPLACE INTO undos (session_id, seq, created) VALUES (?, ?, ?)", (sid, seq, created))

    def undone(self, sid: int) -> bool:
        """Whether the session's last step is one an undo went back to: its next step is then
        played by the players' button alone, since the table may still show the undone one,
        which the camera would otherwise play again."""
        _known_id(sid)
        with closing(self._connect()) as db:
            row = db.execute("SELECT u.seq FROM undos u JOIN steps t ON t.session_id = u.session_id AND t.seq = u.seq "
                             "AND t.created = u.created WHERE u.session_id = ? AND u.seq = "
                             "(SELECT MAX(seq) FROM steps WHERE session_id = ?)", (sid, sid)).fetchone()
        return row is not None

    @staticmethod
    def _insert(db: sqlite3.Connection, sid: int, seq: int, step: dict[str, Any]) -> float:
        """Writes the step; returns its ``created`` time."""
        created = time.time()
        db.execute("INSERT INTO steps (session_id, seq, kind, label, state, flow, payload, created) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (sid, seq, step["kind"], step["label"], json.dumps(step["state"]), json.dumps(step["flow"]),
                    json.dumps(step.get("payload", {})), created))
        return created
