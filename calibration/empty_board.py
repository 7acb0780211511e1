"""The recognition test of the wizard: on the empty board, every slot must read empty.

It reads the wizard's own picture through the registration the wizard found (not
through a fresh marker search), so it tests exactly the layout being set up. The
markers are looked for only for their paper white, which sets the colour balance as
it does at play time (``vision.paper_white``).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.barrage.board_state import slot_readings
from vision.barrage.slot_model import decode, load_session, net_input, run
from vision.layout import Layout
from vision.paper_white import frame_paper
from vision.radial_lens import RadialLens
from vision.rectify import crops_from_frame


@dataclass(frozen=True)
class EmptyBoardResult:
    slots: int
    wrong: list[str]          # "4B: conduit (usa)" for each slot not read as empty
    unsure: list[str]         # slots read empty but with low confidence

    @property
    def ok(self) -> bool:
        return not self.wrong


def check_empty_board(frame: np.ndarray, H: np.ndarray, layout: Layout, model: Path,
                     low_confidence: float = 0.8, lens: RadialLens | None = None) -> EmptyBoardResult:
    """``lens``: the distortion registration fitted (``H`` then being the distortion-free frame's)."""
    _, crops = crops_from_frame(frame, H, layout, paper=frame_paper(frame, layout), lens=lens)
    kinds = layout.kinds
    readings = slot_readings(layout, decode(run(load_session(model), net_input(crops, kinds)), kinds))
    wrong, unsure = [], []
    for r in readings:
        if r.unknown:
            wrong.append(f"{r.id}: covered")
        elif r.piece not in (None, "empty"):
            wrong.append(f"{r.id}: {r.piece} ({r.owner})")
        elif r.drops:
            wrong.append(f"{r.id}: {r.drops} water drops")
        elif r.confidence < low_confidence:
            unsure.append(f"{r.id} ({r.confidence:.2f})")
    return EmptyBoardResult(len(readings), wrong, unsure)
