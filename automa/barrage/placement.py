"""The Structure Placing Procedure: where the Automa builds when several spaces are possible.

Rulebook (seed 004, "STRUCTURE PLACING PROCEDURE"; seed 000 adds the notes):

0. "If there is only one possible space on the Map for the placement of the
   structure, the Automa will place the structure in that space."
1. "Third structure of a system: If there is one single system (i.e. a set
   including a Dam - neutral or owned - a Conduit, and an owned Powerhouse)
   that would be completed by placing the structure, Automa will build in
   this position. If there are more than one system, check the first
   criterion on the Criteria tile."
2. The three criteria of the structure's column, in order: each narrows the
   eligible positions, or is skipped when it "doesn't match with any
   position"; stop as soon as one position is left (see criteria.py).
3. "Use the code on the Criteria tile": start at the position the code names
   on the Reference Map and go on in map order, wrapping to the first
   position (1 for dams and conduits, 5 for powerhouses), up to the first
   eligible position.
4. "if possible, Dams and Powerhouses are preferably built in the regular
   space (without red outline)"; seed 000: "depois que uma bacia é definida
   para colocar uma Base ou Usina de Energia, posições 'não vermelhas' terão
   preferência" (after a basin is set, non-red spaces are preferred).

Action restrictions (a base in the Mountains, a conduit of value 3 or more)
"override" all of this (seed 000); the caller has already applied them to
``candidates``.

Hard and Very Hard add (004 appendices):

- Wilhelm Adler: "When checking for Dam positioning criteria, Dams on the
  Mountains are always preferred, with Hills being second" (before the
  criteria, after the third-structure rule);
- the L2 Conduit tile: "In case of a tie among eligible positions, Automa will
  always choose a Conduit of value 3 or higher" (several eligible spaces are a tie:
  those of value 3+ are kept before the criteria, after the third-structure rule);
- the L1 Joker tile: "If Automa is building a Base, it will choose a building
  space with a red outline" (000: after all the criteria), instead of step 4.
"""
from __future__ import annotations

from functools import cache

from automa.common.trace import Text, Trace, text

from .criteria import CRITERIA, title
from .data import barrage_map
from .state import NEUTRAL, GameState
from .words import AREA, STRUCTURE, semicolons

COLUMN = {"dam_base": "dam", "elevation": "dam", "conduit": "conduit", "powerhouse": "powerhouse"}


def choose_space(state: GameState, company: str, structure: str, candidates: list[str],
                 criteria: dict, trace: Trace, tile: str | None = None) -> str:
    """The space where ``company`` (an Automa) builds ``structure``, explained in ``trace``.

    ``candidates`` are the spaces already known legal and affordable, with any
    restriction of the action applied (dam-space ids of its own dams for an
    Elevation). ``criteria`` is the Criteria side of the tile read this turn,
    as in tiles.json. ``tile`` is the advanced tile whose special effect applies (Hard).
    """
    if structure not in COLUMN:
        raise ValueError(f"unknown structure {structure!r}")
    if not candidates:
        raise ValueError("choose_space needs at least one eligible space")
    column = COLUMN[structure]
    heading = text("Where to build the {structure}: {n} eligible spaces ({spaces})", structure=STRUCTURE[structure],
                   n=len(candidates), spaces=candidates) if len(candidates) > 1 else \
        text("Where to build the {structure}: {n} eligible space ({spaces})", structure=STRUCTURE[structure],
             n=len(candidates), spaces=candidates)
    with trace.section(heading):
        if len(candidates) == 1:
            trace.add("Only one eligible space: build on {space}.", space=candidates[0])
            return candidates[0]
        red = tile == "L1_JOKER" and structure == "dam_base"
        position = _third_structure(state, company, structure, candidates, trace)
        if position:
            return _settle(structure, position, trace, red)
        kept = list(candidates)
        if column == "dam" and state.companies[company].has_officer("adler"):
            kept = _adler(kept, trace)
            if len(kept) == 1:
                return kept[0]
        if tile == "L2_CONDUIT" and structure == "conduit":
            strong = [s for s in kept if barrage_map().conduits[s].value >= 3]
            if strong and len(strong) < len(kept):
                trace.add("L2 Conduit: of the tied eligible spaces, a conduit of value 3 or more ({spaces}).",
                          spaces=strong)
                kept = strong
            if len(kept) == 1:
                return kept[0]
        spec = criteria[column]
        for n, cid in enumerate(spec["criteria"], start=1):
            subset, reason = CRITERIA[column][cid](state, company, kept, criteria["headstreams"])
            label = text('Criterion {n} "{title}"', n=n, title=title(column, cid))
            if not subset:
                trace.add("{label}: matches no eligible space ({reason}); skipped.", label=label, reason=reason)
                continue
            shown = text("all {n} eligible spaces", n=len(kept)) if len(subset) == len(kept) else subset
            trace.add("{label}: keeps {shown} ({reason}).", label=label, shown=shown, reason=reason)
            kept = subset
            if len(kept) == 1:
                trace.add("One space left: build on {space}.", space=kept[0])
                return kept[0]
        return _settle(structure, _by_code(column, spec["start"], kept, trace), trace, red)


