"""What a cheap webcam does to the scene: uneven light, colour temperature, glare on the
glossy board, exposure, blur, sensor noise and JPEG compression."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import cv2
import numpy as np

from vision.motion_blur import line_kernel

REFERENCE_WIDTH = 1280       # px: the frame width the blur and glare ranges are drawn for


@dataclass
class PhotoStyle:
    gradient: float              # strength of a linear light fall-off across the frame
    gradient_angle: float        # degrees
    vignette: float
    temperature: float           # -1 cold (blue) .. +1 warm (orange)
    tint: float                  # green-magenta shift
    exposure: float              # gain
    gamma: float
    glare: list[list[float]]     # [x, y, radius, strength] in image px, strength 0-1
    blur: str                    # none | gaussian | motion
    blur_amount: float
    noise: float                 # sensor noise sigma in grey levels
    jpeg_quality: int


def sample_style(rng: np.random.Generator, size: tuple[int, int], hard: bool) -> PhotoStyle:
    """``hard`` asks for the rough end of every range (strong glare, dim light, blur, noise).
    Glare spots and blur are drawn for a frame 1280 px wide and scaled to ``size``: the same
    shake, defocus or reflection covers half as many pixels of a 640-wide frame through the
    same lens. Noise and JPEG are per pixel, so they are not scaled."""
    w, h = size
    k = 1.6 if hard else 1.0
    px = w / REFERENCE_WIDTH
    glare = [[float(rng.uniform(0, w)), float(rng.uniform(0, h)), float(rng.uniform(25, 180)) * px,
              float(min(0.9, rng.uniform(0.1, 0.5) * k))]
             for _ in range(int(rng.integers(1 if hard else 0, 4 if hard else 3)))]
    blur = str(rng.choice(["none", "gaussian", "motion"], p=[0.35, 0.45, 0.2]))
    return PhotoStyle(
        gradient=float(min(0.8, rng.uniform(0, 0.45) * k)), gradient_angle=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.4) * k), temperature=float(rng.uniform(-1, 1)), tint=float(rng.uniform(-0.3, 0.3)),
        exposure=float(rng.uniform(0.45, 0.8) if hard and rng.random() < 0.5 else rng.uniform(0.75, 1.25)),
        gamma=float(rng.uniform(0.8, 1.25)), glare=glare, blur=blur,
        blur_amount=float((rng.uniform(0.3, 1.6) if blur == "gaussian" else rng.uniform(2, 7)) * k * px),
        noise=float(rng.uniform(0, 6) * k), jpeg_quality=int(rng.integers(40 if hard else 55, 93)),  # webcam MJPEG range
    )


def lighting(img: np.ndarray, style: PhotoStyle) -> np.ndarray:
    """Illumination, colour and tone curve applied to the rendered scene (uint8 in and out)."""
    h, w = img.shape[:2]
    # The light field is smooth: build it at 1/8 resolution and scale it up.
    sh, sw = max(2, h // 8), max(2, w // 8)
    xx = (np.arange(sw, dtype=np.float32)[None, :] + 0.5) * (w / sw)
    yy = (np.arange(sh, dtype=np.float32)[:, None] + 0.5) * (h / sh)
    a = math.radians(style.gradient_angle)
    ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    gain = style.exposure * (1 + style.gradient * ramp * 2) * (1 - style.vignette * r2)
    glare = np.zeros((sh, sw), np.float32)
    for x, y, radius, strength in style.glare:
        glare += np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * radius ** 2)) * strength * 255
    temp = np.array([1 - 0.25 * style.temperature, 1 + 0.1 * style.tint, 1 + 0.25 * style.temperature], np.float32)
    gain3 = cv2.resize(gain.astype(np.float32)[..., None] * temp, (w, h), interpolation=cv2.INTER_LINEAR)
    glare = cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR)
    out = img.astype(np.float32)
    out *= gain3
    out += glare[..., None]
    out = np.clip(out, 0, 255).astype(np.uint8)
    lut = (np.power(np.arange(256) / 255.0, style.gamma) * 255).round().astype(np.uint8)
    return cv2.LUT(out, lut)


def optics_and_sensor(img: np.ndarray, style: PhotoStyle, rng: np.random.Generator,
                      noise_rng: np.random.Generator | None = None) -> np.ndarray:
    """Blur, then sensor noise (stronger in bright areas, as shot noise is); ``noise_rng``
    draws the noise instead of ``rng`` (another frame through the same optics)."""
    if style.blur == "gaussian":
        img = cv2.GaussianBlur(img, (0, 0), style.blur_amount)
    elif style.blur == "motion":
        img = cv2.filter2D(img, -1, line_kernel(style.blur_amount, rng.uniform(0, 180)))
    if style.noise <= 0:
        return img
    # OpenCV's generator is several times faster than numpy's here; seeding it from the
    # stream keeps the frame reproducible.
    cv2.setRNGSeed(int((noise_rng or rng).integers(2 ** 31)))
    noise = np.empty(img.shape, np.float32)
    cv2.randn(noise, 0.0, 1.0)
    sigma = style.noise * (0.5 + cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32) / 255)
    noise *= sigma[..., None]
    noise += img
    return np.clip(noise, 0, 255).astype(np.uint8)


def encode_jpeg(img: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()


def style_record(style: PhotoStyle) -> dict:
    return asdict(style)
