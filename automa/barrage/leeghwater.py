"""The Leeghwater Project expansion: Private Buildings and External Works for an Automa.

Rulebook (004, "Leeghwater Project (Expansion) specific Construction Action"): "If all
the construction conditions are met for placing a building on the Private building
section, Automa will build on the first available spot (skip action spots that are too
expensive and where Automa has already build). The building site will be chosen either
starting from the top (downward arrow), moving down or from the bottom (upward arrow),
moving up. Automa will never use the Private Building special action. However, when a
Private Building has been activated by an Automa, the corresponding action space on the
left (the cheaper one) will no longer be available for any other player".

("... Patent Office Action"): "Check if the Automa has enough Machineries to complete at
least one available External Work. If it can fulfill more than one External Work,
Automa will choose which one to fulfill according to the preference order listed on
the Action tile: the number refers to the tiles position on the Management board (1 at
top, 2 in the middle, 3 at the bottom). Automa places the indicated number of Engineers
on the corresponding action space and discards the required number of Machineries.
Particular effect: If the Automa must fulfill a Contract as effect of an External Work,
it must fulfill the higher Private Contract available in the Contract Office (in case
of a tie, the one on the right; if the effect is a 4-value Contract, the higher between
those valued 4 or less)."
"""
from __future__ import annotations

from automa.common.trace import text

from . import payment, techtiles
from .construct_steps import invest, place_construction_engineers
from .data import components
from .outcome import Outcome, failed
from .rewards import receive
from .state import building_slots
from .turn import Turn
from .words import semicolons
from .words import tile as tile_words

BUILD_SLOT_SURCHARGE = 3      # build slots 3-4 of a Private Building cost 3 credits (Automa: VP)
FREE_BUILD_SLOTS = 2


def buildings_left(turn: Turn) -> int:
    built = sum(turn.company in b.built_by for b in turn.state.private_buildings)
    return components().raw["starting"]["buildings"] - built


def build_private(turn: Turn, action: dict) -> Outcome:
    """Build on the first Private Building, from the top or from the bottom, that the Automa has not
    built and can pay the machinery of (and that has a free build slot)."""
    state, me = turn.state, turn.me
    if not state.leeghwater:
        return failed(text("the Leeghwater Project is not in play"))
    if buildings_left(turn) <= 0:
        return failed(text("Structure Available: no building left on the company board"))
    use = techtiles.tile_for(me, "building")
    if use is None:
        return failed(text("Technology Tile Available: no tile builds a Building"))
    tile = techtiles.acting(turn, use)
    info = components().private_buildings()
    order = list(state.private_buildings)
    if action.get("search_direction") == "up":
        order.reverse()
    skipped = []
    for b in order:
        if turn.company in b.built_by:
            skipped.append(text("{building} (already built)", building=b.building))
            continue
        if len(b.built_by) >= building_slots(state):
            skipped.append(text("{building} (no free build slot)", building=b.building))
            continue
        pay = payment.plan(me, payment.adjusted_cost(me, "building", info[b.building]["cost"], tile), tile)
        if pay is None:
            skipped.append(text("{building} (too expensive: {cost})", building=b.building, cost=str(info[b.building]["cost"])))
            continue
        break
    else:
        if skipped:
            return failed(text("Building Space Available: no Private Building it can build ({skipped})",
                               skipped=semicolons(skipped)))
        return failed(text("Building Space Available: no Private Building it can build"))
    if skipped:
        turn.trace.add("skipped: {skipped}", skipped=semicolons(skipped))
    slot = next_build_slot(state, len(b.built_by))
    surcharge = BUILD_SLOT_SURCHARGE if slot > FREE_BUILD_SLOTS else 0
    place_construction_engineers(turn, action["engineers"], techtiles.engineer_free(turn, use))
    invest(turn, use.tile, pay)
    turn.do({"op": "build_private", "building": b.building})
    turn.vp(-surcharge, f"build slot {slot} of {b.building}")
    turn.trace.add("builds on the Private Building {name} with the {tile} tile and {payment}{surcharge}; its "
                   "cheaper action space is now closed to every other player", name=info[b.building]["name"],
                   tile=tile_words(use.tile), payment=pay.words(),
                   surcharge=text(", {vp} VP for the build slot", vp=surcharge) if surcharge else "")
    techtiles.after_build(turn, use, "building", b.building)
    return Outcome(True, target=b.building)


