"""The Automa's turn in the page's language: its sentence composed per step from the decision's
structured steps and ops, its moves one op a line, and the map and management-board spaces
they name said as a player says them.

The engine (``automa.barrage``, which imports no Flask) writes these in English and
``automa.barrage.names.in_words`` names the spaces in them; here the same sentences are made
from the data with ``_()``, word for word the same in English. The trace is the engine's, said
in the page's language (``web.i18n.said_trace``).
"""
from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext

from automa.barrage.data import BarrageMap, barrage_map
from automa.barrage.names import LAKE, in_words
from automa.barrage.ops import SECTION_NAMES, describe
from automa.barrage.state import ACTION_SECTIONS

from ..i18n import said_trace

ORDINALS = (lazy_gettext("1st"), lazy_gettext("2nd"), lazy_gettext("3rd"), lazy_gettext("4th"), lazy_gettext("5th"),
            lazy_gettext("6th"), lazy_gettext("7th"), lazy_gettext("8th"), lazy_gettext("9th"), lazy_gettext("10th"))
AREAS = {"hills": lazy_gettext("Hills"), "mountains": lazy_gettext("Mountains"), "plains": lazy_gettext("Plains")}
SECTIONS = {"turbine": lazy_gettext("Turbine Station"), "water": lazy_gettext("Water Management"),
            "contracts": lazy_gettext("Contract Office"), "workshop": lazy_gettext("Workshop"),
            "machinery": lazy_gettext("Machinery Shop"), "patent": lazy_gettext("Patent Office"),
            "bank": lazy_gettext("Bank"), "company": lazy_gettext("Company board"),
            # sections the engine names by their id ("the external (space w2)")
            "external": lazy_gettext("external"), "officer": lazy_gettext("officer")}
COLOURS = {"red": lazy_gettext("red"), "black": lazy_gettext("black"), "green": lazy_gettext("green"),
           "white": lazy_gettext("white"), "orange": lazy_gettext("orange"), "yellow": lazy_gettext("yellow")}
MACHINES = {"excavator": lazy_gettext("excavator"), "mixer": lazy_gettext("mixer"),
            "excamixer": lazy_gettext("excamixer")}
ACTIONS = {"production": lazy_gettext("production"), "water_management": lazy_gettext("water management"),
           "contract_office": lazy_gettext("contract office"), "construction": lazy_gettext("construction"),
           "workshop": lazy_gettext("workshop"), "machinery_shop": lazy_gettext("machinery shop"),
           "patent_office": lazy_gettext("patent office"), "bank": lazy_gettext("bank"),
           "external_work": lazy_gettext("external work"), "pass": lazy_gettext("pass")}


def _word(table: dict, key: str) -> str:
    return str(table.get(key, key))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _and(items: list[str], joiner) -> str:
    out = items[0] if items else ""
    for item in items[1:]:
        out = joiner(out, item)
    return out


# -- spaces -----------------------------------------------------------------------------------
def space_name(space: str, board: BarrageMap | None = None) -> str:
    """A map space in words (``automa.barrage.names.space_name`` in the page's language)."""
    board = board or barrage_map()
    if space.startswith(LAKE):
        dam = space[len(LAKE):]
        return _("the water of %(dam)s", dam=space_name(dam, board)) if dam in board.dams else space
    if space in board.dams:
        d = board.dams[space]
        if d.red:
            return _("the red-outlined dam space of basin %(basin)s, %(area)s", basin=d.basin,
                     area=_word(AREAS, d.area))
        return _("the lower dam space of basin %(basin)s, %(area)s", basin=d.basin, area=_word(AREAS, d.area))
    if space in board.conduits:
        c = board.conduits[space]
        return _("conduit space %(letter)s (value %(value)s) of basin %(basin)s, %(area)s", letter=c.letter,
                 value=c.value, basin=c.basin, area=_word(AREAS, board.basins[c.basin].area))
    if space in board.powerhouses:
        p = board.powerhouses[space]
        area = _word(AREAS, board.groups[p.group].area)
        if p.red:
            return _("the %(ordinal)s (red-outlined) powerhouse space of group %(group)s, %(area)s",
                     ordinal=ORDINALS[p.index], group=p.group, area=area)
        return _("the %(ordinal)s powerhouse space of group %(group)s, %(area)s", ordinal=ORDINALS[p.index],
                 group=p.group, area=area)
    if space in board.headstreams:
        return _("headstream %(code)s (above basin %(basin)s)", code=space, basin=board.headstreams[space])
    return space


