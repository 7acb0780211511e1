"""Where an Automa puts water drops (Water Management action, drop rewards).

Rulebook (004, Water Management Action): the Automa places drops "only if at
least one of the indicated Water Drops can reach one of its own Dams, either
immediately (downward arrow) or in the upcoming Water Phase, taking into
consideration the current map status. (This can mean filling someone else's
dam with the first Water Drop)." It "will always try to place the highest
amount of Water Drops"; "any exceeding Water Drop will not be placed"; ties
between headstreams follow the letters of the current Criteria tile.

Read as an optimisation over every way of placing 1..n drops:
1. maximise the drops that end in the Automa's own dams;
2. then place as few drops as that takes (exceeding drops are not placed);
3. then prefer the headstreams earliest in the Criteria tile's letter order
   (the letter the tile does not print comes last).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

from .state import GameState
from .water import (EXIT, flow_phase_groups, groups_passed, headstream_order, headstream_path, route,
                    steps_through, water_flow_phase)
from .data import barrage_map


@dataclass(frozen=True)
class DropPlan:
    headstreams: tuple[str, ...]          # one letter per drop placed
    gain: int                             # drops that end in own dams
    stops: tuple[tuple[str, str], ...]    # (headstream, dam space or EXIT) per drop, when they flow now
    steps: int = 0                        # energy steps USA's ability gives for these drops (when it counts)


def _own(state: GameState, company: str, stops: Counter) -> int:
    return sum(n for space, n in stops.items()
               if space != EXIT and state.dams[space].owner == company)


def evaluate(state: GameState, company: str, placement: tuple[str, ...], flows_now: bool,
             usa: bool = False) -> DropPlan:
    if flows_now:
        added: Counter = Counter()
        stops = []
        gain = 0
        passed: Counter = Counter()
        for h in placement:
            stop = next(iter(route(state, headstream_path(h), 1, added)))
            stops.append((h, stop))
            gain += stop != EXIT and state.dams[stop].owner == company
            if usa:
                passed.update(groups_passed(barrage_map().headstreams[h], stop))
        return DropPlan(placement, gain, tuple(stops), steps_through(state, company, passed) if usa else 0)
    extra = Counter(placement)
    gain = _own(state, company, water_flow_phase(state, extra)) - _own(state, company, water_flow_phase(state))
    steps = 0
    if usa:
        steps = (steps_through(state, company, flow_phase_groups(state, extra))
                 - steps_through(state, company, flow_phase_groups(state)))
    return DropPlan(placement, gain, (), steps)


def best_plan(state: GameState, company: str, drops: int, flows_now: bool, criteria_letters: list[str],
              usa: bool = False) -> DropPlan | None:
    """The best way to place up to ``drops`` drops, or None if no drop can reach an own dam.

    ``usa``: the USA's third-powerhouse ability counts (Hard): "In case of tie among eligible
    Headstreams for a Water Management action, Automa will choose the one generating more steps on
    the Energy Track" (before the Criteria tile's letters)."""
    order = headstream_order(criteria_letters)
    rank = {h: i for i, h in enumerate(order)}
    best: tuple | None = None
    best_plan_: DropPlan | None = None
    for n in range(1, drops + 1):
        for combo in combinations_with_replacement(order, n):
            placement = tuple(sorted(combo, key=rank.__getitem__))
            plan = evaluate(state, company, placement, flows_now, usa)
            if plan.gain <= 0:
                continue
            key = (-plan.gain, n, -plan.steps, [rank[h] for h in placement])
            if best is None or key < best:
                best, best_plan_ = key, plan
    return best_plan_
