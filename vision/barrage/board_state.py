"""Slot readings -> the map part of the engine's GameState, with rule checks.

Readings that break the rules are *flagged*, never silently fixed: the
person at the table knows which one is wrong, the camera does not.
Occluded slots are ``unknown`` and contribute nothing to the map.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass, field

from automa.barrage.data import barrage_map, components
from automa.barrage.state import NEUTRAL, Dam, GameState, built_on_map, holds, pieces_left, validate
from automa.common.errors import StateError

from ..layout import Layout
from ..reader import Flag, SlotReading
from .labels import dam_pieces
from .slot_model import CropReading


@dataclass
class MapState:
    dams: dict[str, Dam] = field(default_factory=dict)
    conduits: dict[str, str] = field(default_factory=dict)
    powerhouses: dict[str, str] = field(default_factory=dict)
    headstreams: dict[str, int] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    # how sure the camera was of each slot it read (none for a map not read by the camera): the
    # chance that the reading is right, and the decoder's share it was calibrated from, which
    # ranks two readings of one frame (rulings V6, V7); what a slot holds makes two maps equal,
    # not how sure the reading was
    confidence: dict[str, float] = field(default_factory=dict, compare=False)
    shares: dict[str, float] = field(default_factory=dict, compare=False)

    def copy(self) -> "MapState":
        """A map whose tables can be changed without changing this one's."""
        return MapState(dict(self.dams), dict(self.conduits), dict(self.powerhouses), dict(self.headstreams),
                        list(self.unknown), dict(self.confidence), dict(self.shares))

    @property
    def ranking(self) -> dict[str, float]:
        """What says which of two readings of one frame is surer (rulings V6, V7): the
        decoder's shares where the map has them, else its confidences."""
        return self.shares or self.confidence

    def to_dict(self) -> dict:
        """The ``map`` part of ``GameState.to_dict()``, plus the unknown slots."""
        return {"dams": [{"space": s, **asdict(d)} for s, d in self.dams.items()],
                "conduits": [{"space": s, "owner": o} for s, o in self.conduits.items()],
                "powerhouses": [{"space": s, "owner": o} for s, o in self.powerhouses.items()],
                "headstreams": dict(self.headstreams), "unknown": list(self.unknown)}


def slot_readings(layout: Layout, crops: list[CropReading]) -> list[SlotReading]:
    """Join the per-box readings into per-slot readings (a dam takes its lake's drops)."""
    by_key = {b.key: r for b, r in zip(layout.boxes, crops)}
    out = []
    for slot in layout.slots:
        r = by_key[slot.key]
        drops, conf, unknown = r.drops, r.confidence, r.occluded
        lake = by_key.get(f"lake:{slot.id}")
        if lake is not None:
            drops, conf, unknown = lake.drops, conf * lake.confidence, unknown or lake.occluded
        out.append(SlotReading(slot.id, slot.kind, r.piece, r.owner, drops, conf, unknown, r.conflict))
    return out


def build_map(readings: list[SlotReading], del_monte: Collection[str] = ()) -> tuple[MapState, list[Flag]]:
    """The map the readings make, and the flags on them (``rule_flags``); ``del_monte``: the
    companies with Graziano Del Monte, whose level 3 dams hold 4 drops."""
    state, flags = MapState(), []
    for r in readings:
        if r.unknown:
            state.unknown.append(r.id)
            continue
        state.confidence[r.id] = r.confidence
        state.shares[r.id] = r.confidence if r.share is None else r.share
        if r.low_confidence:
            flags.append(Flag(r.id, f"low confidence ({r.confidence:.2f})"))
        if r.conflict:
            flags.append(Flag(r.id, r.conflict))
        if r.kind == "headstream":
            state.headstreams[r.id] = r.drops or 0
            continue
        if r.piece in (None, "empty"):
            if r.kind == "dam" and r.drops:
                flags.append(Flag(r.id, f"{r.drops} drops in the lake of an empty dam space"))
            continue
        if r.owner in (None, "none"):
            flags.append(Flag(r.id, f"{r.piece} with no owner colour"))
            continue
        if r.kind == "dam":
            state.dams[r.id] = Dam(r.owner, dam_pieces(r.piece), r.drops or 0)
        elif r.owner == NEUTRAL:
            flags.append(Flag(r.id, f"neutral {r.kind}: only dams can be neutral"))
        elif r.kind == "conduit":
            state.conduits[r.id] = r.owner
        else:
            state.powerhouses[r.id] = r.owner
    return state, flags + rule_flags(state, del_monte)


def rule_flags(state: MapState, del_monte: Collection[str] = ()) -> list[Flag]:
    """Rules a physical board cannot break, so a break means a misreading; ``del_monte``: as
    ``build_map``'s."""
    bmap, start = barrage_map(), components().raw["starting"]["structures"]
    flags: list[Flag] = []
    basins: dict[tuple[str, int], str] = {}
    for space, dam in state.dams.items():
        if dam.drops > (most := holds(dam.pieces, dam.owner in del_monte)):
            flags.append(Flag(space, f"{dam.drops} drops but the dam holds {most}"))
        if dam.owner == NEUTRAL:
            continue
        key = (dam.owner, bmap.dams[space].basin)
        if key in basins:
            flags.append(Flag(space, f"{dam.owner} has two dams in basin {key[1]} ({basins[key]} and {space})"))
        basins[key] = space
    groups: dict[tuple[str, int], str] = {}
    for space, owner in state.powerhouses.items():
        key = (owner, bmap.powerhouses[space].group)
        if key in groups:
            flags.append(Flag(space, f"{owner} has two powerhouses in group {key[1]} ({groups[key]} and {space})"))
        groups[key] = space
    for (owner, structure), n in sorted(built_on_map(state.dams, state.conduits, state.powerhouses).items()):
        if owner != NEUTRAL and n > start[structure]:
            flags.append(Flag(owner, f"{n} {structure} pieces on the map, but a company owns {start[structure]}"))
    return flags


def apply_to_state(state: GameState, board: MapState) -> tuple[GameState, list[Flag]]:
    """The engine state with the map as read. Unknown slots keep the value ``state`` had;
    each company's supply becomes what it owns minus what stands on the map. A result the
    engine rejects is returned unchanged with the engine's reason as a flag."""
    new = state.copy()
    known = set(board.dams) | set(board.conduits) | set(board.powerhouses)
    unknown = set(board.unknown)
    new.dams = {s: d for s, d in new.dams.items() if s in unknown} | dict(board.dams)
    new.conduits = {s: o for s, o in new.conduits.items() if s in unknown} | dict(board.conduits)
    new.powerhouses = {s: o for s, o in new.powerhouses.items() if s in unknown} | dict(board.powerhouses)
    new.headstreams = {**new.headstreams, **board.headstreams}
    flags = [Flag(o, f"{o} is not playing but owns {s}") for s in sorted(known)
             for o in [new.owner_of(s)] if o not in new.companies and o != NEUTRAL]
    if flags:
        return state, flags
    built = built_on_map(new.dams, new.conduits, new.powerhouses)
    for cid, company in new.companies.items():
        company.structures = pieces_left(cid, built)
    try:
        validate(new)
    except StateError as exc:
        return state, [Flag("state", str(exc))]
    return new, []
