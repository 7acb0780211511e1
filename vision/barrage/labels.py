"""The model's output vocabulary, shared by training and inference.

Kept free of torch and OpenCV so the runtime and ``models/`` agree on one
definition of each class index.
"""
from __future__ import annotations

from typing import Collection

import numpy as np

PIECES = ("empty", "base", "base+1", "base+2", "conduit", "powerhouse")
OWNERS = ("usa", "germany", "italy", "france", "netherlands", "neutral", "none")
MAX_DROPS = 7          # the drop head predicts 0..MAX_DROPS; more is read as MAX_DROPS
# The headstream counter's head reaches further: a tile can gather more drops than a lake,
# whose dam holds at most three. More than this is read as this.
MAX_HEADSTREAM_DROPS = 12
KINDS = ("headstream", "dam", "conduit", "powerhouse", "lake")

# Which piece classes a box of each kind can hold: the decoder (and the
# training loss) only compare these, so the net never has to learn the map.
ALLOWED_PIECES: dict[str, tuple[str, ...]] = {
    "dam": ("empty", "base", "base+1", "base+2"),
    "conduit": ("empty", "conduit"),
    "powerhouse": ("empty", "powerhouse"),
    "headstream": ("empty",),
    "lake": ("empty",),
}
HAS_DROPS = ("headstream", "lake")
HAS_OWNER = ("dam", "conduit", "powerhouse")


def piece_mask(kind: str) -> np.ndarray:
    """Additive logit mask: 0 where the piece class is possible for ``kind``, -1e9 elsewhere."""
    return np.array([0.0 if p in ALLOWED_PIECES[kind] else -1e9 for p in PIECES], dtype=np.float32)


def owner_mask(companies: Collection[str]) -> np.ndarray:
    """Multiplicative mask over ``OWNERS``: 1 for the companies in the game, for neutral
    (setup's dams) and for "none" (an empty slot's; rulings V11), 0 for
    the companies nobody plays: their pieces stay in the box (rulings V4)."""
    unknown = sorted(set(companies) - set(OWNERS[:-2]))
    if unknown:
        raise ValueError(f"unknown company {', '.join(map(repr, unknown))}: choose from {', '.join(OWNERS[:-2])}")
    return np.array([1.0 if o in companies or o in ("neutral", "none") else 0.0 for o in OWNERS], np.float32)


def dam_pieces(piece: str) -> int:
    """Number of dam pieces (base + elevations) a dam class stands for."""
    return {"base": 1, "base+1": 2, "base+2": 3}.get(piece, 0)


def dam_stands(piece_logits: np.ndarray) -> np.ndarray:
    """Whether the piece scores (n, len(PIECES)) of dam boxes say a dam of some height is
    likelier than an empty space: the dams the later models read."""
    first = PIECES.index("base")
    return piece_logits[:, first:first + 3].max(axis=1) > piece_logits[:, PIECES.index("empty")]
