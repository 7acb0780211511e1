"""The neutral dams as the map places them: a constraint on reading the dam slots.

At setup one neutral dam goes on one candidate space of each area, at the area's
fixed height (mountains: a base; hills: base + 1 elevation; plains: base + 2), and
nobody can raise it (``automa/barrage/data/map.json``, ``neutral_dams``). A grey dam
on another space, at another height, or a second one in an area is not among the
pieces a table can show, so the decoder compares only the readings that are.

This matters because dam heights are the model's weakest reading (a top-down camera
sees one elevation lean by about one pixel), while a neutral dam's grey is easy to
see. An area without a neutral dam stays possible (the printed rules may place them
only at some player counts), but it is the less likely case: the rules as this project
has them (BGA) place one in every area at every player count, and so does
``automa.barrage.setup``. ``PRESENT`` says how much less likely (rulings V1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from automa.barrage.data import barrage_map

from ..layout import Layout
from .labels import OWNERS, PIECES

NEUTRAL_INDEX = OWNERS.index("neutral")
NOT_NEUTRAL = np.arange(len(OWNERS)) != NEUTRAL_INDEX
_PIECE_OF = {1: "base", 2: "base+1", 3: "base+2"}
# Weight of each placement "this dam is the area's neutral dam" against 1 - PRESENT for
# "none here". At 0.5 (weighed alike) an area's lone grey-looking dam read as France whenever
# its grey share fell under a half; 0.8-0.95 did best on the tuning frames (rulings V1).
PRESENT = 0.9


@dataclass(frozen=True)
class NeutralDams:
    """Per area, the (box index, piece class index) a neutral dam may take: one of them at most."""
    areas: tuple[tuple[tuple[int, int], ...], ...]
    present: float = PRESENT

    @classmethod
    def from_map(cls, layout: Layout) -> "NeutralDams":
        index = layout.box_index()
        return cls(tuple(tuple((index[space], PIECES.index(_PIECE_OF[nd["pieces"]])) for space in nd["candidate_spaces"])
                         for nd in barrage_map().neutral_dams))

    def heights(self) -> dict[int, str]:
        """Box index -> the piece class a neutral dam has there, for every candidate space."""
        return {box: PIECES[piece] for area in self.areas for box, piece in area}

    def restrict(self, joint: np.ndarray, occluded: np.ndarray) -> None:
        """Rework, in place, the (piece, owner) probabilities ``joint`` (N, pieces, owners)
        to the readings a table can show. A neutral reading off the candidate spaces or
        heights is zeroed. Within an area, an area holds one neutral dam or none, so each
        visible dam's neutral readings are scaled to the chance that it is the area's one,
        over the area's possible placements (none, weighed 1 - ``present``, or one dam,
        each weighed ``present``), the rest of its readings to the chance that it is not:
        two grey-looking dams of one area then both read unsure rather than, frame by
        frame, each sure in turn. Where several dams still read neutral, the likeliest
        keeps it. ``occluded`` boxes are reported unknown and show nothing, so a placement
        on one weighs like "none" as far as the visible dams can tell: an area whose other
        candidates are hidden still gets the prior on the dam it shows."""
        allowed = np.zeros(joint.shape[:2], bool)
        for area in self.areas:
            for box, piece in area:
                allowed[box, piece] = True
        joint[:, :, NEUTRAL_INDEX] *= allowed
        for area in self.areas:
            boxes = [box for box, _ in area if not occluded[box]]
            if not boxes:
                continue
            hidden = len(area) - len(boxes)
            total = np.array([joint[box].sum() for box in boxes])
            grey = np.array([joint[box, :, NEUTRAL_INDEX].sum() for box in boxes]) / total
            other = 1.0 - grey
            # Placement "this dam is the neutral one" weighs its grey times every other
            # dam's not-grey; "no neutral dam here" and "on a hidden space" weigh every
            # visible dam's not-grey; then each by its prior weight.
            placed = self.present * np.array([grey[i] * np.prod(np.delete(other, i)) for i in range(len(boxes))])
            weight = placed.sum() + (1.0 - self.present + self.present * hidden) * np.prod(other)
            # Zero only when two dams are grey beyond any doubt: the claims below settle it.
            chance = placed / weight if weight > 0 else grey
            for box, g, c in zip(boxes, grey, chance):
                if g > 0:
                    joint[box, :, NEUTRAL_INDEX] *= c / g
                if g < 1:
                    joint[box][:, NOT_NEUTRAL] *= (1 - c) / (1 - g)
            claims = [box for box in boxes if _best_owner(joint[box]) == NEUTRAL_INDEX]
            if len(claims) < 2:
                continue
            keep = max(claims, key=lambda box: joint[box, :, NEUTRAL_INDEX].sum() / joint[box].sum())
            for box in claims:
                if box != keep:
                    joint[box, :, NEUTRAL_INDEX] = 0.0


def _best_owner(table: np.ndarray) -> int:
    return int(np.unravel_index(table.argmax(), table.shape)[1])
