"""Production: the Production action, the productions of advanced-tile effects, and the
contracts an Automa fulfils with the energy produced.

Rulebook (004, Production Action): "If Automa can produce Energy, it will use the best
available production system (i.e. the one producing the highest amount of Energy) ...
Then, the Automa will immediately fulfil the highest value Contract available in the
Contract Office ... (in case of tie, the contract on the right space)".

Level rules that change a production (004 appendices):

- Easy: no company production bonus.
- Hard, third-powerhouse company abilities: France "Apply the discount both when
  checking the production action conditions AND when fulfilling the Contract" (3 energy
  less per contract); Germany "The second production, if available, is always the most
  productive one among those eligible" (another powerhouse, no tile modifier, no board
  bonus); Italy +3 energy steps after a production ("No particular effect"); Netherlands
  "The Water Drop is placed on the Dam connected to the most productive system (except
  the one just used). If there is not an eligible dam which is part of a complete
  productive system or there is more than one, use the first column of the Criteria tile".
- Very Hard officers: Viktor Fiesler (less than 4 energy counts as 4; "When Automa perform
  a production action using a Conduit of value 1 or 2, Automa will produce using only 1
  Water Drop"); Simone Luciani ("Automa will fulfil as many Contracts as possible ... In
  case of tie, the higher value Contracts (the one on the right) are chosen. If a National
  Contract is eligible to be fulfilled, it will always be chosen first").
"""
from __future__ import annotations

from itertools import combinations

from automa.common.trace import Text, text

from .data import CONTRACT_COLOURS, barrage_map, components
from .ops import refill_op
from .outcome import Outcome, failed
from .placement import choose_space
from .rewards import receive, usa_flow
from .rules import System, ability, production_bonus, production_systems
from .state import GameState, capacity
from .turn import Turn
from .water import EXIT, group_path, route
from .words import CONTRACT_KIND

FIESLER_MINIMUM = 4
FRANCE_DISCOUNT = 3
ITALY_STEPS = 3


def drops_used(state: GameState, company: str, system: System) -> int:
    """Every drop of the dam (more drops, more energy); Fiesler's Automa uses 1 drop through a conduit of value 1-2."""
    if state.companies[company].has_officer("fiesler") and system.value <= 2:
        return 1
    return system.drops


def system_energy(state: GameState, company: str, system: System, modifier: int, bonus: bool = True) -> int:
    """Energy of a production: drops used x conduit value (Fiesler: at least 4), + tile modifier + board bonus."""
    base = drops_used(state, company, system) * system.value
    if state.companies[company].has_officer("fiesler"):
        base = max(base, FIESLER_MINIMUM)
    return base + modifier + (production_bonus(state, company) if bonus else 0)


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


def contracts_available(state: GameState) -> list[tuple[int, int, int]]:
    """(energy required, board order, contract id) for every face-up contract the Automa may fulfil.

    Board order grows left to right within the private colours and within the
    national row, so the larger order is "the contract on the right".
    """
    contracts = components().contracts
    office = state.contract_office
    out = [(contracts[cid]["energy"], i, cid) for i, (_, _, cid) in enumerate(office.face_up_private())]
    out += [(contracts[cid]["energy"], 100 + i, cid) for i, cid in enumerate(office.national)]
    return out


def discount(state: GameState, company: str) -> int:
    return FRANCE_DISCOUNT if ability(state, company, "france") else 0


