"""The Automa's instruction in the page's language, composed from the decision's sentences as
data (``decision["sentences"]``: one ``{"kind": ..., values}`` per sentence, written by
``automa.age_of_innovation``, which imports no Flask). The English texts are the engine's own,
word for word; a decision without sentences (or of a kind this page does not know) keeps the
engine's English instruction. The trace ("Why?") is said in the page's language too, by
``web.i18n.said_trace`` from the engine's line templates (``automa.common.trace``)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask_babel import gettext as _

from automa.age_of_innovation.board import Board
from automa.common import hexgrid

from .words import NAMES


def instruction(decision: dict[str, Any], board: Board) -> str:
    """The decision's instruction in the page's language."""
    sentences = decision.get("sentences") or []
    if not sentences or any(s.get("kind") not in SENTENCES for s in sentences):
        return decision.get("instruction", "")
    return " ".join(SENTENCES[s["kind"]](s, lambda h: hex_label(board, h)) for s in sentences)


def hex_label(board: Board, h: Iterable[int]) -> str:
    """A hex as the page names it (``Board.label``): its printed row and position in the row."""
    col, row = hexgrid.axial_to_offset(tuple(h), board.layout)
    return _("row %(row)s, hex %(col)s", row=row + 1, col=col + 1)


def _and(items: list[str]) -> str:
    """``a and b and c``, as the engine joins places."""
    out = items[0] if items else ""
    for item in items[1:]:
        out = _("%(first)s and %(then)s", first=out, then=item)
    return out


def _name(word: str) -> str:
    return str(NAMES.get(word, word))


def _direction(direction: str) -> str:
    return _("left to right") if direction == "reading" else _("right to left")


Label = Callable[[Iterable[int]], str]


def _cover(s: dict, label: Label) -> str:
    if s["what"] == "spells":
        return _("Put an X token on spell %(n)s (counted from the left).", n=s["number"])
    return _("Put an X token on book action %(n)s (counted from the left).", n=s["number"])


def _build(s: dict, label: Label) -> str:
    hx, terrain = label(s["hex"]), _name(s["terrain"])
    if s["transform"] and s["marked"]:
        return _("Transform %(hex)s (%(was)s) to %(terrain)s (place a %(terrain)s terrain tile) and build an Automa "
                 "workshop on %(hex)s with a power token (marked).", hex=hx, was=_name(s["was"]), terrain=terrain)
    if s["transform"]:
        return _("Transform %(hex)s (%(was)s) to %(terrain)s (place a %(terrain)s terrain tile) and build an Automa "
                 "workshop on %(hex)s (unmarked, no power token).", hex=hx, was=_name(s["was"]), terrain=terrain)
    if s["marked"]:
        return _("Build an Automa workshop on %(hex)s with a power token (marked).", hex=hx)
    return _("Build an Automa workshop on %(hex)s (unmarked, no power token).", hex=hx)


TIEBREAKERS = {"nearest_to_you": lambda: _("nearest to your buildings"),
               "your_terrain_priority": lambda: _("your terrain priority"),
               "most_power_for_you": lambda: _("giving you the most power")}


def _build_by_hand(s: dict, label: Label) -> str:
    if s["ignore_reach"]:
        where = _("any empty terrain hex (range ignored)")
    elif s["buildings"] == "marked":
        where = _("an empty terrain hex within Reach (navigation %(n)s) of the Automa's marked buildings",
                  n=s["navigation"])
    else:
        where = _("an empty terrain hex within Reach (navigation %(n)s) of the Automa's unmarked buildings",
                  n=s["navigation"])
    if s["bring_together"] and not s["ignore_reach"]:
        where = _("%(where)s, bringing marked and unmarked together", where=where)
    if s["tiebreakers"]:
        own = ", ".join(TIEBREAKERS[tb]() if tb in TIEBREAKERS else tb for tb in s["tiebreakers"])
        return _("The Automa does transform and build: %(where)s; first the faction's tie-breakers (%(own)s), then "
                 "terrain priority row %(row)s (%(order)s), then nearest to your buildings, then directional "
                 "selection %(direction)s %(count)s; transform it to %(terrain)s and build a workshop, with a power "
                 "token if the nearest Automa building is marked.", where=where, own=own, row=s["row"],
                 order=", ".join(_name(t) for t in s["order"]), direction=_direction(s["direction"]),
                 count=s["count"], terrain=_name(s["terrain"]))
    return _("The Automa does transform and build: %(where)s; terrain priority row %(row)s (%(order)s), then nearest "
             "to your buildings, then directional selection %(direction)s %(count)s; transform it to %(terrain)s and "
             "build a workshop, with a power token if the nearest Automa building is marked.", where=where,
             row=s["row"], order=", ".join(_name(t) for t in s["order"]), direction=_direction(s["direction"]),
             count=s["count"], terrain=_name(s["terrain"]))


def _upgrade(s: dict, label: Label) -> str:
    old, new, hx = _name(s["old"]), _name(s["new"]), label(s["hex"])
    if s["new"] in ("school", "university"):
        return _("Upgrade the Automa's %(old)s on %(hex)s to a %(new)s (it takes no competency tile).",
                 old=old, hex=hx, new=new)
    return _("Upgrade the Automa's %(old)s on %(hex)s to a %(new)s.", old=old, hex=hx, new=new)


def _bonus_tile(s: dict, label: Label) -> str:
    out = _("It takes round bonus tile %(tile)s (%(arrow)s, position %(position)s of the line)",
            tile=s["tile"], arrow=_name(s["arrow"]), position=s["position"])
    if s["coins"] == 1:
        out = _("%(taken)s, returning its 1 coin to the supply", taken=out)
    elif s["coins"]:
        out = _("%(taken)s, returning its %(coins)s coins to the supply", taken=out, coins=s["coins"])
    if s["old"] is not None:
        return _("%(taken)s, and leaves tile %(old)s in its place.", taken=out, old=s["old"])
    return _("%(taken)s.", taken=out)


def _setup(s: dict, label: Label) -> str:
    places = [_("%(hex)s (%(letter)s, with a power token)", hex=label(p["hex"]), letter=p["letter"]) if p["marked"]
              else _("%(hex)s (%(letter)s)", hex=label(p["hex"]), letter=p["letter"]) for p in s["placed"]]
    return _("Place the Automa's initial workshops on %(places)s.", places=_and(places))


def _wait(s: dict, label: Label) -> str:
    if s["waiting"] == ["player"]:
        return _("The Automa has passed; you still play this round.")
    if len(s["waiting"]) == 1:
        return _("The Automa has passed; %(names)s still plays this round.", names=_name(s["waiting"][0]))
    return _("The Automa has passed; %(names)s still play this round.", names=_and([_name(w) for w in s["waiting"]]))


def _final(s: dict, label: Label) -> str:
    out = _("Final scoring: the Automa scores %(points)s VP (%(total)s in all).", points=s["points"], total=s["total"])
    if s["gognomes"]:
        return out + " " + _("First make sure every achievement the Gognomes reached is entered (their points are "
                             "scored as they are entered).")
    return out


SENTENCES: dict[str, Callable[[dict, Label], str]] = {
    "score": lambda s, label: _("The Automa scores %(points)s VP.", points=s["points"]),
    "innovation": lambda s, label: _("The Automa takes innovation %(innovation)s (position %(position)s of the "
                                     "display) and gains nothing for it.", innovation=s["innovation"],
                                     position=s["position"]),
    "cover": _cover,
    "scholar": lambda s, label: _("Place an Automa scholar on the %(discipline)s scholar space worth %(levels)s and "
                                  "move its %(discipline)s marker up %(levels)s (to %(to)s).",
                                  discipline=_name(s["discipline"]), levels=s["levels"], to=s["to"]),
    "advance_no_scholar": lambda s, label: _("Move the Automa's %(discipline)s marker up 1 (to %(to)s), no scholar "
                                             "placed.", discipline=_name(s["discipline"]), to=s["to"]),
    "advance": lambda s, label: _("Move the Automa's %(discipline)s marker up %(levels)s (to %(to)s).",
                                  discipline=_name(s["discipline"]), levels=s["levels"], to=s["to"]),
    "build": _build,
    "by_hand_transform_and_build": _build_by_hand,
    "by_hand_upgrade": lambda s, label: _(
        "The Automa does upgrade: a workshop next to your buildings if a guild is available, else any building it "
        "can upgrade; giving you the least power, then directional selection %(direction)s %(count)s; to the "
        "highest building allowed (a guild becomes the palace before a school).",
        direction=_direction(s["direction"]), count=s["count"]),
    "upgrade": _upgrade,
    "tool": lambda s, label: _("Place a tool on %(hex)s.", hex=label(s["hex"])),
    "blight_by_hand": lambda s, label: _("Transform %(count)s fallow land into blighted land (see the Blight's faction "
                                         "card; mark fallow land on the map and the page chooses it).",
                                         count=s["count"]),
    "blight": lambda s, label: _("Transform the fallow land on %(hexes)s into blighted land.",
                                 hexes=_and([label(h) for h in s["hexes"]])),
    "nothing": lambda s, label: _("The Automa's action card gives no eligible action: it does nothing this turn."),
    "pass": lambda s, label: _("The Automa passes and scores %(points)s VP from the round scoring tile.",
                               points=s["points"]),
    "racelings": lambda s, label: _("Racelings passed first: %(points)s VP again.", points=s["points"]),
    "bonus_tile": _bonus_tile,
    "rebuild_deck": lambda s, label: _("Shuffle every decision card of this round with the top reserve card into the "
                                       "new deck; turn the bottom 2 sideways."),
    "setup": _setup,
    "setup_by_hand": lambda s, label: _(
        "Place the Automa's initial workshops on the %(terrain)s hexes marked %(marked)s (with a power token) and "
        "%(unmarked)s on the Initial Workshop Setup card, and mark them on the map.",
        terrain=_name(s["terrain"]), marked=s["marked"], unmarked=s["unmarked"]),
    "wait": _wait,
    "round_end": lambda s, label: _("Round %(round)s is over: remove its round scoring tile; round %(next)s begins "
                                    "(%(first)s first).", round=s["round"], next=s["round"] + 1, first=s["first"]),
    "final_scoring": _final,
    "over": lambda s, label: _("The game is over."),
}
