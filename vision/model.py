"""The slot classifier at run time: one ONNX session, one batch per frame.

The net has four heads per crop: piece class, owner colour, drop count and
"occluded". Decoding knows each crop's kind, so a conduit slot can only read
empty/conduit and a lake only gets a drop count.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from .labels import ALLOWED_PIECES, HAS_DROPS, HAS_OWNER, OWNERS, PIECES, piece_mask

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "barrage_slots.onnx"
OUTPUTS = ("piece", "owner", "drops", "occluded")


@dataclass(frozen=True)
class CropReading:
    piece: str | None          # None for headstreams and lakes
    owner: str | None          # None where no piece stands
    drops: int | None          # headstreams and lakes only
    occluded: bool
    confidence: float          # probability of the whole reading (product of the heads used)


def load_session(path: str | Path = DEFAULT_MODEL, threads: int = 2) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def to_input(crops: np.ndarray) -> np.ndarray:
    """(N, h, w, 3) uint8 BGR -> (N, 3, h, w) float32 in 0..1, the net's input."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) * (1.0 / 255.0)


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def run(session: ort.InferenceSession, crops: np.ndarray) -> dict[str, np.ndarray]:
    return dict(zip(OUTPUTS, session.run(list(OUTPUTS), {"crops": to_input(crops)})))


def decode(raw: dict[str, np.ndarray], kinds: list[str]) -> list[CropReading]:
    masks = np.stack([piece_mask(k) for k in kinds])
    piece_p = softmax(raw["piece"] + masks)
    owner_p = softmax(raw["owner"])
    drops_p = softmax(raw["drops"])
    occluded_p = 1.0 / (1.0 + np.exp(-raw["occluded"].reshape(-1)))
    out = []
    for i, kind in enumerate(kinds):
        occluded = bool(occluded_p[i] > 0.5)
        conf = float(max(occluded_p[i], 1 - occluded_p[i]))
        piece = owner = drops = None
        if len(ALLOWED_PIECES[kind]) > 1:
            j = int(piece_p[i].argmax())
            piece, conf = PIECES[j], conf * float(piece_p[i, j])
            if kind in HAS_OWNER and piece != "empty":
                k = int(owner_p[i].argmax())
                owner, conf = OWNERS[k], conf * float(owner_p[i, k])
        if kind in HAS_DROPS:
            j = int(drops_p[i].argmax())
            drops, conf = j, conf * float(drops_p[i, j])
        out.append(CropReading(piece, owner, drops, occluded, conf))
    return out