def with_code(space: str, board: BarrageMap | None = None) -> str:
    """``space_name`` with the code after it as a hint; the code alone where there is no name."""
    name = space_name(space, board)
    return name if name == space else f"{name} ({space})"


def _map_code(code: str, board: BarrageMap) -> str:
    """A code the engine's sentence names: in words where ``in_words`` names it (a dam, conduit or
    powerhouse space), as it is otherwise."""
    return with_code(code, board) if code in board.dams or code in board.conduits or code in board.powerhouses \
        else code


def board_place(section: str, space: str) -> str:
    """Where engineers go on the management board, as ``in_words`` says it: "the Workshop's 2nd
    space (3 engineers)", the section alone where it has one space or none."""
    name = _word(SECTIONS, section)
    if space in ("board", "b"):
        return _("the %(section)s", section=name)
    if space == "overflow":
        return _("the %(section)s (next to the section: no free space)", section=name)
    if section not in SECTION_NAMES:
        return _("the %(section)s (space %(space)s)", section=name, space=space)
    spaces = ACTION_SECTIONS.get(section, [])
    codes = [code for code, _n in spaces]
    if len(spaces) <= 1 or space not in codes:
        return _("the %(section)s", section=name)
    i = codes.index(space)
    engineers = spaces[i][1]
    if engineers == 1:
        return _("the %(section)s's %(ordinal)s space (1 engineer)", section=name, ordinal=ORDINALS[i])
    return _("the %(section)s's %(ordinal)s space (%(n)s engineers)", section=name, ordinal=ORDINALS[i], n=engineers)


# -- a turn -------------------------------------------------------------------------------------
def _engineers(n: int) -> str:
    return _("1 engineer") if n == 1 else _("%(n)s engineers", n=n)


BUILD = {"dam_base": lambda where: _("build a Dam Base on %(space)s", space=where),
         "elevation": lambda where: _("build an Elevation on %(space)s", space=where),
         "conduit": lambda where: _("build a Conduit on %(space)s", space=where),
         "powerhouse": lambda where: _("build a Powerhouse on %(space)s", space=where)}


def step_words(step: dict[str, Any], ops: list[dict], board: BarrageMap) -> str:
    """One step of the turn (``automa.barrage.engine._step_words`` in the page's language)."""
    eng = next((op for op in ops if op["op"] == "engineers"), None)
    where = _(", %(engineers)s on %(place)s", engineers=_engineers(eng["count"]),
              place=board_place(eng["section"], eng["space"])) if eng else ""
    action, target = step["action"], step["target"]
    if action == "construction":
        build = next(op for op in ops if op["op"] in ("build", "build_private", "external_work"))
        if build["op"] == "build_private":
            return _("build on the Private Building %(n)s", n=build["building"]) + where
        if build["op"] == "external_work":
            return _("fulfil External Work %(n)s with Spencer's Special tile", n=build["work"]) + where
        return BUILD[build["structure"]](_map_code(build["space"], board)) + where
    if action == "external_work":
        return _("fulfil External Work %(n)s", n=target.split()[-1]) + where
    if action == "production":
        energy = next(op["delta"] for op in ops if op["op"] == "energy")
        conduit = _map_code(target, board)
        if conduit == target:                   # not a conduit space the map knows: said by its code
            conduit = _("conduit %(code)s", code=target)
        fulfilled = ", ".join(str(op["contract"]) for op in ops if op["op"] == "fulfil")
        if not fulfilled:
            return _("produce %(energy)s energy through %(conduit)s", energy=energy, conduit=conduit) + where
        if "," in fulfilled:
            return _("produce %(energy)s energy through %(conduit)s and fulfil contracts %(contracts)s",
                     energy=energy, conduit=conduit, contracts=fulfilled) + where
        return _("produce %(energy)s energy through %(conduit)s and fulfil contract %(contracts)s",
                 energy=energy, conduit=conduit, contracts=fulfilled) + where
    if action == "water_management":
        return _("place water on headstream %(code)s", code=target) + where
    if action == "contract_office":
        return _("discard the %(colour)s contracts and move energy +2", colour=_word(COLOURS, target)) + where
    if action == "workshop":
        segments = re.match(r"\d+", target or "")
        return (_("turn the construction wheel %(n)s segment(s)", n=segments.group(0)) if segments
                else _("turn the construction wheel %(n)s", n=target)) + where
    if action == "machinery_shop":
        machines = [_word(MACHINES, m) for m in target.split("+")]
        return _("take %(machines)s", machines=_and(machines, lambda a, b: _("%(first)s and %(then)s",
                                                                              first=a, then=b))) + where
    if action == "patent_office":
        return _("take technology tile %(tile)s", tile=target) + where
    return _("score 1 VP at the Bank") + where


