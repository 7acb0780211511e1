"""A dam holds one water drop per piece: a constraint on reading a dam with its lake.

A dam of one, two or three pieces (a base, plus one or two elevations) holds at most
1, 2 or 3 drops, and an empty dam space none (``automa.barrage.state.validate``); a level 3
dam of a company with Graziano Del Monte holds 4 (``automa.barrage.state.holds``). The
drops stand in the dam's lake, a box of its own, so the net reads the dam and its
drops apart. Dam heights are its weakest reading (from ~2 m up an elevation moves a
dam's top by about one view pixel) and drop counts its next weakest; read together,
two clear drops say the dam has at least one elevation, and a clear bare base says it
holds at most one drop.

The decoder takes the likeliest reading of the pair that a dam can hold, as a conduit
slot can only read empty or conduit (rulings V2). Where the dam and the lake read
alone break the capacity, the slot carries a note for the players: a person can also
put one drop too many on a dam, and that is theirs to see, not the camera's to fix.

The lake's readers learned from every lake of the training images, most of them below
an empty dam space, so their scores lean to "no drops" by what lakes hold there (about
four in five none, ``lab/training/lake_shares.py``). Read with its dam the lake is no longer
any lake: the decoder divides those shares out and lets every count the dam can hold
be equally likely, so how full a dam is comes from the picture, not from the training
set's games. Without it, a drop hard to see (blue on a pale blue lake, in glare) was
read as none far more often than a drop was seen too many (docs/benchmarks.md). The
training's games hold no Del Monte dam, so no lake of theirs held 4: that count is divided
by the share of 3, the nearest count they held (rulings V14).
"""
from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from automa.barrage.state import holds

from ..layout import Layout
from .labels import MAX_DROPS, OWNERS, PIECES, dam_pieces


def fits(del_monte: bool = False) -> np.ndarray:
    """(piece class, drop count) -> whether a dam of that class holds that many drops;
    ``del_monte``: a dam of a company with Graziano Del Monte."""
    return np.array([[d <= holds(dam_pieces(p), del_monte) for d in range(MAX_DROPS + 1)] for p in PIECES])


FITS = fits()
LAKE_SHARES = Path(__file__).resolve().parents[2] / "models" / "barrage_lake_shares.json"


def lake_shares(path: str | Path = LAKE_SHARES) -> np.ndarray:
    """The shares of the training images' lakes holding 0..MAX_DROPS drops (``lab/training/lake_shares.py``)."""
    try:
        shares = np.asarray(json.loads(Path(path).read_text())["shares"], np.float64)
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError, ValueError):
        raise ValueError(f"{path}: not a lake shares file (python -m lab.training.lake_shares writes one)") from None
    if shares.shape != (MAX_DROPS + 1,) or not (shares[FITS.any(axis=0)] > 0).all():
        raise ValueError(f"{path}: want {MAX_DROPS + 1} shares, each count a dam holds above 0")
    return shares


def pair_weights(shares: np.ndarray, del_monte: bool = False) -> np.ndarray:
    """(piece class, drop count) -> what a lake reading's chance of that count is multiplied
    by, for a dam of that class (``del_monte``: of a company with Del Monte): 0 beyond its
    capacity; else the share of the counts it can hold (each as likely) over the share of
    the training lakes that held it, or for a count none held, the share of the most held."""
    fit = fits(del_monte)
    per_count = fit / fit.sum(axis=1, keepdims=True)
    held = np.flatnonzero(shares > 0)
    seen = shares[np.minimum(np.arange(len(shares)), held.max())]
    return per_count / np.where(fit.any(axis=0), seen, 1.0)


@dataclass(frozen=True)
class Choice:
    """One dam's reading chosen together with its lake's."""
    piece: int                   # index into PIECES
    owner: int                   # index into OWNERS
    drops: int
    piece_share: float           # probability of (piece, owner) among the readings that fit
    drops_share: float           # probability of the drop count, given that (piece, owner)
    conflict: str | None         # what the dam and the lake read alone, when that does not fit


def choose(table: np.ndarray, drops_p: np.ndarray, weights: np.ndarray) -> Choice:
    """The likeliest reading of a dam and its lake that fits the dam's capacity.
    ``table``: the dam's (pieces, owners) reading probabilities; ``drops_p``: the lake's
    drop-count probabilities; ``weights``: ``pair_weights``, (pieces, counts) or, where
    owners' dams hold differently, (pieces, owners, counts). The dam and the lake are read
    as independent, as the heads are. The two shares multiply to the whole reading's
    probability among the readings that fit. Counts past ``weights``' (a headstream counter's
    wider head, ``vision.barrage.drop_counter.widen``) fit no dam and are left out."""
    if weights.ndim == 2:
        weights = np.broadcast_to(weights[:, None, :], (*table.shape, weights.shape[1]))
    drops_p = drops_p[:weights.shape[2]]
    joint = table[:, :, None] * drops_p[None, None, :] * weights
    j, k, d = np.unravel_index(int(joint.argmax()), joint.shape)
    total = float(joint.sum())   # > 0: an empty space with no drops always fits
    alone_piece, alone_owner = np.unravel_index(int(table.argmax()), table.shape)
    alone_drops = int(drops_p.argmax())
    conflict = None
    if weights[alone_piece, alone_owner, alone_drops] == 0:
        conflict = (f"read alone: {PIECES[alone_piece]} with {_drops(alone_drops)}, more than it holds; "
                    f"taken as {PIECES[j]} with {_drops(d)}")
    held = float(joint[j, k].sum())      # the chosen (piece, owner) with any drop count that fits
    return Choice(int(j), int(k), int(d), held / total, float(joint[j, k, d]) / held, conflict)


def _drops(n: int) -> str:
    return f"{n} drop" if n == 1 else f"{n} drops"


@dataclass(frozen=True, eq=False)
class HeldWater:
    """The (dam box, its lake's box) pairs of a layout, in the model's batch order, and the
    ``pair_weights`` they are read with, for most companies' dams and for Del Monte's."""
    pairs: tuple[tuple[int, int], ...]
    weights: np.ndarray
    del_monte_weights: np.ndarray

    @classmethod
    def from_layout(cls, layout: Layout, shares: np.ndarray | None = None) -> "HeldWater":
        """``shares``: the training lakes' drop-count shares (default: the shipped ones)."""
        index = layout.box_index()
        shares = lake_shares() if shares is None else shares
        return cls(tuple((index[s.key], index[f"lake:{s.id}"]) for s in layout.of_kind("dam")
                         if f"lake:{s.id}" in index),
                   pair_weights(shares), pair_weights(shares, del_monte=True))

    def owner_weights(self, del_monte: Collection[str] = ()) -> np.ndarray:
        """The weights ``choose`` takes: (pieces, counts), or (pieces, owners, counts) where
        ``del_monte`` names companies with Graziano Del Monte."""
        if not del_monte:
            return self.weights
        theirs = np.isin(OWNERS, list(del_monte))[None, :, None]
        return np.where(theirs, self.del_monte_weights[:, None, :], self.weights[:, None, :])

    def choose(self, table: np.ndarray, drops_p: np.ndarray, weights: np.ndarray | None = None) -> Choice:
        """``weights``: ``owner_weights``' (default: one per piece for every company)."""
        return choose(table, drops_p, self.weights if weights is None else weights)