def production(turn: Turn, action: dict) -> Outcome:
    """Production Action. All three conditions must hold, in order:

    - Production System Ready: an own or neutral dam with at least 1 drop, a
      conduit, an own powerhouse;
    - Energy Track: the Automa's marker is not yet in the current round's
      full-reward section (energy < 6 x round) OR it is not the first on the track;
    - Contract Requirement: the best system (tile modifier and company bonus
      included) reaches the requirement of an available contract of the
      tile's colour (France from Hard: 3 less).

    Then it produces with the best system (ties: a neutral dam, then the
    conduit code of the Criteria tile), and fulfils contracts (see :func:`fulfil`).
    """
    state, company = turn.state, turn.company
    systems = production_systems(state, company)
    if not systems:
        return failed(text("Production System Ready: no own or neutral dam with water linked by a conduit to an own "
                           "powerhouse"))
    energy, round_ = state.energy.get(company, 0), state.round
    full = components().raw["round_end"]["full_bonus_energy_per_round"] * round_
    if energy >= full and is_first_on_energy_track(state, company):
        return failed(text("Energy Track: already at {energy} (full bonus needs {full} in round {round}) and first on "
                           "the track", energy=energy, full=full, round=round_))
    modifier = action.get("modifier", 0)
    scored = [(system_energy(state, company, s, modifier), s) for s in systems]
    best_energy = max(e for e, _ in scored)
    colour = action["contract_colour"]
    off = discount(state, company)
    needs = sorted(components().contracts[cid]["energy"] - off
                   for cid in state.contract_office.private[colour] if cid is not None)
    if not needs or best_energy < needs[0]:
        have = text("needs {need}", need=needs[0]) if needs else text("none face up")
        return failed(text("Contract Requirement: best production is {energy} energy; {colour} contracts: {have}{france}",
                           energy=best_energy, colour=CONTRACT_KIND[colour], have=have,
                           france=text(" (France: 3 less)") if off else ""))
    turn.trace.add("systems: {systems}", systems="; ".join(f"{s.dam}+{s.conduit}+{s.powerhouse} = {e}" for e, s in scored))
    if off:
        turn.trace.add("France's ability: contracts need 3 energy less (checking and fulfilling)")
    count, space = turn.place_engineers("turbine", action["engineers"])
    turn.vp(action.get("vp_change", 0), "production")
    system = produce(turn, modifier, where=text("; {count} engineer(s) on turbine space {space}", count=count, space=space))
    return Outcome(True, target=system.conduit)


def produce(turn: Turn, modifier: int, bonus: bool = True, exclude: str | None = None,
            where: Text | str = "") -> System | None:
    """Produce with the best system (not through powerhouse ``exclude``), fulfil contracts, then the
    company abilities that follow a production. None when no system is ready."""
    state, company = turn.state, turn.company
    systems = [s for s in production_systems(state, company) if s.powerhouse != exclude]
    if not systems:
        turn.trace.add("no production system is ready")
        return None
    scored = [(system_energy(state, company, s, modifier, bonus), s) for s in systems]
    best_energy = max(e for e, _ in scored)
    system = _break_system_tie(turn, [s for e, s in scored if e == best_energy])
    _flow(turn, system, best_energy, where)
    fulfil(turn, best_energy)
    if exclude is None:
        _after_production(turn, system)
    return system


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
    turn.trace.add("tie between systems: conduit code from {start} picks {conduit}", start=order[0], conduit=best[0].conduit)
    return best[0]


def _flow(turn: Turn, system: System, energy: int, where: Text | str = "") -> None:
    state, bmap = turn.state, barrage_map()
    drops = drops_used(state, turn.company, system)
    group = bmap.conduits[system.conduit].group
    # Used drops pass the powerhouse and flow on down the river from its group:
    # strictly downstream, so they can never come back to the dam they left.
    stops = route(state, group_path(group), drops)
    for stop, n in sorted(stops.items()):
        turn.do({"op": "drops", "source": f"dam:{system.dam}", "target": "exit" if stop == EXIT else f"dam:{stop}",
                 "count": n})
    usa_flow(turn, [(bmap.groups[group].flows_to_basin, stop, n) for stop, n in stops.items()])
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
    fiesler = text(" (Fiesler: 1 drop through a conduit of value 1-2, at least 4 energy)") \
        if state.companies[turn.company].has_officer("fiesler") else ""
    turn.trace.add("produces {energy} energy with {drops} drop(s) from {dam} through {conduit} (value {value}) to "
                   "{powerhouse}{where}{fiesler}", energy=energy, drops=drops, dam=system.dam, conduit=system.conduit,
                   value=system.value, powerhouse=system.powerhouse, where=where, fiesler=fiesler)


