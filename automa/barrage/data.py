"""The bundled Barrage data (map topology, Automa tiles, components), loaded once.

Every file is checked on load; a malformed file raises
:class:`~automa.common.errors.DataError` naming the file and the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from automa.common.datafile import load_json, require
from automa.common.errors import DataError

DATA_DIR = Path(__file__).parent / "data"
STRUCTURES = ("dam_base", "elevation", "conduit", "powerhouse")
AREAS = ("mountains", "hills", "plains")
CONTRACT_COLOURS = ("green", "yellow", "red")


@dataclass(frozen=True)
class DamSpace:
    id: str
    basin: int
    area: str
    red: bool          # red-outlined: a base here costs 3 credits (Automa: 3 VP)


@dataclass(frozen=True)
class ConduitSpace:
    id: str
    basin: int
    letter: str        # "A" left, "B" right
    value: int         # production value
    group: int         # powerhouse group the conduit leads to

    @property
    def code(self) -> int:
        """Reference-map order 1A,1B,2A,...,10B as one integer."""
        return 2 * self.basin + (0 if self.letter == "A" else 1)


@dataclass(frozen=True)
class PowerhouseSpace:
    id: str
    group: int
    index: int
    red: bool


@dataclass(frozen=True)
class PowerhouseGroup:
    group: int
    area: str
    spaces: tuple[str, ...]
    flows_to_basin: int | None
    flows_to_exit: str | None


@dataclass(frozen=True)
class Basin:
    basin: int
    area: str
    dams: tuple[str, str]          # (upper red-outlined, lower free): water meets them in this order
    conduits: tuple[str, str]      # (A, B)
    outflow_group: int


class BarrageMap:
    """Topology of the standard map, with the look-ups the rules need."""

    def __init__(self, raw: dict, source: str = "map.json"):
        areas = require(source, raw, "areas", dict)
        self.area_basins: dict[str, tuple[int, ...]] = {}
        for area in AREAS:
            self.area_basins[area] = tuple(require(source, areas, area, list, "areas"))
        self.headstreams: dict[str, int] = {}
        for i, h in enumerate(require(source, raw, "headstreams", list)):
            self.headstreams[require(source, h, "id", str, f"headstreams[{i}]")] = require(
                source, h, "feeds_basin", int, f"headstreams[{i}]")
        self.basins: dict[int, Basin] = {}
        self.dams: dict[str, DamSpace] = {}
        self.conduits: dict[str, ConduitSpace] = {}
        for i, b in enumerate(require(source, raw, "basins", list)):
            where = f"basins[{i}]"
            n = require(source, b, "basin", int, where)
            area = require(source, b, "area", str, where)
            if area not in AREAS:
                raise DataError(source, f"{where}.area", f"unknown area {area!r}")
            dams = require(source, b, "dams", list, where)
            conduits = require(source, b, "conduits", list, where)
            if len(dams) != 2 or len(conduits) != 2:
                raise DataError(source, where, "a basin has exactly 2 dam spaces and 2 conduit spaces")
            for j, d in enumerate(dams):
                did = require(source, d, "id", str, f"{where}.dams[{j}]")
                self.dams[did] = DamSpace(did, n, area, bool(require(source, d, "red_outlined", bool, f"{where}.dams[{j}]")))
            for j, c in enumerate(conduits):
                w = f"{where}.conduits[{j}]"
                cid = require(source, c, "id", str, w)
                self.conduits[cid] = ConduitSpace(cid, n, require(source, c, "letter", str, w),
                                                  require(source, c, "value", int, w),
                                                  require(source, c, "powerhouse_group", int, w))
            self.basins[n] = Basin(n, area, (dams[0]["id"], dams[1]["id"]),
                                   (conduits[0]["id"], conduits[1]["id"]),
                                   require(source, b, "outflow_group", int, where))
        self.groups: dict[int, PowerhouseGroup] = {}
        self.powerhouses: dict[str, PowerhouseSpace] = {}
        for i, g in enumerate(require(source, raw, "powerhouse_groups", list)):
            where = f"powerhouse_groups[{i}]"
            n = require(source, g, "group", int, where)
            spaces = require(source, g, "spaces", list, where)
            for j, s in enumerate(spaces):
                sid = require(source, s, "id", str, f"{where}.spaces[{j}]")
                self.powerhouses[sid] = PowerhouseSpace(sid, n, j, bool(require(source, s, "red_outlined", bool, f"{where}.spaces[{j}]")))
            self.groups[n] = PowerhouseGroup(n, require(source, g, "area", str, where), tuple(s["id"] for s in spaces),
                                             g.get("flows_to_basin"), g.get("flows_to_exit"))
        self.costs = require(source, raw, "construction_costs", dict)
        self.neutral_dams = require(source, raw, "neutral_dams", list)
        self._check(source)

    def _check(self, source: str) -> None:
        for c in self.conduits.values():
            if c.group not in self.groups:
                raise DataError(source, f"conduit {c.id}.powerhouse_group", f"unknown group {c.group}")
        for b in self.basins.values():
            if b.outflow_group not in self.groups:
                raise DataError(source, f"basin {b.basin}.outflow_group", f"unknown group {b.outflow_group}")
        for g in self.groups.values():
            if (g.flows_to_basin is None) == (g.flows_to_exit is None):
                raise DataError(source, f"group {g.group}", "must flow to exactly one basin or exit")
            if g.flows_to_basin is not None and g.flows_to_basin not in self.basins:
                raise DataError(source, f"group {g.group}.flows_to_basin", "unknown basin")
        for h, b in self.headstreams.items():
            if b not in self.basins:
                raise DataError(source, f"headstream {h}", f"unknown basin {b}")

    # -- look-ups -----------------------------------------------------------------
    def area_of_group(self, group: int) -> str:
        return self.groups[group].area

    def conduits_into(self, group: int) -> list[str]:
        return [c.id for c in self.conduits.values() if c.group == group]

    def river_after_group(self, group: int) -> list[str]:
        """Dam spaces met, in order, by water leaving powerhouse group ``group``."""
        path: list[str] = []
        g = self.groups[group]
        while g.flows_to_basin is not None:
            basin = self.basins[g.flows_to_basin]
            path.extend(basin.dams)
            g = self.groups[basin.outflow_group]
        return path

    def river_from_basin(self, basin: int) -> list[str]:
        """Dam spaces met, in order, by water entering ``basin`` from above."""
        b = self.basins[basin]
        return list(b.dams) + self.river_after_group(b.outflow_group)

    def river_after_dam(self, dam: str) -> list[str]:
        """Dam spaces met after water leaves dam space ``dam`` by the river."""
        b = self.basins[self.dams[dam].basin]
        rest = list(b.dams[b.dams.index(dam) + 1:])
        return rest + self.river_after_group(b.outflow_group)

    def exit_of_group(self, group: int) -> str:
        g = self.groups[group]
        while g.flows_to_basin is not None:
            g = self.groups[self.basins[g.flows_to_basin].outflow_group]
        return g.flows_to_exit  # type: ignore[return-value]


@dataclass(frozen=True)
class Components:
    raw: dict

    @property
    def contracts(self) -> dict[int, dict]:
        return {c["id"]: c for c in self.raw["contracts"]}

    def companies(self) -> dict[str, dict]:
        return {c["company"]: c for c in self.raw["companies"]}

    def advanced_tiles(self) -> dict[str, dict]:
        return {t["id"]: t for t in self.raw["advanced_technology_tiles"]}

    def officers(self) -> dict[str, dict]:
        """Executive officers by id (surname), in the rulebook's order."""
        return {o["id"]: o for o in self.raw["executive_officers"]}

    def special_tiles(self) -> dict[str, dict]:
        """Officers' special technology tiles (Krylov's ``anton``, Spencer's ``leslie``)."""
        return {t["id"]: t for t in self.raw["special_technology_tiles"]}

    def external_works(self) -> dict[int, dict]:
        return {w["id"]: w for w in self.raw["external_works"]}

    def private_buildings(self) -> dict[str, dict]:
        return {b["id"]: b for b in self.raw["private_buildings"]}


