"""The Brasil Imperial Autômato's game state: the map as axial hexes and what the Autômato holds.

Plain typed data that round-trips through JSON (``dump``/``load``); ``load`` checks every field
and the rules a state keeps (``check``), raising StateError naming the problem.

Conventions
-----------
- A hex is axial ``(q, r)``, written ``"q,r"`` in JSON; the map's ``orientation`` (pointy or flat)
  says how it is drawn, which the compass needs (its cone is an angle on the table).
- ``owner`` is ``"automa"`` or a player's name. A building is a capital, a city or a construction;
  ``dominated`` marks a player's construction the Autômato won in combat.
- The Autômato's units: each board unit (``"1"``-``"5"``, ``"monarch"``) is in the stock
  (``at`` null) or on a hex, standing or ``lying`` (the turn number it lay down on a dominated
  construction). The standing units move together with the compass.
- The card set and the board are kept in the state, so a saved game replays with the cards
  it was started with even after the players edit their cards.
- ``pending``: what the players must enter before the Autômato's next turn: the revealed
  exploration tile, the outcome of a combat, or the Era's mission card when it is revealed.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from automa.common import hexgrid
from automa.common.deck import Deck
from automa.common.errors import StateError

from .board import WATER, Board, load_board, number_field
from .cards import DIFFICULTIES, CardSet, dump_cards, load_cards

SCHEMA = "brasil-imperial/1"
AUTOMA = "automa"
Hex = hexgrid.Hex
MAX_HEXES = 400
MAX_COORD = 40
MAX_PLAYERS = 3
MAX_COMBAT_CARDS = 3
MAX_ADDER = 1
MAX_FOES = 12
MAX_PARTS = 6
BUILDING_KINDS = ("capital", "city", "construction")
TILE_KINDS = ("flag", "quilombo", "other")
OBJECTIVE_KINDS = ("construction", "city", "summon", "frame", "product", "other")
PENDING_KINDS = ("explore", "combat", "mission")
CELL_KEYS = ("terrain", "building", "tile", "foes")


def hex_key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def parse_hex(v: Any, where: str) -> Hex:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        parts = list(v)
    elif isinstance(v, str) and v.count(",") == 1 and len(v) <= 12:
        parts = v.split(",")
    else:
        raise StateError(f"{where}: a hex is written 'q,r', got {v!r}")
    try:
        q, r = (int(str(p).strip()) for p in parts)
    except ValueError:
        raise StateError(f"{where}: a hex is written 'q,r' with whole numbers, got {v!r}") from None
    if abs(q) > MAX_COORD or abs(r) > MAX_COORD:
        raise StateError(f"{where}: {q},{r} is outside the +-{MAX_COORD} grid")
    return (q, r)


@dataclass
class Building:
    owner: str
    kind: str                      # capital | city | construction
    ref: str                       # capital name, city id or construction id
    vp: int = 0
    era: int = 0
    resources: int = 0             # resources or elements lying on it
    dominated: bool = False        # a player's construction the Autômato won


@dataclass
class Tile:
    """An exploration tile: face down until explored, then what the players entered."""
    face_down: bool = True
    kind: str | None = None        # flag | quilombo | other, once revealed
    fc: int = 0                    # a flag's combat strength


@dataclass
class Foe:
    """A player's military unit on the map (its VP draws the compass's 'units' direction)."""
    owner: str
    vp: int = 0
    fc: int = 0


@dataclass
class Cell:
    terrain: str
    building: Building | None = None
    tile: Tile | None = None
    foes: list[Foe] = field(default_factory=list)

    def free(self) -> bool:
        """A space a construction or city can go on: land, empty, no tile and no enemy unit."""
        return self.terrain != WATER and self.building is None and self.tile is None and not self.foes


@dataclass
class Unit:
    at: Hex | None = None
    lying: int | None = None       # the turn it lay down on a dominated construction


@dataclass
class Objective:
    """One part of a mission card's objective: "2 Quadros e 1 Feitoria" is objective 2 in two
    parts (a frame, a trading post)."""
    kind: str
    ref: str | None = None         # a construction id or "any", a frame type, a product or its shape
    done: bool = False
    number: int = 1                # the objective it belongs to: 1, 2 or 3 (the card's order)


@dataclass
class Player:
    name: str
    capital: str


@dataclass
class Automa:
    capital: str
    units: dict[str, Unit]
    adder: int = 0
    combat_cards: int = 0
    gold: int = 0
    frames: list[str] = field(default_factory=list)
    products: list[str] = field(default_factory=list)
    flags: int = 0
    missions: dict[int, list[Objective] | None] = field(default_factory=lambda: {1: None, 2: None, 3: None})
    gold_vp: list[int] | None = None     # the gold cards' VP, entered when revealed at the end
    other_vp: int = 0                    # VP the table counted that the engine does not track


@dataclass
class GameState:
    seed: int
    difficulty: str
    movement_difficulty: str
    cards: CardSet
    board: Board
    orientation: str
    capitals: dict[str, Hex]
    cells: dict[Hex, Cell]
    players: list[Player]                # most experienced first
    automa: Automa
    turn_position: int                   # the Autômato's place in the turn order (0 = first)
    action_deck: Deck
    movement_deck: Deck
    compass_at: Hex
    heading: int                         # hexgrid direction index the compass's tip points to
    era: int = 1
    action_fresh: bool = True            # the next action phase reads row 1 of the top card
    movement_started: bool = False       # turned face up when the first unit was summoned
    movement_fresh: bool = True
    pending: dict | None = None
    turns: int = 0
    taken_frames: list[str] = field(default_factory=list)      # by the players
    taken_cities: list[str] = field(default_factory=list)      # by the players
    over: bool = False

    def copy(self) -> "GameState":
        """A copy to change; the card set and the board are shared, not copied: they are read-only
        data that no op changes (a new set or board comes only from ``load``), and copying them
        for every op replayed was nearly all of a turn's time."""
        return copy.deepcopy(self, {id(self.cards): self.cards, id(self.board): self.board})

    # -- queries the rules read ------------------------------------------------------
    def automa_capital(self) -> Hex:
        return self.capitals[self.automa.capital]

    def empire(self) -> list[Hex]:
        """Hexes of the Autômato's capital, cities and constructions."""
        return [h for h, c in self.cells.items() if c.building and c.building.owner == AUTOMA]

    def units_on_map(self) -> dict[str, Unit]:
        return {uid: u for uid, u in self.automa.units.items() if u.at is not None}

    def standing(self) -> dict[str, Unit]:
        return {uid: u for uid, u in self.units_on_map().items() if u.lying is None}

    def group(self) -> list[str]:
        """The standing units on the compass's hex, in board order (they move with it)."""
        return [uid for uid in self.board.ids("units")
                if self.automa.units[uid].at == self.compass_at and self.automa.units[uid].lying is None]

    def fc_of(self, uids: list[str]) -> int:
        return sum(self.board.unit(u).fc for u in uids)

    def player_names(self) -> list[str]:
        return [p.name for p in self.players]


