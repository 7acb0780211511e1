"""The reference map: a schematic drawing of the standard Barrage map in the canonical
1000x1464 frame, made only from the slot layout and the engine's topology (no
publisher artwork).

The drawing is built once as a list of primitives and written by two back ends,
SVG text (for the web page) and a BGR numpy image (for overlays and as one of the
synthetic board looks), so the two can never disagree.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from html import escape

import cv2
import numpy as np

from automa.barrage.data import barrage_map
from vision.layout import Box, Point, load_layout

from .map_geometry import pipes, rivers

AREA_TINTS = {"mountains": "#d9d4cc", "hills": "#d6e4c3", "plains": "#efe6bf"}
BASIN_TINTS = {"mountains": "#b9b0a3", "hills": "#a9c98f", "plains": "#dccb83"}
RIVER = "#3d86c6"
LAKE = "#8fc1e8"
PIPE = "#7b7f86"
INK = "#222222"
RED = "#d0302a"


@dataclass(frozen=True)
class Rect:
    box: Box
    fill: str | None
    stroke: str | None = None
    width: float = 1.0
    radius: float = 0.0


@dataclass(frozen=True)
class Line:
    points: tuple[Point, ...]
    stroke: str
    width: float


@dataclass(frozen=True)
class Ellipse:
    box: Box
    fill: str
    stroke: str | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Text:
    at: Point            # centre of the text
    text: str
    size: float          # cap height in px
    fill: str = INK


Shape = Rect | Line | Ellipse | Text


@cache
def shapes() -> tuple[Shape, ...]:
    """The reference map, back to front."""
    lay, bmap = load_layout(), barrage_map()
    out: list[Shape] = []
    for area, (y0, y1) in lay.area_bands.items():
        out.append(Rect(Box(area, "area", 0, y0, lay.width, y1 - y0), AREA_TINTS[area]))
        out.append(Text((lay.width - 70, y0 + 22), area.upper(), 12, "#6b6b6b"))
    for basin, box in lay.basin_zones.items():
        out.append(Rect(box, BASIN_TINTS[bmap.basins[basin].area], "#8a8170", 1.5, 12))
        out.append(Text((box.x + 14, box.y + box.h - 12), str(basin), 11, "#4d4536"))
    for path in pipes().values():
        out.append(Line(tuple(path), PIPE, 4))
    for path in rivers().values():
        out.append(Line(tuple(path), RIVER, 7))
    for box in lay.lakes:
        out.append(Ellipse(box, LAKE, RIVER, 1.5))
    for group, box in lay.powerhouse_zones.items():
        out.append(Rect(box, "#f4f1ea", "#6d6658", 1.5, 8))
        out.append(Text((box.x + box.w / 2, box.y - 9), f"G{group}", 11, "#4d4536"))
    for ex in lay.exits.values():
        out.append(Text((ex.x + ex.w / 2, lay.height - 12), "EXIT", 12, RIVER))
    for slot in lay.slots:
        b = slot
        if slot.kind == "headstream":
            out.append(Rect(b, "#e6f0f8", RIVER, 2, 10))
            out.append(Text((b.x + b.w / 2, b.y + b.h / 2), slot.id, 34, RIVER))
        elif slot.kind == "dam":
            out.append(Rect(b, "#fbfaf6", RED if slot.red_outlined else INK, 3 if slot.red_outlined else 1.5, 4))
            out.append(Text((b.x + b.w / 2, b.y + b.h / 2), slot.id, 14))
        elif slot.kind == "conduit":
            out.append(Rect(b, "#f2f2f2", PIPE, 2, b.w / 2))
            out.append(Text((b.x + b.w / 2, b.y + b.h / 2), str(bmap.conduits[slot.id].value), 16))
            out.append(Text((b.x + b.w / 2, b.y + b.h + 9), slot.id, 9, "#555555"))
        else:
            out.append(Rect(b, "#fbfaf6", RED if slot.red_outlined else INK, 2.5 if slot.red_outlined else 1.5, 3))
            out.append(Text((b.x + b.w / 2, b.y + b.h / 2), slot.id[1:].replace("_", "."), 10))
    out.append(Rect(Box("board", "board", 0, 0, lay.width, lay.height), None, INK, 3))
    return tuple(out)


# -- SVG ---------------------------------------------------------------------------
def _svg(shape: Shape) -> str:
    if isinstance(shape, Rect):
        b = shape.box
        return (f'<rect x="{b.x:g}" y="{b.y:g}" width="{b.w:g}" height="{b.h:g}" rx="{shape.radius:g}" '
                f'fill="{shape.fill or "none"}" stroke="{shape.stroke or "none"}" stroke-width="{shape.width:g}"/>')
    if isinstance(shape, Line):
        pts = " ".join(f"{x:g},{y:g}" for x, y in shape.points)
        return (f'<polyline points="{pts}" fill="none" stroke="{shape.stroke}" stroke-width="{shape.width:g}" '
                'stroke-linecap="round" stroke-linejoin="round"/>')
    if isinstance(shape, Ellipse):
        (cx, cy), b = shape.box.centre, shape.box
        return (f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="{b.w / 2:g}" ry="{b.h / 2:g}" fill="{shape.fill}" '
                f'stroke="{shape.stroke or "none"}" stroke-width="{shape.width:g}"/>')
    # SVG font size is the em size; a cap height is about 0.7 of it.
    return (f'<text x="{shape.at[0]:g}" y="{shape.at[1]:g}" font-size="{shape.size / 0.7:.1f}" fill="{shape.fill}" '
            f'text-anchor="middle" dominant-baseline="central">{escape(shape.text)}</text>')


@cache
def reference_svg() -> str:
    """The reference map as a standalone SVG document in canonical-frame units."""
    lay = load_layout()
    body = "\n".join(_svg(s) for s in shapes())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {lay.width} {lay.height}" '
            f'width="{lay.width}" height="{lay.height}" font-family="Helvetica, Arial, sans-serif">\n{body}\n</svg>\n')


# -- raster ------------------------------------------------------------------------
def bgr(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return (int(h[4:6], 16), int(h[2:4], 16), int(h[0:2], 16))


def _draw(img: np.ndarray, shape: Shape, s: float) -> None:
    aa = cv2.LINE_AA
    if isinstance(shape, Rect):
        b = shape.box
        p0, p1 = (round(b.x * s), round(b.y * s)), (round((b.x + b.w) * s), round((b.y + b.h) * s))
        r = min(round(shape.radius * s), (p1[0] - p0[0]) // 2, (p1[1] - p0[1]) // 2)
        for colour, thickness in ((shape.fill, -1), (shape.stroke, max(1, round(shape.width * s)))):
            if colour is None:
                continue
            if r > 1:
                _rounded_rect(img, p0, p1, r, bgr(colour), thickness)
            else:
                cv2.rectangle(img, p0, p1, bgr(colour), thickness, aa)
    elif isinstance(shape, Line):
        pts = np.round(np.array(shape.points) * s).astype(np.int32)
        width = max(1, round(shape.width * s))
        cv2.polylines(img, [pts], False, bgr(shape.stroke), width, aa)
        for p in pts:        # round joins, as the SVG draws them
            cv2.circle(img, tuple(int(v) for v in p), width // 2, bgr(shape.stroke), -1, aa)
    elif isinstance(shape, Ellipse):
        (cx, cy), b = shape.box.centre, shape.box
        axes = (round(b.w / 2 * s), round(b.h / 2 * s))
        cv2.ellipse(img, (round(cx * s), round(cy * s)), axes, 0, 0, 360, bgr(shape.fill), -1, aa)
        if shape.stroke:
            cv2.ellipse(img, (round(cx * s), round(cy * s)), axes, 0, 0, 360, bgr(shape.stroke),
                        max(1, round(shape.width * s)), aa)
    else:
        put_text_centred(img, shape.text, (shape.at[0] * s, shape.at[1] * s), shape.size * s, bgr(shape.fill))


def _rounded_rect(img: np.ndarray, p0: tuple[int, int], p1: tuple[int, int], r: int,
                  colour: tuple[int, int, int], thickness: int) -> None:
    (x0, y0), (x1, y1) = p0, p1
    pts = cv2.ellipse2Poly((x1 - r, y0 + r), (r, r), 0, -90, 0, 15) .tolist() \
        + cv2.ellipse2Poly((x1 - r, y1 - r), (r, r), 0, 0, 90, 15).tolist() \
        + cv2.ellipse2Poly((x0 + r, y1 - r), (r, r), 0, 90, 180, 15).tolist() \
        + cv2.ellipse2Poly((x0 + r, y0 + r), (r, r), 0, 180, 270, 15).tolist()
    poly = np.array(pts, np.int32)
    if thickness < 0:
        cv2.fillPoly(img, [poly], colour, cv2.LINE_AA)
    else:
        cv2.polylines(img, [poly], True, colour, thickness, cv2.LINE_AA)


def put_text_centred(img: np.ndarray, text: str, centre: tuple[float, float], cap_height: float,
                     colour: tuple[int, ...], font: int = cv2.FONT_HERSHEY_SIMPLEX) -> None:
    """Text whose box is centred on ``centre``; ``cap_height`` in pixels."""
    scale = max(cap_height, 1.0) / 22.0        # Hershey simplex: cap height ~22 px at scale 1
    thickness = max(1, round(scale * 2))
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    org = (round(centre[0] - w / 2), round(centre[1] + h / 2))
    cv2.putText(img, text, org, font, scale, colour, thickness, cv2.LINE_AA)


def reference_png(scale: float = 1.0) -> np.ndarray:
    """The reference map as a BGR image of (1464 x 1000) * ``scale`` pixels."""
    lay = load_layout()
    img = np.full((round(lay.height * scale), round(lay.width * scale), 3), 255, np.uint8)
    for shape in shapes():
        _draw(img, shape, scale)
    return img


__all__ = ["reference_svg", "reference_png", "shapes", "put_text_centred", "bgr"]
