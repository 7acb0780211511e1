"""Random legal Barrage states, for randomized engine tests and synthetic board images.

:func:`random_state` starts from :func:`~automa.barrage.setup.new_game` and plays
random moves through the same ops the engine emits (``build`` and ``drops``), so
every structure was placed on a legal space with a piece from the company's
supply, and every water drop on the map got there the way the rules move water:
put on a headstream, flowed down the river (:func:`~automa.barrage.water.route`),
or sent from a dam through a conduit and on down the river by a production.
Only the map changes; offices, wheels and decks keep their set-up values.
"""
from __future__ import annotations

import random

from .data import STRUCTURES, barrage_map
from .ops import apply_op
from .rules import legal_spaces, production_systems
from .setup import new_game
from .state import GameState, validate
from .water import EXIT, headstream_path, route

# Relative weights of the move kinds. Builds dominate so that long games fill
# the map; the water moves keep drops spread over headstreams and lakes.
_MOVES = (("build", 6), ("rain", 2), ("flow", 2), ("produce", 2), ("water_flow", 1))
_MAX_MOVES = 60


def random_state(seed: int, *, automas: int = 1, humans: int = 1, moves: int | None = None,
                 leeghwater: bool = False) -> GameState:
    """A validated state reached from the seeded set-up by ``moves`` random legal moves.

    ``moves=None`` draws the number (0-60) from the seed; ``moves=0`` is the start board.
    ``leeghwater`` adds the expansion's fifth company to the pool (see ``new_game``).
    The same arguments always give the same state.
    """
    state = new_game(automas, humans, seed, leeghwater=leeghwater)
    rng = random.Random(f"random_state:{seed}")
    n = rng.randint(0, _MAX_MOVES) if moves is None else moves
    if n < 0:
        raise ValueError(f"moves must be >= 0, got {n}")
    kinds = [k for k, _ in _MOVES]
    weights = [w for _, w in _MOVES]
    for _ in range(n):
        _MOVE_FUNCS[rng.choices(kinds, weights)[0]](state, rng)
    validate(state)
    return state


def _build(state: GameState, rng: random.Random) -> None:
    company = rng.choice(state.turn_order)
    left = state.companies[company].structures
    # A player picks the kind of structure first (the technology tile placed on the wheel), so
    # elevations are built about as often as the other kinds, as on a real table. Drawing among
    # all (structure, space) pairs instead made a raised company dam rare: 8 % of company dams.
    spaces = {s: legal_spaces(state, company, s) for s in STRUCTURES if left[s] > 0}
    kinds = [s for s in spaces if spaces[s]]
    if kinds:
        structure = rng.choice(kinds)
        space = rng.choice(spaces[structure])
        apply_op(state, {"op": "build", "company": company, "structure": structure, "space": space})


def _rain(state: GameState, rng: random.Random) -> None:
    """Drops from the supply onto a headstream (round income from the headstream tiles)."""
    apply_op(state, {"op": "drops", "source": "supply", "target": f"headstream:{rng.choice('ABCD')}",
                     "count": rng.randint(1, 2)})


def _flow(state: GameState, rng: random.Random) -> None:
    """Some drops of one headstream flow down its river (a Water Management action)."""
    h = rng.choice("ABCD")
    if state.headstreams[h]:
        _send(state, f"headstream:{h}", headstream_path(h), rng.randint(1, state.headstreams[h]))


def _produce(state: GameState, rng: random.Random) -> None:
    """A company produces with one of its ready systems; the water leaves the dam by the conduit."""
    company = rng.choice(state.turn_order)
    systems = production_systems(state, company)
    if systems:
        system = rng.choice(systems)
        group = barrage_map().conduits[system.conduit].group
        _send(state, f"dam:{system.dam}", barrage_map().river_after_group(group), rng.randint(1, system.drops))


def _water_flow(state: GameState, rng: random.Random) -> None:
    """The round's Water Flow phase: every headstream drop flows."""
    for h in "ABCD":
        if state.headstreams[h]:
            _send(state, f"headstream:{h}", headstream_path(h), state.headstreams[h])


def _send(state: GameState, source: str, path: list[str], count: int) -> None:
    for where, k in route(state, path, count).items():
        target = "exit" if where == EXIT else f"dam:{where}"
        apply_op(state, {"op": "drops", "source": source, "target": target, "count": k})


_MOVE_FUNCS = {"build": _build, "rain": _rain, "flow": _flow, "produce": _produce, "water_flow": _water_flow}

__all__ = ["random_state"]
