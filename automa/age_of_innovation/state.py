"""The state of a game against the Age of Innovation Automa, as plain dataclasses.

What the Automa owns (seed 002, *Zasady specjalne dla Automy*): buildings and scholars it
starts with, innovations it takes, and the round bonus tile it holds; its victory points and
its markers on the science board. The state also carries what the Automa's rules read from
the table: the map with every building, the decision deck (draw pile, this round's cards face
up with the action card on top, the two sideways cards) and the reserve, the round scoring
tiles, the round bonus tiles in their line with their coins, the spells and book actions
covered, the innovation display, the scholar spaces, and the players' markers.

``GameState.from_dict`` refuses a malformed or impossible state with a StateError naming the
problem; ``to_dict`` gives JSON-ready data (hexes as axial ``[q, r]``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from automa.common.deck import Deck
from automa.common.errors import StateError

from .board import Board
from .data import DISCIPLINES, TERRAINS, cards, components, factions, final_tiles, levels, round_tiles

PHASES = ("setup", "play", "over")
PLAYERS = ("player", "player2")


@dataclass
class Player:
    name: str                              # "player" or "player2"
    terrain: str | None = None             # the player's preferred terrain (Kuddlers, Mimics read it)
    science: dict[str, int] = field(default_factory=lambda: {d: 0 for d in DISCIPLINES})
    bonus_tile: int | None = None
    passed: bool = False
    area: int = 0                          # the player's largest area, as counted at the end
    vp: int = 20


@dataclass
class Automa:
    vp: int = 20
    science: dict[str, int] = field(default_factory=lambda: {d: 0 for d in DISCIPLINES})
    scholars: int = 0                      # scholars still in the Automa's play area
    innovations: list[str] = field(default_factory=list)
    bonus_tile: int | None = None
    passed: bool = False
    turns: int = 0                         # Automa turns taken this round (0 = next is its first)
    achievements: dict[int, int] = field(default_factory=dict)   # Gognomes: token -> its points, as entered


@dataclass
class GameState:
    level: int
    faction: str
    terrain: str                           # the Automa's preferred terrain
    seed: int
    players: list[Player]
    automa: Automa
    board: Board
    deck: Deck
    reserve: list[int]                     # face down, top first
    round_tiles: list[int]                 # rounds 1-6
    final_tile: int
    bonus_line: list[int | None]           # the round bonus tiles in their line; None where one is held
    bonus_coins: dict[int, int]
    spells: list[str | None]               # who covered each spell (left to right); None = free
    books: list[str | None]                # the same for the book actions
    innovations: list[str | None]          # the innovation display in reading order; None = taken
    scholar_spaces: dict[str, list[str | None]]   # discipline -> who stands on each space (highest first)
    round: int = 1
    phase: str = "setup"
    pass_order: list[str] = field(default_factory=list)
    turn_order: list[str] = field(default_factory=list)
    setup_card: int | None = None          # the decision card drawn for the initial workshops
    youth_terrain: str | None = None       # Symbionts: the youth's terrain (its terrain priority card)

    # -- convenience -----------------------------------------------------------------------
    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise StateError(f"no player {name!r} in this game (players: {', '.join(self.player_names)})")

    @property
    def two_players(self) -> bool:
        return len(self.players) == 2

    def navigation(self) -> int:
        return levels()[self.level].navigation[self.round - 1]

    def x_points(self) -> int:
        return levels()[self.level].x_points[self.round - 1]

    def automa_supply(self, kind: str) -> int:
        """Pieces of ``kind`` still in the Automa's play area."""
        on_board = sum(1 for b in self.board.buildings.values() if b.owner == "automa" and b.kind == kind)
        return components().buildings[kind] - on_board

    def copy(self) -> "GameState":
        return GameState.from_dict(self.to_dict(), validate=False)

    # -- JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "game": "age-of-innovation", "level": self.level, "faction": self.faction, "terrain": self.terrain,
            "seed": self.seed, "round": self.round, "phase": self.phase,
            "players": [{"name": p.name, "terrain": p.terrain, "science": dict(p.science), "bonus_tile": p.bonus_tile,
                         "passed": p.passed, "area": p.area, "vp": p.vp} for p in self.players],
            "automa": {"vp": self.automa.vp, "science": dict(self.automa.science), "scholars": self.automa.scholars,
                       "innovations": list(self.automa.innovations), "bonus_tile": self.automa.bonus_tile,
                       "passed": self.automa.passed, "turns": self.automa.turns,
                       "achievements": {str(k): v for k, v in sorted(self.automa.achievements.items())}},
            "board": self.board.to_dict(), "deck": self.deck.to_dict(), "reserve": list(self.reserve),
            "round_tiles": list(self.round_tiles), "final_tile": self.final_tile,
            "bonus_line": list(self.bonus_line), "bonus_coins": {str(k): v for k, v in self.bonus_coins.items()},
            "spells": list(self.spells), "books": list(self.books), "innovations": list(self.innovations),
            "scholar_spaces": {d: list(v) for d, v in self.scholar_spaces.items()},
            "pass_order": list(self.pass_order), "turn_order": list(self.turn_order), "setup_card": self.setup_card,
            "youth_terrain": self.youth_terrain,
        }

    @classmethod
    def from_dict(cls, d: dict, validate: bool = True) -> "GameState":
        if not isinstance(d, dict):
            raise StateError("an Age of Innovation state is a JSON object")
        try:
            a = _obj(d, "automa")
            state = cls(
                level=_int(d, "level"), faction=_str(d, "faction"), terrain=_str(d, "terrain"), seed=_int(d, "seed"),
                players=[Player(name=_str(p, "name", "players"), terrain=p.get("terrain"),
                                science=_science(p.get("science"), "players.science"), bonus_tile=p.get("bonus_tile"),
                                passed=bool(p.get("passed", False)), area=int(p.get("area", 0)), vp=int(p.get("vp", 20)))
                         for p in _list(d, "players")],
                automa=Automa(vp=_int(a, "vp", "automa"), science=_science(a.get("science"), "automa.science"),
                              scholars=_int(a, "scholars", "automa"), innovations=[str(x) for x in a.get("innovations", [])],
                              bonus_tile=a.get("bonus_tile"), passed=bool(a.get("passed", False)),
                              turns=int(a.get("turns", 0)),
                              achievements=_achievements(a.get("achievements", {}))),
                board=Board.from_dict(d.get("board")),
                deck=Deck.from_dict(_obj(d, "deck")), reserve=[int(c) for c in _list(d, "reserve")],
                round_tiles=[int(t) for t in _list(d, "round_tiles")], final_tile=_int(d, "final_tile"),
                bonus_line=[None if t is None else int(t) for t in _list(d, "bonus_line")],
                bonus_coins={int(k): int(v) for k, v in _obj(d, "bonus_coins").items()},
                spells=list(_list(d, "spells")), books=list(_list(d, "books")),
                innovations=[None if x is None else str(x) for x in _list(d, "innovations")],
                scholar_spaces={k: list(v) for k, v in _obj(d, "scholar_spaces").items()},
                round=_int(d, "round"), phase=_str(d, "phase"),
                pass_order=[str(x) for x in d.get("pass_order", [])], turn_order=[str(x) for x in d.get("turn_order", [])],
                setup_card=d.get("setup_card"), youth_terrain=d.get("youth_terrain"))
        except StateError:
            raise
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise StateError(f"malformed Age of Innovation state: {type(exc).__name__}: {exc}") from None
        if validate:
            state.validate()
        return state

    def validate(self) -> None:
        """Refuse an impossible state, naming the first problem found."""
        if self.level not in levels():
            raise StateError(f"level: {self.level} is not a difficulty level (1-5)")
        if self.faction not in factions():
            raise StateError(f"faction: {self.faction!r} is not an Automa faction ({', '.join(factions())})")
        if self.terrain not in TERRAINS:
            raise StateError(f"terrain: {self.terrain!r} is not a terrain ({', '.join(TERRAINS)})")
        if not 1 <= len(self.players) <= 2 or [p.name for p in self.players] != list(PLAYERS[:len(self.players)]):
            raise StateError("players: one player named 'player', or two named 'player' and 'player2'")
        if self.two_players and self.faction != "simpletons":
            raise StateError("faction: with two players the Automa plays the Simpletons (seed 002, 2 players + Automa)")
        for p in self.players:
            if p.terrain is not None and p.terrain not in TERRAINS:
                raise StateError(f"{p.name}.terrain: {p.terrain!r} is not a terrain")
            if p.terrain == self.terrain:
                raise StateError(f"terrain: the Automa's preferred terrain must differ from {p.name}'s")
        self._validate_youth()
        if not 1 <= self.round <= 6:
            raise StateError(f"round: {self.round} is not 1-6")
        if self.phase not in PHASES:
            raise StateError(f"phase: {self.phase!r} is not one of {', '.join(PHASES)}")
        top = components().top_level
        for who, science in [("automa", self.automa.science)] + [(p.name, p.science) for p in self.players]:
            for disc, lv in science.items():
                if not 0 <= lv <= top:
                    raise StateError(f"{who}.science.{disc}: level {lv} is not 0-{top}")
        tokens = components().achievement_tokens
        if self.automa.achievements and "achievements" not in factions()[self.faction].rules:
            raise StateError("automa.achievements: only the Gognomes have achievements")
        if any(not 1 <= k <= tokens or not 0 <= v <= 99 for k, v in self.automa.achievements.items()):
            raise StateError(f"automa.achievements: token 1-{tokens} -> its points (0-99)")
        if len(self.automa.innovations) > 3:
            raise StateError("automa.innovations: the Automa takes at most 3 innovations (seed 002, Zyskanie innowacji)")
        self._validate_cards()
        if self.setup_card is not None and self.setup_card not in cards():
            raise StateError(f"setup_card: {self.setup_card} is not a decision card (1-14)")
        self._validate_tiles()
        placed = sum(v.count("automa") for v in self.scholar_spaces.values())
        if self.automa.scholars < 0 or self.automa.scholars + placed > components().scholars:
            raise StateError(f"automa.scholars: {self.automa.scholars} in supply and {placed} on the board; "
                             f"the Automa has {components().scholars}")
        self.board.validate()

    def _validate_youth(self) -> None:
        """Symbionts only: a second terrain priority card, so a terrain other than the Automa's."""
        if "youth_terrain" not in factions()[self.faction].setup:
            if self.youth_terrain is not None:
                raise StateError(f"youth_terrain: only the Symbionts have a youth terrain (faction {self.faction})")
            return
        if self.youth_terrain not in TERRAINS:
            raise StateError(f"youth_terrain: the Symbionts need a youth terrain ({', '.join(TERRAINS)}), "
                             f"not {self.youth_terrain!r}")
        if self.youth_terrain == self.terrain:
            raise StateError("youth_terrain: the youth's terrain priority card is a second card, not the Automa's")

    def _validate_cards(self) -> None:
        known = cards()
        every = self.deck.draw_pile + self.deck.discard + self.reserve
        for c in every:
            if c not in known:
                raise StateError(f"deck: {c} is not a decision card (1-14)")
        dup = {c for c in every if every.count(c) > 1}
        if dup:
            raise StateError(f"deck: card {sorted(dup)[0]} is in two places")
        for c in self.deck.sideways:
            if c not in self.deck.draw_pile and c not in self.deck.discard:
                raise StateError(f"deck.sideways: card {c} is not in the deck")
        if self.automa.turns and not self.automa.passed and not self.deck.discard:
            raise StateError("deck: the Automa has had a turn this round but no card is face up")
        if self.automa.turns < 0:
            raise StateError("automa.turns: must be 0 or more")

    def _validate_tiles(self) -> None:
        if len(self.round_tiles) != 6 or len(set(self.round_tiles)) != 6 or any(t not in round_tiles() for t in self.round_tiles):
            raise StateError("round_tiles: six different round scoring tiles (1-12), rounds 1-6")
        for i, t in enumerate(self.round_tiles[4:], start=5):
            if round_tiles()[t].spade:
                raise StateError(f"round_tiles: tile {t} (with the spade) may not lie in round {i}")
        if self.final_tile not in final_tiles():
            raise StateError(f"final_tile: {self.final_tile} is not a final round tile (1-4)")
        held = [t for t in [self.automa.bonus_tile] + [p.bonus_tile for p in self.players] if t is not None]
        line = [t for t in self.bonus_line if t is not None]
        if len(set(line + held)) != len(line + held):
            raise StateError("bonus tiles: a round bonus tile is both in the line and held, or held twice")
        comp = components()
        if len(self.spells) != comp.spells or len(self.books) != comp.book_actions:
            raise StateError(f"spells/books: {comp.spells} spells and {comp.book_actions} book actions")
        for name, v in [("spells", self.spells), ("books", self.books)]:
            if any(x is not None and x not in ("automa",) + PLAYERS for x in v):
                raise StateError(f"{name}: each is covered by automa, player, player2 or nobody (null)")
        if set(self.scholar_spaces) != set(DISCIPLINES) or any(len(v) != len(comp.scholar_spaces)
                                                               for v in self.scholar_spaces.values()):
            raise StateError(f"scholar_spaces: {len(comp.scholar_spaces)} spaces for each of {', '.join(DISCIPLINES)}")