# ---------------------------------------------------------------- dump

def _building(b: Building) -> dict:
    out = {"owner": b.owner, "kind": b.kind, "ref": b.ref, "vp": b.vp, "era": b.era}
    if b.resources:
        out["resources"] = b.resources
    if b.dominated:
        out["dominated"] = True
    return out


def dump_cell(c: Cell) -> dict:
    out: dict[str, Any] = {"terrain": c.terrain}
    if c.building:
        out["building"] = _building(c.building)
    if c.tile:
        out["tile"] = {"face_down": c.tile.face_down, "kind": c.tile.kind, "fc": c.tile.fc}
    if c.foes:
        out["foes"] = [vars(f).copy() for f in c.foes]
    return out


def _part(o: Objective) -> dict:
    return {"objective": o.number, "kind": o.kind, "ref": o.ref, "done": o.done}


def dump(s: GameState) -> dict:
    a = s.automa
    return {
        "schema": SCHEMA, "seed": s.seed, "difficulty": s.difficulty, "movement_difficulty": s.movement_difficulty,
        "cards": dump_cards(s.cards), "board": s.board.raw,
        "map": {"orientation": s.orientation, "capitals": {k: hex_key(h) for k, h in s.capitals.items()},
                "hexes": {hex_key(h): dump_cell(c) for h, c in s.cells.items()}},
        "players": [vars(p).copy() for p in s.players],
        "automa": {"capital": a.capital, "adder": a.adder, "combat_cards": a.combat_cards, "gold": a.gold,
                   "frames": list(a.frames), "products": list(a.products), "flags": a.flags,
                   "units": {uid: {"at": hex_key(u.at) if u.at else None, "lying": u.lying} for uid, u in a.units.items()},
                   "missions": {str(e): None if m is None else [_part(o) for o in m] for e, m in a.missions.items()},
                   "gold_vp": a.gold_vp, "other_vp": a.other_vp},
        "turn_position": s.turn_position, "era": s.era,
        "action_deck": s.action_deck.to_dict(), "action_fresh": s.action_fresh,
        "movement_deck": s.movement_deck.to_dict(), "movement_started": s.movement_started,
        "movement_fresh": s.movement_fresh,
        "compass": {"at": hex_key(s.compass_at), "heading": s.heading},
        "pending": copy.deepcopy(s.pending), "turns": s.turns,
        "taken": {"frames": list(s.taken_frames), "cities": list(s.taken_cities)}, "over": s.over,
    }


