"""Play whole Barrage games between Automas (humans pass), for demos and benchmarks.

Each round runs the phases in order: income, headstreams, the Actions phase
(Automas take turns while any has engineers), then round-end scoring; the
game ends with final scoring. Every step yields the state before it and
what happened, so callers can print, time or check each one.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import phases
from .engine import Decision, apply_decision, decide
from .ops import Op
from .setup import new_game
from .state import GameState

MAX_TURNS_PER_ROUND = 60      # 12 engineers each: a round always ends well before this


@dataclass
class Event:
    kind: str                      # "phase" or "turn"
    round: int
    before: GameState
    after: GameState
    name: str = ""                 # phase name
    ops: list[Op] | None = None    # phase ops
    decision: Decision | None = None


def _phase(state: GameState, name: str, fn) -> Event:
    after = state.copy()
    ops = fn(after)
    return Event("phase", state.round, state, after, name=name, ops=ops)


def play(automas: int = 2, humans: int = 0, seed: int = 0, rounds: int = 5) -> Iterator[Event]:
    state = new_game(automas=automas, humans=humans, seed=seed)
    for _ in range(rounds):
        for name, fn in (("Income", phases.income_phase), ("Headstreams", phases.headstream_phase)):
            ev = _phase(state, name, fn)
            yield ev
            state = ev.after
        for _ in range(MAX_TURNS_PER_ROUND):
            movers = [c for c in state.turn_order if state.companies[c].automa and state.companies[c].engineers > 0]
            if not movers:
                break
            d = decide(state, movers[0])
            after = apply_decision(state, d)
            yield Event("turn", state.round, state, after, decision=d)
            state = after
        last = state.round == phases.LAST_ROUND
        ev = _phase(state, "Water flow and round-end scoring", phases.round_end)
        yield ev
        state = ev.after
        if last:
            ev = _phase(state, "Final scoring", phases.final_scoring)
            yield ev
            return
