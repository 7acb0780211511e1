"""Setting up a solo game against the Automa (seed 003, "Preparação").

- South's 6 locations face up; Central's 7 and North's 7 face down, a map token on each.
- The North mech on the west-most North location, the Central mech on the east-most Central one.
- The chosen progress card with the progress token on Start (space 0).
- The 14 decision cards shuffled, 2 set aside unseen, the rest the decision deck.
- 8 glory tokens on the Automa's glory card (none on Basecamp yet).
- The first player drawn at random (from the game's seed, so a replay agrees).
"""
from __future__ import annotations

import random
import secrets
from typing import Any, Mapping

from automa.common.deck import Deck
from automa.common.errors import StateError

from .data import cards, layout, levels
from .state import GameState, Location, check

DEFAULT_LEVEL = 2          # "O Nível 2 é sugerido para a primeira jogada"
SET_ASIDE = 2


def new_game(options: Mapping[str, Any] | None = None) -> GameState:
    """A new game from ``options``: ``level`` (1-3), ``seed`` (None: a fresh one), ``first``
    ("random", "player" or "automa") and ``south`` (the 6 South tile numbers west to east, if
    the player enters them; empty: entered later)."""
    options = dict(options or {})
    level = int(options.get("level") or DEFAULT_LEVEL)
    if level not in levels():
        raise StateError(f"level: choose one of {', '.join(map(str, levels()))}")
    seed = options.get("seed")
    seed = secrets.randbelow(2**31) if seed is None else int(seed)
    if not 0 <= seed < 2**63:
        raise StateError("seed: must be a whole number from 0")
    first = options.get("first") or "random"
    if first == "random":
        first = random.Random(f"{seed}:first").choice(("player", "automa"))
    if first not in ("player", "automa"):
        raise StateError("first: player, automa or random")
    lay = layout()
    south = list(options.get("south") or [])
    if south and len(south) != len(lay.regions["south"]):
        raise StateError(f"south: enter all {len(lay.regions['south'])} South tile numbers west to east, or none")
    locations: dict[str, Location] = {}
    for region, ids in lay.regions.items():
        for i, pid in enumerate(ids):
            if region == "south":
                locations[pid] = Location(face_up=True, tile=int(south[i]) if south else None)
            else:
                locations[pid] = Location(face_up=False, map_token=True)
    state = GameState(
        level=level, seed=seed, deck=Deck.new(sorted(cards()), seed, set_aside=SET_ASIDE),
        progress=0, glory=0,
        mechs={"north": lay.regions["north"][0], "central": lay.regions["central"][-1]},
        locations=locations, first=first, turn=first)
    check(state)
    return state
