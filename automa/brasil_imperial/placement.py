"""Where the Autômato builds (seed 001, "Construções" and "Cidades").

Its constructions and cities go on a free land space adjacent to its empire (its capital, cities
and constructions), of the construction's terrain (a city: any land, ruling B6). Among several,
in order:

1. the space giving the most *potential new building spaces*: free land spaces next to it that
   are not yet next to the empire ("Construindo neste espaço o Autômato aumenta em 2 o seu
   potencial de novos locais de construção");
2. the space next to the Autômato's constructions with the most VP (the most VP one
   construction next to it is worth; cities and its capital are not constructions; ruling B1);
3. the space nearest its capital (hex distance);
4. still tied: the first in reading order (top row, left to right; ruling B2).

With no free space at all next to its empire it builds over one of its own Era I constructions,
then Era II ones, that no player's unit holds, chosen by criteria 2 and 3 ("construirá sobre uma construção livre da Era I e
depois Era II seguindo as regras anteriores (2 e 3)"; ruling B3).
"""
from __future__ import annotations

from dataclasses import dataclass

from automa.common import hexgrid
from automa.common.trace import Text, Trace, text

from .state import AUTOMA, GameState, Hex, hex_key


@dataclass(frozen=True)
class Spot:
    hex: Hex
    over: bool = False          # built over one of its own earlier constructions


def frontier(s: GameState) -> set[Hex]:
    """Free land spaces adjacent to the Autômato's empire."""
    return {n for h in s.empire() for n in hexgrid.neighbours(h) if n in s.cells and s.cells[n].free()}


def potential(s: GameState, h: Hex, front: set[Hex]) -> int:
    """Free land spaces next to ``h`` that building there would newly open to the empire."""
    return sum(1 for n in hexgrid.neighbours(h) if n in s.cells and s.cells[n].free() and n not in front and n != h)


def vp_next_to(s: GameState, h: Hex) -> int:
    """The VP of the Autômato's best construction next to ``h`` (0: none). "Construções com mais
    Pontos de Vitória" compares constructions, where the units icon says "a maior soma"."""
    return max((s.cells[n].building.vp for n in hexgrid.neighbours(h)
                if n in s.cells and s.cells[n].building and s.cells[n].building.owner == AUTOMA
                and s.cells[n].building.kind == "construction"), default=0)


def _narrow(cands: list[Hex], score, label: Text, best_is_max: bool, trace: Trace) -> list[Hex]:
    scores = {h: score(h) for h in cands}
    best = (max if best_is_max else min)(scores.values())
    kept = [h for h in cands if scores[h] == best]
    trace.add("{label}: {scores} -> {kept}", label=label, scores=[f"{hex_key(h)}={scores[h]}" for h in cands],
              kept=[hex_key(h) for h in kept])
    return kept


def rank(s: GameState, cands: list[Hex], trace: Trace, criteria: tuple[int, ...] = (1, 2, 3)) -> Hex:
    """The space the criteria choose among ``cands`` (non-empty)."""
    cands = hexgrid.reading_order(cands, s.orientation)
    front = frontier(s)
    capital = s.automa_capital()
    steps = {1: (lambda h: potential(s, h, front), text("1. most potential new building spaces"), True),
             2: (lambda h: vp_next_to(s, h), text("2. next to its constructions with the most VP"), True),
             3: (lambda h: hexgrid.distance(h, capital), text("3. nearest its capital"), False)}
    for c in criteria:
        if len(cands) == 1:
            break
        score, label, is_max = steps[c]
        cands = _narrow(cands, score, label, is_max, trace)
    if len(cands) > 1:
        trace.add("still tied: the first in reading order, {hex}", hex=hex_key(cands[0]))
    return cands[0]


def place(s: GameState, terrain: str | None, trace: Trace, era: int | None = None) -> Spot | None:
    """Where a construction of ``terrain`` (None: a city, any land) goes, or None when it cannot.

    ``era``: the construction's Era, for building over older constructions when no space is free."""
    front = sorted(frontier(s))
    fits = [h for h in front if terrain is None or s.cells[h].terrain == terrain]
    if fits:
        if terrain is None:
            trace.add("free spaces next to its empire: {hexes}", hexes=[hex_key(h) for h in fits])
        else:
            trace.add("free spaces next to its empire on {terrain}: {hexes}", terrain=terrain,
                      hexes=[hex_key(h) for h in fits])
        return Spot(rank(s, fits, trace))
    if front:
        free = [f"{hex_key(h)} {s.cells[h].terrain}" for h in front]
        if terrain:
            trace.add("no free {terrain} space next to its empire (free: {free})", terrain=terrain, free=free)
        else:
            trace.add("no free land space next to its empire (free: {free})", free=free)
        return None
    if era is None:
        trace.add("no free space next to its empire")
        return None
    trace.add("no free space at all next to its empire: it builds over an older construction")
    for old in (1, 2):
        if old >= era:
            break
        # "livre": no player's unit holds it (ruling B3)
        olds = [h for h, c in s.cells.items() if c.building and c.building.owner == AUTOMA
                and c.building.kind == "construction" and c.building.era == old and not c.foes]
        if olds:
            trace.add("its Era {era} constructions: {hexes}", era=old, hexes=[hex_key(h) for h in olds])
            return Spot(rank(s, olds, trace, (2, 3)), over=True)
        trace.add("no Era {era} construction of its own", era=old)
    return None
