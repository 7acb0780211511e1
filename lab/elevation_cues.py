"""How much a dam's height shows in a synthetic image, from its ground truth: the
generator's camera, piece sizes and light give both cues of ``vision.barrage.height_cues`` (the
top's lean and the shadow's length), so ``automa-vision eval`` can say how well heights
are read where each cue is small or large (``lab.evaluate``).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from vision.barrage.height_cues import lean_px
from vision.layout import Layout, load_layout

from .synth.camera import Camera
from .synth.lights import Sun, from_record
from .synth.pieces import PieceStyle

# Cue bands, in camera pixels per elevation: under one pixel a cue is all but invisible.
BANDS = ((1.0, "< 1 px"), (2.0, "1-2 px"), (4.0, "2-4 px"), (float("inf"), ">= 4 px"))


@dataclass(frozen=True)
class ElevationCues:
    """Camera pixels one elevation moves, at one dam space: its top (``lean``) and the
    tip of its shadow (``shadow``; None where lamps light the frame, each casting its own)."""
    lean: float
    shadow: float | None


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
