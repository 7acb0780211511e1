"""What the wizard's "Teach it my table" step asks for and what it is told.

``calibration.adapt.adapt`` fits the profile's heads to photos whose state is known. The
wizard suggests that state (``plan``): on each of three photos every company in play builds
one dam, one conduit and one powerhouse, the dams of a company at the base, base + 1 and
base + 2 heights across the photos, a lake holds water on two of them and a headstream tile
holds drops on two; no space is used twice, so the photos show the table's pieces on 36-45
spaces spread over the map. Each gate is refitted only where the photos show its box kind
both empty and not (``fit_heads``), so each kind appears both ways.

A slot's content travels as one short text (``value``), as the page's slot list shows and
corrects it: ``empty``; ``dam:OWNER:PIECES`` (1 base, 2 and 3 with elevations) and
``dam:OWNER:PIECES:DROPS`` where its lake holds water; ``conduit:OWNER``;
``powerhouse:OWNER``; ``drops:N`` for a headstream tile. ``state_of`` turns a photo's values
into the ``GameState`` adaptation labels it by, refusing any value the slot cannot hold.
"""
from __future__ import annotations

from pathlib import Path

from automa.barrage.state import Company, Dam, GameState
from vision.barrage.labels import MAX_DROPS, OWNERS
from vision.layout import Layout
from vision.reader import SlotReading

COMPANIES = OWNERS[:-2]              # usa, germany, italy, france, netherlands (Leeghwater)
BASE_COMPANIES = COMPANIES[:4]       # the base game's, proposed where the player names none
PHOTOS = 3
MIN_PHOTOS = 2                       # "teach it my table" with 2-3 photos (issue #79)
HEIGHTS = {"base": 1, "base+1": 2, "base+2": 3}
# The spaces in the order the plan takes them: dams alternately upper and lower, basins far
# apart, so that each photo's pieces spread over the whole map.
DAM_ORDER = ("1U", "3L", "5U", "7L", "9U", "2L", "4U", "6L", "8U", "10L",
             "1L", "3U", "5L", "7U", "9L", "2U", "4L", "6U", "8L", "10U")
CONDUIT_ORDER = ("1A", "3B", "5A", "7B", "9A", "2B", "4A", "6B", "8A", "10B",
                 "1B", "3A", "5B", "7A", "9B", "2A", "4B", "6A", "8B", "10A")
POWERHOUSE_ORDER = ("P5_0", "P7_1", "P9_2", "P11_3", "P6_0", "P8_1", "P10_2", "P12_3", "P5_1", "P7_0",
                    "P9_0", "P11_1", "P6_1", "P8_2", "P10_0", "P12_0", "P9_1", "P11_0", "P8_0", "P10_1",
                    "P11_2", "P12_1", "P12_2")
# (photo, headstream tile) -> drops set on it, and the photos whose first dam holds a drop
HEADSTREAM_DROPS = {(0, "A"): 1, (1, "C"): 2}
WET_PHOTOS = (0, 1)


def photo_file(folder: Path, k: int) -> Path:
    """Where the wizard keeps the k-th teaching photo (1-based) in a profile folder, as the camera gave it."""
    return folder / f"teach-{k}.jpg"


class TeachingError(ValueError):
    """A photo's slots that no table can show; the message names the slot."""


def companies_of(names: object) -> tuple[str, ...]:
    """The companies the player plays with, in ``COMPANIES``'s order; the base game's for none."""
    if names in (None, "", []):
        return BASE_COMPANIES
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise TeachingError("companies: a list of company names")
    unknown = sorted(set(names) - set(COMPANIES))
    if unknown:
        raise TeachingError(f"unknown company {', '.join(map(repr, unknown))}: choose from {', '.join(COMPANIES)}")
    return tuple(c for c in COMPANIES if c in names)


def plan(companies: tuple[str, ...]) -> list[dict[str, str]]:
    """The pieces to set for each of ``PHOTOS`` photos: slot id -> value (``state_of``)."""
    photos = []
    n = len(companies)
    for k in range(PHOTOS):
        values: dict[str, str] = {}
        for i, company in enumerate(companies):
            j = k * n + i
            height = 1 + (i + k) % 3       # across the three photos each company shows each height
            drops = ":1" if i == 0 and k in WET_PHOTOS else ""
            values[DAM_ORDER[j]] = f"dam:{company}:{height}{drops}"
            values[CONDUIT_ORDER[j]] = f"conduit:{company}"
            values[POWERHOUSE_ORDER[j]] = f"powerhouse:{company}"
        for (photo, tile), drops in HEADSTREAM_DROPS.items():
            if photo == k:
                values[tile] = f"drops:{drops}"
        photos.append(values)
    return photos


def value(reading: SlotReading) -> str | None:
    """A slot reading as a value; None where the slot was read as covered."""
    if reading.unknown:
        return None
    if reading.kind == "headstream":
        return f"drops:{reading.drops or 0}"
    if reading.piece in (None, "empty") or reading.owner in (None, "none"):
        return "empty"
    if reading.kind == "dam":
        height = HEIGHTS.get(reading.piece, 1)
        return f"dam:{reading.owner}:{height}" + (f":{reading.drops}" if reading.drops else "")
    return f"{reading.kind}:{reading.owner}"


def choices(kind: str, companies: tuple[str, ...]) -> list[str]:
    """Every value a slot of ``kind`` can be set to on the page, for these companies."""
    if kind == "headstream":
        return [f"drops:{n}" for n in range(MAX_DROPS + 1)]
    out = ["empty"]
    if kind == "dam":
        for owner in (*companies, "neutral"):
            out += [f"dam:{owner}:{h}" for h in HEIGHTS.values()]
            out += [f"dam:{owner}:{h}:{d}" for h in HEIGHTS.values() for d in range(1, MAX_DROPS + 1)]
        return out
    return out + [f"{kind}:{owner}" for owner in companies]


def state_of(values: object, layout: Layout, companies: tuple[str, ...]) -> GameState:
    """The state one photo shows, from its slots' values (the slots not named are empty)."""
    if not isinstance(values, dict):
        raise TeachingError("each photo's slots: {slot id: value}")
    kinds = {s.id: s.kind for s in layout.slots}
    state = GameState(companies={c: Company(c, automa=False, vp=0) for c in companies}, turn_order=list(companies),
                      headstreams={s.id: 0 for s in layout.slots if s.kind == "headstream"})
    for slot, text in values.items():
        if slot not in kinds:
            raise TeachingError(f"unknown slot {slot!r}")
        if not isinstance(text, str) or text not in choices(kinds[slot], companies):
            raise TeachingError(f"slot {slot}: {text!r} cannot stand on a {kinds[slot]} space in this game")
        parts = text.split(":")
        if parts[0] == "drops":
            state.headstreams[slot] = int(parts[1])
        elif parts[0] == "dam":
            state.dams[slot] = Dam(parts[1], int(parts[2]), int(parts[3]) if len(parts) == 4 else 0)
        elif parts[0] == "conduit":
            state.conduits[slot] = parts[1]
        elif parts[0] == "powerhouse":
            state.powerhouses[slot] = parts[1]
    return state
