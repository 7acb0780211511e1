"""Form fields to engine input, bounded and checked, every problem named in the page's language:
the card editor's fields to a card set, and what the players enter at the table to ops."""
from __future__ import annotations

import re
from typing import Any, Mapping

from flask_babel import get_locale
from flask_babel import gettext as _

from automa.brasil_imperial import resolve
from automa.brasil_imperial.board import Board
from automa.brasil_imperial.cards import ERAS, ROWS, CardSet
from automa.brasil_imperial.state import (MAX_PARTS, OBJECTIVE_KINDS, TILE_KINDS, GameState, dump_cell, hex_key,
                                          parse_hex)
from automa.common.errors import StateError

from ..forms import FormError, integer

DIGITS = re.compile(r"[0-5](?:[\s,]+[0-5]){0,5}")
MAX_TEXT = 40


def _lang() -> str:
    return "pt" if str(get_locale() or "").startswith("pt") else "en"


def piece_name(board: Board, what: str, pid: str) -> str:
    """A construction's or product's name in the page's language (the board's own id otherwise)."""
    raw = next((x for x in board.raw.get(what, []) if isinstance(x, dict) and x.get("id") == pid), {})
    name = raw.get("name") if isinstance(raw.get("name"), dict) else {}
    return name.get(_lang()) or name.get("en") or pid


def action_label(board: Board, code: str) -> str:
    kind, _sep, arg = code.partition(":")
    if kind == "build":
        return _("Build: %(what)s", what=piece_name(board, "constructions", arg))
    if kind == "summon":
        return _("Summon unit %(n)s", n=arg)
    if kind == "frame":
        return _("Frame: %(what)s", what=arg)
    if kind == "product":
        return _("Product: %(what)s", what=piece_name(board, "products", arg))
    if kind == "mission":
        return _("Mission objective %(n)s", n=arg)
    return {"city": _("City"), "monarch": _("Summon the Monarch"), "gold": _("Gold card")}[kind]


def action_codes(board: Board, era: int) -> list[tuple[str, str]]:
    """Every action a row of the Era ``era`` column may hold, as (code, label)."""
    codes = [f"build:{c.id}" for c in board.of_era(era)] + ["city"]
    codes += [f"summon:{u}" for u in board.ids("units") if u != "monarch"] + ["monarch"]
    codes += [f"frame:{f}" for f in board.ids("frames")] + [f"product:{p}" for p in board.ids("products")]
    codes += [f"mission:{k}" for k in (1, 2, 3)] + ["gold"]
    return [(c, action_label(board, c)) for c in codes]


def direction_labels() -> dict[str, str]:
    return {"capital": _("the nearest player's capital"), "player_city": _("the nearest player's city"),
            "own_city": _("its own nearest city (or its capital)"), "exploration": _("the nearest face-down tile"),
            "units": _("the most VP of opposing units")}


def terrain_label(name: str) -> str:
    """A terrain in the page's language; a table file's own terrain names stay as written."""
    return {"water": _("water"), "plain": _("plain"), "forest": _("forest"), "hill": _("hill"),
            "coast": _("coast")}.get(name, name)


def objective_labels() -> dict[str, str]:
    """What a mission card's objective asks for (``state.OBJECTIVE_KINDS``)."""
    return {"construction": _("a construction"), "city": _("a city"), "summon": _("a unit"), "frame": _("a frame"),
            "product": _("a product"), "other": _("other (Reform...)")}


def bonus_labels() -> dict[str, str]:
    return {"adder+": _("gain the adder"), "adder-": _("lose the adder"), "combat+": _("gain a combat card"),
            "combat-": _("lose a combat card"), "gold": _("gain a gold card"), "era": _("the Era bonus")}


def _relative(text: str, field: str, at_least: int) -> list[int]:
    text = (text or "").strip()
    if not text and at_least == 0:
        return []
    if len(text) > MAX_TEXT or not DIGITS.fullmatch(text):
        raise FormError([_("%(field)s: digits 0-5 separated by spaces (0 = the compass's tip, then clockwise)",
                           field=field)])
    return [int(x) for x in re.split(r"[\s,]+", text)]


