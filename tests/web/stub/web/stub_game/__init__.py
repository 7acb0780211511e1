"""Countdown's page, written against web.sessions alone: start, the Automa's turn, undo,
export and import, each a few lines."""
from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, request, url_for

from web import sessions
from web.forms import integer, request_body

GAME_ID = "stub-game"
bp = Blueprint("stub_game", __name__, url_prefix=f"/{GAME_ID}", template_folder="templates", static_folder="static")
sessions.own_sessions(bp, GAME_ID)


@bp.get("/")
def index():
    return render_template("stub_game/index.html", sessions=sessions.sessions(GAME_ID))


@bp.post("/new")
def new():
    form = request_body(request)
    sid = sessions.start(GAME_ID, form, str(form.get("name", "")))
    return redirect(url_for(".play", sid=sid))


@bp.get("/<int:sid>")
def play(sid: int):
    cur = sessions.current(GAME_ID, sid)
    return render_template("stub_game/play.html", cur=cur, decision=sessions.pending(GAME_ID, cur))


@bp.post("/api/<int:sid>/automa-done")
def automa_done(sid: int):
    sessions.automa_done(GAME_ID, sid, integer(request_body(request).get("seq"), "seq", 0, 10**9))
    return jsonify(sessions.current(GAME_ID, sid).state)


@bp.post("/api/<int:sid>/take")
def take(sid: int):
    """The player took ``n`` tokens on the table: the page works out the state after it."""
    body = request_body(request)
    seq, n = integer(body.get("seq"), "seq", 0, 10**9), integer(body.get("n"), "n", 1, 9)
    state = sessions.current(GAME_ID, sid).state
    sessions.record(GAME_ID, sid, seq, "human", f"took {n}", {**state, "tokens": state["tokens"] - n})
    return jsonify(sessions.current(GAME_ID, sid).state)


@bp.post("/api/<int:sid>/undo")
def undo(sid: int):
    sessions.undo(GAME_ID, sid)
    return jsonify(sessions.current(GAME_ID, sid).state)


@bp.get("/api/<int:sid>/export")
def export(sid: int):
    cur = sessions.current(GAME_ID, sid)
    return jsonify(sessions.export(cur.info, cur.steps))


@bp.post("/api/import")
def import_session():
    return jsonify({"id": sessions.import_file(GAME_ID, request.get_data())}), 201
