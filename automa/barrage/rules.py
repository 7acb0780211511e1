"""Base-game rules the Automa relies on: legal building spaces, construction
costs and production systems.

Sources: shared/reference/barrage/base_rules.md sections 3, 6 and 8.
"""
from __future__ import annotations

from dataclasses import dataclass

from .data import barrage_map, components
from .state import NEUTRAL, GameState, MapPieces


@dataclass(frozen=True)
class Cost:
    machinery: str      # "excavator" or "mixer"
    amount: int
    surcharge: int      # red-outlined space: credits (an Automa pays VP)


def legal_spaces(state: MapPieces, company: str, structure: str) -> list[str]:
    """Spaces where ``company`` may put ``structure`` by the map rules alone.

    - a base goes on an empty dam space, at most one own dam per basin;
    - an elevation goes on an own dam with fewer than 3 pieces;
    - a conduit goes on an empty conduit space;
    - a powerhouse goes on an empty space of a group without an own powerhouse.
    """
    bmap = barrage_map()
    if structure == "dam_base":
        own_basins = {bmap.dams[s].basin for s, d in state.dams.items() if d.owner == company}
        return [s for s, sp in bmap.dams.items() if s not in state.dams and sp.basin not in own_basins]
    if structure == "elevation":
        top = bmap.costs["dam_max_pieces"]
        return [s for s in bmap.dams if s in state.dams and state.dams[s].owner == company and state.dams[s].pieces < top]
    if structure == "conduit":
        return [s for s in bmap.conduits if s not in state.conduits]
    if structure == "powerhouse":
        own_groups = {bmap.powerhouses[s].group for s, o in state.powerhouses.items() if o == company}
        return [s for s, sp in bmap.powerhouses.items() if s not in state.powerhouses and sp.group not in own_groups]
    raise ValueError(f"unknown structure {structure!r}")


def area_of(space: str) -> str:
    bmap = barrage_map()
    if space in bmap.dams:
        return bmap.dams[space].area
    if space in bmap.conduits:
        return bmap.basins[bmap.conduits[space].basin].area
    return bmap.area_of_group(bmap.powerhouses[space].group)


def construction_cost(state: GameState, company: str, structure: str, space: str) -> Cost:
    """Machinery and red-outline surcharge to build ``structure`` on ``space``."""
    bmap = barrage_map()
    costs = bmap.costs
    surcharge = costs["red_outlined_surcharge_credits"]
    if structure == "dam_base":
        c = costs["dam_base"]
        return Cost(c["machinery"], c["by_area"][bmap.dams[space].area], surcharge if bmap.dams[space].red else 0)
    if structure == "elevation":
        c = costs["elevation"]
        return Cost(c["machinery"], c["by_area"][bmap.dams[space].area], 0)
    if structure == "conduit":
        c = costs["conduit"]
        return Cost(c["machinery"], c["per_conduit_value"] * bmap.conduits[space].value, 0)
    if structure == "powerhouse":
        c = costs["powerhouse"]
        nth = state.companies[company].built("powerhouse")
        return Cost(c["machinery"], c["by_nth_built"][min(nth, len(c["by_nth_built"]) - 1)],
                    surcharge if bmap.powerhouses[space].red else 0)
    raise ValueError(f"unknown structure {structure!r}")


def ability(state: GameState, company: str, name: str) -> bool:
    """Whether ``company`` is ``name`` and uses its third-powerhouse ability: an Automa from Hard up
    (004: "Use special abilities on Hard difficulty") with 3 powerhouses built. A human's ability is
    the human's to play."""
    c = state.companies[company]
    need = components().raw["powerhouse_track"]["ability_from"]
    return company == name and c.automa and c.at_least("hard") and c.built("powerhouse") >= need


def production_bonus(state: GameState, company: str) -> int:
    """Company-board production bonus: +1 with 2-3 powerhouses built, +3 with 4 (none on Easy)."""
    c = state.companies[company]
    if c.automa and c.difficulty == "easy":
        return 0
    table = components().raw["powerhouse_track"]["production_bonus"]
    return table.get(str(c.built("powerhouse")), 0)


@dataclass(frozen=True)
class System:
    """A production system: a dam with water, a conduit from its basin, an own powerhouse at its end."""

    dam: str
    conduit: str
    powerhouse: str
    drops: int
    value: int
    neutral: bool      # the dam is a neutral dam


def production_systems(state: MapPieces, company: str) -> list[System]:
    """Every ready production system of ``company``.

    The dam is the company's own or a neutral one (never another company's),
    holds at least one drop; the conduit may belong to anyone; the
    powerhouse is the company's own, in the conduit's group.
    """
    bmap = barrage_map()
    own_ph = {bmap.powerhouses[s].group: s for s, o in state.powerhouses.items() if o == company}
    out = []
    for space, dam in state.dams.items():
        if dam.drops < 1 or dam.owner not in (company, NEUTRAL):
            continue
        basin = bmap.basins[bmap.dams[space].basin]
        for cid in basin.conduits:
            if cid in state.conduits and bmap.conduits[cid].group in own_ph:
                out.append(System(space, cid, own_ph[bmap.conduits[cid].group], dam.drops,
                                  bmap.conduits[cid].value, dam.owner == NEUTRAL))
    return out