def card_set(form: Mapping[str, Any], template: CardSet) -> dict:
    """The editor's fields as card-set JSON (the engine checks it whole afterwards)."""
    problems: list[str] = []
    action, movement = [], []
    for i, card in enumerate(template.action.values()):
        try:
            action.append({"id": card.id, "arrow": integer(form.get(f"a{i}_arrow"), _("arrow"), 1, ROWS),
                           "symbol": form.get(f"a{i}_symbol") or None,
                           "columns": [[str(form.get(f"a{i}_e{e}_r{r}", ""))[:MAX_TEXT] for r in range(ROWS)]
                                       for e in range(ERAS)]})
        except FormError as exc:
            problems += [_("action card %(n)s: %(p)s", n=card.id, p=p) for p in exc.problems]
    for j, card in enumerate(template.movement.values()):
        try:
            rows = [{"direction": form.get(f"m{j}_r{r}_dir") or None, "bonus": form.get(f"m{j}_r{r}_bonus") or None}
                    for r in range(ROWS)]
            era_bonus = [form.get(f"m{j}_era{e}") or "" for e in range(ERAS)]
            d = {"id": card.id, "arrow": integer(form.get(f"m{j}_arrow"), _("arrow"), 1, ROWS),
                 "symbol": form.get(f"m{j}_symbol") or None, "rows": rows,
                 "explore": _relative(form.get(f"m{j}_explore", ""), _("exploration order"), 0),
                 "moves": _relative(form.get(f"m{j}_moves", ""), _("moves"), 1),
                 "shuffle": form.get(f"m{j}_shuffle") == "on"}
            if any(era_bonus):
                d["era_bonus"] = era_bonus
            movement.append(d)
        except FormError as exc:
            problems += [_("movement card %(n)s: %(p)s", n=card.id, p=p) for p in exc.problems]
    if problems:
        raise FormError(problems)
    return {"example": False, "notes": [], "action": action, "movement": movement}


def _hex(s: GameState, value: Any):
    try:
        h = parse_hex(str(value or "")[:12], "hex")
    except StateError:
        raise FormError([_("write the hex as q,r (e.g. 2,-1)")]) from None
    if h not in s.cells:
        raise FormError([_("%(h)s is not on the map", h=hex_key(h))])
    return h


def _player(s: GameState, value: Any) -> str:
    if value not in s.player_names():
        raise FormError([_("choose a player")])
    return value


def table_ops(s: GameState, action: str, form: Mapping[str, Any]) -> tuple[list[dict], str]:
    """The ops of what the players enter, and its label for the history."""
    if action == "reveal":
        kind = form.get("kind")
        if kind not in TILE_KINDS:
            raise FormError([_("choose what the tile is")])
        fc = integer(form.get("fc") or 0, _("the flag's FC"), 0, 99)
        ops, text = resolve.reveal(s, kind, fc)
        return ops, text
    if action == "combat":
        winner = form.get("winner") or None
        if winner not in (None, "automa", "player"):
            raise FormError([_("choose who won")])
        out = resolve.combat(s, integer(form.get("cards_power") or 0, _("the Autômato's combat cards"), 0, 99),
                             integer(form.get("player_total"), _("your total strength"), 0, 999), winner)
        return out.ops, out.text
    if action == "mission":
        era = integer(form.get("era"), _("Era"), 1, 3)
        objectives = []
        for i in range(MAX_PARTS):
            number, kind = form.get(f"obj{i}_number") or "", form.get(f"obj{i}_kind") or ""
            if not number:
                continue
            if kind not in OBJECTIVE_KINDS:
                raise FormError([_("objective %(n)s: choose its kind", n=number)])
            ref = str(form.get(f"obj{i}_ref", "")).strip()[:MAX_TEXT] or None
            objectives.append({"objective": integer(number, _("objective"), 1, 3), "kind": kind, "ref": ref})
        return [{"op": "mission", "era": era, "objectives": objectives}], _("Era %(n)s mission card entered", n=era)
    if action == "objective":
        era, index = integer(form.get("era"), _("Era"), 1, 3), integer(form.get("index"), _("objective"), 1, MAX_PARTS)
        done = form.get("done") == "on"
        return [{"op": "objective", "era": era, "index": index, "done": done}], (
            _("Part %(i)s of the Era %(e)s mission complete", i=index, e=era) if done
            else _("Part %(i)s of the Era %(e)s mission not complete", i=index, e=era))
    if action == "era":
        return [{"op": "era", "era": s.era + 1}], _("Era %(n)s begins", n=s.era + 1)
    if action == "piece":
        return _piece(s, form)
    if action == "attack":
        h, who = _hex(s, form.get("hex")), _player(s, form.get("player"))
        return ([{"op": "attack", "hex": hex_key(h), "cards": min(2, s.automa.combat_cards), "attacker": who}],
                _("%(who)s attacks the Autômato at %(h)s", who=who, h=hex_key(h)))
    if action == "taken":
        frames = [f for f in s.board.ids("frames") if form.get(f"frame_{f}") == "on"]
        cities = [c for c in s.board.ids("cities") if form.get(f"city_{c}") == "on"]
        return [{"op": "taken", "frames": frames, "cities": cities}], _("Frames and cities the players took")
    if action == "final":
        text = str(form.get("gold_vp", "")).strip()
        if len(text) > 400 or not re.fullmatch(r"(\d{1,2}([\s,]+\d{1,2})*)?", text):
            raise FormError([_("the gold cards' VP: numbers separated by spaces")])
        values = [int(x) for x in re.split(r"[\s,]+", text) if x]
        if len(values) != s.automa.gold:
            raise FormError([_("enter the VP of each of the Autômato's %(n)s gold cards", n=s.automa.gold)])
        other = integer(form.get("other_vp") or 0, _("other VP"), 0, 999)
        return [{"op": "final", "gold_vp": values, "other_vp": other}], _("Final scoring")
    raise FormError([_("unknown action")])


