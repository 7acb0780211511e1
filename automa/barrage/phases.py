"""The phases around the Actions phase, as ops: income, headstreams, water
flow, round-end scoring and reset, and final scoring.

Rulebook (004): "INCOME AND HEADSTREAMS - This phase is played with normal
rules. Automa players will collect activated income according to their
Company boards." "If an Automa player has the most elements according to the
Objective tile condition, they score 20 VP, 15 VP for second and 10 VP for
third place." Base-game numbers: shared/reference/barrage/base_rules.md
sections 5, 12 and 13.

Humans take their own incomes on the table (they involve choices), so the
income phase here pays the Automas only; scoring is computed for everyone.
Every function returns the ops it applied, so a page can list and undo them.
"""
from __future__ import annotations

import math
from collections import Counter

from automa.common.trace import Trace, text

from .data import automa_tiles, barrage_map, components
from .ops import Op, apply_op
from .rewards import receive
from .setup import draw_external_works
from .state import GameState
from .turn import Turn
from .rules import ability
from .water import EXIT, flow_phase_groups, headstream_path, route, steps_through
from .words import STRUCTURE

LAST_ROUND = 5


def _criteria(state: GameState) -> dict:
    """The Criteria side now showing (the tile on the discard pile; before any flip, the pile's top)."""
    tile = state.deck.discard_top or state.deck.top
    return automa_tiles()[tile]["criteria"]


def _apply(state: GameState, ops: list[Op], op: Op) -> None:
    apply_op(state, op)
    ops.append(op)


def income_phase(state: GameState, trace: Trace | None = None) -> list[Op]:
    """Each Automa (in reverse turn order) receives every income uncovered on its board. Easy: none."""
    trace = trace or Trace()
    ops: list[Op] = []
    boards = components().companies()
    for company in reversed(state.turn_order):
        c = state.companies[company]
        if not c.automa or c.difficulty == "easy":
            continue
        turn = Turn(state, company, _criteria(state), trace)
        for structure in ("dam_base", "elevation", "conduit"):
            for step in boards[company]["income"][structure]:
                if c.built(structure) >= step["built"]:
                    receive(turn, step["income"], text("{company} income ({structure} track, {built} built)",
                                                       company=company, structure=STRUCTURE[structure], built=step["built"]))
        ops.extend(turn.ops)
    return ops


def headstream_phase(state: GameState) -> list[Op]:
    """Rounds 1-4: each headstream tile adds its drops for the round. Round 5 adds none."""
    ops: list[Op] = []
    if state.round >= LAST_ROUND:
        return ops
    tiles = {h["tile"]: h["drops"] for h in components().raw["headstream_tiles"]}
    for h, tile in sorted(state.headstream_tiles.items()):
        n = tiles[tile][state.round - 1]
        if n:
            _apply(state, ops, {"op": "drops", "source": "supply", "target": f"headstream:{h}", "count": n})
    return ops


def water_flow_phase(state: GameState) -> list[Op]:
    """Every drop on a headstream flows down the river to the first dam with room, or off the map."""
    ops: list[Op] = []
    added: Counter = Counter()
    plan = []
    for h in "ABCD":
        n = state.headstreams[h]
        if n:
            plan.append((h, route(state, headstream_path(h), n, added)))
    passed = flow_phase_groups(state)
    for h, stops in plan:
        for stop, n in sorted(stops.items()):
            _apply(state, ops, {"op": "drops", "source": f"headstream:{h}",
                                "target": "exit" if stop == EXIT else f"dam:{stop}", "count": n})
    if "usa" in state.companies and ability(state, "usa", "usa"):
        # USA's ability (Hard Automa): 1 energy step per drop that flows through one of its powerhouses.
        steps = steps_through(state, "usa", passed)
        if steps:
            _apply(state, ops, {"op": "energy", "company": "usa", "delta": steps, "why": "USA's ability"})
    return ops


