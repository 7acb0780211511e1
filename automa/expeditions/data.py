"""The bundled Expeditions Automa data (decision cards, progress cards, map layout), loaded once.

Every file is checked on load; a malformed file raises
:class:`~automa.common.errors.DataError` naming the file and the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from automa.common import hexgrid
from automa.common.datafile import load_json, require
from automa.common.errors import DataError

DATA_DIR = Path(__file__).parent / "data"
MECHS = ("north", "central")
REGIONS = ("north", "central", "south")
TARGET_KINDS = ("map", "lair", "corruption")
# North always moves east, Central always west (seed 003: "O Mech Norte move-se sempre para o
# leste ... O Mech Central move-se sempre para o oeste").
MECH_REGION = {"north": "north", "central": "central"}
MOVES_WEST = {"north": False, "central": True}


@dataclass(frozen=True)
class Target:
    """A card's target line: the glory it needs and the icons a location may match."""
    glory: int
    kinds: tuple[str, ...]
    multiplier: int = 1          # corruption tokens taken by a corruption target (x1/x2/x3)


@dataclass(frozen=True)
class MechLine:
    """One mech's section of a decision card."""
    sweep: bool
    target: Target | None
    distance: int


@dataclass(frozen=True)
class Card:
    id: int
    progress: bool
    north: MechLine
    central: MechLine

    def mech(self, name: str) -> MechLine:
        return self.north if name == "north" else self.central


@dataclass(frozen=True)
class Level:
    level: int
    name: str
    track_length: int
    glory_spaces: tuple[int, ...]
    coins: dict[str, int]        # glory / corruption / map -> coins per token

    @property
    def last_space(self) -> int:
        return self.track_length - 1


@dataclass(frozen=True)
class Layout:
    orientation: str
    positions: dict[str, hexgrid.Hex]          # location or card space id -> axial hex
    region_of: dict[str, str]                   # location id -> region
    regions: dict[str, tuple[str, ...]]         # region -> location ids west to east
    card_spaces: tuple[str, ...]

    def adjacent_card_spaces(self, location: str) -> list[str]:
        around = set(hexgrid.neighbours(self.positions[location]))
        return [k for k in self.card_spaces if self.positions[k] in around]


def _mech_line(source: str, d: dict, where: str) -> MechLine:
    sweep = require(source, d, "sweep", bool, where)
    distance = require(source, d, "distance", int, where)
    if not 1 <= distance <= 3:
        raise DataError(source, f"{where}.distance", f"must be 1-3, got {distance}")
    target = None
    if d.get("target") is not None:
        t = require(source, d, "target", dict, where)
        tw = f"{where}.target"
        glory = require(source, t, "glory", int, tw)
        if not 0 <= glory <= 8:
            raise DataError(source, f"{tw}.glory", f"must be 0-8, got {glory}")
        kinds = tuple(require(source, t, "kinds", list, tw))
        if not kinds or any(k not in TARGET_KINDS for k in kinds) or len(set(kinds)) != len(kinds):
            raise DataError(source, f"{tw}.kinds", f"must be distinct icons among {TARGET_KINDS}, got {list(kinds)}")
        multiplier = t.get("multiplier", 1)
        if "corruption" in kinds and (not isinstance(multiplier, int) or not 1 <= multiplier <= 3):
            raise DataError(source, f"{tw}.multiplier", f"a corruption target needs x1-x3, got {multiplier!r}")
        target = Target(glory=glory, kinds=kinds, multiplier=multiplier)
    return MechLine(sweep=sweep, target=target, distance=distance)


@cache
def cards() -> dict[int, Card]:
    """The 14 decision cards by id."""
    path = DATA_DIR / "cards.json"
    source = str(path)
    raw = require(source, load_json(path), "cards", list)
    out: dict[int, Card] = {}
    for i, c in enumerate(raw):
        where = f"cards[{i}]"
        cid = require(source, c, "id", int, where)
        if cid in out:
            raise DataError(source, f"{where}.id", f"card {cid} appears twice")
        out[cid] = Card(id=cid, progress=require(source, c, "progress", bool, where),
                        north=_mech_line(source, require(source, c, "north", dict, where), f"{where}.north"),
                        central=_mech_line(source, require(source, c, "central", dict, where), f"{where}.central"))
    if len(out) != 14:
        raise DataError(source, "cards", f"expected 14 decision cards, found {len(out)}")
    return out


@cache
def levels() -> dict[int, Level]:
    """The progress (difficulty) cards by level."""
    path = DATA_DIR / "progress.json"
    source = str(path)
    out: dict[int, Level] = {}
    for i, lv in enumerate(require(source, load_json(path), "levels", list)):
        where = f"levels[{i}]"
        length = require(source, lv, "track_length", int, where)
        spaces = tuple(require(source, lv, "glory_spaces", list, where))
        if len(spaces) != 8 or list(spaces) != sorted(set(spaces)) or not all(0 < s < length for s in spaces):
            raise DataError(source, f"{where}.glory_spaces", "must be 8 rising spaces after Start and on the track")
        coins = require(source, lv, "coins", dict, where)
        for kind in ("glory", "corruption", "map"):
            require(source, coins, kind, int, f"{where}.coins")
        number = require(source, lv, "level", int, where)
        out[number] = Level(level=number, name=require(source, lv, "name", str, where), track_length=length,
                            glory_spaces=spaces, coins=dict(coins))
    return out


@cache
def layout() -> Layout:
    path = DATA_DIR / "layout.json"
    source = str(path)
    doc = load_json(path)
    orientation = require(source, doc, "orientation", str)
    offset = require(source, doc, "offset", str)
    positions: dict[str, hexgrid.Hex] = {}
    region_of: dict[str, str] = {}

    def place(item: dict, where: str) -> str:
        pid = require(source, item, "id", str, where)
        hex_ = hexgrid.offset_to_axial(require(source, item, "col", int, where),
                                       require(source, item, "row", int, where), offset)
        if pid in positions or hex_ in positions.values():
            raise DataError(source, where, f"{pid} repeats an id or a cell")
        positions[pid] = hex_
        return pid

    for i, loc in enumerate(require(source, doc, "locations", list)):
        pid = place(loc, f"locations[{i}]")
        region = require(source, loc, "region", str, f"locations[{i}]")
        if region not in REGIONS:
            raise DataError(source, f"locations[{i}].region", f"unknown region {region!r}")
        region_of[pid] = region
    spaces = tuple(place(k, f"card_spaces[{i}]") for i, k in enumerate(require(source, doc, "card_spaces", list)))
    regions = {r: tuple(p for p in sorted(region_of, key=lambda p: _west_to_east(positions[p], orientation))
                        if region_of[p] == r) for r in REGIONS}
    sizes = {r: len(v) for r, v in regions.items()}
    if sizes != {"north": 7, "central": 7, "south": 6} or len(spaces) != 5:
        raise DataError(source, "locations", f"expected North 7, Central 7, South 6 and 5 card spaces, got {sizes} and {len(spaces)}")
    return Layout(orientation=orientation, positions=positions, region_of=region_of, regions=regions,
                  card_spaces=spaces)


def _west_to_east(h: hexgrid.Hex, orientation: str) -> float:
    return hexgrid.to_pixel(h, 1.0, orientation)[0]
