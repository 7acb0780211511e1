"""Per-slot ground truth: what stands on every layout slot, and whether it can be seen.

This is the contract with the vision model (documented in README.md):
``{"id", "kind", "piece", "owner", "drops", "occluded"}`` per slot.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import cv2
import numpy as np

from automa.barrage.state import GameState
from vision.layout import Layout, Point

from .camera import Camera

OCCLUDED_FRACTION = 0.5     # "most of the slot" is covered


def slot_pieces(state: GameState, layout: Layout) -> list[dict]:
    """id, kind, piece, owner, drops for every slot, in layout order."""
    out = []
    for slot in layout.slots:
        piece: str | None
        owner: str | None = None
        drops: int | None = None
        if slot.kind == "headstream":
            piece, drops = None, state.headstreams.get(slot.id, 0)
        elif slot.kind == "dam":
            dam = state.dams.get(slot.id)
            piece = "empty" if dam is None else ("base" if dam.pieces == 1 else f"base+{dam.pieces - 1}")
            owner = dam.owner if dam else None
            drops = dam.drops if dam else 0
        elif slot.kind == "conduit":
            owner = state.conduits.get(slot.id)
            piece = "conduit" if owner else "empty"
        else:
            owner = state.powerhouses.get(slot.id)
            piece = "powerhouse" if owner else "empty"
        out.append({"id": slot.id, "kind": slot.kind, "piece": piece, "owner": owner, "drops": drops})
    return out


def covered_fraction(cam: Camera, outline: Sequence[Point] | np.ndarray, mask: np.ndarray | None) -> float:
    """Share of a convex ``outline`` on the board plane (a box's corners, a drop's footprint)
    that the mask covers or the frame cuts off, measured in the undistorted image the mask
    was drawn in."""
    px = cam.ideal(np.array([(x, y, 0.0) for x, y in outline]))
    h, w = (mask.shape if mask is not None else (cam.size[1], cam.size[0]))
    x0, y0 = np.floor(px.min(0)).astype(int)
    x1, y1 = np.ceil(px.max(0)).astype(int) + 1
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(poly, np.round(px - (x0, y0)).astype(np.int32), 1)
    area = int(poly.sum())
    if area == 0:
        return 1.0
    # window of the polygon's box that lies inside the image
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx0 >= cx1 or cy0 >= cy1:
        return 1.0
    sub = poly[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    visible = int(sub.sum())
    covered = int((sub & (mask[cy0:cy1, cx0:cx1] > 127)).sum()) if mask is not None else 0
    return 1.0 - (visible - covered) / area


def slot_truth(state: GameState, layout: Layout, cam: Camera, mask: np.ndarray | None,
               drops: Mapping[str, Sequence[np.ndarray]] | None = None) -> list[dict]:
    """The full per-slot record. A slot is occluded when most of it (or, for a dam, most of
    its lake, where its drops stand) is hidden by an occluder or outside the image, or when
    most of one of its drops is: its count cannot be read then. ``drops``: each drop's
    footprint by the key of the box it stands in (``pieces.drop_footprints``)."""
    drops = drops or {}
    entries = slot_pieces(state, layout)
    for entry, slot in zip(entries, layout.slots):
        boxes = [slot] + ([layout.lake(slot.id)] if slot.kind == "dam" else [])
        footprints = [f for b in boxes for f in drops.get(b.key, ())]
        entry["occluded"] = (any(covered_fraction(cam, b.corners(), mask) > OCCLUDED_FRACTION for b in boxes)
                             or any(covered_fraction(cam, f, mask) > OCCLUDED_FRACTION for f in footprints))
    return entries