def _gain(state: GameState, ops: list[Op], company: str, credits: int, vp: int, why: str) -> None:
    """Pay ``credits`` (VP for an Automa) and ``vp`` to ``company``."""
    if state.companies[company].automa:
        vp += credits
    elif credits:
        _apply(state, ops, {"op": "credits", "company": company, "delta": credits, "why": why})
    if vp:
        _apply(state, ops, {"op": "vp", "company": company, "delta": vp, "why": why})


def energy_rank_vp(energy: dict[str, int]) -> dict[str, int]:
    """Energy-track placement VP: 1st 6, 2nd 2; tied firsts share 8 (rounded up) and nobody is second;
    tied seconds get 1 each; a company with 0 energy never ranks."""
    first_vp, second_vp = components().raw["round_end"]["energy_rank_vp"]
    levels = sorted({e for e in energy.values() if e > 0}, reverse=True)
    out: dict[str, int] = {}
    if not levels:
        return out
    firsts = [c for c, e in energy.items() if e == levels[0]]
    if len(firsts) > 1:
        return {c: math.ceil((first_vp + second_vp) / len(firsts)) for c in firsts}
    out[firsts[0]] = first_vp
    if len(levels) > 1:
        seconds = [c for c, e in energy.items() if e == levels[1]]
        for c in seconds:
            out[c] = second_vp if len(seconds) == 1 else 1
    return out


def energy_credits(energy: int) -> tuple[int, int]:
    """(credits, vp) the energy reached pays at round end (0 energy: 3 credits and -3 VP)."""
    for row in components().raw["round_end"]["energy_credits"]:
        if energy >= row["energy_at_least"] and energy <= row.get("energy_at_most", energy):
            return row["credits"], row.get("vp", 0)
    return 0, 0


def bonus_count(state: GameState, company: str, tile: int) -> int:
    c = state.companies[company]
    counts = {0: len(c.contracts), 1: c.built("dam_base"), 2: c.built("elevation"), 3: c.built("conduit"),
              4: c.built("powerhouse"), 5: len(c.advanced_tiles()), 6: len(c.external_works),
              7: sum(company in b.built_by for b in state.private_buildings)}
    return counts.get(tile, 0)


def round_bonus_vp(state: GameState, company: str) -> int:
    """n x per-item VP, less 4 VP per missing 6-energy step below 6 x round; nothing below 6 energy."""
    raw = components().raw
    tile = state.bonus_tiles[state.round - 1]
    each = next(b["vp_each"] for b in raw["round_bonus_tiles"] if b["id"] == tile)
    energy = state.energy.get(company, 0)
    step = raw["round_end"]["full_bonus_energy_per_round"]
    if energy < step:
        return 0
    malus = raw["round_end"]["malus_per_step"] * math.ceil(max(0, step * state.round - energy) / step)
    return max(0, bonus_count(state, company, tile) * each - malus)


def round_end(state: GameState) -> list[Op]:
    """Water flow, then energy placement VP, energy credits, the round bonus; then (rounds 1-4) the new
    turn order and the reset: engineers home, energy 0, action spaces empty, a new Patent Office."""
    ops = water_flow_phase(state)
    for company, vp in energy_rank_vp(state.energy).items():
        _gain(state, ops, company, 0, vp, "energy track placement")
    for company in state.turn_order:
        credits, vp = energy_credits(state.energy.get(company, 0))
        _gain(state, ops, company, credits, vp, "energy track reward")
        if state.bonus_tiles:
            _gain(state, ops, company, 0, round_bonus_vp(state, company), "round bonus tile")
    if state.round < LAST_ROUND:
        _reset(state, ops)
    return ops


def next_turn_order(state: GameState) -> list[str]:
    """Least energy plays first; tied companies swap their previous relative order (BGA; unconfirmed)."""
    previous = {c: i for i, c in enumerate(state.turn_order)}
    return sorted(state.turn_order, key=lambda c: (state.energy.get(c, 0), -previous[c]))


