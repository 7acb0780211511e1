"""A fake webcam for the capture tests and the page's."""
import cv2
import numpy as np


class SizedCamera:
    """A webcam that starts at 640x480 and switches to the size it is asked for, as UVC ones do."""
    def __init__(self, index):
        self.index, self.size, self.asked = index, (640, 480), {}

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.asked[prop] = value
        if prop == cv2.CAP_PROP_FRAME_WIDTH:
            self.size = (int(value), self.size[1])
        elif prop == cv2.CAP_PROP_FRAME_HEIGHT:
            self.size = (self.size[0], int(value))
        return True

    def read(self):
        w, h = self.size
        return True, np.random.default_rng(0).integers(0, 255, (h, w, 3), dtype=np.uint8)

    def release(self):
        pass
