"""Expeditions in the game registry (``automa.games``)."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from automa.games import Engine, OneAutoma, Option, PlayEvent

from . import selfplay
from .data import levels
from .ops import apply_ops
from .scoring import automa_score, player_score
from .setup import DEFAULT_LEVEL, new_game
from .state import GameState, dump, load
from .turn import decide


class Expeditions(OneAutoma):
    id = "expeditions"
    name = "Expeditions"
    score_unit = "coins"
    summary = "Stonemaier's Expeditions solo: the Automa's North and Central mechs, progress track and glory."
    options = (
        Option("level", "progress card (difficulty): 1 Maszynette, 2 Maszyna, 3 Automaszyna", DEFAULT_LEVEL, int,
               tuple(sorted(levels()))),
        Option("seed", "seed for the decision deck and the first player (empty: a fresh one)", None, int),
        Option("first", "who takes the first turn", "random", str, ("random", "player", "automa")),
        Option("south", "the 6 South tile numbers, west to east (optional)", (), int, multiple=True),
    )

    engine = Engine(new_game=new_game, load=load, dump=dump, decide=decide, apply_ops=apply_ops)

    def finished(self, state: GameState) -> bool:
        return state.turn == "over"

    def scores(self, state: GameState) -> dict[str, int]:
        out = {"automa": automa_score(state).total}
        if state.figures is not None:
            out["player"] = player_score(state.figures).total
        return out

    def selfplay(self, options: Mapping[str, Any], max_turns: int = 400) -> Iterator[PlayEvent]:
        """A whole game against a simulated player and table (``selfplay.play``)."""
        o = self.parse_options(options)
        seed = o["seed"] if o["seed"] is not None else 1
        for n, step in enumerate(selfplay.play(seed, o["level"], max_turns)):
            if step.kind == "automa":
                d = step.decision
                yield PlayEvent("turn", f"[Automa, card {d['card']}, progress {d['progress']}, glory {d['glory']}]\n"
                                + d["instruction"], step.state, d)
            else:
                yield PlayEvent("phase", f"The player (step {n + 1})", step.state, lines=step.lines)


GAME = Expeditions()