def _reset(state: GameState, ops: list[Op]) -> None:
    # The reset is one structural op: what changes is listed, so it replays and undoes like any other.
    office = state.patent_office
    piles = {k: list(v) for k, v in office.piles.items()}
    slots = []
    for _ in range(3):
        level = next((lv for lv in ("1", "2", "3") if piles[lv]), None)
        slots.append(piles[level].pop(0) if level else None)
    op = {"op": "new_round", "round": state.round + 1, "turn_order": next_turn_order(state),
          "patent_slots": slots, "patent_piles": piles}
    if state.leeghwater:
        op["external_slots"], op["external_piles"] = draw_external_works(state.external_works.piles)
    _apply(state, ops, op)


def objective_count(state: GameState, company: str, tile: int) -> int:
    """How many elements ``company`` has for objective tile ``tile`` (see components.json)."""
    bmap = barrage_map()
    pieces: list[tuple[str, str]] = []      # (area, zone) per structure piece
    for space, d in state.dams.items():
        if d.owner == company:
            dam = bmap.dams[space]
            pieces += [(dam.area, str(dam.basin))] * d.pieces
    for space, owner in state.conduits.items():
        if owner == company:
            basin = bmap.conduits[space].basin
            pieces.append((bmap.basins[basin].area, str(basin)))
    for space, owner in state.powerhouses.items():
        if owner == company:
            g = bmap.powerhouses[space].group
            pieces.append((bmap.area_of_group(g), str(g)))
    if tile == 1:
        return (sum(1 for s, d in state.dams.items() if d.owner == company and bmap.dams[s].red)
                + sum(1 for s, o in state.powerhouses.items() if o == company and bmap.powerhouses[s].red))
    if tile in (2, 4):
        by_area = Counter(area for area, _ in pieces)
        counts = [by_area.get(a, 0) for a in bmap.area_basins]
        return max(counts) if tile == 2 else min(counts)
    if tile == 3:
        own_groups = {bmap.powerhouses[s].group for s, o in state.powerhouses.items() if o == company}
        linked = 0
        for space, d in state.dams.items():
            if d.owner != company:
                continue
            basin = bmap.basins[bmap.dams[space].basin]
            if any(state.conduits.get(c) == company and bmap.conduits[c].group in own_groups for c in basin.conduits):
                linked += 1
        return linked
    zones = Counter(zone for _, zone in pieces)
    if tile == 5:
        return len(zones)
    if tile == 6:
        return sum(1 for n in zones.values() if n >= 3)
    raise ValueError(f"unknown objective tile {tile}")


def objective_vp(state: GameState) -> dict[str, int]:
    """Places 1-3 on the objective score 20/15/10 for an Automa (15/10/5 for a human); tied companies
    share the VP of the places they cover, rounded up, each from its own table."""
    raw = components().raw
    counts = {c: objective_count(state, c, state.objective_tile) for c in state.turn_order}
    out: dict[str, int] = {}
    place = 0
    for value in sorted(set(counts.values()), reverse=True):
        tied = [c for c, n in counts.items() if n == value]
        covered = range(place, min(place + len(tied), 3))
        for c in tied:
            table = raw["objective_vp_automa" if state.companies[c].automa else "objective_vp_human"]
            out[c] = math.ceil(sum(table[i] for i in covered) / len(tied)) if covered else 0
        place += len(tied)
    return out


def final_scoring(state: GameState) -> list[Op]:
    """Objective tile; 1 VP per 5 credits + machinery in supply; Private Buildings' VP; 1 VP per drop in own dams."""
    ops: list[Op] = []
    if state.objective_tile is not None:
        for company, vp in objective_vp(state).items():
            _gain(state, ops, company, 0, vp, f"objective tile {state.objective_tile}")
    for company, c in state.companies.items():
        resources = c.credits + c.excavators + c.mixers + c.excamixers
        drops = sum(d.drops for d in state.dams.values() if d.owner == company)
        buildings = sum(components().private_buildings()[b.building]["vp"]
                        for b in state.private_buildings if company in b.built_by)
        _gain(state, ops, company, 0, resources // 5 + drops + buildings,
              "final scoring: resources, Private Buildings and held drops")
    return ops

