"""The Expeditions pages: start or resume a game, and play it (server-rendered forms; every step
is one row of the shared store, so undo and resuming come from ``web.sessions``)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from flask_babel import gettext as _

from automa.expeditions.data import layout, levels
from automa.expeditions.scoring import automa_score, default_figures, player_score, winner
from automa.games import get

from .. import pages, sessions
from .board import board, track
from .forms import player_ops

GAME_ID = "expeditions"


def register(bp: Blueprint) -> None:
    pages.register(bp, GAME_ID, index, play)
    bp.add_url_rule("/new", "new", new, methods=["POST"])
    bp.add_url_rule("/<int:sid>/player", "player", player, methods=["POST"])


def index(errors: list[str] | None = None, form: dict | None = None, status: int = 200):
    game = get(GAME_ID)
    return render_template("expeditions/index.html", game=game, levels=levels(),
                           sessions=sessions.sessions(GAME_ID), errors=errors or [], form=form or {}), status


def new():
    return pages.new_game(GAME_ID, pages.form_options(GAME_ID, request.form), index,
                          _("Expeditions against the Automa"))


def player(sid: int):
    return pages.table_step(GAME_ID, sid, play, lambda state, action, form: player_ops(action, form),
                            lambda action: {"reveal": "reveal", "figures": "score"}.get(action, "human"))


def play(sid: int, errors: list[str] | None = None, status: int = 200):
    cur = sessions.current(GAME_ID, sid)
    state = cur.state
    pending = None
    if state.turn == "automa" and not state.awaiting():
        pending = sessions.pending(GAME_ID, cur)
    last = next((s.payload for s in reversed(cur.steps) if s.kind == "automa"), None)
    shown = pending or last
    scores = None
    a_score = automa_score(state)
    if state.figures is not None:
        p_score = player_score(state.figures)
        scores = {"player": p_score, "automa": a_score, "winner": winner(p_score, a_score)}
    lay = layout()
    free = [p for p in lay.region_of if p not in state.mechs.values() and p != state.player_at]
    return render_template(
        "expeditions/play.html", session=cur.info, state=state, seq=cur.last.seq, steps=cur.steps,
        pending=pending, last=last if not pending else None,
        mech_steps=_instructions(shown["mechs"]) if shown else {},
        board=board(state, shown["mechs"] if shown else None), track=track(state),
        automa_score=a_score, scores=scores, defaults=default_figures(state), errors=errors or [],
        free=free, unknown_south=[p for p in lay.regions["south"] if state.locations[p].tile is None],
        here=state.locations[state.player_at] if state.player_at else None,
        level=levels()[state.level]), status


def _instructions(mechs: dict[str, dict]) -> dict[str, list[str]]:
    """Each mech's instruction in the page's language, from the decision's details."""
    out: dict[str, list[str]] = {}
    for mech, m in mechs.items():
        lines = []
        if m["sweep"]:
            lines.append(_("Sweep the face-up cards on %(spaces)s to the sweep pile and refill those spaces.",
                           spaces=", ".join(m["sweep"])))
        where = (_("Stay on %(to)s", to=m["to"]) if m["to"] == m["from"]
                 else _("Move to %(to)s", to=m["to"]))
        if m["action"] == "explore":
            lines.append(_("%(where)s: take its map token for the Automa, flip the tile and draw corruption from "
                           "the bag until the sum reaches the location's level (location 20: its 20-value token). "
                           "Then enter what it shows.", where=where))
        elif m["action"] == "vanquish_lair":
            lines.append(_("%(where)s and give the Automa the 20-value corruption token.", where=where))
        elif m["action"] == "vanquish":
            tokens = ", ".join(_token(t) for t in m.get("taken", []))
            lines.append(_("%(where)s and give the Automa the top %(n)s corruption token(s): %(tokens)s.",
                           where=where, n=m["take"], tokens=tokens))
        else:
            lines.append(_("Move %(n)s location(s) to %(to)s: no target.", n=m["steps"], to=m["to"]))
        out[mech] = lines
    return out


def _token(t: dict[str, Any]) -> str:
    names = {"orange": _("orange"), "turquoise": _("turquoise"), "lair": _("the 20")}
    return f"{t['value']} {names[t['colour']]}" if t["colour"] != "lair" else names["lair"]
