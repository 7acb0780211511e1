"""The light that falls on the pieces: what shades their faces and casts their shadows.

The generator's default light is one distant light (``Sun``: a window or a high ceiling
light), 35-85 degrees up, so every piece's shadow falls the same way, as far for the same height, with one
sharpness. Real tables are often lit by lamps nearby instead, several at once: each
casts its own shadow, softer and lighter the less of the light it gives, and a lamp's
shadows fan out from under it, longer the farther a piece stands from it. Or the one
light is a window late in the day, low over the table, and the shadows reach far onto
the neighbouring spaces. ``lighting`` draws either (``Options.lighting``: ``lamps``,
``low``), to test the readers on a light they never saw or to train them on it.

World coordinates are the camera's (``camera.py``): x, y on the board in canonical px,
z into the table, so a point h above the board has z = -h.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# The piece style's distant light (the default), lamps near the table, or the style's distant
# light brought down low.
LIGHTINGS = ("one", "lamps", "low")
LOW = (15.0, 35.0)               # a low light's elevation, degrees (the style's: 35-85)


@dataclass(frozen=True)
class Sun:
    """A distant light: one direction everywhere."""
    azimuth: float               # degrees
    elevation: float             # degrees above the table
    shadow: float                # how much its shadows darken, 0-1
    share: float = 1.0           # of the direct light
    blur: float = 2.0            # its shadows' softness, Gaussian sigma in image px

    @property
    def direction(self) -> np.ndarray:
        """Unit vector from the board towards the light (z up is negative)."""
        az, el = math.radians(self.azimuth), math.radians(self.elevation)
        return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])

    def towards(self, point: np.ndarray) -> np.ndarray:
        return self.direction

    def ground(self, verts: np.ndarray) -> np.ndarray:
        """Where the light's rays through ``verts`` (n, 3) meet the board: (n, 2)."""
        light = self.direction
        return verts[:, :2] - light[:2] * (verts[:, 2:3] / light[2])

    def record(self) -> dict:
        return {"sun": {"azimuth": self.azimuth, "elevation": self.elevation, "shadow": self.shadow,
                        "share": self.share, "blur": self.blur}}


@dataclass(frozen=True)
class Lamp:
    """A point light above the table at ``position`` (x, y, z; z < 0)."""
    position: tuple[float, float, float]
    share: float
    shadow: float
    blur: float

    def towards(self, point: np.ndarray) -> np.ndarray:
        d = np.asarray(self.position) - point
        return d / np.linalg.norm(d)

    def ground(self, verts: np.ndarray) -> np.ndarray:
        """Where the rays from the lamp through ``verts`` (n, 3), all below it, meet the board."""
        p = np.asarray(self.position)
        t = p[2] / (p[2] - verts[:, 2:3])              # >= 1: the board lies beyond the point
        return p[:2] + t * (verts[:, :2] - p[:2])

    def record(self) -> dict:
        return {"lamp": {"position": list(self.position), "share": self.share, "shadow": self.shadow,
                         "blur": self.blur}}


Light = Sun | Lamp


def from_record(record: dict) -> Light:
    """A light back from its ``record()`` (a ground truth's ``style.lighting.lights`` entry);
    anything else is refused with ValueError."""
    if not isinstance(record, dict) or len(record) != 1:
        raise ValueError(f"not a light: {record!r}")
    (kind, fields), = record.items()
    if kind == "lamp":
        return Lamp(tuple(fields["position"]), fields["share"], fields["shadow"], fields["blur"])
    if kind == "sun":
        return Sun(**fields)
    raise ValueError(f"not a light: {kind!r}")


def lighting(kind: str, rng: np.random.Generator, sun: Sun, board_centre: tuple[float, float],
             board_half_diagonal: float, frame_width: int) -> tuple[Light, ...]:
    """The lights of one ``Options.lighting`` ``kind``: the piece style's ``sun`` itself
    (``one``, drawing nothing), lamps (``lamps``), or the sun brought down to 15-35° (``low``)."""
    if kind == "one":
        return (sun,)
    if kind == "low":
        return (Sun(sun.azimuth, round(float(rng.uniform(*LOW)), 3), sun.shadow, sun.share, sun.blur),)
    if kind == "lamps":
        return lamps(rng, board_centre, board_half_diagonal, frame_width)
    raise ValueError(f"lighting must be one of {', '.join(LIGHTINGS)}")


def lamps(rng: np.random.Generator, board_centre: tuple[float, float], board_half_diagonal: float,
          frame_width: int) -> tuple[Lamp, ...]:
    """Two or three lamps around and above the board: 35 cm to 1.4 m up (1 canonical px ~
    0.55 mm), out to one and a half half-diagonals to the side. Each gives a share of the
    direct light; its shadows darken by that share of the whole (0.3-0.75) and are 2-7 px
    soft at 1280 px wide (wider lamps, nearer pieces' shadows blur more than a window's)."""
    n = int(rng.integers(2, 4))
    shares = rng.dirichlet(np.full(n, 2.0))
    darkness = float(rng.uniform(0.3, 0.75))
    out = []
    for share in shares:
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0.0, 1.5) * board_half_diagonal
        x, y = board_centre[0] + d * math.cos(a), board_centre[1] + d * math.sin(a)
        out.append(Lamp((round(x, 3), round(y, 3), -round(float(rng.uniform(640, 2500)), 3)),
                        share=round(float(share), 4), shadow=round(darkness * float(share), 4),
                        blur=round(float(rng.uniform(2.0, 7.0)) * frame_width / 1280, 3)))
    return tuple(out)
