"""Capture: failing cameras are reported and retried, never raise; files and folders are read in order."""
import json

import cv2
import numpy as np

from vision.capture import Capture, FileFrames, frames, garbage_reason, open_source

from .cameras import SizedCamera


class FlakyCamera:
    """Opens, gives a black frame, a good frame, then raises, like a camera being unplugged."""
    def __init__(self, script):
        self.script = list(script)

    def isOpened(self):
        return True

    def read(self):
        step = self.script.pop(0) if self.script else "good"
        if step == "raise":
            raise RuntimeError("device disconnected")
        if step == "black":
            return True, np.zeros((48, 64, 3), np.uint8)
        if step == "fail":
            return False, None
        return True, np.random.default_rng(len(self.script)).integers(0, 255, (48, 64, 3), dtype=np.uint8)

    def release(self):
        pass


def test_a_failing_camera_is_reported_and_reopened():
    opened = []

    def opener():
        if len(opened) == 0:
            opened.append("missing")
            return None                       # not plugged in yet
        opened.append("cam")
        return FlakyCamera(["black", "good", "raise", "fail"])

    cam = Capture(opener, "camera 0", reopen_after=2, retry_seconds=0.0)
    results = [cam.read() for _ in range(6)]
    assert results[0] is None and "cannot open" in cam.problems[0]
    assert results[1] is None and any("uniform" in p for p in cam.problems)
    assert results[2] is not None
    assert results[3] is None and any("disconnected" in p for p in cam.problems)
    assert results[4] is None                 # second bad frame in a row: the camera is closed
    assert results[5] is None and opened.count("cam") == 2, "and opened again on the next read"


def test_garbage_frames():
    assert garbage_reason(None, None) == "no frame"
    assert "uniform" in garbage_reason(np.full((40, 40, 3), 255, np.uint8), None)
    good = np.random.default_rng(0).integers(0, 255, (40, 40, 3), dtype=np.uint8)
    assert garbage_reason(good, None) is None
    assert "size changed" in garbage_reason(good, (80, 80, 3))
    assert garbage_reason(good.astype(np.uint16) * 257, None) == "unexpected frame type uint16 (8-bit BGR expected)"


def test_image_folder_and_replay(tmp_path):
    rng = np.random.default_rng(1)
    for name in ("b.png", "a.png"):
        cv2.imwrite(str(tmp_path / name), rng.integers(0, 255, (20, 30, 3), dtype=np.uint8))
    (tmp_path / "broken.jpg").write_bytes(b"not an image")
    source = open_source(str(tmp_path))
    assert isinstance(source, FileFrames)
    assert len(list(frames(source))) == 2 and source.problems
    (tmp_path / "replay.json").write_text(json.dumps([{"file": "b.png", "t": 0}, {"file": "a.png", "t": 0.5},
                                                      {"file": "b.png", "t": 1.0}]))
    assert len(list(frames(open_source(str(tmp_path))))) == 3


def test_video_file(tmp_path):
    path = tmp_path / "v.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    rng = np.random.default_rng(2)
    for _ in range(4):
        writer.write(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8))
    writer.release()
    assert len(list(frames(open_source(str(path))))) == 4


def test_a_webcam_is_asked_for_1280x720_frames(monkeypatch):
    opened = []

    def fake(index):
        opened.append(SizedCamera(index))
        return opened[-1]

    monkeypatch.setattr("vision.capture.cv2.VideoCapture", fake)
    cam = open_source(0)
    frame = cam.read()
    assert frame.shape == (720, 1280, 3) and opened[0].index == 0
    assert opened[0].asked[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter_fourcc(*"MJPG")
    assert cam.problems == [] and cam.note is None, "a camera at the size asked for has nothing to report"


def test_a_small_camera_is_reported_once():
    cam = Capture(lambda: SizedCamera(1), "camera 1")      # never asked for another size
    assert all(cam.read().shape == (480, 640, 3) for _ in range(3))
    assert cam.problems == ["camera 1: gives 640x480 frames, smaller than 1280x720: "
                            "pieces are read less reliably at this size"]
    assert cam.note == cam.problems[0], "the remark stands while the small frames come, for the page"
