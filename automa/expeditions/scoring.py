"""Final scoring (seed 003, "Pontuação"): the wealthiest wins, and the Automa wins ties.

The player: coins; each glory token placed on Basecamp at $5/$6/$8/$10 for 0/1/2/3+ quests
solved; each upgraded item's printed coin value; $2 per corruption token (the 20 included).
The Automa: its glory, corruption and map tokens, each at the coin value its progress card shows.
"""
from __future__ import annotations

from dataclasses import dataclass

from .data import levels
from .state import GameState, PlayerFigures

GLORY_BY_QUESTS = (5, 6, 8, 10)     # coins per glory token for 0, 1, 2, 3+ quests solved
CORRUPTION_COINS = 2


@dataclass(frozen=True)
class Score:
    lines: dict[str, int]            # category -> coins

    @property
    def total(self) -> int:
        return sum(self.lines.values())


def glory_value(quests: int) -> int:
    return GLORY_BY_QUESTS[min(quests, len(GLORY_BY_QUESTS) - 1)]


def player_score(f: PlayerFigures) -> Score:
    return Score({"coins": f.coins, "glory": f.glory * glory_value(f.quests), "upgraded": f.upgraded,
                  "corruption": f.corruption * CORRUPTION_COINS})


def automa_score(state: GameState) -> Score:
    coins = levels()[state.level].coins
    return Score({"glory": state.glory * coins["glory"],
                  "corruption": len(state.automa_corruption) * coins["corruption"],
                  "map": state.automa_maps * coins["map"]})


def default_figures(state: GameState) -> PlayerFigures:
    """The figures the engine already knows (glory placed, corruption gained); the rest is 0."""
    return PlayerFigures(coins=0, quests=0, glory=state.player_glory, upgraded=0,
                         corruption=len(state.player_corruption))


def winner(player: Score, automa: Score) -> str:
    """"Se você e a Automa empatarem em moedas, a Automa vence." """
    return "player" if player.total > automa.total else "automa"