def _obj(d: dict, key: str, where: str = "") -> dict:
    v = d.get(key) if isinstance(d, dict) else None
    if not isinstance(v, dict):
        raise StateError(f"{where + '.' if where else ''}{key}: expected an object")
    return v


def _list(d: dict, key: str, where: str = "") -> list:
    v = d.get(key) if isinstance(d, dict) else None
    if not isinstance(v, list) or len(v) > 200:
        raise StateError(f"{where + '.' if where else ''}{key}: expected a list")
    return v


def _int(d: dict, key: str, where: str = "") -> int:
    v = d.get(key) if isinstance(d, dict) else None
    if not isinstance(v, int) or isinstance(v, bool):
        raise StateError(f"{where + '.' if where else ''}{key}: expected a whole number")
    return v


def _str(d: dict, key: str, where: str = "") -> str:
    v = d.get(key) if isinstance(d, dict) else None
    if not isinstance(v, str):
        raise StateError(f"{where + '.' if where else ''}{key}: expected text")
    return v


def _achievements(v) -> dict[int, int]:
    if not isinstance(v, dict) or len(v) > 20 or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in v.values()):
        raise StateError("automa.achievements: an object token -> points")
    return {int(k): x for k, x in v.items()}


def _science(v, where: str) -> dict[str, int]:
    if not isinstance(v, dict) or set(v) != set(DISCIPLINES) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in v.values()):
        raise StateError(f"{where}: a level for each of {', '.join(DISCIPLINES)}")
    return {d: v[d] for d in DISCIPLINES}