def _adler(kept: list[str], trace: Trace) -> list[str]:
    """Adler's Automa prefers dams in the Mountains, then in the Hills."""
    bmap = barrage_map()
    for area in ("mountains", "hills"):
        there = [s for s in kept if bmap.dams[s].area == area]
        if there:
            trace.add("Adler: dams in the {area} are preferred: {spaces}.", area=AREA[area], spaces=there)
            return there
    return kept


# -- step 1: third structure of a system -----------------------------------------------
def _position_of(structure: str, space: str) -> Text | str:
    """What a "position" is for the procedure: the basin of a dam, the group of a powerhouse, the conduit space."""
    bmap = barrage_map()
    if structure in ("dam_base", "elevation"):
        return text("basin {basin}", basin=bmap.dams[space].basin)
    if structure == "powerhouse":
        return text("group {group}", group=bmap.powerhouses[space].group)
    return space


def completed_systems(state: GameState, company: str, structure: str, space: str) -> list[str]:
    """The systems (dam, conduit, own powerhouse) that building ``structure`` on ``space`` would complete.

    A system is "a Dam - neutral or owned - a Conduit, and an owned
    Powerhouse"; the conduit may be anyone's and no water is needed. Each is
    described as "dam + conduit + powerhouse", with the new piece's space.
    An Elevation goes on a dam that already exists, so it completes nothing.
    """
    bmap = barrage_map()
    own_ph = {bmap.powerhouses[s].group: s for s, o in state.powerhouses.items() if o == company}

    def usable_dams(basin: int) -> list[str]:
        return [d for d in bmap.basins[basin].dams if d in state.dams and state.dams[d].owner in (company, NEUTRAL)]

    if structure == "dam_base":
        return [f"{space} + {c} + {own_ph[bmap.conduits[c].group]}"
                for c in bmap.basins[bmap.dams[space].basin].conduits
                if c in state.conduits and bmap.conduits[c].group in own_ph]
    if structure == "conduit":
        c = bmap.conduits[space]
        return [f"{d} + {space} + {own_ph[c.group]}" for d in usable_dams(c.basin)] if c.group in own_ph else []
    if structure == "powerhouse":
        group = bmap.powerhouses[space].group
        return [f"{d} + {c} + {space}" for c in bmap.conduits_into(group) if c in state.conduits
                for d in usable_dams(bmap.conduits[c].basin)]
    return []


def _third_structure(state: GameState, company: str, structure: str, candidates: list[str],
                     trace: Trace) -> list[str]:
    """The candidates of the one position that completes a system, or [] to go on with the criteria."""
    if structure == "elevation":
        trace.add("Third structure of a system: an Elevation raises an existing dam and completes no system.")
        return []
    positions: dict[str, list[str]] = {}       # keyed by the position in English, said as ``said``
    systems: dict[str, list[str]] = {}
    said: dict[str, Text | str] = {}
    for space in candidates:
        done = completed_systems(state, company, structure, space)
        if done:
            words = _position_of(structure, space)
            key = str(words)
            said[key] = words
            positions.setdefault(key, []).append(space)
            systems.setdefault(key, []).extend(s for s in done if s not in systems.get(key, []))
    if not positions:
        trace.add("Third structure of a system: no eligible space would complete a system.")
        return []
    if len(positions) > 1:
        listed = semicolons([text("{position}: {systems}", position=said[k], systems=v) for k, v in systems.items()])
        trace.add("Third structure of a system: {n} positions would complete a system ({listed}); not a single one, "
                  "so check the criteria with all eligible spaces.", n=len(positions), listed=listed)
        return []
    (key, spaces), = positions.items()
    trace.add("Third structure of a system: only {position} would complete a system ({systems}).",
              position=said[key], systems=semicolons(systems[key]))
    return spaces


