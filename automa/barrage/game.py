"""Barrage in the game registry: the TESLA Automa module behind the shared interface."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from automa.common.errors import StateError
from automa.games import Game, Option, PlayEvent

from . import selfplay
from .engine import Decision, apply_decision, decide
from .ops import describe
from .setup import new_game
from .state import DIFFICULTIES, GameState


class Barrage(Game):
    id = "barrage"
    name = "Barrage"
    summary = ("Cranio Creations' water-and-dams game against 1-3 Automas of the TESLA module "
               "that share one tile deck; the camera reads the board.")
    options = (
        Option("automa", "number of Automa players (1-3)", 1, int),
        Option("humans", "number of human players", 1, int),
        Option("seed", "seed for every random set-up choice", 0, int),
        Option("difficulty", "the Automas' level", "medium", str, DIFFICULTIES),
    )

    def new_game(self, options: Mapping[str, Any]) -> GameState:
        o = self.parse_options(options)
        return new_game(automas=o["automa"], humans=o["humans"], seed=o["seed"], difficulty=o["difficulty"])

    def load(self, data: Any) -> GameState:
        return GameState.from_dict(data)

    def dump(self, state: GameState) -> dict:
        return state.to_dict()

    def automas(self, state: GameState) -> list[str]:
        return list(state.automas)

    def decide(self, state: GameState, automa: str | None = None) -> Decision:
        """``automa``: a company id or its colour."""
        return decide(state, automa)

    def apply(self, state: GameState, decision: Mapping[str, Any]) -> GameState:
        if not isinstance(decision, Mapping) or not isinstance(decision.get("ops"), list):
            raise StateError("the decision must be the JSON printed by 'barrage decide --json'")
        try:
            return apply_decision(state, dict(decision))
        except (KeyError, TypeError) as exc:
            raise StateError(f"the decision's ops do not fit this state: {type(exc).__name__}: {exc}") from None

    def scores(self, state: GameState) -> dict[str, int]:
        return {c: state.companies[c].vp for c in state.turn_order}

    def selfplay(self, options: Mapping[str, Any], max_turns: int = 200) -> Iterator[PlayEvent]:
        """Whole rounds: income, headstreams, the Automas' turns, water flow and scoring
        (``selfplay.play``; humans pass). Options: automa, seed, and ``rounds`` (1-5)."""
        o = self.parse_options(options)
        rounds = int(options.get("rounds") or 5)
        for n, ev in enumerate(selfplay.play(automas=o["automa"], humans=0, seed=o["seed"], rounds=rounds)):
            if n >= max_turns:
                return
            if ev.kind == "phase":
                yield PlayEvent("phase", f"Round {ev.round}: {ev.name}", ev.after,
                                lines=tuple(describe(op) for op in ev.ops or ()))
            else:
                d = ev.decision.to_dict()
                yield PlayEvent("turn", f"[round {ev.round}] tiles {d['tiles']['actions']}/{d['tiles']['criteria']}  "
                                + d["instruction"], ev.after, d)


GAME = Barrage()
