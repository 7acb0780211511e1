"""The Construction action: the four conditions, then the build.

Rulebook (004, Construction Action): "The Automa will build the indicated Structure if
all of the following conditions are satisfied (Check the following conditions in the
indicated order): Structure Available ... Technology Tile Available ... Machineries
Available - The Automa has the minimum required number of Machineries for the
construction of the depicted structure ... Building Space Available". A tile's
restriction (a base in the Mountains, a conduit of value 3 or more) "overrides any of
the following tie-breaks" (000). The engineers go on the company board (unlimited for
an Automa); the tile and machinery go on the construction wheel, which turns one
segment; an income revealed is collected at once.

Very Hard officers that change the construction action (004, "Overpowered"):

- Graziano Del Monte: "Automa will always prefer to perform an Elevation construction
  action, ignoring the structure suggested by the Automa tile" (when it can build one);
- Leslie Spencer: with the Special tile in the supply, an External Works "construction"
  with 1 engineer when one is possible (see ``leeghwater``);
- Margot Fouché: "If it's possible for Automa to build a Building ... it will ignore the
  structure indicated on the Automa tile and use 1 Engineer to build the Building";
- Gennaro Grasso: "The first construction action of each round costs 1 Engineer less.
  Put the used engineer on the XO special spot as a reminder."
"""
from __future__ import annotations

from automa.common.trace import Text, text

from . import leeghwater, payment, techtiles
from .construct_steps import invest, place_construction_engineers
from .data import barrage_map
from .outcome import Outcome, failed
from .placement import choose_space
from .rewards import place_structure
from .rules import construction_cost, legal_spaces
from .turn import Turn
from .words import A_STRUCTURE, AREA, STRUCTURE, or_else
from .words import tile as tile_words


def construction(turn: Turn, action: dict) -> Outcome:
    """Construction Action, with the officers that replace the printed structure tried first."""
    me = turn.me
    if me.has_officer("spencer"):
        done = leeghwater.spencer_external_work(turn)
        if done.done:
            return done
        turn.trace.add("Spencer: {reason}; the construction as printed", reason=done.reason)
    if me.has_officer("fouche") and turn.state.leeghwater:
        with turn.trace.section("Fouché: a Building instead of the printed structure, if possible"):
            done = leeghwater.build_private(turn, {"engineers": 1, "search_direction": "down"})
        if done.done:
            return done
        turn.trace.add("no Building possible ({reason}); the printed structure", reason=done.reason)
    if me.has_officer("del-monte") and action["structure"] != "elevation":
        with turn.trace.section("Del Monte: an Elevation instead of the printed structure, if possible"):
            done = build(turn, {"structure": "elevation", "engineers": action["engineers"]})
        if done.done:
            return done
        turn.trace.add("no Elevation possible ({reason}); the printed structure", reason=done.reason)
    if action["structure"] == "building":
        return leeghwater.build_private(turn, action)
    return build(turn, action)


def _restricted(structure: str, action: dict, spaces: list[str]) -> list[str]:
    bmap = barrage_map()
    area = action.get("area_restriction")
    low = action.get("min_conduit_value")
    if area:
        spaces = [s for s in spaces if bmap.dams[s].area == area]
    if low:
        spaces = [s for s in spaces if bmap.conduits[s].value >= low]
    return spaces


def _all_spaces(structure: str) -> list[str]:
    bmap = barrage_map()
    return {"dam_base": list(bmap.dams), "elevation": list(bmap.dams), "conduit": list(bmap.conduits),
            "powerhouse": list(bmap.powerhouses)}[structure]


def _payment(turn: Turn, structure: str, space: str, tile: str | None) -> payment.Payment | None:
    cost = construction_cost(turn.state, turn.company, structure, space)
    options = payment.adjusted_cost(turn.me, structure, {cost.machinery: cost.amount}, tile)
    return payment.plan(turn.me, options, tile)


