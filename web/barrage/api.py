"""JSON API of the play page: sessions, steps, undo, export/import, live camera status."""
from __future__ import annotations

import time

from flask import Blueprint, Response, jsonify, request, url_for
from flask_babel import gettext

from automa.barrage.names import in_words, with_code
from automa.barrage.state import DEL_MONTE_DROPS, GameState
from calibration.profiles import Profiles
from vision.barrage.labels import ALLOWED_PIECES, MAX_HEADSTREAM_DROPS
from vision.barrage.reference_map import reference_svg
from vision.slot_change import Comparison

from .. import forms
from ..services import services
from ..sessions import SessionFileError, attachment
from ..sessions import export as export_file
from ..store import Conflict, Step
from . import game, transfer, views
from .forms import new_game
from ..camera_health import Health
from .live import Look, jpeg, overlay, placeholder

bp = Blueprint("api", __name__, url_prefix="/api")


def _seq(body: dict) -> int:
    return forms.integer(body.get("seq"), "seq", 0, 10**9)


def profiles() -> list[str]:
    return Profiles(services().config.profiles_dir).names()


# -- general -----------------------------------------------------------------------
@bp.get("/status")
def status():
    live = services().live
    return jsonify({"source": live.source.describe(), "recognition": live.recognition_problem or "available",
                    "recognition_available": live.recognition_problem is None, "profiles": profiles()})


@bp.get("/layout")
def layout():
    profile = request.args.get("profile") or None
    return jsonify(views.layout_view(services().live.layout(profile if profile in profiles() else None)))


@bp.get("/reference.svg")
def reference():
    return Response(reference_svg(), mimetype="image/svg+xml")


# -- sessions ----------------------------------------------------------------------
@bp.get("/sessions")
def sessions():
    return jsonify([{"id": s.id, "name": s.name, "steps": s.steps, "settings": s.settings}
                    for s in services().store.sessions(game.GAME_ID)])


def create_session(form: dict) -> int:
    name, settings = new_game(form, profiles())
    return services().store.create(name, {**settings.__dict__}, game.start(settings), game=game.GAME_ID)


@bp.post("/sessions")
def create():
    sid = create_session(forms.request_body(request))
    return jsonify({"id": sid, "url": url_for("barrage.play.play", sid=sid)}), 201


@bp.get("/sessions/<int:sid>")
def session(sid: int):
    store = services().store
    return jsonify(views.session_view(store.session(sid), store.steps(sid)))


@bp.delete("/sessions/<int:sid>")
def delete(sid: int):
    services().store.delete(sid)
    return jsonify({"deleted": sid})


def _human_done(sid: int, step: Step, body: dict) -> tuple[dict, tuple[bytes, list[float]] | None]:
    """A human's turn: read by the camera, whose picture is then kept to compare the next
    turn's with (rulings V8), unless it was typed in (``use_camera`` off)."""
    if "move" in body:          # a move of the camera's ranked list, chosen with one tap
        key = body["move"]
        if not isinstance(key, str) or len(key) > 64:
            raise forms.FormError(["move must name one of the moves offered"])
        look, _, _ = _look(sid)     # the picture it was read from is kept, as for a turn the camera read
        return game.human_move(step, key), _picture(look) if services().live.health(look).ok else None
    if not _flag(body, "use_camera"):
        return game.human_done(step, None), None
    look, _, steps = _look(sid)
    if services().live.problem(_profile(sid)) is None:        # recognition on: the turn is the camera's reading
        refusal = _unread_turn(services().live.health(look), look)
        if refusal:
            raise forms.FormError([refusal])
    compared = _compared(sid, step, look)
    return game.human_done(step, look.stable_map, compared, game.set_by_hand(steps)), _picture(look)


def _unread_turn(health: Health, look: Look) -> str | None:
    """Why the camera cannot give the turn now (a turn confirmed then would record no move and
    drop the player's build), or None."""
    instead = gettext("Or correct the map by hand and press \"Confirm without the camera\".")
    if not health.ok:
        return f"{gettext('Not confirmed:')} {health.message} {instead}"
    if look.stable_map is None:
        return " ".join([gettext("Not confirmed: the camera has no steady reading of the board yet. Keep hands "
                                 "off the board for a moment, then press Confirm again."), instead])
    return None