def _check_tiles(raw: dict, source: str = "tiles.json") -> list[dict]:
    tiles = require(source, raw, "tiles", list)
    known = require(source, raw, "criteria_ids", dict)
    types = {"production", "water_management", "contract_office", "construction", "external_work",
             "workshop", "machinery_shop", "patent_office", "bank"}
    seen = set()
    for i, t in enumerate(tiles):
        where = f"tiles[{i}]"
        n = require(source, t, "tile", int, where)
        if n in seen:
            raise DataError(source, f"{where}.tile", f"duplicate tile number {n}")
        seen.add(n)
        for j, a in enumerate(require(source, t, "actions", list, where)):
            kind = require(source, a, "type", str, f"{where}.actions[{j}]")
            if kind not in types:
                raise DataError(source, f"{where}.actions[{j}].type", f"unknown action type {kind!r}")
            require(source, a, "engineers", int, f"{where}.actions[{j}]")
            if kind == "construction" and a.get("structure") not in STRUCTURES + ("building",):
                raise DataError(source, f"{where}.actions[{j}].structure", f"unknown structure {a.get('structure')!r}")
        crit = require(source, t, "criteria", dict, where)
        for column in ("dam", "conduit", "powerhouse"):
            col = require(source, crit, column, dict, f"{where}.criteria")
            for k, cid in enumerate(require(source, col, "criteria", list, f"{where}.criteria.{column}")):
                if cid not in known[column]:
                    raise DataError(source, f"{where}.criteria.{column}.criteria[{k}]", f"unknown criterion {cid!r}")
        letters = require(source, crit, "headstreams", list, f"{where}.criteria")
        if not set(letters) <= {"A", "B", "C", "D"}:
            raise DataError(source, f"{where}.criteria.headstreams", "letters must be A-D")
    return tiles


