"""The players' side of the table, from form fields to the engine's ops (bounded and checked;
every problem named in the page's language)."""
from __future__ import annotations

from typing import Any, Mapping

from flask_babel import gettext as _

from automa.age_of_innovation.data import DISCIPLINES, TERRAINS, cards, components, factions
from automa.age_of_innovation.state import GameState
from automa.common import hexgrid

from ..forms import FormError, integer

KINDS = tuple(components().buildings)


def _who(state: GameState, value: Any) -> str:
    if value not in state.player_names:
        raise FormError([_("choose a player")])
    return value


def _hex(state: GameState, form: Mapping[str, Any]) -> list[int]:
    col = integer(form.get("col"), _("hex"), 1, 40) - 1
    row = integer(form.get("row"), _("row"), 1, 40) - 1
    h = hexgrid.offset_to_axial(col, row, state.board.layout)
    if h not in state.board.terrain:
        raise FormError([_("row %(row)s has no hex %(col)s", row=row + 1, col=col + 1)])
    return [h[0], h[1]]


def edit_ops(state: GameState, form: Mapping[str, Any]) -> tuple[list[dict], str]:
    """The map editor: one hex's terrain or building."""
    h = _hex(state, form)
    where = state.board.label(tuple(h))
    change = str(form.get("change", ""))
    if change.startswith("terrain:") and change[8:] in TERRAINS + ("river",):
        terrain = change[8:]
        if terrain == "river":
            raise FormError([_("a river hex stays a river hex; choose a terrain")])
        return [{"op": "terrain", "hex": h, "terrain": terrain}], _("%(where)s is now %(terrain)s", where=where,
                                                                      terrain=terrain)
    if change in ("land:fallow", "land:blighted", "land:none"):      # the Blight's fallow and blighted land
        land = change[5:]
        return [{"op": "land", "hex": h, "land": land}], \
            _("%(where)s: fallow land", where=where) if land == "fallow" else \
            _("%(where)s: blighted land", where=where) if land == "blighted" else \
            _("%(where)s: neither fallow nor blighted land", where=where)
    if change == "remove":
        if tuple(h) not in state.board.buildings:
            raise FormError([_("there is no building on %(where)s", where=where)])
        return [{"op": "remove", "hex": h}], _("building removed from %(where)s", where=where)
    if change.startswith("letter:") and change[7:] in tuple("ABCDEF"):
        letter = change[7:]
        return [{"op": "setup_letter", "terrain": state.terrain, "hex": h, "letter": letter}], \
            _("setup card letter %(letter)s: %(where)s", letter=letter, where=where)
    parts = change.split(":")
    if len(parts) in (3, 4) and parts[0] == "building" and parts[2] in KINDS and \
            parts[1] in ("automa",) + state.player_names and (len(parts) == 3 or parts[3] == "marked"):
        owner, kind, marked = parts[1], parts[2], len(parts) == 4
        ops = [{"op": "remove", "hex": h}] if tuple(h) in state.board.buildings else []
        ops.append({"op": "build", "hex": h, "owner": owner, "kind": kind, "marked": marked})
        return ops, _("%(owner)s's %(kind)s on %(where)s", owner=owner, kind=kind, where=where)
    raise FormError([_("choose what to put on the hex")])


def player_ops(state: GameState, action: str, form: Mapping[str, Any]) -> tuple[list[dict], str]:
    """The ops of one of the players' moves and its label for the history."""
    if action == "edit":
        return edit_ops(state, form)
    if action == "science":
        who = _who(state, form.get("who"))
        ops = []
        for d in DISCIPLINES:
            level = integer(form.get(d), d, 0, components().top_level)
            delta = level - state.player(who).science[d]
            if delta:
                ops.append({"op": "science", "who": who, "discipline": d, "levels": delta, "space": None})
        return ops, _("%(who)s's science markers set", who=who)
    if action in ("spell", "book"):
        who = _who(state, form.get("who"))
        n = integer(form.get("index"), _("space"), 1, len(state.spells if action == "spell" else state.books))
        return [{"op": "cover", "what": action + "s", "index": n - 1, "who": who}], \
            _("%(who)s used %(what)s %(n)s", who=who, what=action, n=n)
    if action in ("pass", "bonus"):
        who = _who(state, form.get("who"))
        ops = []
        if action == "bonus" or state.round < 6:
            pos = integer(form.get("position"), _("bonus tile"), 1, len(state.bonus_line)) - 1
            ops.append({"op": "bonus_tile", "who": who, "position": pos})
        if action == "pass":
            ops.append({"op": "pass", "who": who})
            return ops, _("%(who)s passed", who=who)
        return ops, _("%(who)s took a round bonus tile", who=who)
    if action == "area":
        who = _who(state, form.get("who"))
        size = integer(form.get("size"), _("area"), 0, 60)
        return [{"op": "area", "who": who, "size": size}], _("%(who)s's largest area: %(n)s", who=who, n=size)
    if action == "achievement":
        if "achievements" not in factions()[state.faction].rules:
            raise FormError([_("only the Gognomes have achievements")])
        token = integer(form.get("token"), _("achievement token"), 1, components().achievement_tokens)
        if token in state.automa.achievements:
            raise FormError([_("achievement token %(n)s is already entered", n=token)])
        points = integer(form.get("points"), _("points"), 0, 99)
        return [{"op": "achievement", "token": token, "points": points}], \
            _("the Gognomes reached achievement %(n)s: %(vp)s VP", n=token, vp=points)
    if action == "setup_card":
        card = str(form.get("card", ""))
        ids = {c.label: i for i, c in cards().items()}
        if card not in ids:
            raise FormError([_("choose the decision card drawn")])
        return [{"op": "setup_card", "card": ids[card]}], _("decision card %(card)s drawn for the set-up", card=card)
    raise FormError([_("unknown move")])
