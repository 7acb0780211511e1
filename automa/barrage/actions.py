"""Every Automa action of the Actions side: its conditions and its effects.

Each function takes the running :class:`Turn` and the printed action (a dict
from ``data/tiles.json``) and returns an :class:`Outcome`. When a condition
fails, nothing is changed and ``reason`` says which condition failed. When
the action is performed, its effects are recorded as ops on the turn.

Quotations are from the English Automa rulebook (seed 004) unless marked 000.
"""
from __future__ import annotations

from dataclasses import dataclass

from .data import CONTRACT_COLOURS, barrage_map, components
from .ops import NAMES, a_name, refill_op
from .placement import choose_space
from .rewards import gain_machinery, place_drops, place_structure, receive
from .rules import construction_cost, legal_spaces, production_bonus, production_systems, System
from .state import GameState
from .turn import Turn
from .water import EXIT, group_path, route

LAST_ROUND = 5


@dataclass
class Outcome:
    done: bool
    reason: str = ""
    target: str | None = None


def failed(reason: str) -> Outcome:
    return Outcome(False, reason)


# -- Production ---------------------------------------------------------------------
def system_energy(state: GameState, company: str, system: System, modifier: int) -> int:
    """Energy of a system using every drop in its dam: drops x conduit value + tile modifier + company bonus."""
    return system.drops * system.value + modifier + production_bonus(state, company)


def is_first_on_energy_track(state: GameState, company: str) -> bool:
    """First means strictly ahead of every other company (a tie is not first: see rulings)."""
    mine = state.energy.get(company, 0)
    return all(mine > e for c, e in state.energy.items() if c != company)


def conduit_code_order(start: str) -> list[str]:
    """Conduit spaces in Reference Map order (1A,1B,...,10B) starting at ``start``, wrapping round."""
    codes = sorted(barrage_map().conduits.values(), key=lambda c: c.code)
    ids = [c.id for c in codes]
    i = ids.index(start)
    return ids[i:] + ids[:i]


def contracts_available(state: GameState) -> list[tuple[int, int, str]]:
    """(energy required, board order, contract id) for every face-up contract the Automa may fulfil.

    Board order grows left to right within the private colours and within the
    national row, so the larger order is "the contract on the right".
    """
    contracts = components().contracts
    office = state.contract_office
    out = [(contracts[cid]["energy"], i, cid) for i, (_, _, cid) in enumerate(office.face_up_private())]
    out += [(contracts[cid]["energy"], 100 + i, cid) for i, cid in enumerate(office.national)]
    return out


def production(turn: Turn, action: dict) -> Outcome:
    """Production Action. All three conditions must hold, in order:

    - Production System Ready: an own or neutral dam with at least 1 drop, a
      conduit, an own powerhouse;
    - Energy Track: the Automa's marker is not yet in the current round's
      full-reward section (energy < 6 x round) OR it is not the first on the track;
    - Contract Requirement: the best system (tile modifier and company bonus
      included) reaches the requirement of an available contract of the
      tile's colour.

    Then it produces with the best system (ties: a neutral dam, then the
    conduit code of the Criteria tile), and fulfils "the highest value
    Contract available in the Contract Office ... (in case of tie, the
    contract on the right space)", national contracts included.
    """
    state, company = turn.state, turn.company
    systems = production_systems(state, company)
    if not systems:
        return failed("Production System Ready: no own or neutral dam with water linked by a conduit to an own powerhouse")
    energy, round_ = state.energy.get(company, 0), state.round
    full = components().raw["round_end"]["full_bonus_energy_per_round"] * round_
    if energy >= full and is_first_on_energy_track(state, company):
        return failed(f"Energy Track: already at {energy} (full bonus needs {full} in round {round_}) and first on the track")
    modifier = action.get("modifier", 0)
    scored = [(system_energy(state, company, s, modifier), s) for s in systems]
    best_energy = max(e for e, _ in scored)
    colour = action["contract_colour"]
    needs = sorted(components().contracts[cid]["energy"] for cid in state.contract_office.private[colour] if cid is not None)
    if not needs or best_energy < needs[0]:
        have = f"needs {needs[0]}" if needs else "none face up"
        return failed(f"Contract Requirement: best production is {best_energy} energy; {colour} contracts: {have}")
    best = [s for e, s in scored if e == best_energy]
    system = _break_system_tie(turn, best)
    turn.trace.add("systems: " + "; ".join(f"{s.dam}+{s.conduit}+{s.powerhouse} = {e}" for e, s in scored))
    _produce(turn, action, system, best_energy)
    _fulfil_best_contract(turn, best_energy)
    return Outcome(True, target=system.conduit)


def _break_system_tie(turn: Turn, best: list[System]) -> System:
    if len(best) == 1:
        return best[0]
    neutral = [s for s in best if s.neutral]
    if neutral and len(neutral) < len(best):
        turn.trace.add("tie between systems: the one with a neutral dam is preferred")
        best = neutral
    if len(best) == 1:
        return best[0]
    order = conduit_code_order(turn.criteria["conduit"]["start"])
    best.sort(key=lambda s: order.index(s.conduit))
    turn.trace.add(f"tie between systems: conduit code from {order[0]} picks {best[0].conduit}")
    return best[0]