def summary(decision: dict[str, Any], board: BarrageMap | None = None) -> str:
    """What the Automa does this turn, without saying who (``engine.summary`` in words)."""
    board = board or barrage_map()
    if not decision.get("steps"):
        return instruction(decision, board)
    ops = decision["ops"]
    parts = [step_words(s, [ops[i] for i in s.get("op_indices", [])], board) for s in decision["steps"]]
    vp = decision["vp_delta"]
    signed = f"+{vp}" if vp > 0 else str(vp)
    vp_words = _("%(vp)s VP in all", vp=signed) if vp else _("no VP change")
    steps = _and(parts, lambda a, b: _("%(first)s; then %(then)s", first=a, then=b))
    return _cap(_("%(steps)s (%(engineers)s, %(vp)s).", steps=steps, engineers=_engineers(decision["engineers"]),
                  vp=vp_words))


def instruction(decision: dict[str, Any], board: BarrageMap | None = None) -> str:
    """The whole sentence: who plays, and what (``engine.instruction``; a pass with no engineer
    left, Sekibo's tile for a human's first action)."""
    board = board or barrage_map()
    colour, company = _word(COLOURS, decision["colour"]), decision["automa"]
    first = decision.get("human_first_action")
    if first:
        words = [_word(ACTIONS, a) for a in first["steps"]] or [_word(ACTIONS, "bank")]
        actions = _and(words, lambda a, b: _("%(first)s, then %(then)s", first=a, then=b))
        if first["steps"] and first["target"]:
            return _cap(_("%(colour)s player (%(company)s), Sekibo's rule: your first action this round is decided "
                          "by Automa tile %(tile)s: %(actions)s (%(target)s).", colour=colour, company=company,
                          tile=first["tile"], actions=actions, target=_map_code(first["target"], board)))
        return _cap(_("%(colour)s player (%(company)s), Sekibo's rule: your first action this round is decided by "
                      "Automa tile %(tile)s: %(actions)s.", colour=colour, company=company, tile=first["tile"],
                      actions=actions))
    if not decision.get("steps"):
        return _cap(_("%(colour)s Automa (%(company)s) has no engineer left and passes.", colour=colour,
                      company=company))
    return _cap(_("%(colour)s Automa (%(company)s): %(summary)s", colour=colour, company=company,
                  summary=summary(decision, board)))


# -- the moves, one op a line ----------------------------------------------------------------------
def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


STRUCTURES = {"dam_base": lazy_gettext("Dam Base"), "elevation": lazy_gettext("Elevation"),
              "conduit": lazy_gettext("Conduit"), "powerhouse": lazy_gettext("Powerhouse")}
PLACE = {"dam_base": lambda who, where: _("%(who)s: place a Dam Base on %(space)s", who=who, space=where),
         "elevation": lambda who, where: _("%(who)s: place an Elevation on %(space)s", who=who, space=where),
         "conduit": lambda who, where: _("%(who)s: place a Conduit on %(space)s", who=who, space=where),
         "powerhouse": lambda who, where: _("%(who)s: place a Powerhouse on %(space)s", who=who, space=where)}
MACHINE_COUNTS = {"excavators": lambda n: _("%(n)s excavators", n=n), "mixers": lambda n: _("%(n)s mixers", n=n),
                  "excamixers": lambda n: _("%(n)s excamixers", n=n)}


def _location(loc: str, board: BarrageMap) -> str:
    """Where water comes from or goes (``ops._where``)."""
    kind, _sep, name = loc.partition(":")
    if kind == "supply":
        return _("the supply")
    if kind == "exit":
        return _("off the map")
    if kind == "headstream":
        return _("headstream %(code)s", code=name)
    return _("the dam on %(space)s", space=_map_code(name, board))


