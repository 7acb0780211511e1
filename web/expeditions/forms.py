"""The player's side of the table, from form fields to the engine's ops (bounded and checked;
every problem named in the page's language)."""
from __future__ import annotations

import re
from typing import Any, Mapping

from flask_babel import gettext as _

from automa.expeditions.data import layout
from automa.expeditions.state import MAX_STACK, MAX_TOKEN_VALUE

from ..forms import FormError, integer

TOKEN = re.compile(r"(\d{1,2})\s*([ot])", re.IGNORECASE)
COLOUR = {"o": "orange", "t": "turquoise"}
MAX_TEXT = 200


def tokens(text: str) -> list[dict]:
    """'4o 3t 5o' -> tokens top first (o: orange, paid with power; t: turquoise, with guile)."""
    text = (text or "").strip()
    if len(text) > MAX_TEXT:
        raise FormError([_("the tokens field is too long")])
    if not text:
        return []
    items = re.split(r"[\s,;]+", text)
    out = []
    for item in items:
        m = TOKEN.fullmatch(item)
        if not m or not 1 <= int(m.group(1)) <= MAX_TOKEN_VALUE:
            raise FormError([_("'%(item)s' is not a token: write its value 1-%(max)s and o or t, as 4o or 3t",
                               item=item[:12], max=MAX_TOKEN_VALUE)])
        out.append({"value": int(m.group(1)), "colour": COLOUR[m.group(2).lower()]})
    if len(out) > MAX_STACK:
        raise FormError([_("at most %(n)s tokens on one location", n=MAX_STACK)])
    return out


def location(value: Any) -> str:
    if value not in layout().region_of:
        raise FormError([_("choose a location")])
    return value


def player_ops(action: str, form: Mapping[str, Any]) -> tuple[list[dict], str]:
    """The ops of one player action and its label for the history."""
    if action == "move":
        to = location(form.get("to"))
        return [{"op": "player_move", "to": to}], _("You moved to %(to)s", to=to)
    if action == "vanquish":
        n = integer(form.get("count"), _("tokens"), 1, MAX_STACK)
        return [{"op": "player_vanquish", "count": n}], _("You vanquished %(n)s corruption", n=n)
    if action == "glory":
        return [{"op": "player_glory"}], _("You placed a glory token")
    if action == "end":
        return [{"op": "end_turn", "who": "player"}], _("You ended your turn")
    if action == "reveal":
        pid = location(form.get("location"))
        tile = integer(form.get("tile"), _("tile number"), 1, 20)
        op = {"op": "reveal", "location": pid, "tile": tile, "tokens": tokens(form.get("tokens", ""))}
        return [op], _("%(pid)s is location %(tile)s", pid=pid, tile=tile)
    if action == "figures":
        figures = {"coins": integer(form.get("coins"), _("coins"), 0, 999),
                   "quests": integer(form.get("quests"), _("quests solved"), 0, 5),
                   "glory": integer(form.get("glory"), _("glory tokens placed"), 0, 4),
                   "upgraded": integer(form.get("upgraded"), _("upgraded items"), 0, 999),
                   "corruption": integer(form.get("corruption"), _("corruption tokens"), 0, 38)}
        return [{"op": "figures", "figures": figures}], _("Your final figures")
    raise FormError([_("unknown action")])
