"""Finding the board in a frame: the marker check, registration, the rectified view.

The marker check is stricter than registration: registration needs only two
markers, but a person setting up the table wants to know that all four are
seen and each lies at its own corner (a swapped sheet still gives a homography,
just a wrong one, so each marker's corners are checked against the others').

With all four seen, the check also fits the lens's distortion from their corners, as
play time does (``vision.radial_lens``): the wizard's pictures of the board, the reference
picture that finds the board again when its markers are hidden above all, are then cut
through the same lens as play time's frames, not bent by a wide-angle webcam.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import radial_lens
from vision.layout import Layout
from vision.radial_lens import RadialLens, frame_outline
from vision.rectify import warp_view
from vision.registration import (default_markers, detect_markers, homography_from_corners, make_detector,
                                 place_markers)

from .sheets import CORNERS, GAP_MM

MISPLACED_PX = 12.0       # canonical px (~7 mm): further off than a marker laid by hand


@dataclass
class MarkerCheck:
    found: dict[int, list[list[float]]]               # marker id -> its 4 corners in the frame
    errors: dict[int, float] = field(default_factory=dict)   # canonical px off its expected place
    messages: list[str] = field(default_factory=list)
    H: np.ndarray | None = None          # of the distortion-free frame where there is a ``lens``
    lens: RadialLens | None = None      # the distortion the four markers' corners show, if any

    @property
    def ok(self) -> bool:
        return len(self.found) == 4 and all(e <= MISPLACED_PX for e in self.errors.values())

    def to_dict(self) -> dict:
        return {"ok": self.ok, "found": sorted(self.found), "errors": {k: round(v, 1) for k, v in self.errors.items()},
                "messages": self.messages, "corners": {k: v for k, v in self.found.items()},
                "lens_kappa": None if self.lens is None else round(self.lens.kappa, 4)}


def check_markers(frame: np.ndarray, layout: Layout, fit_lens: bool = True) -> MarkerCheck:
    """``fit_lens``: fit the lens's distortion from the markers (off where the frame is
    undistorted already, by the profile's lens calibration: play time does the same)."""
    geometry = default_markers(layout.width, layout.height)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    # each placed as play time places it: the lens is fitted from these corners
    found = place_markers(gray, detect_markers(gray, make_detector(), set(geometry)))
    check = MarkerCheck({i: c.round(1).tolist() for i, c in found.items()})
    for i in sorted(set(geometry) - set(found)):
        check.messages.append(f"marker {i} ({CORNERS[i]}) not seen: is it in view, flat and not covered?")
    if len(found) < 2:
        check.messages.append("at least two markers are needed to find the board")
        return check
    src = np.concatenate([found[i] for i in sorted(found)]).astype(np.float64)
    dst = np.concatenate([geometry[i] for i in sorted(found)])
    lens = radial_lens.fit(src, dst, (frame.shape[1], frame.shape[0])) if fit_lens else None
    check.lens = lens if lens is not None and lens.kappa != 0.0 else None
    if check.lens is not None:
        src = check.lens.undistort(src)
        check.messages.append(f"the lens bends the picture (kappa {check.lens.kappa:.3f}): "
                              "the board's pictures are taken through it, as during play")
    H, _ = cv2.findHomography(src, dst, 0)      # least squares over all: a misplaced marker shows as error
    check.H = H
    for i, corners in found.items():
        corners = corners.reshape(-1, 2).astype(np.float64)
        corners = corners if check.lens is None else check.lens.undistort(corners)
        projected = cv2.perspectiveTransform(corners.reshape(1, 4, 2), H).reshape(4, 2)
        err = float(np.linalg.norm(projected - geometry[i], axis=1).mean())
        check.errors[i] = err
        if err > MISPLACED_PX:
            check.messages.append(f"marker {i} is {err:.0f} px from where it belongs: it should lie at the "
                                  f"{CORNERS[i]} corner, {GAP_MM:.0f} mm outside the board")
    if check.ok:
        check.messages.append("all four markers found at their corners")
    return check


def register_markers(frame: np.ndarray, layout: Layout, fit_lens: bool = True) -> tuple[np.ndarray, RadialLens | None]:
    """The board's homography and the lens fitted with it (``check_markers``)."""
    check = check_markers(frame, layout, fit_lens)
    if check.H is None:
        raise ValueError("; ".join(check.messages))
    return check.H, check.lens


def register_corners(points: list[list[float]], layout: Layout, size: tuple[int, int] | None = None) -> np.ndarray:
    """Four clicked board corners (frame px): top-left, top-right, bottom-right, bottom-left;
    ``size``: the picture's (width, height), which every corner must lie in (a click does)."""
    try:
        pts = np.asarray(points, np.float64)
    except (TypeError, ValueError, OverflowError):     # not numbers at all (text, objects, ragged lists, 1e999)
        pts = np.empty(0)
    if pts.shape != (4, 2) or not np.isfinite(pts).all():
        raise ValueError("click exactly four corners: top-left, top-right, bottom-right, bottom-left")
    if size is not None and not ((pts >= 0).all() and (pts <= np.asarray(size, np.float64)).all()):
        raise ValueError(f"a corner lies outside the {size[0]}x{size[1]} picture: click the corners on it")
    if abs(cv2.contourArea(pts.astype(np.float32))) < 1000 or not cv2.isContourConvex(pts.astype(np.float32)):
        raise ValueError("the four corners do not outline the board (clicked in the wrong order?)")
    H = homography_from_corners(pts, layout)
    if H is None or not np.isfinite(H).all():
        raise ValueError("the four corners do not outline the board (clicked in the wrong order?)")
    return H


def rectified(frame: np.ndarray, H: np.ndarray, layout: Layout, scale: float = 0.5,
              lens: RadialLens | None = None) -> np.ndarray:
    """The board seen from straight above, in the canonical frame at ``scale``."""
    return warp_view(frame, H, layout, scale, lens)


def reference_picture(frame: np.ndarray, H: np.ndarray, layout: Layout, lens: RadialLens | None = None) -> np.ndarray:
    """The picture that finds the board by its features when its markers are hidden
    (``vision.registration.FeatureReference``): the board from above at full scale."""
    return rectified(frame, H, layout, 1.0, lens)


def board_outline(frame: np.ndarray, H: np.ndarray, layout: Layout, lens: RadialLens | None = None) -> np.ndarray:
    """``frame`` with the registered board's outline drawn on it (curved where a lens bends it)."""
    out = frame.copy()
    cv2.polylines(out, frame_outline(H, lens, 0, 0, layout.width, layout.height, steps=24), True,
                  (0, 212, 255), 4, cv2.LINE_AA)
    return out
