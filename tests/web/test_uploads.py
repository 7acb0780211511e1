from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest

from web.forms import FormError
from web.uploads import MAX_PIXELS, decode_picture, picture_size


def picture(w: int = 120, h: int = 80) -> np.ndarray:
    rng = np.random.default_rng(1)
    return rng.integers(0, 255, (h, w, 3), np.uint8)


def png_claiming(w: int, h: int) -> bytes:
    """A PNG whose header declares w x h px and whose data holds almost nothing (a decoder would
    allocate by the header)."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


@pytest.mark.parametrize("ext,params", [(".png", []), (".jpg", []),
                                        (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])])
def test_a_pictures_size_is_read_from_its_header(ext, params):
    data = cv2.imencode(ext, picture(), params)[1].tobytes()
    assert picture_size(data) == (120, 80)
    assert decode_picture(data, "board.jpg").shape == (80, 120, 3)


def test_a_jpeg_with_segments_before_its_frame_is_sized_past_them():
    data = cv2.imencode(".jpg", picture(200, 100))[1].tobytes()
    exif = b"Exif\0\0" + bytes(300)         # an APP1 segment, as cameras write before the frame
    data = data[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + data[2:]
    assert picture_size(data) == (200, 100)
    assert decode_picture(data, "photo.jpg").shape == (100, 200, 3)


def test_a_picture_whose_header_declares_too_many_pixels_is_refused_unread():
    data = png_claiming(20000, 20000)
    assert len(data) < 200 and picture_size(data) == (20000, 20000)
    with pytest.raises(FormError, match="bomb.png is 20000x20000 px, more than 50 million pixels"):
        decode_picture(data, "bomb.png")
    side = int(MAX_PIXELS ** 0.5)
    assert picture_size(png_claiming(side, side)) == (side, side) and side * side <= MAX_PIXELS


@pytest.mark.parametrize("data", [
    b"", b"%PDF-1.4 not an image", b"\xff\xd8\xff\xda\0\x02",        # a scan before any frame
    b"\xff\xd8\xff\xe0\x00", b"\xff\xd8junk after the start",
    cv2.imencode(".bmp", picture())[1].tobytes(),                   # OpenCV reads it; we take JPEG and PNG
])
def test_what_is_no_jpeg_or_png_is_refused(data):
    with pytest.raises(FormError, match="up.jpg is not a whole JPEG or PNG picture"):
        decode_picture(data, "up.jpg")


def test_a_header_that_lies_about_a_truncated_picture_still_ends_in_a_clear_refusal():
    whole = cv2.imencode(".png", picture())[1].tobytes()
    assert picture_size(whole[:40]) == (120, 80)
    with pytest.raises(FormError, match="cut.png is not a whole JPEG or PNG picture"):
        decode_picture(whole[:40], "cut.png")
    with pytest.raises(FormError, match="tiny.png is not a whole JPEG or PNG picture of at least 64x64 px"):
        decode_picture(cv2.imencode(".png", picture(30, 30))[1].tobytes(), "tiny.png")


def test_the_wizard_refuses_a_photo_too_large_before_decoding_it(client):
    res = client.post("/calibration/api/table-1/photo", data={"photo": (io.BytesIO(png_claiming(30000, 20000)), "big.png")},
                      content_type="multipart/form-data")
    assert res.status_code == 400 and "big.png is 30000x20000 px" in res.get_data(as_text=True)
    status = client.post("/calibration/api/table-1/markers")
    assert status.status_code == 400            # no picture was kept
