"""Finding the board in a frame: the marker check, registration, the rectified view.

The marker check is stricter than registration: registration needs only two
markers, but a person setting up the table wants to know that all four are
seen and each lies at its own corner (a swapped sheet still gives a homography,
just a wrong one, so each marker's corners are checked against the others').
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.layout import Layout
from vision.rectify import warp_view
from vision.registration import default_markers, detect_markers, homography_from_corners, make_detector

from .sheets import CORNERS, GAP_MM

MISPLACED_PX = 12.0       # canonical px (~7 mm): further off than a marker laid by hand


@dataclass
class MarkerCheck:
    found: dict[int, list[list[float]]]               # marker id -> its 4 corners in the frame
    errors: dict[int, float] = field(default_factory=dict)   # canonical px off its expected place
    messages: list[str] = field(default_factory=list)
    H: np.ndarray | None = None

    @property
    def ok(self) -> bool:
        return len(self.found) == 4 and all(e <= MISPLACED_PX for e in self.errors.values())

    def to_dict(self) -> dict:
        return {"ok": self.ok, "found": sorted(self.found), "errors": {k: round(v, 1) for k, v in self.errors.items()},
                "messages": self.messages, "corners": {k: v for k, v in self.found.items()}}


def check_markers(frame: np.ndarray, layout: Layout) -> MarkerCheck:
    geometry = default_markers(layout.width, layout.height)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = detect_markers(gray, make_detector(), set(geometry))
    check = MarkerCheck({i: c.round(1).tolist() for i, c in found.items()})
    for i in sorted(set(geometry) - set(found)):
        check.messages.append(f"marker {i} ({CORNERS[i]}) not seen: is it in view, flat and not covered?")
    if len(found) < 2:
        check.messages.append("at least two markers are needed to find the board")
        return check
    src = np.concatenate([found[i] for i in sorted(found)])
    dst = np.concatenate([geometry[i] for i in sorted(found)])
    H, _ = cv2.findHomography(src, dst, 0)      # least squares over all: a misplaced marker shows as error
    check.H = H
    for i, corners in found.items():
        projected = cv2.perspectiveTransform(corners.reshape(1, 4, 2).astype(np.float64), H).reshape(4, 2)
        err = float(np.linalg.norm(projected - geometry[i], axis=1).mean())
        check.errors[i] = err
        if err > MISPLACED_PX:
            check.messages.append(f"marker {i} is {err:.0f} px from where it belongs: it should lie at the "
                                  f"{CORNERS[i]} corner, {GAP_MM:.0f} mm outside the board")
    if check.ok:
        check.messages.append("all four markers found at their corners")
    return check


def register_markers(frame: np.ndarray, layout: Layout) -> np.ndarray:
    check = check_markers(frame, layout)
    if check.H is None:
        raise ValueError("; ".join(check.messages))
    return check.H


def register_corners(points: list[list[float]], layout: Layout) -> np.ndarray:
    """Four clicked board corners (frame px): top-left, top-right, bottom-right, bottom-left."""
    pts = np.asarray(points, np.float64)
    if pts.shape != (4, 2) or not np.isfinite(pts).all():
        raise ValueError("click exactly four corners: top-left, top-right, bottom-right, bottom-left")
    if abs(cv2.contourArea(pts.astype(np.float32))) < 1000 or not cv2.isContourConvex(pts.astype(np.float32)):
        raise ValueError("the four corners do not outline the board (clicked in the wrong order?)")
    return homography_from_corners(pts, layout)


def rectified(frame: np.ndarray, H: np.ndarray, layout: Layout, scale: float = 0.5) -> np.ndarray:
    """The board seen from straight above, in the canonical frame at ``scale``."""
    return warp_view(frame, H, layout, scale)


def board_outline(frame: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray:
    """``frame`` with the registered board's outline drawn on it."""
    corners = np.array([[(0, 0), (layout.width, 0), (layout.width, layout.height), (0, layout.height)]], np.float64)
    pts = cv2.perspectiveTransform(corners, np.linalg.inv(H)).astype(np.int32)
    out = frame.copy()
    cv2.polylines(out, pts, True, (0, 212, 255), 4, cv2.LINE_AA)
    return out
