"""The Autômato's final score (seed 001, "Palácios", "Cartas de Ouro", "Pontuação final").

Its constructions and cities on the map, every palace (it holds all of them from the start and
each already scores), the VP printed on its gold cards whether or not it met their criterion,
and what the table counted by the base rules that the engine does not track (``other_vp``).
"""
from __future__ import annotations

from dataclasses import dataclass

from .state import AUTOMA, GameState


@dataclass(frozen=True)
class Score:
    constructions: int
    cities: int
    palaces: int
    gold: int | None           # None until the gold cards are revealed at the end
    other: int

    @property
    def total(self) -> int:
        return self.constructions + self.cities + self.palaces + (self.gold or 0) + self.other


def automa_score(s: GameState) -> Score:
    mine = [c.building for c in s.cells.values() if c.building and c.building.owner == AUTOMA]
    return Score(constructions=sum(b.vp for b in mine if b.kind == "construction"),
                 cities=sum(b.vp for b in mine if b.kind == "city"),
                 palaces=sum(p.vp for p in s.board.palaces),
                 gold=sum(s.automa.gold_vp) if s.automa.gold_vp is not None else None,
                 other=s.automa.other_vp)
