"""The Age of Innovation pages: start or resume a game, and play it (server-rendered forms;
every step is one row of the shared store, so undo and resuming come from ``web.sessions``)."""
from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from automa.age_of_innovation.board import Board
from automa.age_of_innovation.data import TERRAINS, cards, components, factions, levels, terrain_priority
from automa.common.errors import StateError
from automa.games import get, parse_json

from .. import sessions
from ..forms import FormError, integer
from .board import FILL, board
from .forms import KINDS, player_ops
from .words import NAMES

GAME_ID = "age-of-innovation"
MAX_MAP_BYTES = 64 * 1024
MAX_SESSION_BYTES = 8 * 1024 * 1024       # a whole game's steps, each a full state


def register(bp: Blueprint) -> None:
    bp.add_url_rule("/", "index", index)
    bp.add_url_rule("/new", "new", new, methods=["POST"])
    bp.add_url_rule("/<int:sid>", "play", play)
    bp.add_url_rule("/<int:sid>/automa", "automa", automa, methods=["POST"])
    bp.add_url_rule("/<int:sid>/player", "player", player, methods=["POST"])
    bp.add_url_rule("/<int:sid>/undo", "undo", undo, methods=["POST"])
    bp.add_url_rule("/<int:sid>/map.json", "map_export", map_export)
    bp.add_url_rule("/<int:sid>/map", "map_import", map_import, methods=["POST"])
    bp.add_url_rule("/<int:sid>/export", "session_export", session_export)
    bp.add_url_rule("/import", "session_import", session_import, methods=["POST"])


def index(errors: list[str] | None = None, form: dict | None = None, status: int = 200):
    return render_template("age_of_innovation/index.html", game=get(GAME_ID), levels=levels(), factions=factions(),
                           terrains=TERRAINS, names=NAMES, sessions=sessions.sessions(GAME_ID), errors=errors or [],
                           form=form or {}), status


def new():
    form = request.form.to_dict()
    options = {k: form.get(k, "") for k in ("level", "faction", "terrain", "player_terrain", "players", "seed")}
    if "youth_terrain" in getattr(factions().get(options["faction"]), "setup", ()):
        options["youth_terrain"] = form.get("youth_terrain", "")       # the Symbionts' second card only
    try:
        sid = sessions.start(GAME_ID, options, name=form.get("name", "").strip() or _("Age of Innovation against the Automa"))
    except FormError as exc:
        return index(exc.problems, form, 400)
    return redirect(url_for(".play", sid=sid))


def _seq() -> int:
    return integer(request.form.get("seq"), "seq", 0, 10**9)


def automa(sid: int):
    sessions.automa_done(GAME_ID, sid, _seq())
    return redirect(url_for(".play", sid=sid))


def player(sid: int):
    seq = _seq()
    cur = sessions.current(GAME_ID, sid)
    action = request.form.get("action", "")
    try:
        ops, label = player_ops(cur.state, action, request.form)
        state = get(GAME_ID).apply(cur.state, {"ops": ops})
    except (FormError, StateError) as exc:
        return play(sid, exc.problems if isinstance(exc, FormError) else [str(exc)], 400)
    sessions.record(GAME_ID, sid, seq, "correction" if action == "edit" else "human", label, state, {"ops": ops})
    return redirect(url_for(".play", sid=sid))


def undo(sid: int):
    """Back one step, or (``to``) to the state after any earlier step of the history."""
    steps = sessions.current(GAME_ID, sid).steps
    if len(steps) > 1:
        to = request.form.get("to")
        sessions.undo(GAME_ID, sid, None if to in (None, "") else integer(to, _("step"), 0, steps[-1].seq - 1))
    return redirect(url_for(".play", sid=sid))


def map_export(sid: int):
    cur = sessions.current(GAME_ID, sid)
    body = json.dumps(cur.state.board.to_dict(), indent=1)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="age-of-innovation-map-{sid}.json"'})


def map_import(sid: int):
    seq = _seq()
    cur = sessions.current(GAME_ID, sid)
    upload = request.files.get("map")
    data = upload.read(MAX_MAP_BYTES + 1) if upload else request.form.get("map_json", "").encode()
    try:
        if not data or len(data) > MAX_MAP_BYTES:
            raise FormError([_("choose a map file (at most 64 KB)")])
        raw = parse_json(data.decode("utf-8", errors="replace"))
        state = cur.state.copy()
        state.board = Board.from_dict(raw)
        state.validate()
    except (FormError, StateError) as exc:
        return play(sid, exc.problems if isinstance(exc, FormError) else [_("map refused: %(why)s", why=str(exc))], 400)
    sessions.record(GAME_ID, sid, seq, "correction", _("map imported"), state, {})
    return redirect(url_for(".play", sid=sid))


def session_export(sid: int):
    """The whole session (every step's state) as one file, to import here or elsewhere."""
    return sessions.export_response(GAME_ID, sid)


def session_import():
    """An exported session stored as a new one, every step checked first (nothing stored on a problem)."""
    upload = request.files.get("file")
    data = upload.read(MAX_SESSION_BYTES + 1) if upload else b""
    try:
        if not data or len(data) > MAX_SESSION_BYTES:
            raise FormError([_("choose an exported game file (.json, at most 8 MB)")])
        sid = sessions.import_file(GAME_ID, data)
    except FormError as exc:
        return index(exc.problems, None, 400)
    return redirect(url_for(".play", sid=sid))


def play(sid: int, errors: list[str] | None = None, status: int = 200):
    cur = sessions.current(GAME_ID, sid)
    state = cur.state
    decision = sessions.pending(GAME_ID, cur)
    acting = decision["action"] not in ("wait", "none")
    lv = levels()[state.level]
    return render_template(
        "age_of_innovation/play.html", session=cur.info, state=state, seq=cur.last.seq, steps=cur.steps,
        decision=decision, acting=acting, board=board(state, decision.get("target_hex")),
        level=lv, faction=factions()[state.faction], terrains=TERRAINS, fill=FILL, kinds=KINDS, names=NAMES,
        priority={row: terrain_priority()[row][state.terrain] for row in ("A", "B")},
        youth_priority={row: terrain_priority()[row][state.youth_terrain] for row in ("A", "B")}
        if state.youth_terrain else None,
        achievement_tokens=components().achievement_tokens,
        pieces={k: state.automa_supply(k) for k in components().buildings},
        bonus_free=[(i + 1, t) for i, t in enumerate(state.bonus_line) if t is not None],
        card_labels=[c.label for c in cards().values()], errors=errors or []), status