# ---------------------------------------------------------------- load

def _bool(d: dict, key: str, where: str, default: bool = False) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise StateError(f"{where}.{key}: true or false")
    return v


def _name(v: Any, where: str) -> str:
    if not isinstance(v, str) or not 1 <= len(v.strip()) <= 40:
        raise StateError(f"{where}: a name of 1-40 characters")
    return v.strip()


def load_building(d: Any, where: str, owners: list[str], board: Board) -> Building:
    if not isinstance(d, dict):
        raise StateError(f"{where}: expected an object")
    owner = d.get("owner")
    if owner not in owners:
        raise StateError(f"{where}.owner: one of {', '.join(owners)}, got {owner!r}")
    kind = d.get("kind")
    if kind not in BUILDING_KINDS:
        raise StateError(f"{where}.kind: one of {', '.join(BUILDING_KINDS)}")
    ref = d.get("ref")
    if not isinstance(ref, str) or not 1 <= len(ref) <= 40:
        raise StateError(f"{where}.ref: the capital, city or construction it is")
    if owner == AUTOMA and kind == "construction" and ref not in [c.id for c in board.constructions]:
        raise StateError(f"{where}.ref: the Autômato has no construction {ref!r}")
    b = Building(owner, kind, ref, number_field(d, "vp", where, 0, 99, 0), number_field(d, "era", where, 0, 3, 0),
                 number_field(d, "resources", where, 0, 99, 0), _bool(d, "dominated", where))
    if b.dominated and (owner == AUTOMA or kind != "construction"):
        raise StateError(f"{where}: only a player's construction can be dominated (a city or capital is not, "
                         "ruling B15)")
    return b


def load_cell(d: Any, where: str, owners: list[str], board: Board) -> Cell:
    if not isinstance(d, dict):
        raise StateError(f"{where}: expected an object")
    unknown = set(d) - set(CELL_KEYS)
    if unknown:
        raise StateError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))} "
                         f"(a hex has {', '.join(CELL_KEYS)})")
    terrain = d.get("terrain")
    if terrain != WATER and terrain not in board.terrains:
        raise StateError(f"{where}.terrain: water or one of {', '.join(board.terrains)}, got {terrain!r}")
    cell = Cell(terrain)
    if d.get("building") is not None:
        cell.building = load_building(d["building"], f"{where}.building", owners, board)
        if terrain == WATER:
            raise StateError(f"{where}: nothing is built on water")
    if d.get("tile") is not None:
        t = d["tile"]
        if not isinstance(t, dict):
            raise StateError(f"{where}.tile: expected an object")
        kind = t.get("kind")
        if kind is not None and kind not in TILE_KINDS:
            raise StateError(f"{where}.tile.kind: one of {', '.join(TILE_KINDS)}")
        cell.tile = Tile(_bool(t, "face_down", f"{where}.tile", True), kind, number_field(t, "fc", f"{where}.tile", 0, 99, 0))
        if cell.tile.face_down and kind is not None:
            raise StateError(f"{where}.tile: a face-down tile shows nothing yet")
    foes = d.get("foes", [])
    if not isinstance(foes, list) or len(foes) > MAX_FOES:
        raise StateError(f"{where}.foes: a list of at most {MAX_FOES} units")
    for i, f in enumerate(foes):
        w = f"{where}.foes[{i}]"
        owner = f.get("owner") if isinstance(f, dict) else None
        if owner not in owners or owner == AUTOMA:
            raise StateError(f"{w}.owner: a player's name")
        cell.foes.append(Foe(owner, number_field(f, "vp", w, 0, 99, 0), number_field(f, "fc", w, 0, 99, 0)))
    return cell


