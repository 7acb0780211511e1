"""A whole game with a stand-in for the human players, for the terminal demo and the tests.

The stand-in is no strategy: seeded and simple, it builds workshops next to its own buildings
(or anywhere on its terrain at first), advances a discipline or uses a spell, and passes after
a few turns taking a random round bonus tile. Its moves are the same ops a player reports on
the page, so the Automa meets a table that changes the way a real one does. With the base map
the setup card's letters are unknown, so the stand-in places the Automa's initial workshops
as the players would: on two hexes of the Automa's terrain.
"""
from __future__ import annotations

import random
from typing import Iterator

from automa.common import hexgrid as hx
from automa.games import PlayEvent

from .data import DISCIPLINES, TERRAINS
from .ops import Op, apply_ops
from .state import GameState
from .turn import decide


def _player_move(state: GameState, who: str, rng: random.Random, turns_left: dict[str, int]) -> list[Op]:
    """One turn of the stand-in ``who``: a build, a science step or a spell; or its pass."""
    p = state.player(who)
    if turns_left[who] <= 0:
        ops: list[Op] = []
        free = [i for i, t in enumerate(state.bonus_line) if t is not None]
        if state.round < 6 and free:
            ops.append({"op": "bonus_tile", "who": who, "position": rng.choice(free)})
        return ops + [{"op": "pass", "who": who}]
    turns_left[who] -= 1
    b = state.board
    mine = b.owned(who)
    near = sorted({n for h in mine for n in hx.neighbours(h) if b.is_land(n) and n not in b.buildings})
    roll = rng.random()
    if roll < 0.6 and near and sum(1 for h in mine if b.buildings[h].kind == "workshop") < 8:
        h = rng.choice(near)
        return [{"op": "terrain", "hex": list(h), "terrain": p.terrain},
                {"op": "build", "hex": list(h), "owner": who, "kind": "workshop"}]
    if roll < 0.85:
        d = rng.choice(DISCIPLINES)
        return [{"op": "science", "who": who, "discipline": d, "levels": 1, "space": None}] if p.science[d] < 11 else []
    free = [i for i, x in enumerate(state.spells) if x is None]
    return [{"op": "cover", "what": "spells", "index": rng.choice(free), "who": who}] if free else []


def _setup_players(state: GameState, rng: random.Random) -> GameState:
    """Each stand-in picks a terrain, a bonus tile and places its first workshop."""
    state = state.copy()
    taken = {state.terrain}
    for p in state.players:
        p.terrain = p.terrain or rng.choice([t for t in TERRAINS if t not in taken])
        taken.add(p.terrain)
    for p in state.players:
        free = [i for i, t in enumerate(state.bonus_line) if t is not None]
        spots = [h for h in state.board.empty_land() if state.board.terrain[h] == p.terrain]
        state = apply_ops(state, [{"op": "bonus_tile", "who": p.name, "position": rng.choice(free)},
                                  {"op": "build", "hex": list(rng.choice(spots)), "owner": p.name, "kind": "workshop"}])
    return state


def play(state: GameState, max_turns: int = 400) -> Iterator[PlayEvent]:
    rng = random.Random(f"{state.seed}:stand-in")
    state = _setup_players(state, rng)
    yield PlayEvent("phase", "Set-up: the players place their first workshops", state)
    steps = 0
    turns_left: dict[str, int] = {}
    turns_round = 0
    while state.phase != "over" and steps < max_turns:
        steps += 1
        if state.phase == "setup" or state.automa.passed and all(p.passed for p in state.players):
            d = decide(state).to_dict()
            state = apply_ops(state, d["ops"])
            if d["action"] == "setup" and not state.board.owned("automa"):
                spots = [h for h in state.board.empty_land() if state.board.terrain[h] == state.terrain]
                picks = rng.sample(spots, 2)
                state = apply_ops(state, [{"op": "build", "hex": list(picks[0]), "owner": "automa", "kind": "workshop",
                                           "marked": True},
                                          {"op": "build", "hex": list(picks[1]), "owner": "automa", "kind": "workshop"}])
            yield PlayEvent("turn", d["instruction"], state, d)
            continue
        if turns_round != state.round:
            turns_left, turns_round = {p.name: rng.randint(3, 6) for p in state.players}, state.round
        for who in state.turn_order:
            if state.phase != "play":
                break
            if who == "automa":
                if not state.automa.passed:
                    d = decide(state).to_dict()
                    state = apply_ops(state, d["ops"])
                    yield PlayEvent("turn", f"[round {state.round}] {d['instruction']}", state, d)
            elif not state.player(who).passed:
                ops = _player_move(state, who, rng, turns_left)
                if ops:
                    state = apply_ops(state, ops)
