"""Drops on the headstream tiles and in the lakes, counted by small ONNX models at the boxes'
own size.

The slot model reads every box from a 48x48 crop. A headstream tile (203x122 canonical px,
about 126x76 px in the view with its margin) is shrunk 2.6 times across for it and a lake
(150x50, about 93x31 px) 1.9 times, so a drop becomes a few px wide. A drop counter reads one
kind of box from the same colour-normalised view, cut at about its view size (``KINDS``). Its
counts and the slot model's are weighed together, each model's log-probabilities given equal
weight (a product of two experts): on the headstreams the pair reads every held-out set better
than the slot model alone, and the hard sets' 1280x720 frames better than the counter alone,
which is surer in the training's light and worse there (``models/MODEL_CARD.md``). The slot
model still says whether the box is hidden.

The slot model's last count is "7 or more" (``vision.barrage.labels.MAX_DROPS``), but a headstream tile
can hold more. A headstream counter may read further, up to ``MAX_HEADSTREAM_DROPS``; weighed
with it, the slot model's "7 or more" counts for each of those counts alike (``widen``), so
the counter chooses among them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from ..layout import Layout
from ..rectify import CropPlan, cut_rects, plan_crops
from ..runner import cpu_session, two_experts
from .labels import MAX_DROPS, MAX_HEADSTREAM_DROPS, dam_stands

_MODELS = Path(__file__).resolve().parents[2] / "models"


@dataclass(frozen=True)
class CountedKind:
    """A kind of box a counter reads: its crops' (width, height) px, about its box's view size
    with margin and lean, and where its shipped model is. ``held``: the drops stand in a dam's
    lake, so only lakes whose dam the slot model reads standing are counted (a lake without a
    dam holds none, rulings V2; the others keep the slot model's scores). That halves the
    counter's time on a typical board and reads the held-out sets the same. ``most``: the
    largest count its model is trained to tell, read as "that many or more"."""
    kind: str
    size: tuple[int, int]
    model: Path
    held: bool = False
    most: int = MAX_DROPS


KINDS = {
    "headstream": CountedKind("headstream", (112, 64), _MODELS / "barrage_headstream_drops.onnx",
                              most=MAX_HEADSTREAM_DROPS),
    "lake": CountedKind("lake", (96, 32), _MODELS / "barrage_lake_drops.onnx", held=True),
}


def kind_boxes(layout: Layout, kind: str) -> tuple[int, ...]:
    return tuple(i for i, b in enumerate(layout.boxes) if b.kind == kind)


def cut(view: np.ndarray, rects: np.ndarray, counted: CountedKind) -> np.ndarray:
    """(n, h, w, 3) uint8 crops of ``rects`` (n, 4) view px at the kind's size."""
    return cut_rects(view, rects, counted.size)


def kind_crops(view: np.ndarray, layout: Layout, camera: np.ndarray, counted: CountedKind,
               jitter: np.ndarray | None = None) -> np.ndarray:
    """The crops of every box of a kind, cut from the boxes the slot model's crops are cut
    from (the same margin, stretched by a drop's lean: ``vision.rectify.plan_crops``), each
    moved by ``jitter`` (n, 4) view px when given (training: registration error)."""
    rects = plan_crops(layout, camera).rects[list(kind_boxes(layout, counted.kind))]
    return cut(view, rects if jitter is None else rects + jitter, counted)


def widen(logits: np.ndarray, counts: int) -> np.ndarray:
    """Drop-count logits (n, k + 1), the last "k or more", over 0..counts-1: each count past k
    takes the last one's score. Such a head cannot tell those counts apart; weighed with a
    head that reads them (``two_experts``), that one chooses among them."""
    extra = counts - logits.shape[1]
    return logits if extra <= 0 else np.concatenate([logits, np.repeat(logits[:, -1:], extra, axis=1)], axis=1)


def to_input(crops: np.ndarray) -> np.ndarray:
    """(n, h, w, 3) uint8 -> (n, 3, h, w) float32 in 0..1."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) * np.float32(1.0 / 255.0)


@dataclass
class DropCounter:
    session: ort.InferenceSession
    counted: CountedKind
    boxes: tuple[int, ...]
    dams: tuple[int, ...] = ()       # each box's dam box, for a kind of ``held`` drops

    @classmethod
    def load(cls, layout: Layout, kind: str, path: str | Path | None = None, threads: int = 2) -> "DropCounter":
        counted = KINDS[kind]
        boxes = kind_boxes(layout, kind)
        dams = {b.id: i for i, b in enumerate(layout.boxes) if b.kind == "dam"}
        return cls(cpu_session(path or counted.model, threads), counted, boxes,
                   tuple(dams[layout.boxes[i].id] for i in boxes) if counted.held else ())

    def refine(self, raw: dict[str, np.ndarray], view: np.ndarray, plan: CropPlan,
               mirrored: bool = False, rows: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """``raw`` with its kind's drop scores the mean of the slot model's and this model's
        log-probabilities. ``plan``: the frame's crop plan (the slot crops' boxes); ``mirrored``:
        each crop read mirrored left to right, as it was also trained. Where one of the two
        reads more counts than the other, both are ``widen``ed to the more (every box's).
        ``rows``: (N,) bool over the frame's boxes, the only ones it may count (None: any)."""
        boxes = [i for i in self.boxes if rows is None or rows[i]]
        if self.dams:
            standing = {i for i, stands in zip(self.boxes, dam_stands(raw["piece"][list(self.dams)])) if stands}
            boxes = [i for i in boxes if i in standing]
        if not boxes:
            # as wide as when something is counted (the model reads 0..most): the still
            # spell's frames are averaged together
            counts = max(raw["drops"].shape[1], self.counted.most + 1)
            return raw if counts == raw["drops"].shape[1] else dict(raw, drops=widen(raw["drops"], counts))
        x = to_input(cut(view, plan.rects[boxes], self.counted))
        if mirrored:
            x = np.ascontiguousarray(x[..., ::-1])
        counted = self.session.run(["drops"], {"crops": x})[0]
        counts = max(raw["drops"].shape[1], counted.shape[1])
        out = dict(raw)
        out["drops"] = widen(raw["drops"], counts).copy()
        out["drops"][boxes] = two_experts(out["drops"][boxes], widen(counted, counts))
        return out
