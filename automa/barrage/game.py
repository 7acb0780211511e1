"""Barrage in the game registry: the TESLA Automa module behind the shared interface."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from automa.common.errors import StateError
from automa.games import Game, Option, PlayEvent

from . import selfplay
from .engine import Decision, apply_decision, decide
from .ops import describe
from .setup import new_game
from .data import components
from .state import LEVELS, GameState

OFFICERS = tuple(components().officers())


def officers_per_automa(o: Mapping[str, Any]) -> list[str | None] | None:
    """``--officers`` names the Very Hard Automas' officers in turn order; the list ``new_game`` takes
    has one entry per Automa (None for the others, and for a Very Hard Automa left to the draw)."""
    given = list(o.get("officers") or [])
    if not given:
        return None
    levels = list(o.get("levels") or [o["difficulty"]] * o["automa"])
    out: list[str | None] = []
    for level in levels:
        out.append(given.pop(0) if level == "very-hard" and given else None)
    if given:
        raise StateError(f"more officers than Very Hard Automas: {', '.join(given)} left over")
    return out


class Barrage(Game):
    id = "barrage"
    name = "Barrage"
    summary = ("Cranio Creations' water-and-dams game against 1-3 Automas of the TESLA module "
               "that share one tile deck; the camera reads the board.")
    options = (
        Option("automa", "number of Automa players (1-3)", 1, int),
        Option("humans", "number of human players", 1, int),
        Option("seed", "seed for every random set-up choice", 0, int),
        Option("difficulty", "every Automa's level when --levels is not given", "medium", str, LEVELS),
        Option("levels", "each Automa's level in turn order: easy (Low Voltage), medium, hard (High Voltage), "
               "very-hard (Overpowered)", None, str, LEVELS, multiple=True),
        Option("officers", "the executive officers of the Very Hard Automas, in turn order (drawn when missing)",
               None, str, OFFICERS, multiple=True),
        Option("leeghwater", "play with The Leeghwater Project expansion", False, bool),
    )

    def new_game(self, options: Mapping[str, Any]) -> GameState:
        o = self.parse_options(options)
        return new_game(automas=o["automa"], humans=o["humans"], seed=o["seed"], difficulty=o["difficulty"],
                        levels=o["levels"], officers=officers_per_automa(o), leeghwater=o["leeghwater"])

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
        ops = self.decision_ops(decision)
        try:
            return apply_decision(state, {"ops": ops})
        except (KeyError, TypeError) as exc:
            raise StateError(f"the decision's ops do not fit this state: {type(exc).__name__}: {exc}") from None

    def scores(self, state: GameState) -> dict[str, int]:
        return {c: state.companies[c].vp for c in state.turn_order}

    def selfplay(self, options: Mapping[str, Any], max_turns: int = 200) -> Iterator[PlayEvent]:
        """Whole rounds: income, headstreams, the Automas' turns, water flow and scoring
        (``selfplay.play``; humans pass). Options: automa, seed, levels, officers, leeghwater, and
        ``rounds`` (1-5)."""
        o = self.parse_options(options)
        rounds = int(options.get("rounds") or 5)
        levels = o["levels"] or [o["difficulty"]] * o["automa"]
        for n, ev in enumerate(selfplay.play(automas=o["automa"], humans=0, seed=o["seed"], rounds=rounds,
                                             levels=levels, officers=officers_per_automa(o),
                                             leeghwater=o["leeghwater"])):
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
