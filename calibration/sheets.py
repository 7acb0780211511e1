"""Printable sheets: the four board markers, and the ChArUco board for lens calibration.

The board markers are DICT_4X4_50 ids 0-3, 80 canonical px (~45 mm) wide, laid
just outside the board's top-left (0), top-right (1), bottom-right (2) and
bottom-left (3) corners, 12 canonical px (~7 mm) from the edge: the placement
``vision.registration.default_markers`` and the synthetic renders assume.
The ChArUco sheet uses another dictionary (DICT_5X5_100) so it can never be
mistaken for a board marker.
"""
from __future__ import annotations

import zlib

import cv2
import numpy as np

from vision.registration import ARUCO_DICT

A4_MM = (210.0, 297.0)
DPI = 200
MARKER_MM = 45.0
GAP_MM = 7.0
CORNERS = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
CHARUCO_DICT = cv2.aruco.DICT_5X5_100
CHARUCO_SQUARES = (7, 5)          # columns, rows
CHARUCO_SQUARE_MM = 28.0
CHARUCO_MARKER_MM = 21.0


def _px(mm: float, dpi: int = DPI) -> int:
    return round(mm / 25.4 * dpi)


def _page(dpi: int = DPI) -> np.ndarray:
    return np.full((_px(A4_MM[1], dpi), _px(A4_MM[0], dpi)), 255, np.uint8)


def _text(img: np.ndarray, text: str, org: tuple[int, int], scale: float = 1.0) -> None:
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 0, max(1, round(scale * 2)), cv2.LINE_AA)


def marker_sheet(dpi: int = DPI) -> np.ndarray:
    """One A4 page (grey) with the four board markers, each labelled with its corner."""
    page = _page(dpi)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    side = _px(MARKER_MM, dpi)
    _text(page, "Automa Vision board markers (DICT_4X4_50) - print at 100% scale", (_px(12, dpi), _px(15, dpi)), 0.9)
    _text(page, f"Each black square must measure {MARKER_MM:.0f} mm. Cut along the grey lines.", (_px(12, dpi), _px(24, dpi)), 0.8)
    for marker_id, corner in CORNERS.items():
        col, row = marker_id % 2, marker_id // 2
        x0, y0 = _px(25 + col * 95, dpi), _px(45 + row * 120, dpi)
        page[y0:y0 + side, x0:x0 + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1)
        pad = _px(8, dpi)
        cv2.rectangle(page, (x0 - pad, y0 - pad), (x0 + side + pad, y0 + side + _px(22, dpi)), 170, 1)
        _text(page, f"id {marker_id}: {corner} corner", (x0, y0 + side + _px(8, dpi)), 0.8)
        _text(page, f"{GAP_MM:.0f} mm outside the board, diagonal to the corner", (x0, y0 + side + _px(15, dpi)), 0.55)
    return page


def charuco_board() -> cv2.aruco.CharucoBoard:
    return cv2.aruco.CharucoBoard(CHARUCO_SQUARES, CHARUCO_SQUARE_MM, CHARUCO_MARKER_MM,
                                  cv2.aruco.getPredefinedDictionary(CHARUCO_DICT))


def charuco_sheet(dpi: int = DPI) -> np.ndarray:
    page = _page(dpi)
    cols, rows = CHARUCO_SQUARES
    w, h = _px(cols * CHARUCO_SQUARE_MM, dpi), _px(rows * CHARUCO_SQUARE_MM, dpi)
    img = charuco_board().generateImage((w, h), marginSize=0, borderBits=1)
    x0, y0 = (page.shape[1] - w) // 2, _px(40, dpi)
    page[y0:y0 + h, x0:x0 + w] = img
    _text(page, "Automa Vision lens calibration (ChArUco, DICT_5X5_100) - print at 100%", (_px(12, dpi), _px(15, dpi)), 0.9)
    _text(page, f"Squares must measure {CHARUCO_SQUARE_MM:.0f} mm. Photograph it flat from 10+ angles.",
          (_px(12, dpi), _px(24, dpi)), 0.8)
    return page


def png(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", img)
    if not ok:
        raise ValueError("could not encode PNG")
    return buf.tobytes()


def pdf(img: np.ndarray, page_mm: tuple[float, float] = A4_MM) -> bytes:
    """A one-page PDF showing ``img`` (greyscale) over the whole page, at true scale when printed
    at 100%. Written by hand (Flate-compressed raw pixels) to need no PDF library."""
    gray = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    pw, ph = page_mm[0] / 25.4 * 72, page_mm[1] / 25.4 * 72
    data = zlib.compress(gray.tobytes(), 9)
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
        f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
        f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
