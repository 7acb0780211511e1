"""The Brasil Imperial pages: the card editor, a new game, and the play page (server-rendered
forms; every step is one row of the shared store, so undo and resuming come from ``web.sessions``)."""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from automa.brasil_imperial.board import example_map_data
from automa.brasil_imperial.cards import DIFFICULTIES, ERAS, ROWS, dump_cards, load_cards
from automa.brasil_imperial.compass import heading_angle
from automa.brasil_imperial.resolve import automa_strength
from automa.brasil_imperial.scoring import automa_score
from automa.brasil_imperial.state import OBJECTIVE_KINDS, TILE_KINDS
from automa.common.errors import StateError
from automa.games import get, parse_json

from .. import pages, sessions
from ..forms import FormError
from . import cardsets
from .board import board
from .forms import (action_codes, action_label, bonus_labels, card_set, direction_labels, objective_labels,
                    table_ops, terrain_label)

GAME_ID = "brasil-imperial"
MAX_PLAYERS = 3
MAX_IMPORT = 200_000


def register(bp: Blueprint) -> None:
    pages.register(bp, GAME_ID, index, play)
    bp.add_url_rule("/new", "new", new, methods=["POST"])
    bp.add_url_rule("/cards", "cards", cards)
    bp.add_url_rule("/cards/copy", "copy_cards", copy_cards, methods=["POST"])
    bp.add_url_rule("/cards/import", "import_cards", import_cards, methods=["POST"])
    bp.add_url_rule("/cards/<name>", "edit_cards", edit_cards, methods=["GET", "POST"])
    bp.add_url_rule("/cards/<name>/export", "export_cards", export_cards)
    bp.add_url_rule("/cards/<name>/delete", "delete_cards", delete_cards, methods=["POST"])
    bp.add_url_rule("/<int:sid>/table", "table", table, methods=["POST"])
    bp.add_url_rule("/<int:sid>/table.json", "export_table", export_table)


# -- new game --------------------------------------------------------------------------------
def index(errors: list[str] | None = None, form: dict | None = None, status: int = 200):
    return render_template("brasil_imperial/index.html", capitals=list(example_map_data()["capitals"]),
                           difficulties=DIFFICULTIES, card_sets=cardsets.names(), sessions=sessions.sessions(GAME_ID),
                           errors=errors or [], form=form or {}, max_players=MAX_PLAYERS), status


def new():
    form = request.form.to_dict()
    players = []
    for i in range(MAX_PLAYERS):
        name, capital = form.get(f"p{i}_name", "").strip()[:40], form.get(f"p{i}_capital", "")
        if name or capital:
            if not name or not capital:
                return index([_("player %(n)s: give a name and a capital", n=i + 1)], form, 400)
            players.append(f"{name.replace(':', ' ').replace(',', ' ')}:{capital}")
    if not players:
        return index([_("at least one player with a capital")], form, 400)
    upload = request.files.get("table")
    table = upload.read(MAX_IMPORT + 1) if upload else b""
    if len(table) > MAX_IMPORT:
        return index([_("the table file is larger than 200 kB")], form, 400)
    chosen = form.get("cards", cardsets.EXAMPLE)
    try:
        cs = cardsets.get(chosen)
    except (KeyError, StateError):
        return index([_("choose a card set")], form, 400)
    options = {"players": players, "automa_capital": form.get("automa_capital", ""),
               "automa_first": "yes" if form.get("automa_first") == "on" else "no",
               "difficulty": form.get("difficulty", "hard"), "movement_difficulty": form.get("movement_difficulty", ""),
               "seed": form.get("seed", ""),
               "cards": cardsets.EXAMPLE if chosen == cardsets.EXAMPLE else json.dumps(dump_cards(cs)),
               "table": table.decode("utf-8", errors="replace") if table else "example"}
    return pages.new_game(GAME_ID, options, index, _("Brasil Imperial against the Autômato"), {"card_set": chosen})


# -- the card editor -------------------------------------------------------------------------
def cards(errors: list[str] | None = None, status: int = 200):
    return render_template("brasil_imperial/cards.html", card_sets=cardsets.names(), errors=errors or []), status