# action -> (sid, last step, request body) -> (the new step, the picture it took its map from)
STEP_ACTIONS = {
    "automa-done": lambda sid, step, body: (game.automa_done(step), None),
    "pass": lambda sid, step, body: (game.human_pass(step), None),
    "round-end": lambda sid, step, body: (game.round_end(step), None),
    "human-done": _human_done,
    "correct": lambda sid, step, body: (_correct(step, body), None),
}


def _profile(sid: int) -> str | None:
    return services().store.session(sid).settings.get("profile")


def _compared(sid: int, step: Step, look: Look) -> Comparison | None:
    """The pictures now and when ``step`` read the table compared (rulings V8, V9); None when
    there is no picture of it to compare with."""
    return services().live.compared_since(sid, step, services().store.picture(sid), look, _profile(sid))


def _picture(look: Look) -> tuple[bytes, list[float]] | None:
    """What the session store keeps of the picture a step takes its map from."""
    return look.stable_view.encode() if look.stable_view is not None else None


def _flag(body: dict, name: str) -> bool:
    return body.get(name, True) not in (False, "false", "0", 0, "off")


@bp.post("/sessions/<int:sid>/<action>")
def step_action(sid: int, action: str):
    if action not in STEP_ACTIONS:
        return jsonify({"error": f"unknown action {action!r}"}), 404
    body = forms.request_body(request)
    store = services().store
    seq = _seq(body)
    last = store.last(sid)
    if last.seq != seq:       # checked first: a stale click must not be judged against the new turn
        raise Conflict(f"the game moved on meanwhile (step {last.seq}, expected {seq}): reload the page")
    new, picture = STEP_ACTIONS[action](sid, last, body)
    # a correction moves no piece: the picture of the step it corrects stands for it too
    store.append(sid, new, seq, picture=picture, carry_picture=action == "correct")
    return jsonify(views.session_view(store.session(sid), store.steps(sid)))


def _correct(step: Step, body: dict) -> dict:
    slot = str(body.get("slot", ""))
    kinds = {b.id: b.kind for b in services().live.layout(None).slots}
    if slot not in kinds:
        raise forms.FormError([f"unknown slot {slot!r}"])
    kind = kinds[slot]
    piece = str(body.get("piece") or "empty")
    if piece not in ALLOWED_PIECES[kind]:
        raise forms.FormError([f"a {kind} slot holds one of: {', '.join(ALLOWED_PIECES[kind])}"])
    owner = body.get("owner") or None
    known = set(GameState.from_dict(step.state).companies) | {"neutral"}
    if piece != "empty" and (not isinstance(owner, str) or owner not in known):     # a list or an object is no owner
        raise forms.FormError([f"owner must be one of: {', '.join(sorted(known))}"])
    # a dam: at most what the largest dam holds (Del Monte's level 3); the state checks this dam's capacity
    drops = forms.integer(body.get("drops", 0) or 0, "drops", 0, MAX_HEADSTREAM_DROPS if kind == "headstream" else DEL_MONTE_DROPS)
    return game.correct_slot(step, slot, kind, piece, owner, drops)


@bp.post("/sessions/<int:sid>/undo")
def undo(sid: int):
    store = services().store
    body = forms.request_body(request)
    to = body.get("to")
    target = store.last(sid).seq - 1 if to in (None, "") else forms.integer(to, "to", 0, 10**9)
    # the step the page showed, when it sends one: a second click on "undo" is refused (409)
    store.undo_to(sid, target, None if body.get("seq") in (None, "") else _seq(body))
    return jsonify(views.session_view(store.session(sid), store.steps(sid)))


@bp.get("/sessions/<int:sid>/export")
def export(sid: int):
    store = services().store
    info = store.session(sid)
    response = jsonify(export_file(info, store.steps(sid)))
    response.headers["Content-Disposition"] = attachment(f"session-{sid}-{info.name[:40]}.json")
    return response


@bp.post("/sessions/import")
def import_session():
    upload = request.files.get("file")
    data = upload.read() if upload else request.get_data()
    if not data:
        raise forms.FormError(["choose an exported session file (.json) to import"])
    try:
        name, settings, steps = transfer.parse(data)
    except SessionFileError as exc:
        raise forms.FormError([f"import refused: {exc}"]) from None
    sid = services().store.create_with_steps(name, settings, steps, game=game.GAME_ID)
    return jsonify({"id": sid, "url": url_for("barrage.play.play", sid=sid)}), 201