def _deck(d: Any, where: str, cards: list[int]) -> Deck:
    if not isinstance(d, dict) or not isinstance(d.get("draw_pile"), list) or not isinstance(d.get("discard", []), list):
        raise StateError(f"{where}: expected draw_pile and discard lists")
    try:
        deck = Deck.from_dict(d)
    except (TypeError, ValueError, KeyError) as exc:
        raise StateError(f"{where}: {exc}") from None
    if deck.cards() != sorted(cards):
        raise StateError(f"{where}: must hold each of the cards {cards} once, holds {deck.cards()}")
    return deck


def parse_mission(v: Any, where: str) -> list[Objective] | None:
    """A mission card's objectives as parts (null: still face down). A part without ``objective``
    belongs to the objective of its place in the list (1-3); each of the 3 has a part."""
    if v is None:
        return None
    if not isinstance(v, list) or not 3 <= len(v) <= MAX_PARTS:
        raise StateError(f"{where}: a mission card has 3 objectives, entered as 3-{MAX_PARTS} parts")
    out = []
    for i, o in enumerate(v):
        w = f"{where}[{i}]"
        kind = o.get("kind") if isinstance(o, dict) else None
        if kind not in OBJECTIVE_KINDS:
            raise StateError(f"{w}.kind: one of {', '.join(OBJECTIVE_KINDS)}")
        ref = o.get("ref")
        if ref is not None and (not isinstance(ref, str) or len(ref) > 40):
            raise StateError(f"{w}.ref: a short name")
        number = number_field(o, "objective", w, 1, 3, min(i + 1, 3))
        out.append(Objective(kind, ref, _bool(o, "done", w), number))
    if {o.number for o in out} != {1, 2, 3}:
        raise StateError(f"{where}: each of the objectives 1, 2 and 3 has at least one part")
    return out