def build(turn: Turn, action: dict) -> Outcome:
    """The four conditions for the structure of ``action``, then the build."""
    structure = action["structure"]
    what = A_STRUCTURE[structure]
    me = turn.me
    if me.structures[structure] <= 0:
        return failed(text("Structure Available: no {structure} left on the company board",
                           structure=STRUCTURE[structure]))
    use = techtiles.tile_for(me, structure)
    if use is None:
        return failed(text("Technology Tile Available: no tile builds {what}", what=what))
    tile = techtiles.acting(turn, use)
    anywhere = _restricted(structure, action, _all_spaces(structure))
    if not any(_payment(turn, structure, s, tile) for s in anywhere):
        # The tile is chosen before this condition (the highest level, rulings H7): say which one.
        with_tile = text(" (with the {tile} tile, the one it uses)", tile=tile_words(use.tile)) if use.tile != structure else ""
        return failed(text("Machineries Available: {what}{restriction} needs at least {least}{with_tile}",
                           what=what, restriction=_restriction_words(action),
                           least=_least(turn, structure, anywhere, tile), with_tile=with_tile))
    legal = _restricted(structure, action, legal_spaces(turn.state, turn.company, structure))
    affordable = [s for s in legal if _payment(turn, structure, s, tile)]
    if not affordable:
        why = text("no free space") if not legal else \
            text("no free space it can pay for ({free} free, all too costly)", free=len(legal))
        return failed(text("Building Space Available: {why} for {what}{restriction}", why=why, what=what,
                           restriction=_restriction_words(action)))
    if len(affordable) == 1:
        space = affordable[0]
        turn.trace.add("only one possible space: {space}", space=space)
    else:
        with turn.trace.section("{n} possible spaces: Structure Placing Procedure", n=len(affordable)):
            space = choose_space(turn.state, turn.company, structure, affordable, turn.criteria, turn.trace, tile=tile)
    cost = construction_cost(turn.state, turn.company, structure, space)
    pay = _payment(turn, structure, space, tile)
    assert pay is not None
    surcharge = 0 if tile == "L1_JOKER" else cost.surcharge
    place_construction_engineers(turn, action["engineers"], techtiles.engineer_free(turn, use))
    turn.vp(action.get("vp_change", 0), "construction")
    invest(turn, use.tile, pay)
    turn.trace.add("builds {what} on {space} with the {tile} tile{copying} and {payment}{surcharge}{joker}",
                   what=what, space=space, tile=tile_words(use.tile),
                   copying=text(" (copying {tile})", tile=tile_words(use.acts_as)) if use.tile != use.acts_as else "",
                   payment=pay.words(),
                   surcharge=text(", pays {vp} VP for the red outline", vp=surcharge) if surcharge else "",
                   joker=text(" (L1 Joker: no red-outline surcharge)") if cost.surcharge and not surcharge else "")
    place_structure(turn, structure, space, surcharge)
    techtiles.after_build(turn, use, structure, space)
    return Outcome(True, target=space)


def _least(turn: Turn, structure: str, spaces: list[str], tile: str | None) -> Text | str:
    """The cheapest cost of ``structure`` on ``spaces`` and what the Automa has, in words."""
    me = turn.me
    costs = []
    for s in spaces:
        cost = construction_cost(turn.state, turn.company, structure, s)
        costs += payment.adjusted_cost(me, structure, {cost.machinery: cost.amount}, tile)
    least = min(costs, key=lambda c: (sum(c.values()), sorted(c.items())))
    have = {"excavator": me.excavators, "mixer": me.mixers}
    ways = or_else([text("{n} excavators, it has {have}", n=n, have=have[kind]) if kind == "excavator" else
                    text("{n} mixers, it has {have}", n=n, have=have[kind]) for kind, n in sorted(least.items())])
    if me.excamixers:
        return text("{ways} (and {n} excamixers)", ways=ways, n=me.excamixers)
    return ways


def _restriction_words(action: dict) -> Text | str:
    if action.get("area_restriction"):
        return text(" in the {area}", area=AREA[action["area_restriction"]])
    if action.get("min_conduit_value"):
        return text(" of value {value} or more", value=action["min_conduit_value"])
    return ""
