from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest

from web.forms import FormError
from web.uploads import BATCH_PIXELS, MAX_PIXELS, decode_picture, decode_pictures, picture_size


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
    with pytest.raises(FormError, match="bomb.png is 20000x20000 px, more than 25 million pixels"):
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


def jpeg_claiming(w: int, h: int) -> bytes:
    """A JPEG cut short after its frame header, which declares w x h px (a decoder fills in
    what the data leaves out, at the declared size)."""
    whole = cv2.imencode(".jpg", picture())[1].tobytes()
    sof = whole.index(b"\xff\xc0")
    return whole[:sof + 5] + struct.pack(">HH", h, w) + whole[sof + 9:sof + 300]


def test_pictures_sent_together_are_sized_together_before_any_is_decoded(monkeypatch):
    """The lens step once took 30 JPEGs of ~700 bytes each declaring 49 MP: 17 s of CPU and
    700 MB. Now one over 25 MP is refused, and so are many under it that add up, unread."""
    decoded = []
    monkeypatch.setattr(cv2, "imdecode", lambda *a: decoded.append(a) or None)
    big = jpeg_claiming(7000, 7000)
    assert picture_size(big) == (7000, 7000) and len(big) < 1000
    with pytest.raises(FormError, match="p3.jpg is 7000x7000 px, more than 25 million pixels"):
        list(decode_pictures([(f"p{i}.jpg", jpeg_claiming(1000, 1000) if i < 3 else big) for i in range(30)]))
    side = int(MAX_PIXELS ** 0.5)
    many = [(f"p{i}.jpg", jpeg_claiming(side, side)) for i in range(30)]
    assert 30 * side * side > BATCH_PIXELS
    with pytest.raises(FormError, match="the pictures are 750 million pixels together, more than 150 million"):
        decode_pictures(many)
    assert decoded == []            # refused from their headers alone
    taken = decode_pictures(many[:BATCH_PIXELS // (side * side)])
    assert decoded == []            # a generator: each is decoded as the calibration takes it
    with pytest.raises(FormError, match="p0.jpg is not a whole JPEG or PNG picture"):
        next(taken)


def test_the_lens_step_refuses_thirty_pictures_declaring_too_much_before_decoding_any(client, app):
    photos = [(io.BytesIO(jpeg_claiming(4000, 4000)), f"p{i}.jpg") for i in range(30)]
    res = client.post("/calibration/api/table-1/lens", data={"photos": photos}, content_type="multipart/form-data")
    assert res.status_code == 400 and "480 million pixels together" in res.json["problems"][0]
    assert not (app.extensions["automa_vision"].config.profiles_dir / "table-1").exists()