# -- live --------------------------------------------------------------------------
def _look(sid: int) -> tuple[Look, Step, list[Step]]:
    store = services().store
    steps = store.steps(sid)
    last = steps[-1]
    turns = sum(1 for s in steps if s.kind in ("automa", "human"))
    state = game.load(last)[0]
    companies = tuple(sorted(state.companies))
    del_monte = tuple(c for c in companies if state.companies[c].has_officer("del-monte"))
    look = services().live.look(store.session(sid).settings.get("profile"), turns, time.time() - last.created,
                                companies, del_monte)
    return look, last, steps


@bp.get("/sessions/<int:sid>/live")
def live(sid: int):
    look, last, steps = _look(sid)
    problem = services().live.problem(_profile(sid))
    state, flow = game.load(last)
    out = {"seq": last.seq, "registration": look.registration, "camera_problem": look.problem,
           "camera_note": look.camera_note,
           "recognition": problem or "available", "recognition_available": problem is None,
           "flags": [f"{f.slot}: {f.problem}" for f in look.reading.flags] if look.reading else [],
           # how likely the camera read the whole board right (vision.barrage.confidence.board_chance)
           "board_chance": look.reading.board_chance if look.reading else None,
           "stable": look.stable_map is not None, "moves": [], "refused": [], "unread": [], "seen": [],
           "unsure": [], "waiting": [], "advanced": False, "refused_again": [], "ranked": [], "unexplained": [],
           # the camera's health (web.camera_health): nothing is taken from a lost, frozen or lost-board camera
           "camera": (health := services().live.health(look)).to_dict(),
           # the last step is one an undo went back to: the camera does not play the next turn by itself
           "undone": services().store.undone(sid)}
    if not health.ok:
        out["stable"] = False
        return jsonify(out)
    if look.stable_map is None or flow.phase != "actions":
        return jsonify(out)
    compared = _compared(sid, last, look)
    by_hand = game.set_by_hand(steps)
    if state.companies[flow.next].automa:
        waiting = game.waiting_for(last, look.stable_map, compared, by_hand)
        # The camera sees the instruction done: move on, exactly as the button would; but not a turn
        # that changes nothing on the map (it would pass unseen) nor one the players have just undone.
        if waiting == [] and game.changes_map(last) and not out["undone"]:
            services().store.append(sid, game.automa_done(last), last.seq, picture=_picture(look))
            out["advanced"] = True
        out["waiting"] = waiting or []
    else:
        after, moves, refused = game.detected_moves(last, look.stable_map, compared, by_hand)
        said = game.refused_before(steps)
        # each space said as a player says it, the code a hint (automa.barrage.names)
        out["moves"], out["refused"] = [in_words(m.text) for m in moves], [in_words(m.text) for m in refused if m.text not in said]
        out["refused_again"] = [in_words(m.text) for m in refused if m.text in said]   # said on the last turn: counted, not listed
        # the slots the moves touch, as confirming would leave them: drawn on the map until then
        moved = {m.space for m in moves}
        out["seen"] = [p for p in views.map_pieces(after) if p["slot"] in moved]
        layout = services().live.layout(_profile(sid))
        checks = game.to_check(layout, look.stable_map, look.stable_flags,
                               compared.still if compared else frozenset(), by_hand)
        out["unsure"] = [{"slot": f.slot, "name": with_code(f.slot), "why": f.problem} for f in checks]
        if compared is not None and not moves:
            out["unread"] = game.unread(layout, compared.still)
        # the legal moves that best explain the reading, one tap each; the changes none explains
        ranking = game.ranked_moves(last, look.stable_map, compared, by_hand)
        out["ranked"] = [{"key": s.move.key, "text": in_words(s.move.text), "confidence": round(s.confidence, 3),
                          "slots": sorted(s.move.changes())} for s in ranking.offered()]
        out["unexplained"] = [{"slot": f.slot, "name": with_code(f.slot), "why": f.problem} for f in ranking.unexplained]
    return jsonify(out)


@bp.get("/sessions/<int:sid>/camera.jpg")
def camera(sid: int):
    look, last, _ = _look(sid)
    if look.frame is None:
        img = placeholder(look.problem or "no camera frame")
    else:
        highlight = set(views.highlight_slots(game.automa_decision(last)))
        profile = services().store.session(sid).settings.get("profile")
        img = overlay(look, services().live.layout(profile), highlight)
    return Response(jpeg(img), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
