"""Play whole Barrage games between Automas (humans pass), for demos and benchmarks.

Each round runs the phases in order: income, headstreams, the Actions phase
(turns round the table in turn order while any Automa has engineers), then
round-end scoring; the game ends with final scoring. Every step yields the state before it and
what happened, so callers can print, time or check each one.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import officers as officer_rules
from . import phases
from .engine import Decision, apply_decision, decide
from .ops import Op
from .setup import new_game
from .state import GameState

MAX_TURNS_PER_ROUND = 60      # table rounds; 12 engineers each: a round always ends well before this


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


def play(automas: int = 2, humans: int = 0, seed: int = 0, rounds: int = 5, *, levels: list[str] | None = None,
         officers: list[str | None] | None = None, leeghwater: bool = False) -> Iterator[Event]:
    """A whole game. Round 1 starts at its Actions phase (the set-up state already holds round 1's
    headstream water and nobody has income yet); later rounds run Income and Headstreams first.

    The Actions phase goes round the table in turn order, one turn each, skipping companies with no
    engineer left, until nobody has one: so the shared Automa pile is drawn in the table's order.
    Humans pass here, except that Sekibo's tile for a human's first action of the round is drawn
    when that human's first turn comes. A Battista decision with ``extra_turn`` is followed at
    once by the same Automa's second turn."""
    state = new_game(automas=automas, humans=humans, seed=seed, levels=levels, officers=officers,
                     leeghwater=leeghwater)
    for _ in range(rounds):
        if state.round > 1:
            for name, fn in (("Income", phases.income_phase), ("Headstreams", phases.headstream_phase)):
                ev = _phase(state, name, fn)
                yield ev
                state = ev.after
        for _ in range(MAX_TURNS_PER_ROUND):
            moved = False
            for company in list(state.turn_order):
                c = state.companies[company]
                if not c.automa:
                    if officer_rules.human_first_action_due(state, company):
                        ev = _turn(state, company)
                        yield ev
                        state = ev.after
                    continue
                while state.companies[company].workers() > 0:
                    ev = _turn(state, company)
                    yield ev
                    state = ev.after
                    moved = True
                    if not ev.decision.extra_turn:
                        break
            if not moved:
                break
        last = state.round == phases.LAST_ROUND
        ev = _phase(state, "Water flow and round-end scoring", phases.round_end)
        yield ev
        state = ev.after
        if last:
            ev = _phase(state, "Final scoring", phases.final_scoring)
            yield ev
            return


def _turn(state: GameState, company: str) -> Event:
    d = decide(state, company)
    return Event("turn", state.round, state, apply_decision(state, d), decision=d)