def _new_name(value: Any) -> str:
    name = str(value or "").strip()
    if not cardsets.valid_name(name):
        raise FormError([_("a card set's name: 1-40 letters, digits, spaces, - or _ (not 'example')")])
    return name


def copy_cards():
    try:
        name = _new_name(request.form.get("name"))
        source = cardsets.get(request.form.get("source", cardsets.EXAMPLE))
        cardsets.save(name, source)
    except FormError as exc:
        return cards(exc.problems, 400)
    except (KeyError, StateError):
        return cards([_("choose a card set to start from")], 400)
    except OverflowError:
        return cards([_("too many card sets: delete one first")], 400)
    return redirect(url_for(".edit_cards", name=name))


def import_cards():
    upload = request.files.get("file")
    data = upload.read(MAX_IMPORT + 1) if upload else b""
    try:
        name = _new_name(request.form.get("name"))
        if not data or len(data) > MAX_IMPORT:
            raise FormError([_("choose a card set file (JSON, at most 200 kB)")])
        cs = load_cards(parse_json(data.decode("utf-8", errors="replace")))
        cardsets.save(name, cs)
    except FormError as exc:
        return cards(exc.problems, 400)
    except StateError as exc:
        return cards([_("import refused: %(why)s", why=str(exc))], 400)
    except OverflowError:
        return cards([_("too many card sets: delete one first")], 400)
    return redirect(url_for(".edit_cards", name=name))


def edit_cards(name: str):
    try:
        cs = cardsets.get(name)
    except KeyError:
        abort(404)
    except StateError as exc:
        return cards([str(exc)], 400)
    errors, status, form = [], 200, None
    if request.method == "POST":
        if name == cardsets.EXAMPLE:
            return cards([_("the example set cannot be changed: copy it under a name of yours")], 400)
        form = request.form.to_dict()
        try:
            cardsets.save(name, load_cards(card_set(form, cs)))
            return redirect(url_for(".edit_cards", name=name, saved=1))
        except FormError as exc:
            errors, status = exc.problems, 400
        except StateError as exc:
            errors, status = [str(exc)], 400
    board_ = get(GAME_ID).new_game({"seed": 1}).board
    return render_template("brasil_imperial/editor.html", name=name, cs=cs, errors=errors, saved=request.args.get("saved"),
                           codes={e: action_codes(board_, e) for e in range(1, ERAS + 1)}, rows=ROWS, eras=ERAS,
                           directions=direction_labels(), bonuses=bonus_labels(), form=form,
                           readonly=name == cardsets.EXAMPLE), status


def export_cards(name: str):
    try:
        cs = cardsets.get(name)
    except (KeyError, StateError):
        abort(404)
    return sessions.download(dump_cards(cs), f"brasil-imperial-cards-{name}.json")


def delete_cards(name: str):
    cardsets.delete(name)
    return redirect(url_for(".cards"))


# -- playing ---------------------------------------------------------------------------------
def table(sid: int):
    return pages.table_step(GAME_ID, sid, play, table_ops, lambda action: "table")


def export_table(sid: int):
    """The game's map (terrain, capitals, face-down tiles) and board as a table file for a new game."""
    s = sessions.current(GAME_ID, sid).state
    hexes = {}
    for h, c in s.cells.items():
        cell: dict = {"terrain": c.terrain}
        if c.tile and c.tile.face_down:
            cell["tile"] = {"face_down": True}
        hexes[f"{h[0]},{h[1]}"] = cell
    table = {"board": s.board.raw, "map": {"orientation": s.orientation,
                                           "capitals": {k: f"{q},{r}" for k, (q, r) in s.capitals.items()},
                                           "hexes": hexes}}
    return sessions.download(table, "brasil-imperial-table.json")


