"""Whole games with a simulated table: the terminal demo and the randomized tests.

The Automa's side is the engine's. What the engine cannot know is simulated here and named
so: what lies under a face-down tile and in the corruption bag (a *stand-in* table, not the
printed tiles and tokens, which the seed does not list), and the player's turns (a random
player who moves, explores, vanquishes and boasts). Everything is drawn from one seeded
generator, so a seed replays the same game.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterator

from .data import layout
from .ops import apply_ops
from .scoring import default_figures
from .setup import new_game
from .state import BAG_TOKENS, COLOURS, LAIR_TILE, PLAYER_GLORY, GameState, PlayerFigures
from .turn import decide

# Stand-in bag: BAG_TOKENS tokens of values 3-5 in both colours (the printed mix is not in the seed).
STAND_IN_VALUES = (3, 4, 5)


@dataclass
class StandInTable:
    """The hidden parts of the table: tile numbers per region and the corruption bag."""
    rng: random.Random
    tiles: dict[str, list[int]] = field(default_factory=dict)
    bag: list[dict] = field(default_factory=list)

    @classmethod
    def new(cls, seed: int) -> "StandInTable":
        rng = random.Random(f"{seed}:table")
        # Stand-in numbering: South 1-6, Central 7-13, North 14-20 (so location 20 lies North).
        tiles = {"south": list(range(1, 7)), "central": list(range(7, 14)), "north": list(range(14, 21))}
        for pile in tiles.values():
            rng.shuffle(pile)
        bag = [{"value": STAND_IN_VALUES[i % 3], "colour": COLOURS[i % 2]} for i in range(BAG_TOKENS)]
        rng.shuffle(bag)
        return cls(rng, tiles, bag)

    def reveal(self, state: GameState, pid: str) -> dict:
        """The reveal op for a flipped tile: its number and corruption drawn until the sum
        reaches the stand-in level (tile number // 2 + 2), or the bag is empty."""
        tile = self.tiles[layout().region_of[pid]].pop()
        if tile == LAIR_TILE:
            return {"op": "reveal", "location": pid, "tile": tile, "tokens": []}
        level, drawn = tile // 2 + 2, []
        while sum(t["value"] for t in drawn) < level and len(drawn) < state.bag() and self.bag:
            drawn.append(self.bag.pop())
        return {"op": "reveal", "location": pid, "tile": tile, "tokens": drawn}


def player_turn(state: GameState, table: StandInTable) -> tuple[GameState, list[dict], list[str]]:
    """A random player's turn: move somewhere unoccupied (exploring a face-down tile), maybe
    vanquish 1-2 tokens there, maybe boast; then pass the turn. Returns the state, the ops
    applied and what happened in words."""
    rng, lines, ops = table.rng, [], []

    def do(op: dict) -> GameState:
        ops.append(op)
        return apply_ops(state, [op])

    free = [p for p in layout().region_of if p not in state.mechs.values() and p != state.player_at]
    to = rng.choice(free)
    explored = not state.locations[to].face_up
    state = do({"op": "player_move", "to": to})
    lines.append(f"the player moves to {to}" + (" and explores it" if explored else ""))
    if explored:
        state = do(table.reveal(state, to))
        loc = state.locations[to]
        lines.append(f"{to} is tile {loc.tile} with corruption "
                     + (", ".join(t.label() for t in loc.corruption) or "none"))
    here = state.locations[to].corruption
    if here and rng.random() < 0.5:
        count = min(len(here), rng.randint(1, 2))
        state = do({"op": "player_vanquish", "count": count})
        lines.append(f"the player vanquishes {count} corruption token(s)")
    if state.player_glory < PLAYER_GLORY and rng.random() < 0.08:
        state = do({"op": "player_glory"})
        lines.append(f"the player boasts (glory token {state.player_glory})")
    state = do({"op": "end_turn", "who": "player"})
    return state, ops, lines


@dataclass(frozen=True)
class Step:
    kind: str                 # "automa" or "player"
    state: GameState          # after the step
    ops: tuple[dict, ...]     # every op of the step, in order (the Automa's and the table's)
    decision: dict | None = None
    lines: tuple[str, ...] = ()


def play(seed: int, level: int = 2, max_turns: int = 400) -> Iterator[Step]:
    """A whole game from setup to the player's final figures (simulated coins and quests)."""
    table = StandInTable.new(seed)
    state = new_game({"level": level, "seed": seed,
                      "south": [table.tiles["south"][i] for i in range(6)]})
    table.tiles["south"] = []
    for _ in range(max_turns):
        if state.turn == "over":
            break
        if state.turn == "automa":
            decision = decide(state).to_dict()
            state = apply_ops(state, decision["ops"])
            ops = list(decision["ops"])
            for pid in state.awaiting():
                ops.append(table.reveal(state, pid))
                state = apply_ops(state, ops[-1:])
            yield Step("automa", state, tuple(ops), decision)
        else:
            state, ops, lines = player_turn(state, table)
            yield Step("player", state, tuple(ops), lines=tuple(lines))
    if state.turn == "over":
        known = default_figures(state)
        figures = PlayerFigures(coins=table.rng.randint(10, 40), quests=table.rng.randint(0, 3),
                                glory=known.glory, upgraded=table.rng.randint(0, 12), corruption=known.corruption)
        op = {"op": "figures", "figures": vars(figures)}
        state = apply_ops(state, [op])
        yield Step("player", state, (op,), lines=("the simulated player's figures: " + ", ".join(
            f"{k} {v}" for k, v in vars(figures).items()),))