def fulfil(turn: Turn, energy: int, powerhouse: bool = True) -> list[int]:
    """Fulfil contracts with ``energy``: the highest one it reaches (the right one on a tie), or with
    Luciani as many as possible. Rewards are received and private slots refilled.

    ``powerhouse``: the energy came from a powerhouse (a production). France's discount needs one ("This
    ability only works when a powerhouse generates the power used"), and so does Luciani's rule ("When a
    production is performed, Automa will fulfil as many Contracts as possible"): not for the energy of
    the L2 Base and L3 Conduit tiles, which fulfils one contract."""
    state = turn.state
    off = discount(state, turn.company) if powerhouse else 0
    options = [(need - off, order, cid) for need, order, cid in contracts_available(state) if need - off <= energy]
    if not options:
        turn.trace.add("no available contract needs so little energy")
        return []
    if powerhouse and state.companies[turn.company].has_officer("luciani"):
        chosen = luciani_choice(options, energy)
        turn.trace.add("Luciani: as many contracts as possible with {energy} energy: {contracts}", energy=energy,
                       contracts=[cid for _, _, cid in chosen])
    else:
        chosen = [max(options)]
        need, _, cid = chosen[0]
        turn.trace.add("fulfils the highest contract it reaches: {kind} contract {cid} ({need} energy)",
                       kind=CONTRACT_KIND[components().contracts[cid]["kind"]], cid=cid, need=need)
    for _, _, cid in chosen:
        contract = components().contracts[cid]
        turn.do({"op": "fulfil", "contract": cid})
        receive(turn, contract["reward"], text("reward of contract {cid}", cid=cid))
        if contract["kind"] in CONTRACT_COLOURS:
            op = refill_op(turn.state, contract["kind"])
            if op:
                turn.do(op)
    return [cid for _, _, cid in chosen]


def luciani_choice(options: list[tuple[int, int, int]], energy: int) -> list[tuple[int, int, int]]:
    """Simone Luciani: a national contract first if one fits (the highest, the right one on a tie), then the
    most contracts the energy left covers; among as many, the higher values, then the ones on the right.

    000's example: with contracts of 2, 3, 6, 6, 9 and 10 and 9 energy, the 3 and the right 6; with 12
    energy, the 2, the 3 and the right 6."""
    national = [o for o in options if o[1] >= 100]
    first = [max(national)] if national else []
    left = energy - sum(o[0] for o in first)
    rest = [o for o in options if o not in first and o[0] <= left]
    best: tuple = ()
    best_key = None
    for n in range(len(rest), 0, -1):
        for combo in combinations(rest, n):
            if sum(o[0] for o in combo) <= left:
                key = (sorted((o[0] for o in combo), reverse=True), sorted((o[1] for o in combo), reverse=True))
                if best_key is None or key > best_key:
                    best, best_key = combo, key
        if best:
            break
    return first + sorted(best, key=lambda o: o[1])


def _after_production(turn: Turn, system: System) -> None:
    """Third-powerhouse abilities that follow a production (Hard and up)."""
    state, company = turn.state, turn.company
    if ability(state, company, "italy"):
        turn.do({"op": "energy", "delta": ITALY_STEPS})
        turn.trace.add("Italy's ability: energy +{steps} after the production", steps=ITALY_STEPS)
    if ability(state, company, "germany"):
        with turn.trace.section("Germany's ability: a second production with another powerhouse, "
                                "the most productive, no modifier and no board bonus"):
            produce(turn, 0, bonus=False, exclude=system.powerhouse)
    if ability(state, company, "netherlands"):
        with turn.trace.section("Netherlands' ability: 1 drop from the supply on one of its dams"):
            _netherlands_drop(turn, system.dam)


def _netherlands_drop(turn: Turn, used_dam: str) -> None:
    state, company = turn.state, turn.company
    eligible = [s for s, d in state.dams.items()
                if d.owner == company and s != used_dam and d.drops < capacity(d, state.companies)]
    if not eligible:
        turn.trace.add("no other own dam has room: no drop")
        return
    best: dict[str, int] = {}
    for s in eligible:
        state.dams[s].drops += 1          # how productive each dam's system would be with the drop
        energies = [system_energy(state, company, sy, 0) for sy in production_systems(state, company) if sy.dam == s]
        state.dams[s].drops -= 1
        if energies:
            best[s] = max(energies)
    top = [s for s, e in best.items() if e == max(best.values())] if best else []
    if len(top) == 1:
        dam = top[0]
        turn.trace.add("the most productive system is fed by {dam}", dam=dam)
    else:
        pool = top or eligible
        if top:
            turn.trace.add("several dams feed equally productive systems: the first column of the Criteria tile chooses")
        else:
            turn.trace.add("no eligible dam is part of a complete system: the first column of the Criteria tile chooses")
        dam = choose_space(state, company, "elevation", sorted(pool), turn.criteria, turn.trace)
    turn.do({"op": "drops", "source": "supply", "target": f"dam:{dam}", "count": 1})
