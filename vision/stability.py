"""Only a still board with the same reading over several frames yields a state.

A hand over the board or a move in progress shows up as motion between
consecutive (canonical) views, or as readings that change frame to frame;
either resets the count. Occluded slots stay ``unknown`` in the stable state:
they are reported, never filled in from an earlier frame.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .board_state import SlotReading

Signature = tuple[tuple[str, str | None, str | None, int | None, bool], ...]


def signature(readings: list[SlotReading]) -> Signature:
    """What two frames must agree on: every slot's content (not its confidence)."""
    return tuple((r.id, r.piece, r.owner, r.drops, r.unknown) for r in readings)


@dataclass
class MotionDetector:
    """Mean grey change between consecutive thumbnails of the canonical view."""
    side: int = 64
    _prev: np.ndarray | None = None

    def score(self, view: np.ndarray) -> float:
        thumb = cv2.resize(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (self.side, self.side),
                           interpolation=cv2.INTER_AREA).astype(np.int16)
        prev, self._prev = self._prev, thumb
        return float("inf") if prev is None else float(np.abs(thumb - prev).mean())


@dataclass
class StabilityFilter:
    frames: int = 3                  # consecutive agreeing, still frames needed
    motion_threshold: float = 3.0    # mean grey levels on a 0-255 scale
    stable: list[SlotReading] | None = None
    _candidate: Signature | None = None
    _streak: int = 0
    _emitted: Signature | None = field(default=None, repr=False)

    def update(self, motion: float, readings: list[SlotReading]) -> list[SlotReading] | None:
        """Feed one frame; returns the readings when they become a new stable state."""
        if motion > self.motion_threshold:
            self._candidate, self._streak = None, 0
            return None
        sig = signature(readings)
        self._streak = self._streak + 1 if sig == self._candidate else 1
        self._candidate = sig
        if self._streak >= self.frames and sig != self._emitted:
            self._emitted, self.stable = sig, readings
            return readings
        return None
