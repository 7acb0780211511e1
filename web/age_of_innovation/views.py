"""The Age of Innovation pages: start or resume a game, and play it (server-rendered forms;
every step is one row of the shared store, so undo and resuming come from ``web.sessions``)."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _

from automa.age_of_innovation.board import Board
from automa.age_of_innovation.data import TERRAINS, cards, components, factions, levels, terrain_priority
from automa.common.errors import StateError
from automa.games import get, parse_json

from .. import pages, sessions
from ..forms import FormError
from .board import FILL, board
from .forms import KINDS, player_ops
from .say import instruction
from .words import NAMES

GAME_ID = "age-of-innovation"
MAX_MAP_BYTES = 64 * 1024


def register(bp: Blueprint) -> None:
    pages.register(bp, GAME_ID, index, play)
    bp.add_url_rule("/new", "new", new, methods=["POST"])
    bp.add_url_rule("/<int:sid>/player", "player", player, methods=["POST"])
    bp.add_url_rule("/<int:sid>/map.json", "map_export", map_export)
    bp.add_url_rule("/<int:sid>/map", "map_import", map_import, methods=["POST"])


def index(errors: list[str] | None = None, form: dict | None = None, status: int = 200):
    return render_template("age_of_innovation/index.html", game=get(GAME_ID), levels=levels(), factions=factions(),
                           terrains=TERRAINS, names=NAMES, sessions=sessions.sessions(GAME_ID), errors=errors or [],
                           form=form or {}), status


def new():
    options = pages.form_options(GAME_ID, request.form)
    if "youth_terrain" not in getattr(factions().get(options["faction"]), "setup", ()):
        options.pop("youth_terrain")        # the Symbionts' second card only
    return pages.new_game(GAME_ID, options, index, _("Age of Innovation against the Automa"))


def player(sid: int):
    return pages.table_step(GAME_ID, sid, play, player_ops,
                            lambda action: "correction" if action == "edit" else "human")


def map_export(sid: int):
    return sessions.download(sessions.current(GAME_ID, sid).state.board.to_dict(), f"age-of-innovation-map-{sid}.json")


def map_import(sid: int):
    seq = pages.step_seq()
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


def play(sid: int, errors: list[str] | None = None, status: int = 200):
    cur = sessions.current(GAME_ID, sid)
    state = cur.state
    decision = sessions.pending(GAME_ID, cur)
    acting = decision["action"] not in ("wait", "none")
    lv = levels()[state.level]
    return render_template(
        "age_of_innovation/play.html", session=cur.info, state=state, seq=cur.last.seq, steps=cur.steps,
        history=pages.history(cur.steps, lambda d: instruction(d, state.board)),
        decision=decision, instruction=instruction(decision, state.board), acting=acting,
        board=board(state, decision.get("target_hex")),
        level=lv, faction=factions()[state.faction], terrains=TERRAINS, fill=FILL, kinds=KINDS, names=NAMES,
        priority={row: terrain_priority()[row][state.terrain] for row in ("A", "B")},
        youth_priority={row: terrain_priority()[row][state.youth_terrain] for row in ("A", "B")}
        if state.youth_terrain else None,
        achievement_tokens=components().achievement_tokens,
        pieces={k: state.automa_supply(k) for k in components().buildings},
        bonus_free=[(i + 1, t) for i, t in enumerate(state.bonus_line) if t is not None],
        card_labels=[c.label for c in cards().values()], errors=errors or []), status
