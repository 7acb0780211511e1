"""Brasil Imperial in the game registry (``automa.games``)."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from automa.games import Engine, OneAutoma, Option, PlayEvent

from . import selfplay
from .cards import DIFFICULTIES
from .ops import apply_ops
from .scoring import automa_score
from .setup import new_game
from .state import GameState, dump, load
from .turn import decide


class BrasilImperial(OneAutoma):
    id = "brasil-imperial"
    name = "Brasil Imperial"
    summary = ("MeepleBR's Brasil Imperial Autômato: action and movement decks entered from your cards, "
               "the compass on the hex map, constructions, units, combat and domination.")
    options = (
        Option("players", "the players as name:capital, most experienced first (e.g. Ana:green)", None,
               str, multiple=True),
        Option("automa_capital", "the Autômato's capital (empty: the first no player chose)", ""),
        Option("automa_first", "the capital piece makes the Autômato first (otherwise it is last)", False, bool),
        Option("difficulty", "easy (no star cards), hard (every card) or epic (no feather cards)", "hard", str,
               DIFFICULTIES),
        Option("movement_difficulty", "the movement pile's own difficulty (empty: the same)", "", str,
               ("",) + DIFFICULTIES),
        Option("seed", "seed for the shuffles (empty: a fresh one)", None, int),
        Option("cards", "'example' (the EXAMPLE cards) or your card set's JSON text", "example"),
        Option("table", "'example' (the EXAMPLE map and board) or your table file's JSON text", "example"),
    )

    engine = Engine(new_game=new_game, load=load, dump=dump, decide=decide, apply_ops=apply_ops)

    def finished(self, state: GameState) -> bool:
        return state.over

    def scores(self, state: GameState) -> dict[str, int]:
        return {"automa": automa_score(state).total}

    def selfplay(self, options: Mapping[str, Any], max_turns: int = selfplay.GAME_TURNS) -> Iterator[PlayEvent]:
        """A whole game against a simulated table (``selfplay.play``)."""
        o = {k: v for k, v in options.items() if v is not None}
        o.setdefault("seed", 1)
        o.setdefault("players", "you:green,ana:blue")
        state = self.new_game(o)
        for step in selfplay.play(state, state.seed, min(max_turns, selfplay.GAME_TURNS)):
            if step.kind == "automa":
                yield PlayEvent("turn", step.decision["instruction"], step.state, step.decision)
            else:
                yield PlayEvent("phase", "The table", step.state, lines=step.lines)


GAME = BrasilImperial()
