"""Water: where drops go when they flow.

A drop follows the river from where it enters and stops in the first dam
that has free capacity (held drops < ``state.capacity``: one per piece, four in
a Del Monte Automa's level 3 dam). It passes through full
dams, empty dam spaces and powerhouse groups, and leaves the map at an exit.
Drops already held in a dam never move by flow. Because drops are identical
and each stops at the first dam with room, the result of a flow does not
depend on the order the drops are moved in.

Paths are lists of dam-space ids; ``EXIT`` marks water leaving the map.
"""
from __future__ import annotations

from collections import Counter
from typing import Mapping

from .data import barrage_map
from .state import Company, GameState, capacity

EXIT = "exit"


def room(state: GameState, space: str, added: Counter | None = None,
         companies: Mapping[str, Company] | None = None) -> int:
    """Free capacity of the dam on ``space`` (0 for an empty dam space). ``companies``: the
    game's, whose officers change what a dam holds; by default ``state``'s own (a map the
    camera saw has none, and must be given them)."""
    dam = state.dams.get(space)
    if dam is None:
        return 0
    held = capacity(dam, companies if companies is not None else getattr(state, "companies", {}))
    return held - dam.drops - (added[space] if added else 0)


def headstream_path(headstream: str) -> list[str]:
    bmap = barrage_map()
    return bmap.river_from_basin(bmap.headstreams[headstream])


def group_path(group: int) -> list[str]:
    """Where water goes after passing powerhouse group ``group`` (after a production)."""
    return barrage_map().river_after_group(group)


def route(state: GameState, path: list[str], count: int, added: Counter | None = None,
          companies: Mapping[str, Company] | None = None) -> Counter:
    """Where ``count`` drops entering at the start of ``path`` come to rest.

    Returns a Counter of dam space (or ``EXIT``) -> drops. ``added`` holds
    drops already (hypothetically) added to dams and is updated in place, so
    several calls can model drops arriving one after another. ``companies``: as for ``room``.
    """
    added = added if added is not None else Counter()
    stops: Counter = Counter()
    for _ in range(count):
        for space in path:
            if room(state, space, added, companies) > 0:
                added[space] += 1
                stops[space] += 1
                break
        else:
            stops[EXIT] += 1
    return stops


def water_flow_phase(state: GameState, extra: dict[str, int] | None = None) -> Counter:
    """Drops each dam (or the exits) receives when every headstream drop flows.

    ``extra`` adds hypothetical drops on headstreams (a Water Management
    action without flow, say) before the phase is simulated.
    """
    added: Counter = Counter()
    stops: Counter = Counter()
    for h in "ABCD":
        n = state.headstreams.get(h, 0) + (extra or {}).get(h, 0)
        if n:
            stops += route(state, headstream_path(h), n, added)
    return stops


def groups_passed(basin: int | None, stop: str) -> list[int]:
    """Powerhouse groups that water entering ``basin`` (None: none, it leaves the map) flows through
    before it stops in dam ``stop`` (or leaves at ``EXIT``)."""
    bmap = barrage_map()
    out: list[int] = []
    while basin is not None:
        b = bmap.basins[basin]
        if stop in b.dams:
            break
        out.append(b.outflow_group)
        basin = bmap.groups[b.outflow_group].flows_to_basin
    return out


def flow_phase_groups(state: GameState, extra: dict[str, int] | None = None) -> Counter:
    """Powerhouse group -> drops that flow through it in the coming Water Flow phase."""
    bmap = barrage_map()
    added: Counter = Counter()
    passed: Counter = Counter()
    for h in "ABCD":
        n = state.headstreams.get(h, 0) + (extra or {}).get(h, 0)
        for stop, k in route(state, headstream_path(h), n, added).items():
            for g in groups_passed(bmap.headstreams[h], stop):
                passed[g] += k
    return passed


def steps_through(state: GameState, company: str, passed: Counter) -> int:
    """Drops flowing through groups where ``company`` has a powerhouse (USA's ability: 1 step each)."""
    bmap = barrage_map()
    own = {bmap.powerhouses[s].group for s, o in state.powerhouses.items() if o == company}
    return sum(n for g, n in passed.items() if g in own)


def drops_passing(state: GameState) -> dict[str, Counter]:
    """For each dam space, the headstream drops (by headstream letter) that the coming Water
    Flow would bring through or into it.

    Used by the "most water drops" placement criterion: an empty dam space
    that the coming Water Flow crosses could catch those drops once built.
    """
    added: Counter = Counter()
    seen: dict[str, Counter] = {}
    for h in "ABCD":
        path = headstream_path(h)
        for _ in range(state.headstreams.get(h, 0)):
            for space in path:
                seen.setdefault(space, Counter())[h] += 1
                if room(state, space, added) > 0:
                    added[space] += 1
                    break
    return seen


def headstream_order(printed_letters: list[str]) -> list[str]:
    """A Criteria tile's headstream tie-break order: its printed letters, then the one it does not print."""
    return list(printed_letters) + [h for h in "ABCD" if h not in printed_letters]
