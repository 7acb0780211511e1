"""Whether the camera shows a dam's elevations: the wizard's word on dam heights.

From above, an elevation shows only as the dam's top moving away from the point under
the camera, by a few camera pixels at most. Where it moves less than a pixel, the
dam-height reader reads about a quarter of the heights wrong on the held-out synthetic
sets, and 7 % where it moves 4 px or more (docs/benchmarks.md, "Where a dam's height
shows"). The wizard says so when the board is registered, so that the players can move
the camera before the game rather than correct heights during it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.barrage.height_cues import lean_over_map
from vision.layout import Layout

FAINT_PX = 1.0     # below this an elevation hardly shows (the reader's worst band)


@dataclass(frozen=True)
class ElevationCheck:
    lean: dict[str, float]        # dam space -> camera px one elevation moves its top

    @property
    def faint(self) -> list[str]:
        return sorted(s for s, px in self.lean.items() if px < FAINT_PX)

    @property
    def message(self) -> str:
        px = np.array(list(self.lean.values()))
        if not len(px):
            return "Dam heights: this layout has no dam spaces."
        seen = (f"one elevation moves a dam's top by {px.min():.1f}-{px.max():.1f} camera px "
                f"(median {np.median(px):.1f})")
        if not self.faint:
            return f"Dam heights: {seen}."
        advice = ("a higher camera resolution, or a camera further to the side of the board or lower "
                  "(looking at it at a slant), shows them better")
        return (f"Dam heights: {seen}; on {len(self.faint)} of {len(px)} dam spaces less than "
                f"{FAINT_PX:.0f} px, where about a quarter of the heights are read wrong: {advice}.")


def check_elevations(H: np.ndarray, frame_shape: tuple[int, ...], layout: Layout) -> ElevationCheck:
    """How much an elevation shows at each dam space of the frame ``H`` registers (an
    elevation of ``vision.barrage.height_cues.NOMINAL_RISE``: the table's own is not known)."""
    return ElevationCheck(lean_over_map(H, frame_shape, layout))
