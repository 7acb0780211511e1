"""Drops on the headstream tiles, counted by a third small ONNX model at the tile's own size.

The slot model reads every box from a 48x48 crop; a headstream tile (203x122 canonical px,
about 114x68 px in the view with its margin) is shrunk 2.4 times across for it, more than any
other box, and a drop becomes ~4 px wide. This model reads each of the four tiles from the
same colour-normalised view, cut at about its view size (``SIZE``). Its counts and the slot
model's are weighed together, each model's log-probabilities given equal weight (a product of
two experts): the pair reads every held-out set better than the slot model alone, and the hard
sets' 1280x720 frames better than the counter alone, which is surer in the training's light and
worse there (``models/MODEL_CARD.md``). The slot model still says whether the tile is hidden.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from .layout import Layout
from .model import cpu_session, log_softmax
from .rectify import plan_crops

DEFAULT_DROPS_MODEL = Path(__file__).resolve().parent.parent / "models" / "barrage_headstream_drops.onnx"
SIZE = (112, 64)              # (width, height) px: a tile's box, its margin and lean, at about view size


def headstream_boxes(layout: Layout) -> tuple[int, ...]:
    return tuple(i for i, b in enumerate(layout.boxes) if b.kind == "headstream")


def cut(view: np.ndarray, rects: np.ndarray, jitter: np.ndarray | None = None) -> np.ndarray:
    """(n, 64, 112, 3) uint8 crops of ``rects`` (n, 4) view px (x0, y0, x1, y1), each moved
    by ``jitter`` (n, 4) view px when given (training: registration error)."""
    w, h = SIZE
    out = np.empty((len(rects), h, w, 3), np.uint8)
    for i, rect in enumerate(rects):
        x0, y0, x1, y1 = rect if jitter is None else rect + jitter[i]
        sx, sy = w / max(x1 - x0, 1e-3), h / max(y1 - y0, 1e-3)
        M = np.array([[sx, 0, -x0 * sx], [0, sy, -y0 * sy]], np.float32)
        out[i] = cv2.warpAffine(view, M, (w, h), flags=cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return out


def headstream_crops(view: np.ndarray, layout: Layout, camera: np.ndarray,
                     jitter: np.ndarray | None = None) -> np.ndarray:
    """The four tiles' crops, cut from the boxes the slot model's crops are cut from (the
    same margin, stretched by a drop's lean: ``vision.rectify.plan_crops``)."""
    return cut(view, plan_crops(layout, camera).rects[list(headstream_boxes(layout))], jitter)


def to_input(crops: np.ndarray) -> np.ndarray:
    """(n, 64, 112, 3) uint8 -> (n, 3, 64, 112) float32 in 0..1."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) * np.float32(1.0 / 255.0)


@dataclass
class HeadstreamDrops:
    session: ort.InferenceSession
    layout: Layout
    boxes: tuple[int, ...]

    @classmethod
    def load(cls, layout: Layout, path: str | Path = DEFAULT_DROPS_MODEL, threads: int = 2) -> "HeadstreamDrops":
        return cls(cpu_session(path, threads), layout, headstream_boxes(layout))

    def refine(self, raw: dict[str, np.ndarray], view: np.ndarray, camera: np.ndarray,
               mirrored: bool = False) -> dict[str, np.ndarray]:
        """``raw`` with the headstreams' drop scores the mean of the slot model's and this
        model's log-probabilities (``mirrored``: each crop read mirrored left to right, as it
        was also trained)."""
        x = to_input(headstream_crops(view, self.layout, camera))
        if mirrored:
            x = np.ascontiguousarray(x[..., ::-1])
        out = dict(raw)
        out["drops"] = raw["drops"].copy()
        boxes = list(self.boxes)
        counted = self.session.run(["drops"], {"crops": x})[0]
        out["drops"][boxes] = (log_softmax(raw["drops"][boxes]) + log_softmax(counted)) / 2
        return out
