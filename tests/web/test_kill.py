"""The server killed with ``kill -9`` at random moments of a scripted game: no step it
answered is lost, the store passes SQLite's integrity check, and the game goes on.

The server runs as the players run it (``automa-vision serve``, a subprocess); a script plays
a Barrage game through the API (the Automa's turns by "Done", the human's typed in or passed,
round ends), while a timer kills the process at a random moment, often with a request in
flight. After each restart every step answered before the kill must be there as it was
answered, and the script plays on from the state the store holds.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

KILLS = 6
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, data: Path):
        self.data, self.port, self.proc = data, free_port(), None
        self.lock = threading.Lock()

    def start(self) -> None:
        log = open(self.data.parent / "server.log", "ab")       # the server's own words, for a failure
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "automa_vision.cli", "serve", "--demo", "--port", str(self.port),
             "--data", str(self.data)], cwd=ROOT, stdout=log, stderr=log, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.call("GET", "/barrage/api/sessions")
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("the server exited at start: "
                                       + (self.data.parent / "server.log").read_text()[-2000:]) from None
                time.sleep(0.1)
        raise RuntimeError("the server did not answer within 60 s")

    def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed (the timer and the script may both call it)."""
        with self.lock:
            if self.proc is not None and self.proc.returncode is None:
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait()

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")


def next_request(view: dict, rng: random.Random) -> tuple[str, dict]:
    """The scripted player's next step on the session ``view``."""
    seq = view["seq"]
    if view["phase"] == "round_end":
        return "round-end", {"seq": seq}
    if view["next_view"]["automa"]:
        return "automa-done", {"seq": seq}
    return rng.choice([("human-done", {"seq": seq, "use_camera": False}), ("pass", {"seq": seq})])


def test_no_answered_step_is_lost_when_the_server_is_killed(tmp_path):
    rng = random.Random(82)
    server = Server(tmp_path / "data")
    server.start()
    try:
        status, created = server.call("POST", "/barrage/api/sessions",
                                      {"role_usa": "automa", "role_germany": "human", "role_italy": "automa", "seed": "7"})
        assert status == 201, created
        sid = created["id"]
        answered: dict[int, dict] = {}      # seq -> the history entry and state the server answered
        kills = played = 0
        while kills < KILLS:
            timer = threading.Timer(rng.uniform(0.02, 0.6), server.kill)
            timer.start()
            try:
                while True:
                    status, view = server.call("GET", f"/barrage/api/sessions/{sid}")
                    assert status == 200, view
                    if view["phase"] == "over":
                        break
                    action, body = next_request(view, rng)
                    status, after = server.call("POST", f"/barrage/api/sessions/{sid}/{action}", body)
                    assert status == 200, after
                    answered[after["seq"]] = {"history": after["history"][-1], "companies": after["companies"]}
                    played += 1
            except (OSError, http.client.HTTPException, ValueError):     # killed: mid-request, mid-answer or between two
                pass
            timer.cancel()
            server.kill()
            kills += 1
            server.start()
            status, view = server.call("GET", f"/barrage/api/sessions/{sid}")
            assert status == 200
            history = {h["seq"]: h for h in view["history"]}
            for seq, step in answered.items():
                assert history.get(seq) == step["history"], f"step {seq} answered, then lost or changed by a kill"
            if max(answered, default=0) == view["seq"] and answered:
                assert view["companies"] == answered[view["seq"]]["companies"]
            if view["phase"] == "over":
                break
        print(f"{played} steps answered, {kills} kills, {len(answered)} steps checked after each")
        assert played >= 10 and kills >= 3
    finally:
        server.kill()
    with sqlite3.connect(tmp_path / "data" / "sessions.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        seqs = [r[0] for r in db.execute("SELECT seq FROM steps WHERE session_id = ? ORDER BY seq", (sid,))]
    assert seqs == list(range(len(seqs)))                 # no gap: each step whole or not at all
