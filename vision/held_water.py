"""A dam holds one water drop per piece: a constraint on reading a dam with its lake.

A dam of one, two or three pieces (a base, plus one or two elevations) holds at most
1, 2 or 3 drops, and an empty dam space none (``automa.barrage.state.validate``). The
drops stand in the dam's lake, a box of its own, so the net reads the dam and its
drops apart. Dam heights are its weakest reading (from ~2 m up an elevation moves a
dam's top by about one view pixel) and drop counts its next weakest; read together,
two clear drops say the dam has at least one elevation, and a clear bare base says it
holds at most one drop.

The decoder takes the likeliest reading of the pair that a dam can hold, as a conduit
slot can only read empty or conduit (rulings V2). Where the dam and the lake read
alone break the capacity, the slot carries a note for the players: a person can also
put one drop too many on a dam, and that is theirs to see, not the camera's to fix.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .labels import MAX_DROPS, PIECES, dam_pieces
from .layout import Layout

# (piece class, drop count) -> whether a dam of that class holds that many drops.
FITS = np.array([[d <= dam_pieces(p) for d in range(MAX_DROPS + 1)] for p in PIECES])


@dataclass(frozen=True)
class Choice:
    """One dam's reading chosen together with its lake's."""
    piece: int                   # index into PIECES
    owner: int                   # index into OWNERS
    drops: int
    piece_share: float           # probability of (piece, owner) among the readings that fit
    drops_share: float           # probability of the drop count, given that (piece, owner)
    conflict: str | None         # what the dam and the lake read alone, when that does not fit


def choose(table: np.ndarray, drops_p: np.ndarray) -> Choice:
    """The likeliest reading of a dam and its lake that fits the dam's capacity.
    ``table``: the dam's (pieces, owners) reading probabilities; ``drops_p``: the lake's
    drop-count probabilities. The two are read as independent, as the heads are. The two
    shares multiply to the whole reading's probability among the readings that fit."""
    joint = table[:, :, None] * drops_p[None, None, :] * FITS[:, None, :]
    j, k, d = np.unravel_index(int(joint.argmax()), joint.shape)
    total = float(joint.sum())   # > 0: an empty space with no drops always fits
    alone_piece = int(np.unravel_index(int(table.argmax()), table.shape)[0])
    alone_drops = int(drops_p.argmax())
    conflict = None
    if not FITS[alone_piece, alone_drops]:
        conflict = (f"read alone: {PIECES[alone_piece]} with {_drops(alone_drops)}, more than it holds; "
                    f"taken as {PIECES[j]} with {_drops(d)}")
    held = float(joint[j, k].sum())      # the chosen (piece, owner) with any drop count that fits
    return Choice(int(j), int(k), int(d), held / total, float(joint[j, k, d]) / held, conflict)


def _drops(n: int) -> str:
    return f"{n} drop" if n == 1 else f"{n} drops"


@dataclass(frozen=True)
class HeldWater:
    """The (dam box, its lake's box) pairs of a layout, in the model's batch order."""
    pairs: tuple[tuple[int, int], ...]

    @classmethod
    def from_layout(cls, layout: Layout) -> "HeldWater":
        index = layout.box_index()
        return cls(tuple((index[s.key], index[f"lake:{s.id}"]) for s in layout.of_kind("dam")
                         if f"lake:{s.id}" in index))
