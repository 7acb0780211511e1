"""Age of Innovation in the game registry: Feuerland's Automa behind the shared interface."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from automa.games import Engine, OneAutoma, Option, PlayEvent

from . import selfplay
from .data import TERRAINS, factions
from .ops import apply_ops
from .setup import new_game
from .state import GameState
from .turn import decide


class AgeOfInnovation(OneAutoma):
    id = "age-of-innovation"
    name = "Age of Innovation"
    summary = ("Feuerland's Age of Innovation against its Automa (solo or two players + Automa): "
               "every hex tie-breaker computed on your map.")
    options = (
        Option("level", "difficulty level 1-5 (1 Automalein ... 5 Alptrauma)", 2, int, (1, 2, 3, 4, 5)),
        Option("faction", "the Automa's faction", "simpletons", str, tuple(factions())),
        Option("terrain", "the Automa's preferred terrain (empty: drawn at random)", None, str, TERRAINS),
        Option("player_terrain", "your preferred terrain", None, str, TERRAINS),
        Option("youth_terrain", "Symbionts: their youth's terrain (empty: drawn from the cards left)", None, str,
               TERRAINS),
        Option("players", "human players (1, or 2 for the 2 players + Automa variant)", 1, int, (1, 2)),
        Option("seed", "seed for every random set-up choice and shuffle", 0, int),
    )

    engine = Engine(new_game=lambda options: new_game(**options), load=GameState.from_dict,
                    dump=GameState.to_dict, decide=decide, apply_ops=apply_ops)

    def finished(self, state: GameState) -> bool:
        return state.phase == "over"

    def scores(self, state: GameState) -> dict[str, int]:
        return {"automa": state.automa.vp, **{p.name: p.vp for p in state.players}}

    def selfplay(self, options: Mapping[str, Any], max_turns: int = 400) -> Iterator[PlayEvent]:
        """A whole game: a simple seeded stand-in plays your side (``selfplay.py``) and the Automa
        follows its cards, through 6 rounds to the final scoring."""
        yield from selfplay.play(self.new_game(options), max_turns=max_turns)


GAME = AgeOfInnovation()
