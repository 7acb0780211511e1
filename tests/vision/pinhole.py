"""A ground truth whose camera looks straight down over one space of the board: the
pinhole geometry the elevation cues are checked against."""
import numpy as np

from lab.synth.pieces import sample_style, style_record
from vision.layout import load_layout

FOCAL, ABOVE, RISE = 1000.0, 2000.0, 12.0


def truth_seen_from(over: str, light_elevation: float = 45.0, slots: list | None = None) -> dict:
    """A ground truth whose camera looks straight down from ABOVE canonical px over the
    centre of space ``over``; elevations RISE px tall."""
    cx, cy = load_layout().slot(over).centre
    pieces = style_record(sample_style(np.random.default_rng(0)))
    pieces.update(elevation_height=RISE, light_elevation=light_elevation, light_azimuth=30.0)
    # World z points into the table, so a camera looking down has the world's own axes.
    camera = {"K": [[FOCAL, 0, 640], [0, FOCAL, 480], [0, 0, 1]], "R": np.eye(3).tolist(),
              "t": [-cx, -cy, ABOVE], "k1": 0.0}
    return {"image_size": [1280, 960], "style": {"camera": camera, "pieces": pieces}, "slots": slots or []}
