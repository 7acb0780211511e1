"""A second opinion where the slot model is unsure: a specialist slot model.

The slot model reads all 87 boxes with one net. A specialist is the same net (the same
crops, kind context and heads) trained on the boxes of a few kinds only (``automa-vision
train --kinds conduit,powerhouse``); the kinds it was trained on are written in its file.
Two nets trained apart err apart, so where the slot model is unsure of one of those boxes,
each head's scores become the mean of the two models' log-probabilities (a product of two
experts, as the drop counters weigh drops). A box is unsure when its likeliest reading,
piece with owner, has less than ``SURE`` of the slot model's chance; elsewhere the slot
model's reading stands and the specialist does not run, so a typical frame costs it a few
boxes, not its 43 (``models/MODEL_CARD.md`` has the figures).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnxruntime as ort

from ..layout import Layout
from ..runner import ModelFileError, cpu_session, two_experts
from .labels import HAS_DROPS, HAS_OWNER
from .slot_model import Surety, run, second_look

SPECIALIST_MODEL = Path(__file__).resolve().parents[2] / "models" / "barrage_specialist.onnx"
KINDS_KEY = "kinds"      # the file's metadata entry naming its kinds, comma-separated
SURE = 0.99              # chosen on frames of none of the reported sets (MODEL_CARD.md)


@dataclass
class Specialist:
    session: ort.InferenceSession
    boxes: np.ndarray        # indices of the layout boxes of its kinds
    kinds: tuple[str, ...]   # each of those boxes' kind
    sure: float = SURE
    surety: Surety = field(init=False)

    def __post_init__(self) -> None:
        self.surety = Surety(self.boxes, self.kinds)

    @classmethod
    def load(cls, layout: Layout, path: str | Path = SPECIALIST_MODEL, threads: int = 2) -> "Specialist":
        session = cpu_session(path, threads)
        named = session.get_modelmeta().custom_metadata_map.get(KINDS_KEY)
        if not named:
            raise ModelFileError(f"{path} names no kinds of box: not a specialist (train one with "
                             "`automa-vision train --kinds ...`)")
        wanted = set(named.split(","))
        boxes = np.array([i for i, k in enumerate(layout.kinds) if k in wanted], np.int64)
        return cls(session, boxes, tuple(layout.kinds[i] for i in boxes))

    def unsure(self, raw: dict[str, np.ndarray]) -> np.ndarray:
        """Which of its boxes the slot model reads with less than ``sure`` for its likeliest
        (piece, owner), or for its likeliest drop count where the box has no piece."""
        return self.surety(raw) < self.sure

    def refine(self, raw: dict[str, np.ndarray], inputs: np.ndarray,
               rows: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """``raw`` with the unsure boxes' heads the mean of both models' log-probabilities
        (the occluded head: of both logits). ``inputs``: the slot model's net input for the
        frame (``vision.barrage.slot_model.net_input``), mirrored or not as the slot model read it: the
        specialist reads the same rows, as they are and mirrored (``second_look``: the mean of
        its two looks, as the slot model reads those boxes). ``rows``: (N,) bool over the
        frame's boxes, the only ones it may read (None: any)."""
        unsure = self.unsure(raw)
        chosen = np.flatnonzero(unsure if rows is None else unsure & rows[self.boxes])
        if not len(chosen):
            return raw
        at = self.boxes[chosen]
        x = inputs[at]
        second = second_look(self.session, x, run(self.session, x), np.arange(len(at)))
        kinds = [self.kinds[i] for i in chosen]
        out = dict(raw)
        for head, read in (("piece", HAS_OWNER), ("owner", HAS_OWNER), ("drops", HAS_DROPS)):
            rows = np.array([k in read for k in kinds])
            if rows.any():
                out[head] = raw[head].copy()
                out[head][at[rows]] = two_experts(raw[head][at[rows]], second[head][rows])
        out["occluded"] = raw["occluded"].copy()
        out["occluded"][at] = (raw["occluded"][at] + second["occluded"]) / 2
        return out