def _produce(turn: Turn, action: dict, system: System, energy: int) -> None:
    state, bmap = turn.state, barrage_map()
    count, space = turn.place_engineers("turbine", action["engineers"])
    turn.vp(action.get("vp_change", 0), "production")
    drops = system.drops
    group = bmap.conduits[system.conduit].group
    # Used drops pass the powerhouse and flow on down the river from its group:
    # strictly downstream, so they can never come back to the dam they left.
    for stop, n in sorted(route(state, group_path(group), drops).items()):
        turn.do({"op": "drops", "source": f"dam:{system.dam}", "target": "exit" if stop == EXIT else f"dam:{stop}",
                 "count": n})
    owner = state.conduits[system.conduit]
    if owner != turn.company:
        # Another company's conduit: 1 credit per drop to its owner (paid as VP by an
        # Automa), and the owner also scores 1 VP per drop.
        turn.vp(-drops, f"use of {owner}'s conduit {system.conduit}")
        if state.companies[owner].automa:
            turn.do({"op": "vp", "company": owner, "delta": 2 * drops, "why": "conduit used: credits as VP + VP"})
        else:
            turn.do({"op": "credits", "company": owner, "delta": drops, "why": "conduit used"})
            turn.do({"op": "vp", "company": owner, "delta": drops, "why": "conduit used"})
    turn.do({"op": "energy", "delta": energy})
    turn.trace.add(f"produces {energy} energy with {drops} drop(s) from {system.dam} through {system.conduit} "
                   f"(value {system.value}) to {system.powerhouse}; {count} engineer(s) on turbine space {space}")


def _fulfil_best_contract(turn: Turn, energy: int) -> None:
    options = [c for c in contracts_available(turn.state) if c[0] <= energy]
    if not options:
        turn.trace.add("no available contract needs so little energy")
        return
    need, _, cid = max(options)
    contract = components().contracts[cid]
    turn.do({"op": "fulfil", "contract": cid})
    turn.trace.add(f"fulfils the highest contract it reaches: {contract['kind']} contract {cid} ({need} energy)")
    receive(turn, contract["reward"], f"reward of contract {cid}")
    if contract["kind"] in CONTRACT_COLOURS:
        op = refill_op(turn.state, contract["kind"])
        if op:
            turn.do(op)


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
        return failed("no drop can reach one of its own dams with free capacity")
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
    turn.trace.add(f"discarded {colour} contracts {gone or 'none'}; energy +{action.get('energy_gained', 2)}")
    return Outcome(True, target=colour)


# -- Construction -------------------------------------------------------------------
def tile_for(turn: Turn, structure: str) -> str | None:
    """The technology tile the Automa builds with: the highest level that can
    build ``structure`` (basic tiles are level 0), a specific tile before a
    Joker of the same level (004, Hard appendix; the same order at every
    difficulty: see rulings)."""
    adv = components().advanced_tiles()
    best = None
    for t in turn.me.tiles:
        if t == structure:
            key = (0, 1)
        elif t in adv and adv[t]["structure"] in (structure, "any"):
            key = (adv[t]["level"], int(adv[t]["structure"] == structure))
        else:
            continue
        if best is None or key > best[0]:
            best = (key, t)
    return best[1] if best else None


def _restricted(structure: str, action: dict, spaces: list[str]) -> list[str]:
    bmap = barrage_map()
    area = action.get("area_restriction")
    low = action.get("min_conduit_value")
    if area:
        spaces = [s for s in spaces if bmap.dams[s].area == area]
    if low:
        spaces = [s for s in spaces if bmap.conduits[s].value >= low]
    return spaces


def _min_machinery(turn: Turn, structure: str, action: dict) -> tuple[str, int]:
    """Fewest machines the depicted structure can cost anywhere on the map (restrictions applied)."""
    bmap = barrage_map()
    every = {"dam_base": list(bmap.dams), "elevation": list(bmap.dams), "conduit": list(bmap.conduits),
             "powerhouse": list(bmap.powerhouses)}[structure]
    costs = [construction_cost(turn.state, turn.company, structure, s) for s in _restricted(structure, action, every)]
    least = min(costs, key=lambda c: c.amount)
    return least.machinery, least.amount


def _has(turn: Turn, machinery: str, amount: int) -> bool:
    return (turn.me.excavators if machinery == "excavator" else turn.me.mixers) >= amount


