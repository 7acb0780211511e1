"""The routes every game's page has, once for all of them, on top of ``web.sessions``: the
saved-games list (``/``), the play page (``/<sid>``), the Automa's turn carried out
(``/<sid>/automa``), undo back one step or to any step of the history (``/<sid>/undo``), the
whole session exported (``/<sid>/export``) and imported (``/import``); plus what a game's own
routes share: a new game from its form, and a step the players entered as ops.

A game's page writes ``index(errors, form, status)`` and ``play(sid, errors, status)`` (its
templates) and its own forms' routes, and calls ``register`` with them; the shared templates'
parts are the macros of ``templates/_games.html``.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Mapping

from flask import Blueprint, redirect, request, url_for
from flask_babel import gettext as _

from automa.common.errors import StateError
from automa.games import get

from . import sessions
from .forms import FormError, integer
from .store import Step

log = logging.getLogger(__name__)
MAX_SESSION_BYTES = 8 * 1024 * 1024       # a whole game's steps, each a full state
IndexView = Callable[..., Any]            # index(errors=None, form=None, status=200)
PlayView = Callable[..., Any]             # play(sid, errors=None, status=200)
OpsOf = Callable[[Any, str, Mapping[str, str]], tuple[list[dict], str]]   # (state, action, form) -> (ops, label)


def register(bp: Blueprint, game_id: str, index: IndexView, play: PlayView) -> None:
    """The shared routes on ``bp`` (endpoints index, play, automa, undo, session_export, session_import)."""
    def automa(sid: int):
        sessions.automa_done(game_id, sid, step_seq())
        return redirect(url_for(".play", sid=sid))

    def undo(sid: int):
        """Back one step, or (``to``: a step's number) to the state after that step."""
        steps = sessions.current(game_id, sid).steps
        if len(steps) > 1:
            to = request.form.get("to")
            sessions.undo(game_id, sid, None if to in (None, "") else
                          integer(to, _("step"), steps[0].seq, steps[-1].seq - 1),
                          None if request.form.get("seq") in (None, "") else step_seq())
        return redirect(url_for(".play", sid=sid))

    def session_export(sid: int):
        """The whole session (every step's state) as one file, to import here or elsewhere."""
        return sessions.export_response(game_id, sid)

    def session_import():
        """An exported session stored as a new one, every step checked first (nothing stored on a problem)."""
        upload = request.files.get("file")
        data = upload.read(MAX_SESSION_BYTES + 1) if upload else b""
        try:
            if not data or len(data) > MAX_SESSION_BYTES:
                raise FormError([_("choose an exported game file (.json, at most 8 MB)")])
            sid = sessions.import_file(game_id, data)
        except FormError as exc:
            return index(exc.problems, None, 400)
        return redirect(url_for(".play", sid=sid))

    bp.add_url_rule("/", "index", index)
    bp.add_url_rule("/<int:sid>", "play", play)
    bp.add_url_rule("/<int:sid>/automa", "automa", automa, methods=["POST"])
    bp.add_url_rule("/<int:sid>/undo", "undo", undo, methods=["POST"])
    bp.add_url_rule("/<int:sid>/export", "session_export", session_export)
    bp.add_url_rule("/import", "session_import", session_import, methods=["POST"])


def history(steps: list[Step], say: Callable[[dict], str]) -> list[tuple[Step, str]]:
    """Each step with its line in the history, in the page's language: the start; an Automa turn
    said anew from its decision by ``say`` (the label stored with it is the engine's English); a
    step the players made as the page recorded it."""
    return [(s, _("Game started") if s.kind == "start" else say(s.payload) if s.kind == "automa" else s.label)
            for s in steps]


def step_seq() -> int:
    """The step the page showed when the form was sent (a stale form is refused: ``sessions.Conflict``)."""
    return integer(request.form.get("seq"), "seq", 0, 10**9)


def problems(exc: FormError | StateError) -> list[str]:
    return exc.problems if isinstance(exc, FormError) else [str(exc)]


def form_options(game_id: str, form: Mapping[str, str]) -> dict[str, str]:
    """The new-game form's value of each of the game's ``Option``s (a field per option, named after it)."""
    return {o.name: form.get(o.name, "") for o in get(game_id).options}


def new_game(game_id: str, options: Mapping[str, Any], index: IndexView, default_name: str,
             settings: Mapping[str, Any] | None = None):
    """A new session from the new-game form (``request.form``) and the options read from it: its
    play page, or the form again with every problem named (400)."""
    form = request.form.to_dict()
    try:
        sid = sessions.start(game_id, options, name=form.get("name", "").strip() or default_name, settings=settings)
    except FormError as exc:
        return index(exc.problems, form, 400)
    return redirect(url_for(".play", sid=sid))


def table_step(game_id: str, sid: int, play: PlayView, ops_of: OpsOf, kind: Callable[[str], str]):
    """A step the players entered with a form (field ``action`` and its own fields): ``ops_of``
    gives its ops and label (FormError), the game applies them (StateError); a problem shows the
    play page again with it (400), else the step is stored as ``kind(action)`` with its ops."""
    seq = step_seq()
    cur = sessions.current(game_id, sid)
    action = request.form.get("action", "")
    try:
        ops, label = ops_of(cur.state, action, request.form)
        state = get(game_id).apply(cur.state, {"ops": ops})
    except (FormError, StateError) as exc:
        return play(sid, problems(exc), 400)
    except sessions.MALFORMED as exc:       # a saved state the game's checks let through, that its ops cannot take
        log.exception("step %r of %s session %d refused", action, game_id, sid)
        return play(sid, [_("internal error (%(kind)s); the game state was not changed", kind=type(exc).__name__)], 400)
    sessions.record(game_id, sid, seq, kind(action), label, state, {"ops": ops, "action": action})
    return redirect(url_for(".play", sid=sid))
