"""How much a dam's height shows in a synthetic picture, in camera pixels.

From above, one elevation shows in two ways: it moves the dam's top away from the point
under the camera (its lean) and it lengthens the dam's shadow. Both are a few camera
pixels at most, and the dam-height reader's errors follow them. These figures come from
an image's ground truth (the generator's camera, piece sizes and light), so
``automa-vision eval`` can say how well heights are read where each cue is small or
large (``vision.evaluate``), and a new reader can be checked for using a cue at all.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .layout import Layout, load_layout
from .synth.camera import Camera
from .synth.pieces import PieceStyle, light_direction

# Cue bands, in camera pixels per elevation: under one pixel a cue is all but invisible.
BANDS = ((1.0, "< 1 px"), (2.0, "1-2 px"), (4.0, "2-4 px"), (float("inf"), ">= 4 px"))


@dataclass(frozen=True)
class ElevationCues:
    """Camera pixels one elevation moves, at one dam space: its top (``lean``) and the
    tip of its shadow (``shadow``)."""
    lean: float
    shadow: float


def band(px: float) -> str:
    return next(name for top, name in BANDS if px < top)


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
        x, y = next(box.centre for box in _generator_layout().slots if box.id == slot)
    except (KeyError, TypeError, ValueError, StopIteration):
        return None
    rise = pieces.elevation_height
    light = light_direction(pieces)
    # A point `rise` up casts its shadow this far along the board (as the renderer draws it).
    reach = light[:2] * (rise / -light[2])
    px = camera.ideal(np.array([[x, y, 0.0], [x, y, -rise], [x - reach[0], y - reach[1], 0.0]]))
    return ElevationCues(float(np.linalg.norm(px[1] - px[0])), float(np.linalg.norm(px[2] - px[0])))