def move(op: dict[str, Any], board: BarrageMap | None = None) -> str:
    """One line telling a player what to do on the table for this op (``ops.describe`` in the
    page's language, the spaces named)."""
    board = board or barrage_map()
    k, who = op["op"], op.get("company", "")
    if k == "deck":
        return _("Flip the top Automa tile onto the discard pile (pile reshuffled)") if op.get("reshuffled") \
            else _("Flip the top Automa tile onto the discard pile")
    if k == "build" and op["structure"] in PLACE:
        return PLACE[op["structure"]](who, _map_code(op["space"], board))
    if k == "vp":
        return _("%(who)s: %(n)s VP", who=who, n=_signed(op["delta"]))
    if k == "credits":
        return _("%(who)s: %(n)s credits", who=who, n=_signed(op["delta"]))
    if k == "energy":
        return _("%(who)s: energy marker %(n)s", who=who, n=_signed(op["delta"]))
    if k == "engineers":
        workers = _engineers(op["count"])
        if op.get("architect"):
            workers = _("%(engineers)s and the Architect", engineers=workers) if op["count"] else _("the Architect")
        return _("%(who)s: %(workers)s on %(place)s", who=who, workers=workers,
                 place=board_place(op["section"], op["space"]))
    if k == "machinery":
        parts = [MACHINE_COUNTS[n](f"{op.get(n, 0):+d}") for n in MACHINE_COUNTS if op.get(n, 0)]
        return f"{who}: " + ", ".join(parts)
    if k == "invest":
        machines = [MACHINE_COUNTS[m](op[m]) for m in MACHINE_COUNTS if op.get(m)]
        tile = _word(STRUCTURES, op["tile"])
        if not machines:
            return _("%(who)s: put the %(tile)s tile on the construction wheel", who=who, tile=tile)
        return _("%(who)s: put the %(tile)s tile and %(machines)s on the construction wheel", who=who, tile=tile,
                 machines=_and(machines, lambda a, b: _("%(first)s and %(then)s", first=a, then=b)))
    if k == "rotate":
        return _("%(who)s: turn the construction wheel 1 segment", who=who) if op["steps"] == 1 else \
            _("%(who)s: turn the construction wheel %(n)s segments", who=who, n=op["steps"])
    if k == "drops":
        source, target = _location(op["source"], board), _location(op["target"], board)
        return _("Move 1 water drop from %(source)s to %(target)s", source=source, target=target) \
            if op["count"] == 1 else _("Move %(n)s water drops from %(source)s to %(target)s", n=op["count"],
                                       source=source, target=target)
    if k == "fulfil":
        return _("%(who)s: fulfil contract %(n)s", who=who, n=op["contract"])
    if k == "discard_contracts":
        return _("Discard the face-up %(colour)s contracts", colour=_word(COLOURS, op["colour"]))
    if k == "refill_contracts":
        colour = _word(COLOURS, op["colour"])
        return _("Draw 1 new %(colour)s contract into the Contract Office", colour=colour) \
            if len(op["placed"]) == 1 else _("Draw %(n)s new %(colour)s contracts into the Contract Office",
                                             n=len(op["placed"]), colour=colour)
    if k == "new_round":
        return _("Round %(round)s: engineers home, energy markers to 0, new Patent Office tiles; turn order %(order)s",
                 round=op["round"], order=", ".join(op["turn_order"]))
    if k == "take_tile":
        return _("%(who)s: take %(tile)s from Patent Office slot %(n)s", who=who, tile=op["tile"], n=op["slot"] + 1)
    if k == "external_work":
        return _("%(who)s: take External Work %(n)s (position %(position)s)", who=who, n=op["work"],
                 position=op["slot"] + 1)
    if k == "build_private":
        return _("%(who)s: place a building on the Private Building %(n)s", who=who, n=op["building"])
    if k == "human_first_action":
        return _("%(who)s: play your first action of the round as the Automa tile says", who=who)
    return in_words(describe(op), board)


def said(decision: dict[str, Any] | None) -> dict[str, Any] | None:
    """The decision as the page shows it: its sentence, its moves and its trace in the page's language."""
    if decision is None:
        return None
    board = barrage_map()
    return {**decision, "summary": summary(decision, board), "instruction": instruction(decision, board),
            "moves": [move(op, board) for op in decision["ops"]], "trace": said_trace(decision)}
