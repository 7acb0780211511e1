"""Frames from a webcam, a video file, an image folder or a recorded replay.

A live camera fails in ordinary ways: it is unplugged, another program holds
it, or it returns black or truncated frames while it settles. ``Capture``
turns every such failure into a reported problem and a retry; ``read()``
returns ``None`` for "no usable frame now" and never raises into the caller.
"""
from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_EXT = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
REPLAY_INDEX = "replay.json"   # a replay folder: [{"file": "0001.jpg", "t": 0.0}, ...]
# The frame size a webcam is asked for: the models were trained on 1280-wide frames, and
# 640x480 ones (what OpenCV opens most USB webcams at unless asked) are read with about
# twice the slot error (docs/benchmarks.md, 2026-11-25, night).
WEBCAM_SIZE = (1280, 720)


def format_problem(frame: object) -> str | None:
    """Why ``frame`` is not a colour picture as OpenCV gives one (8-bit BGR, H x W x 3), or None."""
    if frame is None or not isinstance(frame, np.ndarray) or frame.size == 0:
        return "no frame"
    if frame.ndim != 3 or frame.shape[2] != 3:
        return f"unexpected frame shape {frame.shape}"
    if frame.dtype != np.uint8:
        return f"unexpected frame type {frame.dtype} (8-bit BGR expected)"
    return None


def garbage_reason(frame: np.ndarray | None, expected_shape: tuple[int, ...] | None) -> str | None:
    """Why a frame is unusable, or None. A settling or failing camera gives empty,
    uniform (black/white) or resized frames."""
    if (problem := format_problem(frame)) is not None:
        return problem
    if expected_shape is not None and frame.shape != expected_shape:
        return f"frame size changed from {expected_shape} to {frame.shape}"
    if float(frame[::16, ::16].std()) < 2.0:
        return "uniform frame (covered lens or camera still starting)"
    return None


@dataclass
class Capture:
    """A live source (webcam or stream) opened through ``opener``; reopened after failures."""
    opener: Callable[[], cv2.VideoCapture]
    name: str
    reopen_after: int = 5            # consecutive bad frames before the device is reopened
    retry_seconds: float = 1.0       # wait between attempts to reopen
    problems: list[str] = field(default_factory=list)
    note: str | None = None          # a remark that stands while the frames come (their size), for the page
    _cap: cv2.VideoCapture | None = None
    _bad: int = 0
    _next_try: float = 0.0
    _shape: tuple[int, ...] | None = None

    def _report(self, problem: str) -> None:
        message = f"{self.name}: {problem}"
        if not self.problems or self.problems[-1] != message:
            log.warning(message)
        self.problems = (self.problems + [message])[-50:]

    def _open(self) -> bool:
        if time.monotonic() < self._next_try:
            return False
        self._next_try = time.monotonic() + self.retry_seconds
        try:
            cap = self.opener()
            if cap is None or not cap.isOpened():
                self._report("cannot open (unplugged or in use?); retrying")
                return False
        except Exception as exc:        # a driver error must not stop the caller's loop
            self._report(f"cannot open: {exc}; retrying")
            return False
        self._cap, self._bad = cap, 0
        return True

    def read(self) -> np.ndarray | None:
        if self._cap is None and not self._open():
            return None
        try:
            ok, frame = self._cap.read()
        except Exception as exc:
            ok, frame = False, None
            self._report(f"read failed: {exc}")
        reason = None if ok else "read returned nothing"
        reason = reason or garbage_reason(frame, self._shape)
        if reason is None:
            if self._shape is None:
                self._check_size(frame)
            self._bad, self._shape = 0, frame.shape
            return frame
        self._bad += 1
        self._report(reason)
        if self._bad >= self.reopen_after:
            self.close()
            self._shape = None      # a reopened camera may use another resolution
        return None

    def _check_size(self, frame: np.ndarray) -> None:
        """Say once per opening when the source gives smaller frames than the models expect;
        ``note`` keeps saying it while those frames come, since the page shows ``problems``
        only when there is no frame."""
        h, w = frame.shape[:2]
        self.note = None
        if w < WEBCAM_SIZE[0] or h < WEBCAM_SIZE[1]:
            self._report(f"gives {w}x{h} frames, smaller than {WEBCAM_SIZE[0]}x{WEBCAM_SIZE[1]}: "
                         "pieces are read less reliably at this size")
            self.note = self.problems[-1]

    def close(self) -> None:
        if self._cap is not None:
            try:
                self._cap.release()
            except Exception:
                pass
        self._cap = None


@dataclass
class FileFrames:
    """A finite source: a video file or a list of image files, read in order."""
    paths: list[Path] | None = None
    video: Path | None = None
    problems: list[str] = field(default_factory=list)
    _index: int = 0
    _cap: cv2.VideoCapture | None = None

    @property
    def done(self) -> bool:
        return self.paths is not None and self._index >= len(self.paths)

    def read(self) -> np.ndarray | None:
        if self.video is not None:
            self._cap = self._cap or cv2.VideoCapture(str(self.video))
            ok, frame = self._cap.read()
            if not ok:
                self.paths = []          # end of the video
                return None
            return frame
        if self.done:
            return None
        path = self.paths[self._index]
        self._index += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        reason = garbage_reason(frame, None)
        if reason:
            self.problems.append(f"{path.name}: {reason}")
            return None
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()


def open_webcam(index: int, size: tuple[int, int] = WEBCAM_SIZE) -> cv2.VideoCapture:
    """Webcam ``index``, asked for ``size`` frames; a camera without that mode takes its nearest.
    MJPG is asked for first: many USB webcams send 1280x720 uncompressed at only a few frames
    a second."""
    cap = cv2.VideoCapture(index)
    if cap.isOpened():
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    return cap


def open_source(spec: str | int) -> Capture | FileFrames:
    """``0`` (webcam index), a video file, an image, an image folder, or a replay folder."""
    if isinstance(spec, int) or str(spec).isdigit():
        index = int(spec)
        return Capture(lambda: open_webcam(index), f"camera {index}")
    path = Path(spec)
    if path.is_dir():
        index_file = path / REPLAY_INDEX
        if index_file.exists():
            return FileFrames(paths=[path / e["file"] for e in json.loads(index_file.read_text())])
        return FileFrames(paths=sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_EXT))
    if path.suffix.lower() in IMAGE_EXT:
        return FileFrames(paths=[path])
    if path.exists():
        return FileFrames(video=path)
    # A stream URL (rtsp://, http://) behaves like a camera: it can drop and come back.
    return Capture(lambda: cv2.VideoCapture(str(spec)), str(spec))


def frames(source: Capture | FileFrames, idle_sleep: float = 0.05) -> Iterator[np.ndarray]:
    """Usable frames until a finite source ends; a live source waits through failures."""
    while True:
        frame = source.read()
        if frame is not None:
            yield frame
        elif isinstance(source, FileFrames):
            if source.done:
                return
        else:
            time.sleep(idle_sleep)