def load(data: Any) -> GameState:
    if not isinstance(data, dict):
        raise StateError("a Brasil Imperial state is a JSON object")
    if data.get("schema") != SCHEMA:
        raise StateError(f"schema: expected {SCHEMA!r}, got {data.get('schema')!r}")
    cards, board = load_cards(data.get("cards")), load_board(data.get("board"))
    difficulty, mdiff = data.get("difficulty"), data.get("movement_difficulty")
    if difficulty not in DIFFICULTIES or mdiff not in DIFFICULTIES:
        raise StateError(f"difficulty and movement_difficulty: each one of {', '.join(DIFFICULTIES)}")
    players_raw = data.get("players")
    if not isinstance(players_raw, list) or not 1 <= len(players_raw) <= MAX_PLAYERS:
        raise StateError(f"players: 1-{MAX_PLAYERS} players, most experienced first")
    players = [Player(_name(p.get("name") if isinstance(p, dict) else None, f"players[{i}].name"),
                      _name(p.get("capital"), f"players[{i}].capital")) for i, p in enumerate(players_raw)]
    owners = [AUTOMA] + [p.name for p in players]
    if len(set(owners)) != len(owners):
        raise StateError("players: every player needs a different name, and none is called 'automa'")
    m = data.get("map")
    if not isinstance(m, dict) or m.get("orientation") not in ("pointy", "flat"):
        raise StateError("map.orientation: pointy or flat")
    hexes = m.get("hexes")
    if not isinstance(hexes, dict) or not 1 <= len(hexes) <= MAX_HEXES:
        raise StateError(f"map.hexes: 1-{MAX_HEXES} hexes")
    cells: dict[Hex, Cell] = {}
    for k, v in hexes.items():
        h = parse_hex(k, f"map.hexes[{k!r}]")
        if h in cells:
            raise StateError(f"map.hexes: {k} appears twice")
        cells[h] = load_cell(v, f"map.hexes[{k}]", owners, board)
    caps = m.get("capitals")
    if not isinstance(caps, dict) or not 2 <= len(caps) <= 6:
        raise StateError("map.capitals: 2-6 capitals by name")
    capitals = {_name(k, "map.capitals"): parse_hex(v, f"map.capitals.{k}") for k, v in caps.items()}
    a = data.get("automa")
    if not isinstance(a, dict):
        raise StateError("automa: expected an object")
    units_raw = a.get("units")
    if not isinstance(units_raw, dict) or set(units_raw) != set(board.ids("units")):
        raise StateError(f"automa.units: exactly the board's units {', '.join(board.ids('units'))}")
    units = {}
    for uid in board.ids("units"):
        u = units_raw[uid]
        w = f"automa.units.{uid}"
        if not isinstance(u, dict):
            raise StateError(f"{w}: expected an object")
        at = None if u.get("at") is None else parse_hex(u["at"], f"{w}.at")
        lying = None if u.get("lying") is None else number_field(u, "lying", w, 0, 100_000)
        units[uid] = Unit(at, lying)
    missions_raw = a.get("missions")
    if not isinstance(missions_raw, dict) or set(missions_raw) != {"1", "2", "3"}:
        raise StateError("automa.missions: one entry per Era (\"1\", \"2\", \"3\"), null while face down")
    gold_vp = a.get("gold_vp")
    if gold_vp is not None and (not isinstance(gold_vp, list) or any(
            isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 99 for x in gold_vp)):
        raise StateError("automa.gold_vp: the VP of each gold card, 0-99")
    automa = Automa(
        capital=_name(a.get("capital"), "automa.capital"), units=units,
        adder=number_field(a, "adder", "automa", 0, MAX_ADDER, 0),
        combat_cards=number_field(a, "combat_cards", "automa", 0, MAX_COMBAT_CARDS, 0),
        gold=number_field(a, "gold", "automa", 0, 999, 0), frames=_ids(a.get("frames", []), "automa.frames", board.ids("frames")),
        products=_ids(a.get("products", []), "automa.products", board.ids("products")),
        flags=number_field(a, "flags", "automa", 0, 99, 0),
        missions={e: parse_mission(missions_raw[str(e)], f"automa.missions.{e}") for e in (1, 2, 3)},
        gold_vp=list(gold_vp) if gold_vp is not None else None, other_vp=number_field(a, "other_vp", "automa", 0, 999, 0))
    compass = data.get("compass")
    if not isinstance(compass, dict):
        raise StateError("compass: expected at and heading")
    taken = data.get("taken", {})
    if not isinstance(taken, dict):
        raise StateError("taken: expected frames and cities")
    pending = data.get("pending")
    if pending is not None and (not isinstance(pending, dict) or pending.get("kind") not in PENDING_KINDS):
        raise StateError(f"pending: null or one of {', '.join(PENDING_KINDS)}")
    s = GameState(
        seed=number_field(data, "seed", "state", 0, 2**63 - 1), difficulty=difficulty, movement_difficulty=mdiff,
        cards=cards, board=board, orientation=m["orientation"], capitals=capitals, cells=cells, players=players,
        automa=automa, turn_position=number_field(data, "turn_position", "state", 0, MAX_PLAYERS),
        action_deck=_deck(data.get("action_deck"), "action_deck", cards.action_ids(difficulty)),
        movement_deck=_deck(data.get("movement_deck"), "movement_deck", cards.movement_ids(mdiff)),
        compass_at=parse_hex(compass.get("at"), "compass.at"), heading=number_field(compass, "heading", "compass", 0, 5),
        era=number_field(data, "era", "state", 1, 3), action_fresh=_bool(data, "action_fresh", "state", True),
        movement_started=_bool(data, "movement_started", "state"),
        movement_fresh=_bool(data, "movement_fresh", "state", True),
        pending=copy.deepcopy(pending), turns=number_field(data, "turns", "state", 0, 100_000, 0),
        taken_frames=_ids(taken.get("frames", []), "taken.frames", board.ids("frames")),
        taken_cities=_ids(taken.get("cities", []), "taken.cities", board.ids("cities")),
        over=_bool(data, "over", "state"))
    check(s)
    return s


