"""Small hand-made tables for the Age of Innovation tests.

Hexes are written as the rulebook's figures show them: ``(column, row)`` of the printed rows
(odd rows shoved right), converted to the engine's axial hexes by ``at``.
"""
from __future__ import annotations

from automa.age_of_innovation.actions import Turn
from automa.age_of_innovation.board import Board, Building
from automa.age_of_innovation.data import Support, cards
from automa.age_of_innovation.setup import new_game
from automa.age_of_innovation.state import GameState
from automa.common import hexgrid as hx
from automa.common.deck import Deck
from automa.common.trace import Trace


def at(col: int, row: int) -> hx.Hex:
    return hx.offset_to_axial(col, row, "odd-r")


def table(rows: list[str], buildings=(), *, level: int = 2, faction: str = "simpletons", terrain: str = "lake",
          player_terrain: str = "forest", round: int = 1, players: int = 1, seed: int = 0) -> GameState:
    """A game in play on a board of ``rows`` with ``buildings``: ((col, row), owner, kind[, marked])."""
    board = Board.from_rows(rows)
    for b in buildings:
        (c, r), owner, kind = b[:3]
        board.buildings[at(c, r)] = Building(owner, kind, bool(b[3]) if len(b) > 3 else False)
    state = new_game(level=level, faction=faction, terrain=terrain, player_terrain=player_terrain,
                     players=players, seed=seed, board=board)
    state.phase, state.round = "play", round
    state.validate()
    return state


def later_turn(state: GameState, action: int, support: int, pile: tuple[int, ...] = (), sideways=()) -> GameState:
    """The table at one of the Automa's later turns: ``support`` face up (last turn's action
    card), ``action`` on top of the pile, then ``pile``; every other card in the reserve."""
    used = {action, support, *pile}
    state.deck = Deck(draw_pile=[action, *pile], discard=[support], seed=state.seed, sideways=list(sideways))
    state.reserve = [c for c in sorted(cards()) if c not in used]
    state.automa.turns = 1
    state.validate()
    return state


def support(buildings="unmarked", bring_together=False, row="A", direction="reading", count=1,
            science="catch_up", bonus="left") -> Support:
    return Support(buildings, bring_together, row, direction, count, science, bonus)


def turn(state: GameState, sup: Support | int) -> Turn:
    """A Turn on a copy of ``state`` with the support column ``sup`` (a Support or a card id)."""
    if isinstance(sup, int):
        sup = cards()[sup].support
    return Turn(state.copy(), sup, Trace())