def construction(turn: Turn, action: dict) -> Outcome:
    """Construction Action: four conditions checked in order, then build.

    Structure Available, Technology Tile Available, Machineries Available
    ("the minimum required number of Machineries for the construction of
    the depicted structure"), Building Space Available. A tile's restriction
    (a base in the Mountains, a conduit of value 3 or more) "overrides any of
    the following tie-breaks" (000). The engineers go on the company board
    (unlimited for an Automa); the tile and machinery go on the construction
    wheel, which turns one segment; an income revealed is collected at once.
    """
    structure = action["structure"]
    what = a_name(structure)
    me = turn.me
    if me.structures[structure] <= 0:
        return failed(f"Structure Available: no {NAMES[structure]} left on the company board")
    tile = tile_for(turn, structure)
    if tile is None:
        return failed(f"Technology Tile Available: no tile builds {what}")
    machinery, least = _min_machinery(turn, structure, action)
    if not _has(turn, machinery, least):
        have = me.excavators if machinery == "excavator" else me.mixers
        return failed(f"Machineries Available: {what}{_restriction_text(action)} needs at least {least} {machinery}s, it has {have}")
    legal = _restricted(structure, action, legal_spaces(turn.state, turn.company, structure))
    affordable = [s for s in legal if _has(turn, machinery, construction_cost(turn.state, turn.company, structure, s).amount)]
    if not affordable:
        why = "no free space" if not legal else f"no free space it can pay for ({len(legal)} free, all too costly)"
        return failed(f"Building Space Available: {why} for {what}{_restriction_text(action)}")
    if len(affordable) == 1:
        space = affordable[0]
        turn.trace.add(f"only one possible space: {space}")
    else:
        with turn.trace.section(f"{len(affordable)} possible spaces: Structure Placing Procedure"):
            space = choose_space(turn.state, turn.company, structure, affordable, turn.criteria, turn.trace)
    cost = construction_cost(turn.state, turn.company, structure, space)
    count, _ = turn.place_engineers("company", action["engineers"])
    turn.vp(action.get("vp_change", 0), "construction")
    turn.do({"op": "invest", "tile": tile, "excavators": cost.amount if cost.machinery == "excavator" else 0,
             "mixers": cost.amount if cost.machinery == "mixer" else 0})
    turn.do({"op": "rotate", "steps": 1})
    turn.trace.add(f"builds {what} on {space} with the {tile} tile and {cost.amount} {cost.machinery}s"
                   + (f", pays {cost.surcharge} VP for the red outline" if cost.surcharge else ""))
    place_structure(turn, structure, space, cost.surcharge)
    return Outcome(True, target=space)


def _restriction_text(action: dict) -> str:
    if action.get("area_restriction"):
        return f" in the {action['area_restriction'].capitalize()}"
    if action.get("min_conduit_value"):
        return f" of value {action['min_conduit_value']} or more"
    return ""


# -- Workshop, Machinery Shop, Patent Office, Bank ----------------------------------
def workshop(turn: Turn, action: dict) -> Outcome:
    """Workshop Action: only with machinery or tiles on the wheel; turn it the
    printed number of segments, taking back what reaches the entry segment."""
    if turn.me.wheel_empty():
        return failed("the construction wheel is empty")
    count, space = turn.place_engineers("workshop", action["engineers"])
    turn.vp(action.get("vp_change", 0), "workshop")
    turn.do({"op": "rotate", "steps": action["steps"]})
    turn.trace.add(f"turns the construction wheel {action['steps']} segment(s); {count} engineer(s) on workshop space {space}")
    return Outcome(True, target=f"{action['steps']} segment(s)")


def machinery_shop(turn: Turn, action: dict) -> Outcome:
    """Machinery Shop Action: not in round 5; pay the VP, take the machinery
    (a wild machine is the type it has fewer of, an excavator on a tie)."""
    if turn.state.round >= LAST_ROUND:
        return failed("not performed in the 5th (last) round")
    count, space = turn.place_engineers("machinery", action["engineers"])
    turn.vp(action.get("vp_change", 0), "machinery shop")
    got = gain_machinery(turn, action["machinery"])
    turn.trace.add(f"takes {', '.join(got)}; {count} engineer(s) on machinery shop space {space}")
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
        return failed(f"neither a {NAMES.get(structure, structure)} tile nor a wild tile is in the Patent Office")
    tile = slots[slot]
    turn.place_engineers("patent", action["engineers"], space=turn.state.section_spaces("patent")[slot])
    turn.vp(action.get("vp_change", 0), "patent office")
    turn.do({"op": "take_tile", "slot": slot, "tile": tile})
    turn.trace.add(f"takes {tile} from slot {slot + 1}")
    return Outcome(True, target=tile)


def bank(turn: Turn, action: dict) -> Outcome:
    """Bank: 1 engineer, 1 VP. Always possible: the last action of every tile."""
    turn.place_engineers("bank", action["engineers"])
    turn.vp(action.get("vp_change", 1), "bank")
    turn.trace.add(f"scores {action.get('vp_change', 1)} VP at the Bank")
    return Outcome(True, target="bank")


ACTIONS = {
    "production": production, "water_management": water_management, "contract_office": contract_office,
    "construction": construction, "workshop": workshop, "machinery_shop": machinery_shop,
    "patent_office": patent_office, "bank": bank,
}
DASHED = ("water_management", "contract_office")    # the only actions that do not end the turn
