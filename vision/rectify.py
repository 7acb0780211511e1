"""Canonical view of the board and one fixed-size crop per box (slot or lake).

The frame is warped once, at a reduced scale (a 720p camera sees the board at
about half the canonical resolution, so a full-size warp adds pixels, not
detail). Pieces stand up from the board, and a ground-plane homography moves
their tops away from the point under the camera (``vision.pose``); each crop is
therefore stretched in that direction by as much as the tallest piece of its
kind leans there, so a three-piece dam stays inside its crop.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .layout import Layout
from .pose import camera_position
from .radial_lens import RadialLens, view_maps

CROP = 48          # model input side, px
VIEW_SCALE = 0.5   # canonical px -> view px
# The tallest piece of each kind, canonical px (1 px ~ 0.55 mm on a real board): a dam of
# base + 2 elevations, a powerhouse with its roof, a ring conduit, a water drop.
HEIGHT = {"dam": 50.0, "powerhouse": 26.0, "conduit": 20.0, "headstream": 14.0, "lake": 14.0}
MARGIN = 0.12      # extra border on every side, as a fraction of the box size


@dataclass(frozen=True)
class CropPlan:
    """Crop rectangles in view pixels (x0, y0, x1, y1), one per layout box."""
    rects: np.ndarray
    scale: float

    def moved(self, offset: np.ndarray) -> "CropPlan":
        """Every rectangle's (x0, y0, x1, y1) moved by ``offset`` view px: (4,) for all, (N, 4) each."""
        return CropPlan(self.rects + np.asarray(offset, np.float32), self.scale)


def warp_view(frame: np.ndarray, H: np.ndarray, layout: Layout, scale: float = VIEW_SCALE,
              lens: RadialLens | None = None) -> np.ndarray:
    """The frame warped to the canonical map at ``scale``; with a ``lens`` (``H`` then maps
    the distortion-free frame) its distortion is taken out in the same pass."""
    # warpPerspective samples bilinearly whatever the flag (it has no area mode), so a frame
    # finer than the view aliases a little; shrinking such frames by area first changed
    # nothing measurable (docs/benchmarks.md, 2026-11-26, second session).
    S = np.diag([scale, scale, 1.0])
    size = (int(round(layout.width * scale)), int(round(layout.height * scale)))
    if lens is not None:
        return cv2.remap(frame, *view_maps(S @ H, lens, size), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.warpPerspective(frame, S @ H, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def plan_crops(layout: Layout, camera: np.ndarray, scale: float = VIEW_SCALE,
               heights: dict[str, float] = HEIGHT, margin: float = MARGIN) -> CropPlan:
    """``camera``: (x, y, height) in canonical px, from ``vision.pose.camera_position``."""
    nadir, cam_h = np.asarray(camera[:2], np.float64), float(camera[2])
    rects = []
    for b in layout.boxes:
        top = heights[b.kind]
        # A piece's top at height z projects onto the board z / (camera height - z) further out.
        shift = (np.array(b.centre) - nadir) * top / max(cam_h - top, top)
        x0, x1 = min(b.x, b.x + shift[0]), max(b.x + b.w, b.x + b.w + shift[0])
        y0, y1 = min(b.y, b.y + shift[1]), max(b.y + b.h, b.y + b.h + shift[1])
        mx, my = margin * b.w, margin * b.h
        rects.append((x0 - mx, y0 - my, x1 + mx, y1 + my))
    return CropPlan(np.array(rects, np.float32) * scale, scale)


# A dark frame lifted all the way to mid-grey has its bright parts clipped to white, France's
# white pieces first, and its noise lifted as much: lifting it at most this much read every
# group of held-out sets better (docs/benchmarks.md, "A dark frame lifted less").
MAX_GAIN = 1.7


def normalise_colour(view: np.ndarray, paper: np.ndarray | None = None, max_gain: float = MAX_GAIN) -> np.ndarray:
    """Scale each channel to take out the camera's exposure and white balance, which the
    pieces share with the board around them. The board's median goes to mid-grey in
    brightness, but a dark frame is brightened by at most ``max_gain`` (its channels' mean
    gain); its colour is set by ``paper``, the BGR of the marker sheets' white
    (``vision.paper_white``), when the frame shows it. Without it the board's median is
    taken for grey, which tints everything on a board printed in strong colours."""
    sample = view[::8, ::8].reshape(-1, 3)
    median = np.maximum(np.median(sample, axis=0), 1.0)
    if paper is None:
        gain = 128.0 / median
    else:
        paper = np.maximum(np.asarray(paper, np.float64), 1.0)
        gain = (128.0 / median.mean()) * (paper.mean() / paper)
    gain = gain * min(1.0, max_gain / gain.mean())
    lut = np.clip(np.arange(256)[:, None] * gain[None, :], 0, 255).astype(np.uint8)
    out = np.empty_like(view)
    for c in range(3):
        out[..., c] = cv2.LUT(view[..., c], lut[:, c])
    return out


def canonical_view(frame: np.ndarray, H: np.ndarray, layout: Layout, paper: np.ndarray | None = None,
                   lens: RadialLens | None = None) -> np.ndarray:
    """The frame warped to the canonical map and colour-normalised: what every model reads
    (the slot crops and the dam-height crops are cut from it, at run time and in training)."""
    return normalise_colour(warp_view(frame, H, layout, lens=lens), paper)


def cut_rects(view: np.ndarray, rects: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(N, h, w, 3) uint8 crops of ``rects`` (N, 4) view px (x0, y0, x1, y1), each scaled to
    ``size`` (w, h) bilinearly; boxes partly outside the view are padded by replication."""
    w, h = size
    out = np.empty((len(rects), h, w, 3), np.uint8)
    for i, (x0, y0, x1, y1) in enumerate(rects):
        # An affine map from the crop rectangle to the output: sub-pixel exact and
        # border-safe, and as cheap as a slice + resize at these sizes.
        sx, sy = w / max(x1 - x0, 1e-3), h / max(y1 - y0, 1e-3)
        M = np.array([[sx, 0, -x0 * sx], [0, sy, -y0 * sy]], np.float32)
        out[i] = cv2.warpAffine(view, M, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return out


def cut_crops(view: np.ndarray, plan: CropPlan, size: int = CROP) -> np.ndarray:
    """(N, size, size, 3) uint8: the slot model's square crops of a plan."""
    return cut_rects(view, plan.rects, (size, size))


def crops_from_frame(frame: np.ndarray, H: np.ndarray, layout: Layout, jitter: np.ndarray | None = None,
                     plan: CropPlan | None = None, paper: np.ndarray | None = None,
                     lens: RadialLens | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Frame -> (normalised canonical view, crops). ``jitter`` (N, 4) view px is added to
    the rectangles: training uses it to mimic registration error. ``plan``: the crop plan,
    made from the camera pose ``H`` gives when not given (the pipeline gives it: it plans
    once a frame for the slot crops and the drop counters', from a pose that knows a saved
    lens calibration's K). ``paper``: the markers' white, if seen; ``lens``: the distortion the
    registration fitted (``vision.radial_lens``), ``H`` then being the distortion-free frame's."""
    view = canonical_view(frame, H, layout, paper, lens)
    plan = plan_crops(layout, camera_position(H, frame.shape)) if plan is None else plan
    if jitter is not None:
        plan = plan.moved(jitter)
    return view, cut_crops(view, plan)
