"""The Expeditions solo game state: what the Automa's turn reads and what the table shows.

Plain typed data that round-trips through JSON. :func:`load` checks everything
before returning, so an impossible state (a mech outside its region, glory that
does not match the progress token,
more corruption out of the bag than the bag holds) raises
:class:`~automa.common.errors.StateError` naming the problem.

Conventions
-----------
- Locations are named by position (``N1``-``N7``, ``C1``-``C7``, ``S1``-``S6``, west to east;
  see ``data/layout.json``); ``tile`` is the printed location number once the tile is face up
  and entered.
- A location's corruption is a list, top token first. A token is ``{"value", "colour"}`` with
  colour ``orange`` (paid with power) or ``turquoise`` (paid with guile); the 20-value token is
  ``{"value": 20, "colour": "lair"}``.
- ``glory`` and ``player.maps`` may be left out of a state: the Automa's glory follows its
  progress token, and the map tokens gone from the map that the Automa did not take are the
  player's. Given, they are checked against those. ``seed`` (0) and ``first`` ("player") may
  be left out too: no rule of a turn reads them (the deck carries its own shuffle seed).
- ``awaiting_reveal``: the tile was flipped (by the Automa or the player) and what lies on it
  (its number, the corruption drawn from the bag) has not been entered yet. The Automa does not
  take a turn while a reveal is awaited, because its next target may be that corruption.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from automa.common.deck import Deck
from automa.common.errors import StateError
from automa.common.trace import Text, text

from .data import MECH_REGION, cards, layout, levels

SCHEMA = "expeditions/1"
BAG_TOKENS = 37                 # corruption tokens in the bag at setup (seed 003), the 20 kept apart
MAP_TOKENS_ON_MAP = 14          # one per face-down Central and North location
COLOURS = ("orange", "turquoise")
LAIR = "lair"
LAIR_TILE = 20
MAX_TOKEN_VALUE = 9             # bag tokens are small numbers; anything larger is a typing error
MAX_STACK = 12                  # tokens one location can plausibly hold
PLAYERS = ("player", "automa")
TURNS = ("player", "automa", "over")
PLAYER_GLORY = 4


@dataclass(frozen=True)
class Token:
    value: int
    colour: str

    @property
    def is_lair(self) -> bool:
        return self.colour == LAIR

    def to_dict(self) -> dict:
        return {"value": self.value, "colour": self.colour}

    def said(self) -> Text:
        """The token in words (a trace line says it in the page's language): one template per
        colour, so that a language can agree the colour with its word for a token."""
        if self.is_lair:
            return text("20 (location 20)")
        if self.colour == "orange":
            return text("{value} orange", value=self.value)
        return text("{value} turquoise", value=self.value)

    def label(self) -> str:
        return str(self.said())


LAIR_TOKEN = Token(20, LAIR)


@dataclass
class Location:
    face_up: bool
    tile: int | None = None
    map_token: bool = False
    corruption: list[Token] = field(default_factory=list)     # top first
    awaiting_reveal: bool = False

    def bag_corruption(self) -> list[Token]:
        """The corruption a corruption target sees: every token but the 20."""
        return [t for t in self.corruption if not t.is_lair]

    def lair_alone(self) -> bool:
        return len(self.corruption) == 1 and self.corruption[0].is_lair


@dataclass
class PlayerFigures:
    """The player's end-of-game figures, entered at the table (seed 003, Pontuação)."""
    coins: int
    quests: int             # quests solved
    glory: int              # glory tokens placed on Basecamp
    upgraded: int           # sum of the coin values printed on upgraded items
    corruption: int         # corruption tokens gained, the 20 included


@dataclass
class GameState:
    level: int
    seed: int
    deck: Deck
    progress: int                         # 0 = Start
    glory: int                            # Automa glory tokens placed on Basecamp (1..8 in order)
    mechs: dict[str, str]                 # "north"/"central" -> location id
    locations: dict[str, Location]
    first: str
    turn: str                             # "player", "automa" or "over"
    player_at: str | None = None          # the player's mech (None: still beside the map)
    player_glory: int = 0
    player_maps: int = 0                  # map tokens the player took from the map by exploring
    player_corruption: list[Token] = field(default_factory=list)
    automa_maps: int = 0
    automa_corruption: list[Token] = field(default_factory=list)
    swept: int = 0                        # face-up cards the Automa has swept
    turns: int = 0                        # turns completed, both players
    last_card: int | None = None
    end_trigger: str | None = None        # who triggered the end
    final_turns: list[str] = field(default_factory=list)   # turns still owed after the trigger
    figures: PlayerFigures | None = None

    def copy(self) -> "GameState":
        return copy.deepcopy(self)

    def awaiting(self) -> list[str]:
        return [pid for pid, loc in self.locations.items() if loc.awaiting_reveal]

    def tokens_out_of_bag(self) -> int:
        """Bag tokens on the map or gained by either player (the 20 is not a bag token)."""
        held = self.automa_corruption + self.player_corruption
        on_map = [t for loc in self.locations.values() for t in loc.corruption]
        return sum(1 for t in held + on_map if not t.is_lair)

    def bag(self) -> int:
        return BAG_TOKENS - self.tokens_out_of_bag()


# ---------------------------------------------------------------- dump


def dump(state: GameState) -> dict:
    def loc(d: Location) -> dict:
        out: dict[str, Any] = {"face_up": d.face_up, "tile": d.tile, "map_token": d.map_token,
                               "corruption": [t.to_dict() for t in d.corruption]}
        if d.awaiting_reveal:
            out["awaiting_reveal"] = True
        return out

    data: dict[str, Any] = {
        "schema": SCHEMA, "level": state.level, "seed": state.seed, "deck": state.deck.to_dict(),
        "progress": state.progress, "glory": state.glory, "mechs": dict(state.mechs),
        "locations": {pid: loc(d) for pid, d in state.locations.items()},
        "first": state.first, "turn": state.turn, "player_at": state.player_at,
        "player": {"glory": state.player_glory, "maps": state.player_maps,
                   "corruption": [t.to_dict() for t in state.player_corruption]},
        "automa": {"maps": state.automa_maps, "corruption": [t.to_dict() for t in state.automa_corruption],
                   "swept": state.swept},
        "turns": state.turns, "last_card": state.last_card,
        "end_trigger": state.end_trigger, "final_turns": list(state.final_turns),
    }
    if state.figures is not None:
        data["figures"] = vars(state.figures).copy()
    return data


# ---------------------------------------------------------------- load


def _int(d: Any, key: str, where: str, lo: int, hi: int, default: Any = ...) -> int:
    if not isinstance(d, dict):
        raise StateError(f"{where}: expected an object")
    if key not in d:
        if default is ...:
            raise StateError(f"{where}.{key}: missing")
        return default
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise StateError(f"{where}.{key}: expected a whole number, got {v!r}")
    if not lo <= v <= hi:
        raise StateError(f"{where}.{key}: {v} is outside {lo}-{hi}")
    return v


def _choice(d: dict, key: str, where: str, choices: tuple, optional: bool = False) -> Any:
    v = d.get(key)
    if v is None and optional:
        return None
    if v not in choices:
        raise StateError(f"{where}.{key}: must be one of {', '.join(map(str, choices))}, got {v!r}")
    return v


def token(d: Any, where: str) -> Token:
    """A corruption token from JSON data, checked."""
    if not isinstance(d, dict):
        raise StateError(f"{where}: a token is an object with value and colour")
    colour = _choice(d, "colour", where, COLOURS + (LAIR,))
    if colour == LAIR:
        if d.get("value") != 20:
            raise StateError(f"{where}: the lair token is worth 20")
        return LAIR_TOKEN
    return Token(_int(d, "value", where, 1, MAX_TOKEN_VALUE), colour)


def _tokens(v: Any, where: str, limit: int) -> list[Token]:
    if not isinstance(v, list) or len(v) > limit:
        raise StateError(f"{where}: expected a list of at most {limit} tokens")
    return [token(t, f"{where}[{i}]") for i, t in enumerate(v)]


def load(data: Any) -> GameState:
    if not isinstance(data, dict):
        raise StateError("an Expeditions state is a JSON object")
    if data.get("schema") != SCHEMA:
        raise StateError(f"schema: expected {SCHEMA!r}, got {data.get('schema')!r}")
    level = _int(data, "level", "state", 1, max(levels()))
    if level not in levels():
        raise StateError(f"level: no progress card {level}")
    lv = levels()[level]
    seed = _int(data, "seed", "state", 0, 2**63 - 1, 0)
    deck = _deck(data.get("deck"))
    progress = _int(data, "progress", "state", 0, lv.last_space)
    # Glory follows the progress token (its 8 glory spaces): a state may leave it out.
    glory = _int(data, "glory", "state", 0, 8, sum(1 for s in lv.glory_spaces if s <= progress))
    lay = layout()

    raw_locs = data.get("locations")
    if not isinstance(raw_locs, dict) or set(raw_locs) != set(lay.region_of):
        raise StateError(f"locations: expected exactly the positions {', '.join(lay.region_of)}")
    locations = {pid: _location(raw_locs[pid], pid, lay.region_of[pid]) for pid in lay.region_of}

    mechs = data.get("mechs")
    if not isinstance(mechs, dict) or set(mechs) != set(MECH_REGION):
        raise StateError("mechs: expected the positions of the north and central mechs")
    for mech, region in MECH_REGION.items():
        if lay.region_of.get(mechs[mech]) != region:
            raise StateError(f"mechs.{mech}: {mechs[mech]!r} is not a {region} location")
    player_at = data.get("player_at")
    if player_at is not None and player_at not in lay.region_of:
        raise StateError(f"player_at: unknown location {player_at!r}")

    player = data.get("player") if isinstance(data.get("player"), dict) else {}
    automa = data.get("automa") if isinstance(data.get("automa"), dict) else {}
    figures = parse_figures(data["figures"]) if data.get("figures") is not None else None
    state = GameState(
        level=level, seed=seed, deck=deck, progress=progress, glory=glory, mechs=dict(mechs),
        locations=locations, first=_choice(data, "first", "state", PLAYERS, optional=True) or "player",
        turn=_choice(data, "turn", "state", TURNS), player_at=player_at,
        player_glory=_int(player, "glory", "player", 0, PLAYER_GLORY, 0),
        player_maps=_int(player, "maps", "player", 0, MAP_TOKENS_ON_MAP, -1),
        player_corruption=_tokens(player.get("corruption", []), "player.corruption", BAG_TOKENS + 1),
        automa_maps=_int(automa, "maps", "automa", 0, MAP_TOKENS_ON_MAP, 0),
        automa_corruption=_tokens(automa.get("corruption", []), "automa.corruption", BAG_TOKENS + 1),
        swept=_int(automa, "swept", "automa", 0, 10_000, 0),
        turns=_int(data, "turns", "state", 0, 10_000, 0),
        last_card=_int(data, "last_card", "state", 1, 14, None) if data.get("last_card") is not None else None,
        end_trigger=_choice(data, "end_trigger", "state", PLAYERS, optional=True),
        final_turns=_final_turns(data.get("final_turns", [])),
        figures=figures)
    if state.player_maps < 0:
        # Left out: the map tokens gone from the map that the Automa did not take are the player's.
        state.player_maps = max(0, MAP_TOKENS_ON_MAP - state.automa_maps
                                - sum(loc.map_token for loc in locations.values()))
    check(state)
    return state


def _deck(d: Any) -> Deck:
    if not isinstance(d, dict) or not isinstance(d.get("draw_pile"), list):
        raise StateError("deck: expected draw_pile, discard and set_aside lists")
    try:
        deck = Deck.from_dict(d)
    except (TypeError, ValueError, KeyError) as exc:
        raise StateError(f"deck: {exc}") from None
    if deck.cards() != sorted(cards()):
        raise StateError(f"deck: must hold each of the 14 decision cards once, holds {deck.cards()}")
    if len(deck.set_aside) != 2:
        raise StateError(f"deck: 2 cards are set aside unseen, found {len(deck.set_aside)}")
    return deck


def _location(d: Any, pid: str, region: str) -> Location:
    if not isinstance(d, dict):
        raise StateError(f"locations.{pid}: expected an object")
    face_up, awaiting = d.get("face_up"), bool(d.get("awaiting_reveal", False))
    if not isinstance(face_up, bool):
        raise StateError(f"locations.{pid}.face_up: expected true or false")
    tile = _int(d, "tile", f"locations.{pid}", 1, 20, None) if d.get("tile") is not None else None
    loc = Location(face_up=face_up, tile=tile, map_token=bool(d.get("map_token", False)),
                   corruption=_tokens(d.get("corruption", []), f"locations.{pid}.corruption", MAX_STACK),
                   awaiting_reveal=awaiting)
    if not face_up and (tile is not None or loc.corruption or awaiting):
        raise StateError(f"locations.{pid}: a face-down location shows no tile number and no corruption")
    if not face_up and region == "south":
        raise StateError(f"locations.{pid}: South locations are face up from setup")
    if awaiting and (tile is not None or loc.corruption):
        raise StateError(f"locations.{pid}: awaiting its reveal, so nothing is entered on it yet")
    lairs = [i for i, t in enumerate(loc.corruption) if t.is_lair]
    if lairs and tile != LAIR_TILE:
        raise StateError(f"locations.{pid}: the 20-value token lies only on location 20")
    return loc


def parse_figures(d: Any) -> PlayerFigures:
    where = "figures"
    return PlayerFigures(coins=_int(d, "coins", where, 0, 999), quests=_int(d, "quests", where, 0, 5),
                         glory=_int(d, "glory", where, 0, PLAYER_GLORY),
                         upgraded=_int(d, "upgraded", where, 0, 999),
                         corruption=_int(d, "corruption", where, 0, BAG_TOKENS + 1))


def _final_turns(v: Any) -> list[str]:
    if not isinstance(v, list) or len(v) > 2 or any(x not in PLAYERS for x in v):
        raise StateError("final_turns: at most two of 'player' and 'automa'")
    return list(v)


def check(state: GameState) -> None:
    """Every rule a state must keep; StateError names the first one broken."""
    lv = levels()[state.level]
    reached = sum(1 for s in lv.glory_spaces if s <= state.progress)
    if state.glory != reached:
        raise StateError(f"glory: the progress token on space {state.progress} has passed {reached} glory "
                         f"spaces, so the Automa has {reached} glory tokens on Basecamp, not {state.glory}")
    if state.bag() < 0:
        raise StateError(f"corruption: {state.tokens_out_of_bag()} bag tokens are out, the bag holds {BAG_TOKENS}")
    lair_places = sum(t.is_lair for t in state.automa_corruption + state.player_corruption) + sum(
        t.is_lair for loc in state.locations.values() for t in loc.corruption)
    if lair_places > 1:
        raise StateError("corruption: there is one 20-value token")
    tiles = [loc.tile for loc in state.locations.values() if loc.tile is not None]
    if any(not 1 <= t <= 20 for t in tiles):
        raise StateError(f"locations: tile numbers run 1-20 ({sorted(tiles)})")
    if len(tiles) != len(set(tiles)):
        raise StateError(f"locations: a tile number appears twice ({sorted(tiles)})")
    for pid, loc in state.locations.items():
        if loc.tile == LAIR_TILE and not loc.awaiting_reveal and lair_places == 0:
            raise StateError(f"locations.{pid}: location 20 was revealed, so its 20-value token is on it or gained")
    maps_on_map = sum(loc.map_token for loc in state.locations.values())
    face_down = sum(not loc.face_up for loc in state.locations.values())
    if maps_on_map < face_down:
        raise StateError("locations: every face-down location carries its map token")
    if maps_on_map + state.automa_maps + state.player_maps != MAP_TOKENS_ON_MAP:
        raise StateError(f"maps: {maps_on_map} on the map, {state.automa_maps} taken by the Automa and "
                         f"{state.player_maps} by the player, but {MAP_TOKENS_ON_MAP} were placed at setup")
    if state.turn == "over" and state.final_turns:
        raise StateError("turn: the game is over but final turns are still owed")
    if state.final_turns and state.end_trigger is None:
        raise StateError("final_turns: no end was triggered")
