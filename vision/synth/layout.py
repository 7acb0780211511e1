"""The slot layout (``vision/layouts/barrage.json``) as typed data, plus the map geometry
derived from it and the engine's topology: river courses and conduit pipes.

Everything is in the canonical 1000x1464 frame (x right, y down), the frame every
homography in this project maps to.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from automa.barrage.data import barrage_map

LAYOUT_PATH = Path(__file__).resolve().parent.parent / "layouts" / "barrage.json"

Point = tuple[float, float]


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def corners(self) -> list[Point]:
        """Clockwise from top-left."""
        return [(self.x, self.y), (self.x + self.w, self.y), (self.x + self.w, self.y + self.h), (self.x, self.y + self.h)]


@dataclass(frozen=True)
class Slot:
    id: str
    kind: str            # headstream | dam | conduit | powerhouse
    box: Box
    red_outlined: bool


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    slots: tuple[Slot, ...]
    lakes: dict[str, Box]                 # dam space -> where its drops stand
    basin_zones: dict[int, Box]
    powerhouse_zones: dict[int, Box]      # group -> zone
    area_bands: dict[str, tuple[int, int]]
    exits: dict[str, Box]

    def slot(self, slot_id: str) -> Slot:
        return next(s for s in self.slots if s.id == slot_id)

    def of_kind(self, kind: str) -> list[Slot]:
        return [s for s in self.slots if s.kind == kind]


def _box(d: dict) -> Box:
    return Box(float(d["x"]), float(d["y"]), float(d["w"]), float(d["h"]))


@cache
def load_layout(path: Path = LAYOUT_PATH) -> Layout:
    raw = json.loads(Path(path).read_text())
    return Layout(
        width=raw["frame"]["width"], height=raw["frame"]["height"],
        slots=tuple(Slot(s["id"], s["kind"], _box(s), bool(s.get("red_outlined", False))) for s in raw["slots"]),
        lakes={d["dam"]: _box(d) for d in raw["lakes"]},
        basin_zones={d["basin"]: _box(d) for d in raw["basin_zones"]},
        powerhouse_zones={d["group"]: _box(d) for d in raw["powerhouse_zones"]},
        area_bands={k: (int(v[0]), int(v[1])) for k, v in raw["area_bands"].items()},
        exits={d["id"]: _box(d) for d in raw["exits"]},
    )


@cache
def rivers() -> dict[str, list[Point]]:
    """Headstream letter -> the river's course: headstream, then for each basin it
    crosses the upper lake and dam, the lower lake and dam, the outflow powerhouse
    zone, and finally the exit on the board's lower edge."""
    lay, bmap = load_layout(), barrage_map()
    out: dict[str, list[Point]] = {}
    for letter, basin in bmap.headstreams.items():
        pts = [lay.slot(letter).box.centre]
        b = bmap.basins[basin]
        while True:
            for dam in b.dams:
                pts += [lay.lakes[dam].centre, lay.slot(dam).box.centre]
            group = bmap.groups[b.outflow_group]
            pts.append(lay.powerhouse_zones[group.group].centre)
            if group.flows_to_basin is None:
                ex = lay.exits[group.flows_to_exit]
                pts.append((ex.centre[0], float(lay.height)))
                break
            b = bmap.basins[group.flows_to_basin]
        out[letter] = pts
    return out


@cache
def pipes() -> dict[str, list[Point]]:
    """Conduit space -> the pipe it stands for: from the basin's lower dam, through the
    conduit space, to the powerhouse zone of its group (an elbow, as printed pipes run)."""
    lay, bmap = load_layout(), barrage_map()
    out: dict[str, list[Point]] = {}
    for cid, c in bmap.conduits.items():
        start = lay.slot(bmap.basins[c.basin].dams[1]).box.centre
        mid = lay.slot(cid).box.centre
        end = lay.powerhouse_zones[c.group].centre
        out[cid] = [start, mid, (mid[0], end[1]), end]
    return out