@cache
def barrage_map() -> BarrageMap:
    path = DATA_DIR / "map.json"
    return BarrageMap(load_json(path), str(path))


@cache
def automa_tiles() -> dict[int, dict]:
    path = DATA_DIR / "tiles.json"
    return {t["tile"]: t for t in _check_tiles(load_json(path), str(path))}


@cache
def components() -> Components:
    path = DATA_DIR / "components.json"
    raw = load_json(path)
    src = str(path)
    for i, c in enumerate(require(src, raw, "contracts", list)):
        require(src, c, "id", int, f"contracts[{i}]")
        require(src, c, "energy", int, f"contracts[{i}]")
        kind = require(src, c, "kind", str, f"contracts[{i}]")
        if kind not in ("starting", "national") + CONTRACT_COLOURS:
            raise DataError(src, f"contracts[{i}].kind", f"unknown kind {kind!r}")
        require(src, c, "reward", list, f"contracts[{i}]")
    for i, c in enumerate(require(src, raw, "companies", list)):
        for key in ("company", "colour"):
            require(src, c, key, str, f"companies[{i}]")
        require(src, c, "income", dict, f"companies[{i}]")
    require(src, raw, "advanced_technology_tiles", list)
    for key in ("executive_officers", "special_technology_tiles", "external_works", "private_buildings"):
        for i, item in enumerate(require(src, raw, key, list)):
            require(src, item, "id", (str, int), f"{key}[{i}]")
    require(src, raw, "starting", dict)
    return Components(raw)


def company_colours() -> dict[str, str]:
    """Company id -> piece colour (usa: red, germany: black, ...)."""
    return {c: d["colour"] for c, d in components().companies().items()}
