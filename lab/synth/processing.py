"""What a webcam's own image processing does to the sensor's picture before it is compressed.

The generator's pictures go from the sensor (blur, noise; ``photo.py``) straight to JPEG
(``Options.processing`` ``none``, the default). A webcam's chip works on them first, each
maker its own way and each user with the sliders of the camera's settings:

- noise reduction smooths flat areas and keeps edges (a bilateral filter), so fine texture,
  a drop's rim or an elevation's thin side wall, may go with the noise;
- a saturation gain around grey makes colours stronger or paler;
- a contrast slope through mid-grey lifts or crushes the blacks and the whites (clipped);
- sharpening (an unsharp mask) draws light and dark halos along every edge.

``webcam`` draws one such chip per table, from its own stream, so the scene, the light and
the sensor stay the seed's: a held-out twin measures what the processing alone costs, and
training images with it teach the readers to see through it.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import cv2
import numpy as np

from .photo import REFERENCE_WIDTH  # px: the frame width the sharpening radius is drawn for

PROCESSINGS = ("none", "webcam")
_LUMA = np.array([0.114, 0.587, 0.299], np.float32)     # BGR


@dataclass(frozen=True)
class Processing:
    """``denoise``: the bilateral filter's colour sigma in grey levels (0: none);
    ``saturation``: the gain of each pixel's distance from its grey; ``contrast``: the slope
    of the tone line through mid-grey; ``sharpen``: the unsharp mask's amount (0: none) and
    ``sharpen_sigma`` its Gaussian's, in px of the frame."""
    kind: str = "none"
    denoise: float = 0.0
    saturation: float = 1.0
    contrast: float = 1.0
    sharpen: float = 0.0
    sharpen_sigma: float = 1.0

    def record(self) -> dict:
        return asdict(self)

    def apply(self, img: np.ndarray) -> np.ndarray:
        """The chip's picture of the sensor's ``img`` (uint8 BGR in and out), in the order a
        webcam works: noise reduction, colour, tone, then sharpening."""
        if self.kind == "none":
            return img
        if self.denoise > 0:
            img = cv2.bilateralFilter(img, 5, self.denoise, 3)
        out = img.astype(np.float32)
        grey = out @ _LUMA
        out = grey[..., None] + (out - grey[..., None]) * self.saturation
        out = 128.0 + (out - 128.0) * self.contrast
        if self.sharpen > 0:
            out = out * (1 + self.sharpen) - cv2.GaussianBlur(out, (0, 0), self.sharpen_sigma) * self.sharpen
        return np.clip(out, 0, 255).astype(np.uint8)


NONE = Processing()


def processing(kind: str, rng: np.random.Generator, width: int) -> Processing:
    """The ``Options.processing`` of one table, for frames ``width`` px wide: none, or a
    webcam's (noise reduction on half of them; every range around the neutral setting)."""
    if kind == "none":
        return NONE
    if kind == "webcam":
        denoise = float(rng.uniform(10.0, 35.0)) if rng.random() < 0.5 else 0.0
        return Processing("webcam", denoise=round(denoise, 3), saturation=round(float(rng.uniform(0.6, 1.5)), 4),
                          contrast=round(float(rng.uniform(0.75, 1.35)), 4),
                          sharpen=round(float(rng.uniform(0.0, 2.5)), 4),
                          sharpen_sigma=round(float(rng.uniform(0.7, 1.8)) * width / REFERENCE_WIDTH, 4))
    raise ValueError(f"processing must be one of {', '.join(PROCESSINGS)}")
