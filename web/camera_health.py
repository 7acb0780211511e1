"""Whether the table camera can be trusted right now, and what the players do when not.

Three ways a camera fails at a table, each said on the page within about 2 s:

- *lost*: no new frame for a while (unplugged, a driver error, another program took it). The
  page would otherwise keep showing the last frame, and its reading, as if it were now. Looked
  for on webcams and video files: the demo replay gives a frame whenever asked;
- *frozen*: frames keep coming but are the same picture, byte for byte (a USB camera whose
  driver hangs repeats its last frame). A live sensor's noise changes every frame, so this is
  looked for on webcams alone: the demo replay and an image file repeat by design;
- *unregistered*: frames come but the board is not found in them (markers covered, the camera
  moved).

While the camera is not ``ok`` the page takes nothing from it: no move is read, no Automa turn
is moved on by it, and "Confirm" says why it refuses.
"""
from __future__ import annotations

import threading
import time
import zlib
from dataclasses import dataclass
from typing import Callable

import numpy as np
from flask_babel import gettext

# Frames are read when the page asks (about every second, ``web.barrage.live``), so a camera is
# lost when a read finds no frame and the last one is over a second old: said by the page's
# next poll, within 2 s of the last frame. A webcam gives 15-30 frames a second, 5 in the dark.
LOST_SECONDS = 1.0
FROZEN_SECONDS = 1.0


@dataclass(frozen=True)
class Health:
    state: str                  # ok | waiting | lost | frozen | unregistered
    message: str | None = None  # what is wrong and what to do; None when ok

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    def to_dict(self) -> dict:
        return {"state": self.state, "ok": self.ok, "message": self.message}


class HealthWatch:
    """Told of each frame the source gives (``saw``), it says how the camera is (``health``)."""

    def __init__(self, live_sensor: bool, can_drop_out: bool | None = None, clock: Callable[[], float] = time.monotonic):
        self.live_sensor = live_sensor        # a webcam: its frames must differ
        self.can_drop_out = live_sensor if can_drop_out is None else can_drop_out    # a webcam, a video file
        self.clock = clock
        self._lock = threading.Lock()
        self._new_at: float | None = None     # when the last frame came
        self._changed_at: float | None = None # when the picture last changed
        self._signature: int | None = None

    def saw(self, frame: np.ndarray) -> None:
        """A frame the source gave now."""
        signature = zlib.crc32(np.ascontiguousarray(frame[::8, ::8]).data) if self.live_sensor else None
        with self._lock:
            now = self.clock()
            self._new_at = now
            if signature is None or signature != self._signature or self._changed_at is None:
                self._changed_at, self._signature = now, signature

    def health(self, has_frame: bool, registered: bool, problem: str | None = None) -> Health:
        """``has_frame``: whether there is a picture at all; ``registered``: whether the board was
        found in it; ``problem``: the source's own last complaint, if any (said with a lost camera)."""
        with self._lock:
            now, new_at, changed_at = self.clock(), self._new_at, self._changed_at
        if not has_frame:
            return Health("waiting", gettext("No picture from the camera yet%(why)s: check that it is plugged in "
                                             "and not used by another program.",
                                             why=f" ({problem})" if problem else ""))
        if self.can_drop_out and new_at is not None and now - new_at > LOST_SECONDS:
            return Health("lost", gettext("The camera has given no picture for %(s)d s%(why)s: check its cable "
                                          "and that no other program uses it. Until it is back, the page takes "
                                          "nothing from it: correct the map by hand and confirm with the button.",
                                          s=now - new_at, why=f" ({problem})" if problem else ""))
        if self.live_sensor and changed_at is not None and now - changed_at > FROZEN_SECONDS:
            return Health("frozen", gettext("The camera's picture has not changed at all for %(s)d s: it is frozen. "
                                            "Unplug the camera and plug it in again.", s=now - changed_at))
        if not registered:
            return Health("unregistered", gettext("The camera does not find the board: check that the four markers "
                                                  "are in view and not covered, and that the camera has not moved "
                                                  "(else calibrate again)."))
        return Health("ok")
