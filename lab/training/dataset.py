"""Synthetic images + ground truth -> arrays of model crops and labels.

Crops are cut exactly as at run time (``vision.rectify.crops_from_frame``),
from the generator's true homography plus a small random shift that stands
for registration error, so the net sees what the pipeline will give it; each
crop's kind context (``vision.barrage.slot_model.kind_context``) comes from the same cut.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Collection

import numpy as np

from lab.evaluate import map_samples
from vision.barrage.labels import HAS_DROPS, HAS_OWNER, KINDS, MAX_DROPS, OWNERS, PIECES
from vision.barrage.slot_model import kind_context
from vision.layout import Layout
from vision.paper_white import frame_paper
from vision.rectify import crops_from_frame
from vision.registration import process_detector

IGNORE = -1
# Share of training images cut as if the frame showed no marker paper (the board was
# registered by features or by clicked corners): the colour then rests on the board's
# median alone, and the net must read those frames too.
NO_PAPER_SHARE = 0.1


@dataclass
class CropSet:
    crops: np.ndarray       # (N, 48, 48, 3) uint8
    context: np.ndarray     # (N, 48, 48, 3) uint8: the median crop of the box's kind in the same cut
    kind: np.ndarray        # index into KINDS
    piece: np.ndarray       # index into PIECES, IGNORE where not read
    owner: np.ndarray       # index into OWNERS, IGNORE where not read
    drops: np.ndarray       # 0..MAX_DROPS, IGNORE where not read
    occluded: np.ndarray    # 0/1
    image: np.ndarray       # source image number, to split by image

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **self.__dict__)

    @classmethod
    def load(cls, path: Path) -> "CropSet":
        with np.load(path) as d:
            return cls(**{k: d[k] for k in cls.__dataclass_fields__})

    @classmethod
    def concat(cls, parts: list["CropSet"]) -> "CropSet":
        return cls(**{k: np.concatenate([getattr(p, k) for p in parts]) for k in cls.__dataclass_fields__})


def box_labels(truth: dict, layout: Layout) -> list[tuple[int, int, int, int, int]]:
    """(kind, piece, owner, drops, occluded) for every layout box, from a ground-truth JSON."""
    slots = {s["id"]: s for s in truth["slots"]}
    out = []
    for box in layout.boxes:
        s = slots[box.id]
        occluded = int(bool(s.get("occluded")))
        piece = owner = drops = IGNORE
        if box.kind in HAS_OWNER and not occluded:
            piece = PIECES.index(s["piece"] or "empty")
            owner = OWNERS.index(s["owner"] or "none")
        if box.kind in HAS_DROPS and not occluded:
            drops = min(int(s.get("drops") or 0), MAX_DROPS)
        out.append((KINDS.index(box.kind), piece, owner, drops, occluded))
    return out


def build(folder: Path, layout: Layout, copies: int = 2, jitter_px: float = 2.5, seed: int = 0,
          no_paper_share: float = 0.0, jobs: int = 1, progress: str = "",
          kinds: Collection[str] | None = None) -> CropSet:
    """``copies`` crop sets per image; each crop edge moves by up to ``jitter_px`` view px
    (shift and scale): marker registration of synthetic frames is off by a few canonical
    px (lens distortion, sheets laid slightly askew), 2.5 view px = 5 canonical px.
    A random ``no_paper_share`` of the images is cut without the markers' paper white.
    Each image draws from its own seed, so ``jobs`` processes cut the same crops as one.
    ``progress``, when given, names the work in a progress line on stderr. ``kinds``: keep
    only the crops of these box kinds (a specialist's data; every crop is still cut, so the
    kept ones and their kind context are the ones a full set has)."""
    keep = None if kinds is None else np.isin(layout.kinds, list(kinds))
    cut = functools.partial(_cut_image, layout, copies, jitter_px, seed, no_paper_share, keep)
    return CropSet.concat([part for parts in map_samples(folder, cut, jobs, progress) for part in parts])


def _cut_image(layout: Layout, copies: int, jitter_px: float, seed: int, no_paper_share: float,
               keep: np.ndarray | None, n: int, frame: np.ndarray, truth: dict) -> list[CropSet]:
    rng = np.random.default_rng([seed, n])
    H = np.asarray(truth["homography"], np.float64)
    labels = np.array(box_labels(truth, layout), np.int64)
    paper = frame_paper(frame, layout, process_detector()) if rng.random() >= no_paper_share else None
    parts = []
    for _ in range(copies):
        jitter = rng.uniform(-jitter_px, jitter_px, (len(layout.boxes), 4))
        _, crops = crops_from_frame(frame, H, layout, jitter, paper=paper)
        part = CropSet(crops, kind_context(crops, layout.kinds), *labels.T, np.full(len(crops), n))
        parts.append(part if keep is None else CropSet(**{k: v[keep] for k, v in part.__dict__.items()}))
    return parts