def next_build_slot(state, taken: int) -> int:
    """The build slot (1-4) the next company takes on a Private Building ``taken`` companies built: the lowest
    open one. Below 4 players slot 2 is closed (rulings L1), so the second builder takes slot 3 and pays."""
    open_slots = [1, 2, 3, 4] if building_slots(state) == 4 else [1, 3, 4]
    return open_slots[taken]


def closed_spaces(state) -> list[str]:
    """Private Buildings whose left (cheaper) action space an Automa's building has closed."""
    return [b.building for b in state.private_buildings if any(state.companies[c].automa for c in b.built_by)]


def _work_payment(turn: Turn, work: int) -> payment.Payment | None:
    cost = components().external_works()[work]["cost"]
    return payment.plan(turn.me, [cost], construction=False)


def payable_works(turn: Turn, order: list[int]) -> list[tuple[int, int, payment.Payment]]:
    """(position index, work, payment) of the External Works it can pay, in ``order`` (positions 1-3)."""
    slots = turn.state.external_works.slots
    out = []
    for pos in order:
        work = slots[pos - 1]
        if work is None:
            continue
        pay = _work_payment(turn, work)
        if pay is not None:
            out.append((pos - 1, work, pay))
    return out


def external_work(turn: Turn, action: dict) -> Outcome:
    """External Works action (printed as a Patent Office action with a preference order)."""
    if not turn.state.leeghwater:
        return failed(text("the Leeghwater Project is not in play"))
    options = payable_works(turn, action["preference"])
    if not options:
        return failed(text("not enough machinery for any available External Work"))
    slot, work, pay = options[0]
    turn.trace.add("preference {preference}: External Work {work} at position {position}",
                   preference="-".join(map(str, action["preference"])), work=work, position=slot + 1)
    turn.place_engineers("external", action["engineers"], space=turn.state.section_spaces("external")[slot])
    turn.do({"op": "machinery", "excavators": -pay.excavators, "mixers": -pay.mixers,
             **({"excamixers": -pay.excamixers} if pay.excamixers else {})})
    _complete(turn, slot, work, pay)
    return Outcome(True, target=f"work {work}")


def _complete(turn: Turn, slot: int, work: int, pay: payment.Payment) -> None:
    turn.do({"op": "external_work", "slot": slot, "work": work})
    turn.trace.add("fulfils External Work {work} with {payment}", work=work, payment=pay.words())
    receive(turn, components().external_works()[work]["reward"], text("External Work {work}", work=work))


def spencer_external_work(turn: Turn) -> Outcome:
    """Leslie Spencer: "If this Special Technology tile is available when Automa checks requirements for a
    construction action, check if Automa can perform an External Works action. If it can, Automa will use 1
    Engineer to perform the External Works 'construction'". The work is chosen as an External Works action
    chooses, "according to the preference order listed on the Action tile" (the tile read this turn), from
    the top where that tile lists none (ruling O6). The machinery goes on the wheel with the tile, which
    turns one segment; the engineer goes on the External Works space."""
    if "leslie" not in turn.me.tiles:
        return failed(text("Spencer's Special tile is not in the supply"))
    if not turn.state.leeghwater:
        return failed(text("the Leeghwater Project is not in play"))
    printed = next((a["preference"] for a in turn.actions.get("actions", []) if a["type"] == "external_work"), None)
    order = printed or [1, 2, 3]
    options = payable_works(turn, order)
    if not options:
        return failed(text("no External Work it can pay for"))
    slot, work, pay = options[0]
    said = text("the Action tile's preference {preference}", preference="-".join(map(str, order))) if printed \
        else text("from the top (the tile lists none)")
    turn.trace.add("Spencer: External Works 'construction' with the Special tile, {said}: work {work} at position "
                   "{position}", said=said, work=work, position=slot + 1)
    turn.place_engineers("external", 1, space=turn.state.section_spaces("external")[slot])
    invest(turn, "leslie", pay)
    _complete(turn, slot, work, pay)
    return Outcome(True, target=f"work {work}")
