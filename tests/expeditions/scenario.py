"""Build Expeditions states for scenario tests: a new game, then the table as a test describes it."""
from __future__ import annotations

from automa.common.deck import Deck
from automa.expeditions.setup import new_game
from automa.expeditions.state import LAIR_TOKEN, GameState, Token, check


def game(level: int = 2, seed: int = 5, turn: str = "automa") -> GameState:
    return new_game({"level": level, "seed": seed, "first": turn})


def corrupt(state: GameState, pid: str, *values: int, tile: int | None = None) -> None:
    """Turn ``pid`` face up (its map token taken by the player) with bag tokens of ``values``,
    top first, alternating colours."""
    loc = state.locations[pid]
    if not loc.face_up:
        loc.face_up, loc.map_token = True, False
        state.player_maps += 1
    loc.tile = tile if tile is not None else _free_tile(state)
    loc.corruption = [Token(v, "orange" if i % 2 == 0 else "turquoise") for i, v in enumerate(values)]


def lair(state: GameState, pid: str, *on_top: int) -> None:
    """Location 20 at ``pid``: its 20-value token, under any tokens ``on_top``."""
    corrupt(state, pid, *on_top, tile=20)
    state.locations[pid].corruption.append(LAIR_TOKEN)


def top_card(state: GameState, card: int) -> None:
    """Stack the deck so ``card`` is drawn next (the other cards keep their places)."""
    d = state.deck
    every = d.draw_pile + d.set_aside + d.discard
    every.remove(card)
    state.deck = Deck(draw_pile=[card] + every[:11], discard=every[13:], seed=d.seed, shuffles=d.shuffles,
                      set_aside=every[11:13])


def at_progress(state: GameState, space: int) -> None:
    from automa.expeditions.data import levels
    state.progress = space
    state.glory = sum(1 for s in levels()[state.level].glory_spaces if s <= space)


def _free_tile(state: GameState) -> int:
    used = {loc.tile for loc in state.locations.values()}
    return next(t for t in range(19, 0, -1) if t not in used)


def valid(state: GameState) -> GameState:
    check(state)
    return state


def reveal_all(state: GameState) -> GameState:
    """Enter every awaited reveal: a free tile number (never 20) and one 3-value token."""
    from automa.expeditions.ops import apply_ops
    for pid in state.awaiting():
        state = apply_ops(state, [{"op": "reveal", "location": pid, "tile": _free_tile(state),
                                   "tokens": [{"value": 3, "colour": "orange"}]}])
    return state
