"""The slot layout of a board in the canonical frame, and profiles that adapt it.

A layout lists every place the camera must read: structure slots (headstream,
dam, conduit, powerhouse) and the lakes where a dam's water drops stand.
A profile (JSON) may point at another layout file or override single slot
boxes, so a board printed slightly differently needs no code change.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

# Each game's layout is the file ``vision/<pkg>/layout.json`` of its reader; a profile without
# one reads Barrage's, the board every profile was made for so far.
DEFAULT_LAYOUT = Path(__file__).parent / "barrage" / "layout.json"


Point = tuple[float, float]


@dataclass(frozen=True)
class Box:
    """One place on the board. ``kind`` is a slot kind (headstream, dam, conduit,
    powerhouse) or ``lake`` (a lake's ``id`` is its dam's), or a zone kind."""
    id: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    red_outlined: bool = False

    @property
    def key(self) -> str:
        """Unique among all boxes: a lake shares its dam's id."""
        return f"lake:{self.id}" if self.kind == "lake" else self.id

    @property
    def centre(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def corners(self) -> list[Point]:
        """Clockwise from top-left."""
        return [(self.x, self.y), (self.x + self.w, self.y), (self.x + self.w, self.y + self.h), (self.x, self.y + self.h)]


@dataclass(frozen=True)
class Layout:
    name: str
    width: int
    height: int
    slots: tuple[Box, ...]
    lakes: tuple[Box, ...]
    basin_zones: dict[int, Box]
    powerhouse_zones: dict[int, Box]          # group -> zone
    area_bands: dict[str, tuple[int, int]]    # area -> (top y, bottom y)
    exits: dict[str, Box]

    @property
    def boxes(self) -> tuple[Box, ...]:
        """Slots then lakes: the order of the model's batch."""
        return self.slots + self.lakes

    def box_index(self) -> dict[str, int]:
        """Each box's position in batch order, by its key."""
        return {b.key: i for i, b in enumerate(self.boxes)}

    @property
    def kinds(self) -> list[str]:
        """Each box's kind, in batch order: what the model's input and decoding need."""
        return [b.kind for b in self.boxes]

    def slot(self, slot_id: str) -> Box:
        return next(s for s in self.slots if s.id == slot_id)

    def lake(self, dam: str) -> Box:
        """Where the drops held by the dam on ``dam`` stand."""
        return next(b for b in self.lakes if b.id == dam)

    def of_kind(self, kind: str) -> list[Box]:
        return [s for s in self.slots if s.kind == kind]


def _box(d: dict, id_: str, kind: str) -> Box:
    return Box(id_, kind, float(d["x"]), float(d["y"]), float(d["w"]), float(d["h"]), bool(d.get("red_outlined", False)))


@cache
def _read(path: str) -> dict:
    return json.loads(Path(path).read_text())


def load_layout(path: str | Path = DEFAULT_LAYOUT, overrides: dict[str, dict[str, float]] | None = None) -> Layout:
    """The layout file at ``path``; ``overrides`` (box key -> x/y/w/h) move single boxes."""
    raw = _read(str(Path(path).resolve()))
    overrides = overrides or {}
    slots = tuple(_box(s, s["id"], s["kind"]) for s in raw["slots"])
    lakes = tuple(_box(d, d["dam"], "lake") for d in raw.get("lakes", []))
    known = {b.key for b in slots + lakes}
    unknown = set(overrides) - known
    if unknown:
        raise ValueError(f"profile overrides unknown slots: {', '.join(sorted(unknown))}")
    slots = tuple(replace(b, **overrides.get(b.key, {})) for b in slots)
    lakes = tuple(replace(b, **overrides.get(b.key, {})) for b in lakes)
    return Layout(
        raw.get("name", Path(path).stem), int(raw["frame"]["width"]), int(raw["frame"]["height"]), slots, lakes,
        basin_zones={d["basin"]: _box(d, str(d["basin"]), "basin") for d in raw.get("basin_zones", [])},
        powerhouse_zones={d["group"]: _box(d, f"G{d['group']}", "powerhouse_zone") for d in raw.get("powerhouse_zones", [])},
        area_bands={k: (int(v[0]), int(v[1])) for k, v in raw.get("area_bands", {}).items()},
        exits={d["id"]: _box(d, d["id"], "exit") for d in raw.get("exits", [])},
    )


@dataclass(frozen=True)
class ClickedCorners:
    """The board found in the calibration wizard by four clicked corners: the homography
    from the wizard's picture (undistorted by the profile's lens calibration, if any) to
    the canonical board, and that picture's size, the only frame size it fits."""
    homography: tuple[tuple[float, float, float], ...]
    frame: tuple[int, int]                                 # width, height

    def fits(self, shape: tuple[int, ...]) -> bool:
        """Whether a frame of ``shape`` (an array's: height, width, ...) is the picture's size."""
        return self.frame == (shape[1], shape[0])


@dataclass(frozen=True)
class Profile:
    """Everything that differs between one table set-up and another."""
    layout: Layout
    markers: dict[int, list[list[float]]] | None = None   # marker id -> 4 canonical corners
    calibration: str | None = None                         # .npz with camera matrix K and dist
    reference_image: str | None = None                     # canonical-frame picture for feature matching
    clicked: ClickedCorners | None = None                  # the last resort where neither finds the board


def _corners(raw: Any) -> list[list[float]]:
    """A marker's four canonical corners, as (x, y) pairs of numbers."""
    corners = [[float(x), float(y)] for x, y in raw]
    if len(corners) != 4:
        raise ValueError(f"a marker has 4 corners, not {len(corners)}")
    return corners


def _clicked(raw: Any) -> ClickedCorners:
    """``clicked_corners``: {"homography": 3 rows of 3 finite numbers, "frame": [width, height]}."""
    rows = tuple(tuple(float(v) for v in row) for row in raw["homography"])
    if len(rows) != 3 or any(len(row) != 3 for row in rows) or not all(math.isfinite(v) for row in rows for v in row):
        raise ValueError("clicked_corners' homography is 3 rows of 3 finite numbers")
    width, height = (int(v) for v in raw["frame"])
    if width < 1 or height < 1:
        raise ValueError("clicked_corners' frame is a width and a height in px")
    return ClickedCorners(rows, (width, height))


class ProfileFileError(ValueError):
    """A profile whose file, or a file it names, cannot be read; the message names the file."""


def load_profile(path: str | Path | None = None) -> Profile:
    """The default profile, or one read from a JSON file (paths relative to the file)."""
    if path is None:
        return Profile(load_layout())
    path = Path(path)

    def rel(p: str | None) -> str | None:
        return None if p is None else str((path.parent / p).resolve())

    try:
        raw: dict[str, Any] = json.loads(path.read_text())
        layout = load_layout(rel(raw.get("layout")) or DEFAULT_LAYOUT, raw.get("slot_overrides"))
        markers = {int(k): _corners(v) for k, v in raw["markers"].items()} if "markers" in raw else None
        clicked = _clicked(raw["clicked_corners"]) if raw.get("clicked_corners") is not None else None
        return Profile(layout, markers, rel(raw.get("calibration")), rel(raw.get("reference_image")), clicked)
    # A file edited by hand or cut short: any of these, said in one line that names it.
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ProfileFileError(f"the profile {path} cannot be read ({type(exc).__name__}: {exc})") from exc
