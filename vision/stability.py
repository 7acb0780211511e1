"""Only a still board yields a state, and each still spell yields one.

A hand over the board or a move in progress shows up as motion between
consecutive (canonical) views; a still spell is the frames in between. Its
first few frames are read together: the model's outputs are averaged and
decoded once, so sensor noise cannot make a slot flicker from frame to frame
into a stream of states (and moves nobody made): mild noise (sigma 3 + JPEG 85)
changes at least one slot of about half the synthetic boards among five copies of
the same frame (docs/benchmarks.md). When the spell completes, each of its frames
is also read from its crops mirrored (``Pipeline.read_mirrored``), once per spell: each slot
is judged from two pictures of it, which a single frame cannot afford within its time;
each frame weighs the same. The next state comes after the next motion (or a frame
read confidently otherwise than the spell's frames read alone: the hand can fall
between two frames read), and only if the board reads differently; a slot read with low
confidence keeps its stable content (flagged), since an uncertain reading is
more often noise than a move. Occluded slots stay ``unknown``: they are
reported, never filled in from an earlier state.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import cv2
import numpy as np

from .reader import SlotReading

Signature = tuple[tuple[str, str | None, str | None, int | None, bool], ...]
Raw = dict[str, np.ndarray]      # the model's outputs for one frame, by head


def signature(readings: list[SlotReading]) -> Signature:
    """What makes two states the same: every slot's content (not its confidence)."""
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
    frames: int = 3                  # still frames read together into a state
    motion_threshold: float = 3.0    # mean grey levels on a 0-255 scale
    stable: list[SlotReading] | None = None
    _window: list[tuple[Raw, Callable[[], list[Raw]] | None]] = field(default_factory=list, repr=False)
    _spell_done: bool = False        # this still spell has been read
    _spell_plain: list[SlotReading] | None = field(default=None, repr=False)   # its frames read as single ones are

    def update(self, motion: float, raw: Raw, single: list[SlotReading],
               read: Callable[..., list[SlotReading]],
               more_looks: Callable[[], list[Raw]] | None = None) -> list[SlotReading] | None:
        """Feed one frame: its model outputs, its own readings and the decoder of outputs
        into readings. Returns the readings of a new stable state, on the frame that
        completes it. ``more_looks``: further outputs for this frame (its crops mirrored),
        asked for only when the spell completes, and averaged with the frame's own before
        the frames are averaged; ``read`` is then given the frames' own outputs averaged as
        well (``read(outputs, plain)``), for what a look must not take away (the companies
        the frames show, rulings V10)."""
        if motion > self.motion_threshold:
            self._window, self._spell_done = [], False
            return None
        if self._spell_done:
            # Compared with the spell's frames read as this one is (without their more
            # looks), so that a slot the looks read otherwise does not restart every frame.
            if not _confident_change(self._spell_plain or [], single):
                return None
            # The board changed between two frames read (a page polling a camera can miss
            # the hand): a new spell, as after motion.
            self._window, self._spell_done = [], False
        self._window.append((raw, more_looks))
        if len(self._window) < self.frames:
            return None
        # Each still frame weighs the same, its more looks sharing its weight.
        plain = _mean([r for r, _ in self._window])
        self._spell_plain = read(plain)
        readings = self._spell_plain
        if any(more is not None for _, more in self._window):
            readings = read(_mean([_mean([r] + (more() if more is not None else [])) for r, more in self._window]), plain)
        self._window, self._spell_done = [], True
        if self.stable is not None:
            readings = [_settle(old, new) for old, new in zip(self.stable, readings)]
            if signature(readings) == signature(self.stable):
                return None
        self.stable = readings
        return readings


def _mean(outputs: list[Raw]) -> Raw:
    """The outputs averaged head by head."""
    return {head: np.mean([r[head] for r in outputs], axis=0) for head in outputs[0]}


def _confident_change(stable: list[SlotReading], single: list[SlotReading]) -> bool:
    """Whether a frame reads a known slot confidently as something other than the stable state."""
    return any(not old.unknown and not new.unknown and not new.low_confidence
               and signature([old]) != signature([new]) for old, new in zip(stable, single))


def _settle(old: SlotReading, new: SlotReading) -> SlotReading:
    """A slot's new stable reading: an uncertain reading (one the page would flag) does not
    overturn a known one; the slot keeps its content, with the new, low confidence, so the
    page still asks about it. A slot that turns unknown, or was unknown, takes the new reading."""
    if new.unknown or old.unknown or not new.low_confidence or signature([old]) == signature([new]):
        return new
    return replace(old, confidence=new.confidence, share=new.share)