def _ids(v: Any, where: str, known: list[str]) -> list[str]:
    if not isinstance(v, list) or any(x not in known for x in v) or len(set(v)) != len(v):
        raise StateError(f"{where}: each at most once, from {', '.join(known)}")
    return list(v)


def check(s: GameState) -> None:
    """The rules every state keeps; StateError names the first one broken."""
    for name, h in s.capitals.items():
        b = s.cells.get(h)
        if b is None or b.building is None or b.building.kind != "capital" or b.building.ref != name:
            raise StateError(f"map.capitals.{name}: the hex {hex_key(h)} holds no capital {name}")
    if s.automa.capital not in s.capitals:
        raise StateError(f"automa.capital: {s.automa.capital!r} is not one of the map's capitals")
    for p in s.players:
        if p.capital not in s.capitals or p.capital == s.automa.capital:
            raise StateError(f"players: {p.name}'s capital {p.capital!r} is not a free capital of the map")
    if len({p.capital for p in s.players}) != len(s.players):
        raise StateError("players: two players chose the same capital")
    if s.cells[s.automa_capital()].building.owner != "automa":
        raise StateError("map: the Autômato's capital is not the Autômato's")
    if s.compass_at not in s.cells:
        raise StateError(f"compass.at: {hex_key(s.compass_at)} is not on the map")
    for uid, u in s.automa.units.items():
        if u.at is not None and u.at not in s.cells:
            raise StateError(f"automa.units.{uid}: {hex_key(u.at)} is not on the map")
        if u.at is None and u.lying is not None:
            raise StateError(f"automa.units.{uid}: a unit in the stock is not lying anywhere")
    if s.group() != list(s.standing()):
        raise StateError("automa.units: every standing unit is on the compass's hex (they move together)")
    if set(s.automa.frames) & set(s.taken_frames):
        raise StateError("frames: a frame is held by the Autômato and a player at once")
    cities_built = [c.building.ref for c in s.cells.values()
                    if c.building and c.building.kind == "city" and c.building.owner == AUTOMA]
    if set(cities_built) & set(s.taken_cities) or len(set(cities_built)) != len(cities_built):
        raise StateError("cities: a city is on the map twice or also taken by a player")
    for con in s.board.constructions:
        built = sum(1 for c in s.cells.values() if c.building and c.building.owner == AUTOMA
                    and c.building.kind == "construction" and c.building.ref == con.id)
        if built > con.count:
            raise StateError(f"constructions: {built} {con.id} on the map, the board holds {con.count}")
    _cards_match_board(s.cards, s.board)
    if s.pending is not None and s.pending["kind"] in ("explore", "combat"):
        h = parse_hex(s.pending.get("hex"), "pending.hex")
        if h not in s.cells:
            raise StateError(f"pending.hex: {hex_key(h)} is not on the map")
        tile = s.cells[h].tile
        if s.pending["kind"] == "explore" and (tile is None or tile.face_down or tile.kind is not None):
            raise StateError(f"pending: no turned-up tile waits to be entered at {hex_key(h)}")
    if s.automa.gold_vp is not None and len(s.automa.gold_vp) != s.automa.gold:
        raise StateError(f"automa.gold_vp: one value per gold card ({s.automa.gold})")


def _cards_match_board(cards: CardSet, board: Board) -> None:
    """Every construction, unit, frame and product an action card names is on the board."""
    known = {"build": board.ids("constructions"), "summon": board.ids("units"), "frame": board.ids("frames"),
             "product": board.ids("products")}
    for card in cards.action.values():
        for e, col in enumerate(card.columns):
            for r, act in enumerate(col):
                if act.kind in known and act.arg not in known[act.kind]:
                    raise StateError(f"action card {card.id} Era {e + 1} row {r + 1}: the board has no "
                                     f"{act.kind} {act.arg!r} (known: {', '.join(known[act.kind])})")