def _piece(s: GameState, form: Mapping[str, Any]) -> tuple[list[dict], str]:
    """A player's unit, construction or city put on a hex, an exploration tile laid, the hex's terrain,
    or the hex cleared of the players' pieces (the Autômato's own pieces and capitals stay as they are)."""
    h = _hex(s, form.get("hex"))
    what = form.get("what")
    cell = dump_cell(s.cells[h])
    # the tile the Autômato flipped stays until the players enter what it is: without it the
    # pending exploration has no tile to reveal (the game could not go on)
    waiting = bool(s.pending) and s.pending.get("kind") == "explore" and s.pending.get("hex") == hex_key(h)
    if waiting and what == "tile":
        raise FormError([_("the tile on %(h)s waits to be entered: enter what it is first", h=hex_key(h))])
    vp = integer(form.get("vp") or 0, _("VP"), 0, 99)
    if what == "unit":
        cell["foes"] = cell.get("foes", []) + [{"owner": _player(s, form.get("player")), "vp": vp,
                                                 "fc": integer(form.get("fc") or 0, _("FC"), 0, 99)}]
        label = _("A unit of %(who)s on %(h)s", who=form.get("player"), h=hex_key(h))
    elif what in ("construction", "city"):
        if cell.get("building"):
            raise FormError([_("%(h)s already holds a building", h=hex_key(h))])
        ref = str(form.get("ref") or what).strip()[:MAX_TEXT]
        cell["building"] = {"owner": _player(s, form.get("player")), "kind": what, "ref": ref, "vp": vp, "era": s.era}
        label = _("%(what)s of %(who)s on %(h)s", what=ref, who=form.get("player"), h=hex_key(h))
    elif what == "terrain":
        terrain = form.get("terrain")
        if terrain not in ("water",) + s.board.terrains:
            raise FormError([_("choose a terrain")])
        cell["terrain"] = terrain
        label = _("%(h)s is %(terrain)s", h=hex_key(h), terrain=terrain_label(terrain))
    elif what == "tile":
        cell["tile"] = {"face_down": True, "kind": None, "fc": 0}
        label = _("Exploration tile on %(h)s", h=hex_key(h))
    elif what == "clear":
        cell.pop("foes", None)
        b = cell.get("building")
        if b and b["owner"] != "automa" and b["kind"] != "capital":
            cell.pop("building")
        if cell.get("tile") and not cell["tile"]["face_down"] and not waiting:
            cell.pop("tile")
        label = _("The players' pieces taken off %(h)s", h=hex_key(h))
    else:
        raise FormError([_("choose what to put on the hex")])
    return [{"op": "hex", "hex": hex_key(h), "cell": cell}], label
