"""The pieces' shapes: blocks (the default) or moulded.

The generator's structures are blocks (``Options.shapes`` ``blocks``): a dam is a box or a
frustum with its elevations stacked on it, a conduit a bar lying on its space or a post
standing on it. Other printings and home-made sets shape them otherwise. ``moulded`` draws
each dam as an arched wall, its elevations arched the same way, and each bar conduit as a
round pipe lying on its space (post conduits, powerhouses and drops keep their shapes).
Nothing else of the frame changes: the same seed gives the same game, table, camera and
light, each piece the same place and colour, a dam the same width and height, so a moulded
folder is a twin of a blocks one and measures what the shapes alone cost the readers.

An arch is cut into a few convex segments, since the drawing and the shadows take convex
solids (``pieces.Solid``). World coordinates are the camera's: z into the table, up is -z.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

SHAPES = ("blocks", "moulded")
ARCH_SEGMENTS = 5              # convex pieces an arched wall is drawn from
PIPE_SIDES = 8                 # a pipe's cross-section: a regular polygon


@dataclass(frozen=True)
class Shapes:
    """``kind``: one of ``SHAPES``; ``bend``: an arched wall's sagitta as a share of its
    width (0: straight); ``wall``: the wall's thickness as a share of the dam's depth (the
    space it stands on is the same as a block dam's); ``side``: which way it bulges across
    the space (+1/-1)."""
    kind: str = "blocks"
    bend: float = 0.0
    wall: float = 1.0
    side: int = 1

    @property
    def moulded(self) -> bool:
        return self.kind == "moulded"

    def record(self) -> dict:
        return asdict(self)


BLOCKS = Shapes()


def shapes(kind: str, rng: np.random.Generator) -> Shapes:
    """The shapes ``kind`` (one of ``SHAPES``) names, drawn from ``rng`` (the shapes' own
    stream: blocks draw nothing)."""
    if kind == "blocks":
        return BLOCKS
    if kind != "moulded":
        raise ValueError(f"shapes must be one of {', '.join(SHAPES)}")
    return Shapes("moulded", bend=float(rng.uniform(0.12, 0.3)), wall=float(rng.uniform(0.45, 0.75)),
                  side=1 if rng.random() < 0.5 else -1)


def turned(local: np.ndarray, cx: float, cy: float, angle: float) -> np.ndarray:
    """Local (n, 2) points turned by ``angle`` and put at (cx, cy): a piece's outline placed."""
    c, s = math.cos(angle), math.sin(angle)
    return local @ np.array([[c, s], [-s, c]]) + (cx, cy)


def ring_faces(m: int) -> list[tuple[int, ...]]:
    """The faces of a solid whose vertices are two m-gon ends (0..m-1, then m..2m-1) joined
    side by side: the two ends, then a quad for each side (a prism's, a pipe's)."""
    return [tuple(range(m)), tuple(range(m, 2 * m))] + [(i, (i + 1) % m, m + (i + 1) % m, m + i) for i in range(m)]


def arch_outlines(cx: float, cy: float, w: float, d: float, angle: float, shape: Shapes) -> list[np.ndarray]:
    """The convex outlines (each (4, 2)) of an arched wall spanning ``w`` across a dam's
    ``d`` deep space centred at (cx, cy) and turned by ``angle``: a circular arc whose chord
    is ``w`` and sagitta ``shape.bend * w``, ``shape.wall * d`` thick, centred on the space."""
    sag = max(shape.bend, 1e-3) * w
    radius = (w * w / 4 + sag * sag) / (2 * sag)
    half = math.asin(min(1.0, (w / 2) / radius))
    thick = shape.wall * d
    inner, outer = radius - thick / 2, radius + thick / 2
    centre_y = sag / 2 - radius            # the arc's crown at +sag/2, its ends at -sag/2
    angles = np.linspace(-half, half, ARCH_SEGMENTS + 1)
    out = []
    for a0, a1 in zip(angles[:-1], angles[1:]):
        quad = np.array([(r * math.sin(a), centre_y + r * math.cos(a))
                         for a, r in ((a0, inner), (a0, outer), (a1, outer), (a1, inner))])
        quad[:, 1] *= shape.side
        out.append(turned(quad, cx, cy, angle))
    return out


def pipe(cx: float, cy: float, length: float, radius: float, angle: float) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """The vertices (2 * PIPE_SIDES, 3) and faces of a round pipe ``length`` long lying on
    the board along ``angle``, centred at (cx, cy): its two end faces, then its sides."""
    axis = np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-axis[1], axis[0]])
    turns = np.linspace(0, 2 * math.pi, PIPE_SIDES, endpoint=False)
    ring = [(across * radius * math.cos(t), -radius - radius * math.sin(t)) for t in turns]
    verts = np.array([(*(np.array((cx, cy)) + end * axis * length / 2 + xy), z)
                      for end in (-1, 1) for xy, z in ring])
    return verts, ring_faces(PIPE_SIDES)
