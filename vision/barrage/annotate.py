"""Draw a reading onto the camera frame: each slot outlined where it was read, labelled."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..layout import Layout
from ..radial_lens import frame_outline
from ..reader import SlotReading
from .labels import dam_pieces
from .pipeline import Reading

COLOURS = {"ok": (60, 200, 60), "low": (0, 200, 255), "flagged": (0, 0, 255), "unknown": (160, 160, 160)}


def label(r: SlotReading) -> str:
    if r.unknown:
        return "?"
    if r.kind == "headstream":
        return f"{r.drops}d"
    if r.piece in (None, "empty"):
        return ""
    who = (r.owner or "none")[:3]
    return f"{who}{dam_pieces(r.piece)}/{r.drops}" if r.kind == "dam" else who


def annotate(frame: np.ndarray, reading: Reading, layout: Layout) -> np.ndarray:
    out = frame.copy()
    if reading.homography is None:
        cv2.putText(out, "board not found", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, COLOURS["flagged"], 2)
        return out
    flagged = {f.slot for f in reading.flags}
    low = set(reading.low_confidence)
    for box, r in zip(layout.slots, reading.slots):
        poly = frame_outline(reading.homography, reading.lens, box.x, box.y, box.w, box.h)
        status = "unknown" if r.unknown else "low" if r.id in low else "flagged" if r.id in flagged else "ok"
        cv2.polylines(out, poly, True, COLOURS[status], 1, cv2.LINE_AA)
        text = label(r)
        if text:
            x, y = poly[0, 0]
            cv2.putText(out, text, (int(x), int(y) - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.35, COLOURS[status], 1, cv2.LINE_AA)
    return out


def write_png(path: Path, img: np.ndarray) -> None:
    """Write a picture (an annotated frame, an evaluation's figure), its folder made if need
    be; OSError, saying which file, where it cannot be (``cv2.imwrite`` itself only returns False)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OSError(f"cannot write {path}: {exc.strerror or exc}") from None
    if not cv2.imwrite(str(path), img):
        raise OSError(f"cannot write {path}")
