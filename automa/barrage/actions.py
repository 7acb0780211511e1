"""Every Automa action of the Actions side: its conditions and its effects.

Each function takes the running :class:`Turn` and the printed action (a dict
from ``data/tiles.json``) and returns an :class:`Outcome`. When a condition
fails, nothing is changed and ``reason`` says which condition failed. When
the action is performed, its effects are recorded as ops on the turn.

Quotations are from the English Automa rulebook (seed 004) unless marked 000.
"""
from __future__ import annotations

from automa.common.trace import text

from .construction import construction
from .data import components
from .leeghwater import external_work
from .ops import refill_op
from .outcome import Outcome, failed
from .production import production
from .rewards import gain_machinery, place_drops
from .turn import Turn
from .words import CONTRACT_KIND, MACHINE, STRUCTURE
from .words import tile as tile_words

LAST_ROUND = 5


# -- Water Management ---------------------------------------------------------------
def water_management(turn: Turn, action: dict) -> Outcome:
    """Water Management Action (dashed frame: does not end the turn).

    Performed only if a placed drop can reach one of the Automa's own dams,
    now (1 drop, downward arrow) or in the coming Water Flow phase (2 drops).
    "If at least one Water Drop was placed with this action, the Automa must
    place one Engineer on the first available action space on the Water
    Management section."
    """
    plan = place_drops(turn, action["drops"], action.get("flows_immediately", False))
    if plan is None:
        return failed(text("no drop can reach one of its own dams with free capacity"))
    turn.place_engineers("water", 1)
    return Outcome(True, target=",".join(sorted(set(plan.headstreams))))


# -- Contract Office ----------------------------------------------------------------
def contract_office(turn: Turn, action: dict) -> Outcome:
    """Contract Office Action (dashed frame): engineers in the Contract Office,
    discard the face-up contracts of the tile's colour, +2 energy, refill."""
    colour = action["contract_colour"]
    turn.place_engineers("contracts", action["engineers"])
    gone = [c for c in turn.state.contract_office.private[colour] if c is not None]
    turn.do({"op": "discard_contracts", "colour": colour})
    turn.do({"op": "energy", "delta": action.get("energy_gained", 2)})
    op = refill_op(turn.state, colour)
    if op:
        turn.do(op)
    if gone:
        turn.trace.add("discarded {colour} contracts [{contracts}]; energy +{energy}", colour=CONTRACT_KIND[colour],
                       contracts=gone, energy=action.get("energy_gained", 2))
    else:
        turn.trace.add("discarded {colour} contracts none; energy +{energy}", colour=CONTRACT_KIND[colour],
                       energy=action.get("energy_gained", 2))
    return Outcome(True, target=colour)


# -- Workshop, Machinery Shop, Patent Office, Bank ----------------------------------
def workshop(turn: Turn, action: dict) -> Outcome:
    """Workshop Action: only with machinery or tiles on the wheel; turn it the
    printed number of segments, taking back what reaches the entry segment."""
    if turn.me.wheel_empty():
        return failed(text("the construction wheel is empty"))
    count, space = turn.place_engineers("workshop", action["engineers"])
    turn.vp(action.get("vp_change", 0), "workshop")
    turn.do({"op": "rotate", "steps": action["steps"]})
    turn.trace.add("turns the construction wheel {steps} segment(s); {count} engineer(s) on workshop space {space}",
                   steps=action["steps"], count=count, space=space)
    return Outcome(True, target=f"{action['steps']} segment(s)")


def machinery_shop(turn: Turn, action: dict) -> Outcome:
    """Machinery Shop Action: not in round 5; pay the VP, take the machinery
    (a wild machine is the type it has fewer of, an excavator on a tie)."""
    if turn.state.round >= LAST_ROUND:
        return failed(text("not performed in the 5th (last) round"))
    count, space = turn.place_engineers("machinery", action["engineers"])
    turn.vp(action.get("vp_change", 0), "machinery shop")
    got = gain_machinery(turn, action["machinery"])
    turn.trace.add("takes {machines}; {count} engineer(s) on machinery shop space {space}",
                   machines=[MACHINE[m] for m in got], count=count, space=space)
    return Outcome(True, target="+".join(got))


def patent_office(turn: Turn, action: dict) -> Outcome:
    """Patent Office Action: take the indicated advanced tile, or else a wild
    (Joker) one; of two tiles for the same structure the higher level."""
    structure = action["structure"]
    adv = components().advanced_tiles()
    slots = turn.state.patent_office.slots

    def best_of(kind: str) -> int | None:
        """Slot of the highest-level tile for ``kind`` (the leftmost on a tie)."""
        found = [(adv[t]["level"], -i) for i, t in enumerate(slots) if t and adv[t]["structure"] == kind]
        return -max(found)[1] if found else None

    slot = best_of(structure)
    if slot is None:
        slot = best_of("any")
    if slot is None:
        return failed(text("neither a {structure} tile nor a wild tile is in the Patent Office",
                           structure=STRUCTURE[structure]))
    tile = slots[slot]
    turn.place_engineers("patent", action["engineers"], space=turn.state.section_spaces("patent")[slot])
    turn.vp(action.get("vp_change", 0), "patent office")
    turn.do({"op": "take_tile", "slot": slot, "tile": tile})
    turn.trace.add("takes {tile} from slot {slot}", tile=tile_words(tile), slot=slot + 1)
    return Outcome(True, target=tile)


def bank(turn: Turn, action: dict) -> Outcome:
    """Bank: 1 engineer, 1 VP. Always possible: the last action of every tile."""
    turn.place_engineers("bank", action["engineers"])
    turn.vp(action.get("vp_change", 1), "bank")
    turn.trace.add("scores {vp} VP at the Bank", vp=action.get("vp_change", 1))
    return Outcome(True, target="bank")


ACTIONS = {
    "production": production, "water_management": water_management, "contract_office": contract_office,
    "construction": construction, "workshop": workshop, "machinery_shop": machinery_shop,
    "patent_office": patent_office, "bank": bank, "external_work": external_work,
}
DASHED = ("water_management", "contract_office")    # the only actions that do not end the turn
