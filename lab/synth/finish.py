"""How the pieces' surfaces take the light.

The generator's pieces are matte (``Options.finish`` ``matte``, the default): each face is
its colour, shaded by how squarely it faces the lights. Real pieces are often moulded
plastic instead. A glossy face turned so that it mirrors a light towards the camera shows a
glint, a bright patch that washes its colour towards white (``glossy``): a black dam's top
can look grey, a white one's blows out. Clear plastic water drops let the board under them
show through (``clear``): a drop on a blue lake is bluer than the same drop on a brown
space. Either tests the readers on pieces they never saw, or trains them on such pieces.

World coordinates are the camera's (``camera.py``): z into the table, so up is -z.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Sequence

import numpy as np

from .lights import Light

FINISHES = ("matte", "glossy", "clear")


@dataclass(frozen=True)
class Finish:
    """``gloss``: the share of white a face takes when it mirrors a light straight at the
    camera; ``shininess``: the Blinn-Phong exponent (higher: the glint needs a truer
    mirror angle); ``glint``: the glint's size, as a share of the face's outline (a lamp's
    reflection covers part of a face, not all of it); ``drop_opacity``: 1 for opaque drops,
    less for clear ones, whose faces are mixed with what lies under them."""
    kind: str = "matte"
    gloss: float = 0.0
    shininess: float = 1.0
    glint: float = 0.0
    drop_opacity: float = 1.0

    def record(self) -> dict:
        return asdict(self)

    def shine(self, normal: np.ndarray, centre: np.ndarray, eye: np.ndarray, lights: Sequence[Light]) -> float:
        """The share of white a face with unit ``normal`` at ``centre`` takes seen from
        ``eye``: each light's share times the Blinn-Phong term, summed, capped at ``gloss``."""
        if self.gloss <= 0.0:
            return 0.0
        view = eye - centre
        view = view / np.linalg.norm(view)
        total = 0.0
        for light in lights:
            half = light.towards(centre) + view
            half = half / np.linalg.norm(half)
            total += light.share * max(0.0, float(normal @ half)) ** self.shininess
        return min(self.gloss, self.gloss * total)


MATTE = Finish()


def finish(kind: str, rng: np.random.Generator) -> Finish:
    """The ``Options.finish`` of one frame: matte pieces (drawing nothing), glossy ones,
    or clear water drops."""
    if kind == "matte":
        return MATTE
    if kind == "glossy":
        return Finish("glossy", gloss=round(float(rng.uniform(0.5, 0.9)), 4),
                      shininess=round(float(rng.uniform(8.0, 40.0)), 3), glint=round(float(rng.uniform(0.35, 0.7)), 4))
    if kind == "clear":
        return Finish("clear", drop_opacity=round(float(rng.uniform(0.35, 0.6)), 4))
    raise ValueError(f"finish must be one of {', '.join(FINISHES)}")
