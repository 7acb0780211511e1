"""Uploaded pictures, sized from their header before they are decoded.

The upload limit counts bytes, but a picture's cost is its pixels: a PNG of one colour packs
400 million pixels (1.2 GB decoded) into 0.4 MB, and an 8 MB request could carry twenty of them.
So a picture is decoded only when it is a JPEG or PNG whose header gives a size under
``MAX_PIXELS``; the header is what the decoder allocates by. Several pictures in one request
(the lens step's photos) are sized all together first, and refused, before any is decoded,
when they declare more than ``BATCH_PIXELS`` between them: a few KB of JPEG headers cut short
can each declare 25 MP, and a decoder fills in what the data leaves out.
"""
from __future__ import annotations

import struct
from typing import Iterator

import cv2
import numpy as np

from .forms import FormError

MAX_PIXELS = 25_000_000     # a 24 MP camera photo (phones save 12 MP); a webcam gives 1-8 MP
BATCH_PIXELS = 150_000_000  # one request's pictures together: a dozen 12 MP photos, or thirty webcam frames
MIN_SIDE = 64
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are not frames
JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
JPEG_UNSIZED = {0x01, *range(0xD0, 0xD8)}     # markers without a length: TEM, RST0-7


def picture_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as a PNG's or JPEG's header declares it; None for anything else."""
    if data.startswith(PNG_SIGNATURE) and data[12:16] == b"IHDR" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:          # fill byte before a marker
            i += 1
            continue
        if marker in JPEG_UNSIZED:
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, or the scan began before any frame header
            return None
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if marker in JPEG_FRAMES:
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None


def _declared(data: bytes, what: str) -> int:
    """The pixels ``data``'s header declares; FormError for anything not a JPEG or PNG and for
    more than ``MAX_PIXELS``."""
    size = picture_size(data)
    if size is None:
        raise _unreadable(what)
    width, height = size
    if width * height > MAX_PIXELS:
        raise FormError([f"{what} is {width}x{height} px, more than {MAX_PIXELS // 1_000_000} million pixels: "
                         "send it smaller (a webcam's frame or a phone photo)"])
    return width * height


def _unreadable(what: str) -> FormError:
    return FormError([f"{what} is not a whole JPEG or PNG picture of at least {MIN_SIDE}x{MIN_SIDE} px"])


def decode_pictures(uploads: list[tuple[str, bytes]]) -> Iterator[tuple[str, np.ndarray]]:
    """(name, BGR image) of each ``(name, data)``, decoded one at a time as they are taken;
    every header is checked first, so a FormError (one picture's, or all of them declaring more
    than ``BATCH_PIXELS``) comes before anything is decoded."""
    total = sum(_declared(data, what) for what, data in uploads)
    if total > BATCH_PIXELS:
        raise FormError([f"the pictures are {total / 1e6:.0f} million pixels together, more than "
                         f"{BATCH_PIXELS // 1_000_000} million: send fewer or smaller ones"])
    return ((what, decode_picture(data, what)) for what, data in uploads)


def decode_picture(data: bytes, what: str) -> np.ndarray:
    """A BGR image from an uploaded JPEG or PNG; FormError, naming ``what``, for anything else,
    for a picture under ``MIN_SIDE`` px a side and for one over ``MAX_PIXELS``, before it is
    decoded."""
    _declared(data, what)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.ndim != 3 or min(img.shape[:2]) < MIN_SIDE:
        raise _unreadable(what)
    return img
