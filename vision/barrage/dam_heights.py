"""Dam heights read with the whole frame: a second, small ONNX model.

The slot model reads each crop alone, and one crop cannot tell a tall base from a short
raised dam: piece sizes differ from one printing to another, and from above an elevation
shows only as a taller lean away from the point under the camera. Every dam of a frame
shares one printing, one light and one camera, and the neutral dams' heights are known
(rulings V1). So the slot model still says whether a dam stands on a space, whose it is,
and whether it is hidden; this model says how tall each standing dam is, reading the
frame's standing dams together (``lab/training/dam_net.py``), each neutral dam as a reference.

Its crops are cut so that lean shows the same way everywhere: square, at the view's
scale (no stretch), turned so that the direction away from the nadir points up, with
the lean ratio (distance from the nadir / camera height) as a fourth channel.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np
import onnxruntime as ort

from ..layout import Layout
from ..rectify import HEIGHT, VIEW_SCALE
from ..runner import cpu_session, log_softmax, logsumexp
from .labels import OWNERS, PIECES, dam_stands

DEFAULT_HEIGHTS_MODEL = Path(__file__).resolve().parents[2] / "models" / "barrage_dam_heights.onnx"
SIZE = 64                     # crop side, view px (= canonical px * VIEW_SCALE)
CHANNELS = 4                  # BGR, then the lean ratio
MAX_LEAN = 1.5                # lean ratios are clipped here (a camera lower than a board's length)
HEIGHTS = ("base", "base+1", "base+2")
ROLES = ("company", "neutral base", "neutral base+1", "neutral base+2")
_FIRST = PIECES.index("base")
_NEUTRAL = OWNERS.index("neutral")


def lean_of(centre: Sequence[float], camera: np.ndarray) -> tuple[np.ndarray, float]:
    """Which way a piece standing at ``centre`` (canonical px) leans, a unit vector on the
    map away from the nadir (down the map right under the camera), and its lean ratio:
    its distance from the nadir over the camera's height. ``camera``: (x, y, height)
    canonical px (``vision.pose``)."""
    away = np.asarray(centre, np.float64) - np.asarray(camera[:2], np.float64)
    r = float(np.hypot(*away))
    return (away / r if r > 1e-6 else np.array([0.0, 1.0])), r / max(float(camera[2]), 1e-6)


def aligned_crop(view: np.ndarray, centre: Sequence[float], camera: np.ndarray,
                 scale: float = VIEW_SCALE) -> tuple[np.ndarray, float]:
    """The (SIZE, SIZE, 3) crop of a dam whose box centre is ``centre`` (canonical px), and
    its lean ratio. ``camera``: (x, y, height) canonical px (``vision.pose``). Up in the
    crop is away from the nadir, where a taller dam's top leans; the crop is centred half
    the tallest dam's lean out from the box centre so that a three-piece dam fits."""
    u, lean = lean_of(centre, camera)
    down = -u
    across = np.array([down[1], -down[0]])          # keeps the crop a rotation, not a mirror
    middle = np.asarray(centre, np.float64) * scale + u * (0.5 * HEIGHT["dam"] * lean * scale)
    M = np.column_stack([across, down, middle - (SIZE / 2) * (across + down)]).astype(np.float32)
    crop = cv2.warpAffine(view, M, (SIZE, SIZE), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    return crop, lean


def to_input(crops: np.ndarray, leans: np.ndarray) -> np.ndarray:
    """(n, SIZE, SIZE, 3) uint8 crops and (n,) lean ratios -> (n, 4, SIZE, SIZE) float32."""
    n = len(crops)
    out = np.empty((n, CHANNELS, SIZE, SIZE), np.float32)
    np.multiply(crops.transpose(0, 3, 1, 2), np.float32(1.0 / 255.0), out=out[:, :3])
    out[:, 3] = np.minimum(leans, MAX_LEAN).astype(np.float32)[:, None, None]
    return out


@dataclass
class DamHeights:
    """The height model and what it needs of the map: the dam boxes, and the height a
    neutral dam has on each candidate space (``neutral_roles``: box index -> role)."""
    session: ort.InferenceSession
    dams: tuple[int, ...]
    centres: tuple[tuple[float, float], ...]
    neutral_roles: dict[int, int]

    @classmethod
    def load(cls, layout: Layout, neutral_spaces: dict[int, str], path: str | Path = DEFAULT_HEIGHTS_MODEL,
             threads: int = 2) -> "DamHeights":
        """``neutral_spaces``: box index -> the piece class ("base", ...) a neutral dam there has."""
        session = cpu_session(path, threads)
        dams = tuple(i for i, b in enumerate(layout.boxes) if b.kind == "dam")
        return cls(session, dams, tuple(layout.boxes[i].centre for i in dams),
                   {box: 1 + HEIGHTS.index(piece) for box, piece in neutral_spaces.items()})

    def refine(self, raw: dict[str, np.ndarray], view: np.ndarray, camera: np.ndarray,
               mirrored: bool = False, rows: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """``raw`` with each standing company dam's height scores replaced by this model's:
        the slot model's chance that some dam stands there, shared out over the heights
        as this model reads them. Dams the slot model reads empty or hidden take no part;
        neutral dams join as references and keep their scores (the decoder knows their
        height). ``mirrored``: each dam's crop is read mirrored left to right (its lean
        still up), as the model was also trained. ``rows``: (N,) bool over the frame's boxes,
        the only dams it may read (None: any)."""
        piece = raw["piece"]
        stands = dam_stands(piece[list(self.dams)])
        standing = [j for j, i in enumerate(self.dams)
                    if raw["occluded"][i].item() < 0 and stands[j] and (rows is None or rows[i])]
        if not standing:
            return raw
        boxes = [self.dams[j] for j in standing]
        roles = np.array([self.neutral_roles.get(i, 0) if raw["owner"][i].argmax() == _NEUTRAL else 0 for i in boxes],
                         np.int64)
        cut = [aligned_crop(view, self.centres[j], camera) for j in standing]
        x = to_input(np.stack([c for c, _ in cut]), np.array([lean for _, lean in cut]))
        if mirrored:
            x = np.ascontiguousarray(x[..., ::-1])
        heights = self.session.run(["heights"], {"dams": x, "roles": roles})[0]
        out = dict(raw)
        out["piece"] = piece.copy()
        for k, i in enumerate(boxes):
            if roles[k] == 0:
                present = logsumexp(piece[i, _FIRST:_FIRST + 3])       # the chance of some dam
                out["piece"][i, _FIRST:_FIRST + 3] = present + log_softmax(heights[k])
        return out
