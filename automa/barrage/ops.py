"""The primitive state changes every decision is made of.

A decision carries a list of ops (plain dicts, JSON-ready). Applying them in
order to the state the decision was made on gives the state after the turn;
the same list, read aloud by :func:`describe`, tells the players what to move
on the table. Keeping every mutation here means the engine, the web page's
undo and the vision's "was the instruction carried out" check all agree on
what a turn changes.

Drop locations are written ``supply``, ``headstream:A``, ``dam:4L`` or ``exit``.
"""
from __future__ import annotations

from automa.common.deck import seeded_order
from automa.common.errors import StateError


from .data import components
from .state import Dam, GameState, Placement, Segment, capacity, validate

Op = dict


def apply_op(state: GameState, op: Op) -> None:
    """Apply one op to ``state`` in place; raise StateError if it cannot apply."""
    kind = op["op"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise StateError(f"unknown op {kind!r}")
    handler(state, op)


def apply_ops(state: GameState, ops: list[Op]) -> GameState:
    """Return a new state: ``state`` with ``ops`` applied, validated. ``state`` is untouched."""
    new = state.copy()
    for op in ops:
        apply_op(new, op)
    validate(new)
    return new


# -- handlers -----------------------------------------------------------------------
def _deck(state: GameState, op: Op) -> None:
    state.deck.draw_pile = list(op["draw_pile"])
    state.deck.discard = list(op["discard"])
    state.deck.shuffles = op["shuffles"]


def _build(state: GameState, op: Op) -> None:
    owner, structure, space = op["company"], op["structure"], op["space"]
    if structure == "dam_base":
        if space in state.dams:
            raise StateError(f"cannot build a base on {space}: occupied")
        state.dams[space] = Dam(owner, 1, 0)
    elif structure == "elevation":
        dam = state.dams.get(space)
        if dam is None or dam.owner != owner:
            raise StateError(f"cannot raise {space}: not a dam of {owner}")
        dam.pieces += 1
    elif structure == "conduit":
        if space in state.conduits:
            raise StateError(f"cannot build a conduit on {space}: occupied")
        state.conduits[space] = owner
    elif structure == "powerhouse":
        if space in state.powerhouses:
            raise StateError(f"cannot build a powerhouse on {space}: occupied")
        state.powerhouses[space] = owner
    else:
        raise StateError(f"unknown structure {structure!r}")
    if owner in state.companies:
        left = state.companies[owner].structures
        if left[structure] <= 0:
            raise StateError(f"{owner} has no {structure} left")
        left[structure] -= 1


def _vp(state: GameState, op: Op) -> None:
    state.companies[op["company"]].vp += op["delta"]


def _credits(state: GameState, op: Op) -> None:
    state.companies[op["company"]].credits += op["delta"]


def _energy(state: GameState, op: Op) -> None:
    state.energy[op["company"]] = state.energy.get(op["company"], 0) + op["delta"]


def _engineers(state: GameState, op: Op) -> None:
    c = state.companies[op["company"]]
    if op["count"] > c.engineers:
        raise StateError(f"{c.company} has only {c.engineers} engineers")
    c.engineers -= op["count"]
    if op.get("architect"):
        # Battista's Architect is placed as (one of) the engineers: it leaves the supply too.
        if not c.architect:
            raise StateError(f"{c.company} has no Architect in its supply")
        c.architect = False
    spaces = state.action_spaces.setdefault(op["section"], {})
    spaces.setdefault(op["space"], []).append(Placement(op["company"], op["count"] + int(bool(op.get("architect")))))


def _machinery(state: GameState, op: Op) -> None:
    c = state.companies[op["company"]]
    c.excavators += op.get("excavators", 0)
    c.mixers += op.get("mixers", 0)
    c.excamixers += op.get("excamixers", 0)
    if c.excavators < 0 or c.mixers < 0 or c.excamixers < 0:
        raise StateError(f"{c.company} does not have that machinery")


def _invest(state: GameState, op: Op) -> None:
    c = state.companies[op["company"]]
    tile = op["tile"]
    if tile not in c.tiles:
        raise StateError(f"{c.company} does not hold technology tile {tile}")
    c.tiles.remove(tile)
    seg = c.wheel[0]
    seg.tiles.append(tile)
    for kind in ("excavators", "mixers", "excamixers"):
        n = op.get(kind, 0)
        setattr(c, kind, getattr(c, kind) - n)
        if getattr(c, kind) < 0:
            raise StateError(f"{c.company} does not have that machinery")
        setattr(seg, kind, getattr(seg, kind) + n)


def rotate_wheel(wheel: list[Segment]) -> tuple[list[Segment], Segment]:
    """Turn the wheel one segment; return the new wheel and what comes back to the supply."""
    wheel = wheel[1:] + wheel[:1]
    back = wheel[0]
    wheel[0] = Segment()
    return wheel, back


def _rotate(state: GameState, op: Op) -> None:
    c = state.companies[op["company"]]
    for _ in range(op["steps"]):
        c.wheel, back = rotate_wheel(c.wheel)
        c.tiles.extend(back.tiles)
        c.excavators += back.excavators
        c.mixers += back.mixers
        c.excamixers += back.excamixers


def _take_drops(state: GameState, where: str, n: int) -> None:
    kind, _, name = where.partition(":")
    if kind == "supply":
        return
    if kind == "headstream":
        if state.headstreams[name] < n:
            raise StateError(f"headstream {name} has only {state.headstreams[name]} drops")
        state.headstreams[name] -= n
    elif kind == "dam":
        dam = state.dams.get(name)
        if dam is None or dam.drops < n:
            raise StateError(f"dam {name} does not hold {n} drops")
        dam.drops -= n
    else:
        raise StateError(f"drops cannot come from {where!r}")


def _put_drops(state: GameState, where: str, n: int) -> None:
    kind, _, name = where.partition(":")
    if kind == "exit":
        return
    if kind == "headstream":
        state.headstreams[name] += n
    elif kind == "dam":
        dam = state.dams.get(name)
        if dam is None or dam.drops + n > capacity(dam, state.companies):
            raise StateError(f"dam {name} cannot hold {n} more drops")
        dam.drops += n
    else:
        raise StateError(f"drops cannot go to {where!r}")


def _drops(state: GameState, op: Op) -> None:
    _take_drops(state, op["source"], op["count"])
    _put_drops(state, op["target"], op["count"])


def _fulfil(state: GameState, op: Op) -> None:
    office = state.contract_office
    cid = op["contract"]
    for colour, slots in office.private.items():
        if cid in slots:
            slots[slots.index(cid)] = None
            break
    else:
        if cid not in office.national:
            raise StateError(f"contract {cid} is not face up in the Contract Office")
        office.national.remove(cid)
    state.companies[op["company"]].contracts.append(cid)


def _discard_contracts(state: GameState, op: Op) -> None:
    office = state.contract_office
    colour = op["colour"]
    office.discards[colour].extend(c for c in office.private[colour] if c is not None)
    office.private[colour] = [None, None]


def _refill_contracts(state: GameState, op: Op) -> None:
    office = state.contract_office
    colour = op["colour"]
    for slot, cid in op["placed"]:
        if office.private[colour][slot] is not None:
            raise StateError(f"{colour} contract slot {slot} is not empty")
        if cid in office.piles[colour]:
            office.piles[colour].remove(cid)
        elif cid in office.discards[colour]:
            office.discards[colour].remove(cid)
        else:
            raise StateError(f"contract {cid} is neither in the {colour} pile nor its discards")
        office.private[colour][slot] = cid


def _take_tile(state: GameState, op: Op) -> None:
    slot = op["slot"]
    tile = state.patent_office.slots[slot]
    if tile is None or tile != op["tile"]:
        raise StateError(f"patent office slot {slot + 1} does not hold {op['tile']}")
    state.patent_office.slots[slot] = None
    state.companies[op["company"]].tiles.append(tile)


def _new_round(state: GameState, op: Op) -> None:
    """Round reset: engineers return home, energy back to 0, action spaces empty, new turn order,
    the Patent Office discarded and refilled."""
    start = components().raw["starting"]["engineers"]
    state.round = op["round"]
    state.turn_order = list(op["turn_order"])
    for c in state.companies.values():
        c.engineers = start
        if c.has_officer("battista"):
            c.engineers, c.architect = start - 1, True     # the Architect replaces one engineer
    state.human_first_actions = []
    if "external_slots" in op:
        state.external_works.slots = list(op["external_slots"])
        state.external_works.piles = {k: list(v) for k, v in op["external_piles"].items()}
    state.energy = {c: 0 for c in state.companies}
    state.action_spaces = {}
    state.patent_office.slots = list(op["patent_slots"])
    state.patent_office.piles = {k: list(v) for k, v in op["patent_piles"].items()}


def _external_work(state: GameState, op: Op) -> None:
    """A company fulfils the External Work at position ``slot`` (0 = top): the tile goes to it."""
    slots = state.external_works.slots
    if slots[op["slot"]] != op["work"]:
        raise StateError(f"External Works position {op['slot'] + 1} does not hold work {op['work']}")
    slots[op["slot"]] = None
    state.companies[op["company"]].external_works.append(op["work"])


def _build_private(state: GameState, op: Op) -> None:
    """A company builds on a Private Building: a building piece leaves its board."""
    for b in state.private_buildings:
        if b.building == op["building"]:
            if op["company"] in b.built_by:
                raise StateError(f"{op['company']} already built {op['building']}")
            b.built_by.append(op["company"])
            return
    raise StateError(f"Private Building {op['building']!r} is not in play")


def _human_first_action(state: GameState, op: Op) -> None:
    if op["company"] in state.human_first_actions:
        raise StateError(f"{op['company']}'s first action of the round was already drawn")
    state.human_first_actions.append(op["company"])


_HANDLERS = {
    "deck": _deck, "build": _build, "vp": _vp, "credits": _credits, "energy": _energy,
    "engineers": _engineers, "machinery": _machinery, "invest": _invest, "rotate": _rotate,
    "drops": _drops, "fulfil": _fulfil, "discard_contracts": _discard_contracts,
    "refill_contracts": _refill_contracts, "take_tile": _take_tile, "new_round": _new_round,
    "external_work": _external_work, "build_private": _build_private, "human_first_action": _human_first_action,
}


# -- planning helpers that produce ops ----------------------------------------------
def refill_op(state: GameState, colour: str) -> Op | None:
    """The op that tops ``colour`` back up to 2 face-up contracts, drawing from its pile.

    An empty pile is rebuilt from the colour's discards, in an order seeded by
    the game's deck seed so replays agree.
    """
    office = state.contract_office
    empty = [i for i, c in enumerate(office.private[colour]) if c is None]
    if not empty:
        return None
    pile = list(office.piles[colour])
    placed = []
    discards = list(office.discards[colour])
    for slot in empty:
        if not pile and discards:
            pile = seeded_order(discards, state.deck.seed, len(discards))
            discards = []
        if not pile:
            break
        placed.append((slot, pile.pop(0)))
    if not placed:
        return None
    return {"op": "refill_contracts", "colour": colour, "placed": placed}


# -- words --------------------------------------------------------------------------
NAMES = {"dam_base": "Dam Base", "elevation": "Elevation", "conduit": "Conduit", "powerhouse": "Powerhouse"}


def plural(n: int, word: str) -> str:
    """"1 engineer", "2 engineers"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def a_name(structure: str) -> str:
    """"a Conduit", "an Elevation"."""
    name = NAMES.get(structure, structure)
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"
SECTION_NAMES = {"turbine": "Turbine Station", "water": "Water Management", "contracts": "Contract Office",
                 "workshop": "Workshop", "machinery": "Machinery Shop", "patent": "Patent Office",
                 "bank": "Bank", "company": "Company board"}


def _where(loc: str) -> str:
    kind, _, name = loc.partition(":")
    return {"supply": "the supply", "exit": "off the map", "headstream": f"headstream {name}",
            "dam": f"the dam on {name}"}[kind]


def describe(op: Op) -> str:
    """One line telling a player what to do on the table for this op."""
    k = op["op"]
    who = op.get("company", "")
    if k == "deck":
        return "Flip the top Automa tile onto the discard pile" + (" (pile reshuffled)" if op.get("reshuffled") else "")
    if k == "build":
        return f"{who}: place {a_name(op['structure'])} on {op['space']}"
    if k == "vp":
        return f"{who}: {'+' if op['delta'] >= 0 else ''}{op['delta']} VP"
    if k == "credits":
        return f"{who}: {'+' if op['delta'] >= 0 else ''}{op['delta']} credits"
    if k == "energy":
        return f"{who}: energy marker {'+' if op['delta'] >= 0 else ''}{op['delta']}"
    if k == "engineers":
        where = SECTION_NAMES.get(op["section"], op["section"])
        space = "" if op["space"] in ("board", "overflow", "b") else f" (space {op['space']})"
        if op["space"] == "overflow":
            space = " (next to the section: no free space)"
        workers = plural(op["count"], "engineer") + (" and the Architect" if op.get("architect") else "")
        if op.get("architect") and not op["count"]:
            workers = "the Architect"
        return f"{who}: {workers} on the {where}{space}"
    if k == "machinery":
        parts = [f"{op.get(n, 0):+d} {n}" for n in ("excavators", "mixers", "excamixers") if op.get(n, 0)]
        return f"{who}: " + ", ".join(parts)
    if k == "invest":
        tile = NAMES.get(op["tile"], op["tile"])
        machines = [f"{op[m]} {m}" for m in ("excavators", "mixers", "excamixers") if op.get(m)]
        return f"{who}: put the {tile} tile" + "".join(f" and {m}" for m in machines) + " on the construction wheel"
    if k == "rotate":
        return f"{who}: turn the construction wheel {plural(op['steps'], 'segment')}"
    if k == "drops":
        return f"Move {plural(op['count'], 'water drop')} from {_where(op['source'])} to {_where(op['target'])}"
    if k == "fulfil":
        return f"{who}: fulfil contract {op['contract']}"
    if k == "discard_contracts":
        return f"Discard the face-up {op['colour']} contracts"
    if k == "refill_contracts":
        return f"Draw {plural(len(op['placed']), 'new ' + op['colour'] + ' contract')} into the Contract Office"
    if k == "new_round":
        return f"Round {op['round']}: engineers home, energy markers to 0, new Patent Office tiles; turn order " + ", ".join(op["turn_order"])
    if k == "take_tile":
        return f"{who}: take {op['tile']} from Patent Office slot {op['slot'] + 1}"
    if k == "external_work":
        return f"{who}: take External Work {op['work']} (position {op['slot'] + 1})"
    if k == "build_private":
        return f"{who}: place a building on the Private Building {op['building']}"
    if k == "human_first_action":
        return f"{who}: play your first action of the round as the Automa tile says"
    return k


__all__ = ["Op", "apply_op", "apply_ops", "describe", "refill_op", "rotate_wheel"]