# -- step 3: the code on the Reference Map ----------------------------------------------
def _code(column: str, space: str) -> int:
    """A space's place on the Reference Map: basin (dams), 1A,1B,...,10B (conduits), group (powerhouses)."""
    bmap = barrage_map()
    if column == "dam":
        return bmap.dams[space].basin
    if column == "conduit":
        return bmap.conduits[space].code
    return bmap.powerhouses[space].group


def _start_code(column: str, start: int | str) -> int:
    return barrage_map().conduits[start].code if column == "conduit" else int(start)


@cache
def _map_codes(column: str) -> tuple[int, ...]:
    """Every position code of a column, in Reference Map order."""
    bmap = barrage_map()
    spaces = {"dam": bmap.dams, "conduit": bmap.conduits, "powerhouse": bmap.powerhouses}[column]
    return tuple(sorted({_code(column, s) for s in spaces}))


def _by_code(column: str, start: int | str, kept: list[str], trace: Trace) -> list[str]:
    """The candidates at the first eligible position from the code on, wrapping at the end of the map."""
    first = _start_code(column, start)
    codes = _map_codes(column)
    ring = [c for c in codes if c >= first] + [c for c in codes if c < first]
    hit = next(c for c in ring if any(_code(column, s) == c for s in kept))
    chosen = [s for s in kept if _code(column, s) == hit]
    wrapped = text(", after wrapping round to {code}", code=_code_label(column, codes[0])) if hit < first else ""
    values = {"start": start, "wrapped": wrapped, "code": _code_label(column, hit), "spaces": chosen}
    if column == "dam":
        trace.add("Code {start}: going on from basin {start} in Reference Map order{wrapped}, the first eligible "
                  "basin is {code} ({spaces}).", **values)
    elif column == "conduit":
        trace.add("Code {start}: going on from conduit space {start} in Reference Map order{wrapped}, the first "
                  "eligible conduit space is {code} ({spaces}).", **values)
    else:
        trace.add("Code {start}: going on from group {start} in Reference Map order{wrapped}, the first eligible "
                  "group is {code} ({spaces}).", **values)
    return chosen


def _code_label(column: str, code: int) -> str:
    if column == "conduit":
        return f"{code // 2}{'AB'[code % 2]}"
    return str(code)


# -- step 4: regular space before red-outlined -----------------------------------------
def _settle(structure: str, spaces: list[str], trace: Trace, red_first: bool = False) -> str:
    """One space of a single basin / group: prefer a regular (not red-outlined) space, then the first one;
    ``red_first`` (L1 Joker, Hard): the red-outlined space."""
    if len(spaces) == 1:
        trace.add("Build on {space}.", space=spaces[0])
        return spaces[0]
    bmap = barrage_map()
    red = {s: (bmap.dams[s].red if s in bmap.dams else bmap.powerhouses[s].red) for s in spaces}
    order = {s: (bmap.powerhouses[s].index if s in bmap.powerhouses else bmap.dams[s].red) for s in spaces}
    if red_first and any(red.values()):
        choice = sorted((s for s in spaces if red[s]), key=order.__getitem__)[0]
        trace.add("L1 Joker: the red-outlined space is chosen: build on {space}.", space=choice)
        return choice
    regular = sorted((s for s in spaces if not red[s]), key=order.__getitem__)
    choice = regular[0] if regular else sorted(spaces, key=order.__getitem__)[0]
    if regular:
        trace.add("Regular spaces are preferred to red-outlined ones: build on {space}.", space=choice)
    else:
        trace.add("Only red-outlined spaces are left: build on {space}.", space=choice)
    return choice
