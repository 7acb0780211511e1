"""The slot layout of a board in the canonical frame, and profiles that adapt it.

A layout lists every place the camera must read: structure slots (headstream,
dam, conduit, powerhouse) and the lakes where a dam's water drops stand.
A profile (JSON) may point at another layout file or override single slot
boxes, so a board printed slightly differently needs no code change.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

LAYOUT_DIR = Path(__file__).parent / "layouts"
DEFAULT_LAYOUT = LAYOUT_DIR / "barrage.json"


@dataclass(frozen=True)
class Box:
    """One place to read. ``kind`` is a slot kind or ``lake``; a lake's ``id`` is its dam's."""
    id: str
    kind: str
    x: float
    y: float
    w: float
    h: float

    @property
    def key(self) -> str:
        """Unique among all boxes: a lake shares its dam's id."""
        return f"lake:{self.id}" if self.kind == "lake" else self.id


@dataclass(frozen=True)
class Layout:
    name: str
    width: int
    height: int
    slots: tuple[Box, ...]
    lakes: tuple[Box, ...]

    @property
    def boxes(self) -> tuple[Box, ...]:
        """Slots then lakes: the order of the model's batch."""
        return self.slots + self.lakes


def load_layout(path: str | Path = DEFAULT_LAYOUT, overrides: dict[str, dict[str, float]] | None = None) -> Layout:
    raw = json.loads(Path(path).read_text())
    overrides = overrides or {}
    slots = tuple(Box(s["id"], s["kind"], s["x"], s["y"], s["w"], s["h"]) for s in raw["slots"])
    lakes = tuple(Box(l["dam"], "lake", l["x"], l["y"], l["w"], l["h"]) for l in raw.get("lakes", []))
    known = {b.key for b in slots + lakes}
    unknown = set(overrides) - known
    if unknown:
        raise ValueError(f"profile overrides unknown slots: {', '.join(sorted(unknown))}")
    slots = tuple(replace(b, **overrides.get(b.key, {})) for b in slots)
    lakes = tuple(replace(b, **overrides.get(b.key, {})) for b in lakes)
    return Layout(raw.get("name", Path(path).stem), int(raw["frame"]["width"]), int(raw["frame"]["height"]), slots, lakes)


@dataclass(frozen=True)
class Profile:
    """Everything that differs between one table set-up and another."""
    layout: Layout
    markers: dict[int, list[list[float]]] | None = None   # marker id -> 4 canonical corners
    calibration: str | None = None                         # .npz with camera matrix K and dist
    reference_image: str | None = None                     # canonical-frame picture for feature matching


def load_profile(path: str | Path | None = None) -> Profile:
    """The default profile, or one read from a JSON file (paths relative to the file)."""
    if path is None:
        return Profile(load_layout())
    path = Path(path)
    raw: dict[str, Any] = json.loads(path.read_text())

    def rel(p: str | None) -> str | None:
        return None if p is None else str((path.parent / p).resolve())

    layout = load_layout(rel(raw.get("layout")) or DEFAULT_LAYOUT, raw.get("slot_overrides"))
    markers = {int(k): v for k, v in raw["markers"].items()} if "markers" in raw else None
    return Profile(layout, markers, rel(raw.get("calibration")), rel(raw.get("reference_image")))
