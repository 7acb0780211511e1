"""What the Autômato's player board holds, as data: constructions per Era (in the board's order,
left to right), the general board's cities, the military units (1st-5th and the Monarch),
frames, products and the action arch of each product shape, and the palaces.

The seed names these but not their values, so ``data/example_board.json`` is an EXAMPLE board;
a table file entered by the players replaces it. The order of every list is the board's
left-to-right order, which several rules read ("the first city from the left", "the leftmost
available unit", "the first construction of the Era from the left").
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from automa.common.datafile import load_json
from automa.common.errors import StateError

DATA_DIR = Path(__file__).parent / "data"
WATER = "water"
ARCH_SUMMON = "summon"       # the "Arco Convocar": a product there summons a second unit
MAX_ITEMS = 40
MONARCH = "monarch"


@dataclass(frozen=True)
class Construction:
    id: str
    era: int
    terrain: str
    vp: int
    count: int                   # pieces on the board


@dataclass(frozen=True)
class Piece:
    """A city, unit, frame, product or palace: an id and the few numbers the Autômato reads."""
    id: str
    vp: int = 0
    fc: int = 0                  # combat strength (força de combate) it adds
    kind: str = ""               # a frame's type, a product's shape


@dataclass(frozen=True)
class Board:
    terrains: tuple[str, ...]
    constructions: tuple[Construction, ...]
    cities: tuple[Piece, ...]
    units: tuple[Piece, ...]
    frames: tuple[Piece, ...]
    products: tuple[Piece, ...]
    arches: dict[str, str]       # product shape -> action arch
    palaces: tuple[Piece, ...]
    raw: dict                    # as entered, for dump

    def construction(self, cid: str) -> Construction:
        return next(c for c in self.constructions if c.id == cid)

    def of_era(self, era: int) -> list[Construction]:
        return [c for c in self.constructions if c.era == era]

    def unit(self, uid: str) -> Piece:
        return next(u for u in self.units if u.id == uid)

    def frame(self, fid: str) -> Piece:
        return next(f for f in self.frames if f.id == fid)

    def product(self, pid: str) -> Piece:
        return next(p for p in self.products if p.id == pid)

    def ids(self, what: str) -> list[str]:
        return [x.id for x in getattr(self, what)]

    def palace_strengthens(self, palace: str, construction: str) -> bool:
        """Whether the palace's FC counts for that construction: "geram mais Força de Combate para
        as Construções indicadas"; a palace entered without ``constructions`` strengthens all."""
        for p in self.raw.get("palaces", []):
            if isinstance(p, dict) and p.get("id") == palace:
                named = p.get("constructions")
                return named is None or construction in named
        return False


def _list(d: dict, key: str) -> list:
    v = d.get(key)
    if not isinstance(v, list) or not 1 <= len(v) <= MAX_ITEMS:
        raise StateError(f"board.{key}: expected a list of 1-{MAX_ITEMS} items")
    return v


def number_field(d: Any, key: str, where: str, lo: int = 0, hi: int = 99, default: Any = ...) -> int:
    """``d[key]``, a whole number from ``lo`` to ``hi`` (not a boolean); StateError names the field."""
    if not isinstance(d, dict):
        raise StateError(f"{where}: expected an object")
    v = d.get(key, default)
    if v is ...:
        raise StateError(f"{where}.{key}: missing")
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise StateError(f"{where}.{key}: expected a whole number {lo}-{hi}, got {v!r}")
    return v


def _id(d: Any, where: str) -> str:
    v = d.get("id") if isinstance(d, dict) else None
    if not isinstance(v, str) or not 1 <= len(v) <= 40 or ":" in v:
        raise StateError(f"{where}.id: a short name without ':'")
    return v


def _pieces(d: dict, key: str, kind_key: str | None = None) -> tuple[Piece, ...]:
    out = []
    for i, x in enumerate(_list(d, key)):
        w = f"board.{key}[{i}]"
        kind = ""
        if kind_key:
            kind = x.get(kind_key) if isinstance(x, dict) else None
            if not isinstance(kind, str) or not kind:
                raise StateError(f"{w}.{kind_key}: missing")
        out.append(Piece(_id(x, w), number_field(x, "vp", w, default=0), number_field(x, "fc", w, default=0), kind))
    if len({p.id for p in out}) != len(out):
        raise StateError(f"board.{key}: an id appears twice")
    return tuple(out)


def load_board(d: Any) -> Board:
    """A board from JSON data; StateError names the field."""
    if not isinstance(d, dict):
        raise StateError("board: expected an object")
    terrains = _list(d, "terrains")
    if any(not isinstance(t, str) or not t or t == WATER for t in terrains):
        raise StateError("board.terrains: land terrain names (water is not one)")
    cons = []
    for i, c in enumerate(_list(d, "constructions")):
        w = f"board.constructions[{i}]"
        terrain = c.get("terrain") if isinstance(c, dict) else None
        if terrain not in terrains:
            raise StateError(f"{w}.terrain: one of {', '.join(terrains)}")
        cons.append(Construction(_id(c, w), number_field(c, "era", w, 1, 3), terrain, number_field(c, "vp", w), number_field(c, "count", w, 1)))
    if len({c.id for c in cons}) != len(cons):
        raise StateError("board.constructions: an id appears twice")
    arches = d.get("arches")
    if not isinstance(arches, dict) or any(not isinstance(k, str) or not isinstance(v, str) for k, v in arches.items()):
        raise StateError("board.arches: an object of product shape -> arch name")
    board = Board(tuple(terrains), tuple(cons), _pieces(d, "cities"), _pieces(d, "units"),
                  _pieces(d, "frames", "type"), _pieces(d, "products", "shape"), dict(arches),
                  _pieces(d, "palaces"), d)
    if MONARCH not in board.ids("units"):
        raise StateError("board.units: the Monarch unit (id 'monarch') is missing")
    for i, p in enumerate(d["palaces"]):
        named = p.get("constructions") if isinstance(p, dict) else None
        if named is not None and (not isinstance(named, list) or any(c not in board.ids("constructions") for c in named)):
            raise StateError(f"board.palaces[{i}].constructions: the constructions it strengthens, from "
                             f"{', '.join(board.ids('constructions'))}")
    if any(p.kind not in arches for p in board.products):
        raise StateError("board.products: every product shape has an arch in board.arches")
    return board


@cache
def example_board_data() -> dict:
    return load_json(DATA_DIR / "example_board.json")


@cache
def example_map_data() -> dict:
    return load_json(DATA_DIR / "example_map.json")