def play(sid: int, errors: list[str] | None = None, status: int = 200):
    cur = sessions.current(GAME_ID, sid)
    s = cur.state
    pending = None
    if s.pending is None and not s.over:
        pending = sessions.pending(GAME_ID, cur)
    last = next((st.payload for st in reversed(cur.steps) if st.kind == "automa"), None)
    shown = pending or last
    return render_template(
        "brasil_imperial/play.html", session=cur.info, state=s, seq=cur.last.seq, steps=cur.steps,
        history=pages.history(cur.steps, lambda d: " ".join(op_lines(s, d))),
        pending=pending, last=None if pending else last, board=board(s, shown), errors=errors or [],
        steps_text=op_lines(s, shown) if shown else [], score=automa_score(s),
        strength=automa_strength(s) if s.pending and s.pending["kind"] == "combat" else None,
        tile_kinds=TILE_KINDS, objective_kinds=OBJECTIVE_KINDS, objective_labels=objective_labels(),
        terrain_label=terrain_label, action_label=action_label,
        heading_deg=round((heading_angle(s.orientation, s.heading) + 90) % 360)), status


def op_lines(s, decision: dict) -> list[str]:
    """The Autômato's turn, one sentence per op, in the page's language."""
    out = []
    for op in decision.get("ops", []):
        kind = op["op"]
        if kind == "action_start":
            out.append(_("Turn the action pile face up and read the first row of its top card."))
        elif kind == "action_draw":
            out.append(_("Take action card %(n)s from the pile and lay it face up to the left.", n=op["card"]))
        elif kind == "action_reshuffle":
            out.append(_("It was the last card: shuffle every action card into a new face-up pile."))
        elif kind == "build":
            out.append(_("Build its %(what)s on %(h)s.", what=action_label(s.board, "build:" + op["construction"]).split(": ")[-1],
                         h=op["hex"]) + (" " + _("(over its own older construction)") if op.get("over") else ""))
        elif kind == "city":
            out.append(_("Build %(city)s (the first city from the left) on %(h)s.", city=op["city"], h=op["hex"]))
        elif kind == "summon":
            out.append(_("Summon its unit %(u)s onto %(h)s.", u=op["unit"], h=op["hex"]))
        elif kind == "bonus":
            out.append(_("Its adder: now %(n)s.", n=op["to"]) if op["kind"] == "adder"
                       else _("Its combat cards: now %(n)s.", n=op["to"]))
        elif kind == "gold":
            out.append(_("Give it 1 gold card, face down."))
        elif kind == "frame":
            out.append(_("Give it the frame %(f)s.", f=op["frame"]))
        elif kind == "product":
            out.append(_("Manufacture %(p)s for it and put it on the arch of its shape, left to right.",
                         p=action_label(s.board, "product:" + op["product"]).split(": ")[-1]))
        elif kind == "movement_start":
            out.append(_("Turn the movement pile face up."))
        elif kind == "movement_draw":
            out.append(_("Take movement card %(n)s and lay it face up to the left.", n=op["card"]))
        elif kind == "movement_reshuffle":
            out.append(_("Shuffle every movement card into a new face-up pile."))
        elif kind == "compass":
            turns = decision.get("compass_turn", 0)
            out.append(_("Turn the compass %(n)s x 60 degrees clockwise.", n=turns) if turns > 0
                       else _("Turn the compass %(n)s x 60 degrees anticlockwise.", n=-turns))
        elif kind == "lie":
            out.append(_("Leave its unit %(u)s lying on the dominated construction.", u=op["unit"]))
        elif kind == "stand":
            out.append(_("Stand its unit %(u)s up.", u=op["unit"]))
        elif kind == "undominate":
            out.append(_("The construction on %(h)s is no longer dominated.", h=op["hex"]))
        elif kind == "move":
            out.append(_("Move the compass and its standing units to %(h)s.", h=op["to"]))
        elif kind == "flag":
            out.append(_("It wins the flag on %(h)s (no combat card against flags).", h=op["hex"]))
        elif kind == "explore":
            out.append(_("Flip the exploration tile on %(h)s and enter what it is.", h=op["hex"]))
        elif kind == "attack":
            out.append(_("Combat on %(h)s: choose your combat cards first, then reveal its %(n)s combat card(s).",
                         h=op["hex"], n=op["cards"]))
        elif kind == "await_mission":
            out.append(_("Reveal its Era %(n)s mission card and enter its objectives.", n=op["era"]))
    return out
