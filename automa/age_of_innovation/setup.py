"""A new game against the Automa (seed 002, *Przygotowanie rozgrywki*), every random choice
drawn from the game's seed so a game is reproducible.

- Round scoring: 6 of the 12 Automa round tiles, the one with the spade never in round 5 or 6;
  one of the 4 Automa final round tiles.
- Round bonus tiles: players + 3 set out in a line (5 alone, 6 with two players); alone, the
  Automa takes the first; with two players, a random one.
- The Automa: its faction's science steps, all its buildings and scholars, 20 VP, second in
  turn order (third with two players). The Symbionts take a second terrain priority card, their
  youth's terrain: chosen, or drawn like the Automa's in step 8's variant from the cards left
  (neither yours nor the Automa's; ruling A23).
- The Automa deck (*Przygotowanie talii Automy*): the starter cards 1-6 adjusted by the level,
  the other cards shuffled face down as the reserve; the deck shuffled and its 2 bottom cards
  turned sideways.
"""
from __future__ import annotations

import random

from automa.common.deck import Deck
from automa.common.errors import StateError

from .board import Board
from .data import DISCIPLINES, TERRAINS, cards, components, factions, levels, round_tiles
from .state import Automa, GameState, Player


def starting_decks(level: int, seed: int) -> tuple[Deck, list[int]]:
    """(the Automa deck, the reserve top first) for ``level``."""
    lv = levels()[level]
    starters = [c for c, card in sorted(cards().items()) if card.starter and c not in lv.remove_starter]
    rest = [c for c, card in sorted(cards().items()) if not card.starter and c not in lv.add_cards]
    random.Random(f"{seed}:reserve").shuffle(rest)
    reserve = list(lv.reserve_top) + rest
    starters += list(lv.add_cards) + reserve[:lv.add_random_reserve]
    reserve = reserve[lv.add_random_reserve:]
    return Deck.new(starters, seed, sideways=2), reserve


def round_tile_order(seed: int) -> tuple[list[int], int]:
    """Six round tiles for rounds 1-6 (a spade tile never in round 5 or 6) and a final tile."""
    rng = random.Random(f"{seed}:round-tiles")
    while True:
        tiles = rng.sample(sorted(round_tiles()), 6)
        if not any(round_tiles()[t].spade for t in tiles[4:]):
            break
    return tiles, rng.choice([1, 2, 3, 4])


def new_game(level: int = 2, faction: str = "simpletons", terrain: str | None = None,
             player_terrain: str | None = None, players: int = 1, seed: int = 0,
             board: Board | None = None, youth_terrain: str | None = None) -> GameState:
    if level not in levels():
        raise StateError(f"level must be 1-5 (got {level})")
    if faction not in factions():
        raise StateError(f"unknown faction {faction!r} ({', '.join(factions())})")
    if players not in (1, 2):
        raise StateError("players must be 1 or 2")
    if players == 2 and faction != "simpletons":
        raise StateError("with two players the Automa must play the Simpletons (seed 002)")
    rng = random.Random(f"{seed}:setup")
    if terrain is None:
        # the variant of step 8: the terrain priority card drawn at random, yours removed first
        terrain = rng.choice([t for t in TERRAINS if t != player_terrain])
    for t in (terrain, player_terrain):
        if t is not None and t not in TERRAINS:
            raise StateError(f"unknown terrain {t!r} ({', '.join(TERRAINS)})")
    if terrain == player_terrain:
        raise StateError("the Automa's preferred terrain must differ from yours")
    if "youth_terrain" in factions()[faction].setup and youth_terrain is None:
        youth_terrain = rng.choice([t for t in TERRAINS if t not in (terrain, player_terrain)])
    comp = components()
    deck, reserve = starting_decks(level, seed)
    tiles, final = round_tile_order(seed)
    bonus = rng.sample(range(1, comp.bonus_tiles + 1), players + 1 + 3)
    automa = Automa(vp=20, science={d: factions()[faction].science.get(d, 0) for d in DISCIPLINES},
                    scholars=comp.scholars)
    take = 0 if players == 1 else rng.randrange(len(bonus))
    automa.bonus_tile = bonus[take]
    line: list[int | None] = list(bonus)
    line[take] = None
    names = ["player", "player2"][:players]
    state = GameState(
        level=level, faction=faction, terrain=terrain, seed=seed,
        players=[Player(name=n, terrain=player_terrain if n == "player" else None) for n in names],
        automa=automa, board=board.copy() if board else Board.base(), deck=deck, reserve=reserve,
        round_tiles=tiles, final_tile=final, bonus_line=line, bonus_coins={},
        spells=[None] * comp.spells, books=[None] * comp.book_actions,
        innovations=[str(i + 1) for i in range(comp.innovations)],
        scholar_spaces={d: [None] * len(comp.scholar_spaces) for d in DISCIPLINES},
        turn_order=names + ["automa"], youth_terrain=youth_terrain)
    state.validate()
    return state
