"""How much a dam's height shows in a picture, in camera pixels.

From above, one elevation shows in two ways: it moves the dam's top away from the point
under the camera (its lean) and it lengthens the dam's shadow. Both are a few camera
pixels at most, and the dam-height reader's errors follow the lean (docs/benchmarks.md,
"Where a dam's height shows"). Two uses:

- ``elevation_cues``: both cues from a synthetic image's ground truth (the generator's
  camera, piece sizes and light), so ``automa-vision eval`` can say how well heights are
  read where each cue is small or large (``vision.evaluate``);
- ``lean_over_map``: the lean at every dam space of a real table, from its registration
  and the camera position it gives (``vision.pose``), so the calibration wizard can say
  whether this camera shows elevations at all.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from .layout import Layout, load_layout
from .pose import camera_position
from .synth.camera import Camera
from .synth.lights import Sun, from_record
from .synth.pieces import PieceStyle

# Cue bands, in camera pixels per elevation: under one pixel a cue is all but invisible.
BANDS = ((1.0, "< 1 px"), (2.0, "1-2 px"), (4.0, "2-4 px"), (float("inf"), ">= 4 px"))
# An elevation's height where the table's own is not known: the middle of the generator's
# 9-18 canonical px (~5-10 mm), on which the reader was trained.
NOMINAL_RISE = 13.5

Project = Callable[[np.ndarray], np.ndarray]      # (N, 2) board points, canonical px -> (N, 2) camera px


@dataclass(frozen=True)
class ElevationCues:
    """Camera pixels one elevation moves, at one dam space: its top (``lean``) and the
    tip of its shadow (``shadow``; None where lamps light the frame, each casting its own)."""
    lean: float
    shadow: float | None


def lean_px(project: Project, camera: np.ndarray, points: np.ndarray, rise: float) -> np.ndarray:
    """Camera px that a top ``rise`` canonical px up moves, standing on each of the board
    ``points`` (N, 2), seen by a camera at ``camera`` = (x, y, height). The top is seen
    where the camera's ray through it meets the board: farther from the nadir by the
    share rise / (height - rise) of its distance."""
    nadir, height = np.asarray(camera[:2], np.float64), float(camera[2])
    points = np.asarray(points, np.float64)
    if not np.isfinite(height) or height <= rise:
        return np.zeros(len(points))
    seen = nadir + (points - nadir) * (height / (height - rise))
    return np.linalg.norm(project(seen) - project(points), axis=1)


@functools.cache
def _generator_layout() -> Layout:
    return load_layout()        # the map the generator draws its boards on


def elevation_cues(truth: dict, slot: str) -> ElevationCues | None:
    """The cues at dam space ``slot`` of a synthetic image's ground ``truth``; None for a
    truth without the generator's camera and piece style, or a space not on its map."""
    try:
        style = truth["style"]
        camera = Camera.from_record(tuple(truth["image_size"]), style["camera"])
        pieces = PieceStyle(**style["pieces"])
        point = _generator_layout().slot(slot).centre
        lights = [from_record(r) for r in style["lighting"]["lights"]] if "lighting" in style else [pieces.sun]
    except (KeyError, TypeError, ValueError, StopIteration):
        return None

    def project(board: np.ndarray) -> np.ndarray:
        return camera.ideal(np.column_stack([board, np.zeros(len(board))]))

    rise = pieces.elevation_height
    eye = camera.centre                                   # z into the table: the height is -z
    lean = lean_px(project, np.array([eye[0], eye[1], -eye[2]]), np.array([point]), rise)[0]
    if not (len(lights) == 1 and isinstance(lights[0], Sun)):
        return ElevationCues(float(lean), None)
    # A point `rise` up casts its shadow there on the board (as the renderer draws it).
    tip = lights[0].ground(np.array([[point[0], point[1], -rise]]))
    shadow = project(np.vstack([point, tip]))
    return ElevationCues(float(lean), float(np.linalg.norm(shadow[1] - shadow[0])))


def lean_over_map(H: np.ndarray, frame_shape: tuple[int, ...], layout: Layout,
                  rise: float = NOMINAL_RISE, camera: np.ndarray | None = None) -> dict[str, float]:
    """Dam space -> camera px one elevation ``rise`` canonical px tall moves a dam's top
    there, in the frame that ``H`` (frame px -> canonical px) registers; ``camera``: the
    camera position (``vision.pose``) where already known, else found from ``H``."""
    board_to_image = np.linalg.inv(np.asarray(H, np.float64))

    def project(board: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(board.reshape(-1, 1, 2), board_to_image).reshape(-1, 2)

    dams = layout.of_kind("dam")
    if not dams:
        return {}
    camera = camera_position(H, frame_shape) if camera is None else camera
    px = lean_px(project, camera, np.array([box.centre for box in dams]), rise)
    return {box.id: float(p) for box, p in zip(dams, px)}
