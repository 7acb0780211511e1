"""The printed board, painted procedurally in the canonical frame.

The real board is a busy illustration (painted terrain, blue lakes behind every
dam, coloured pipes along the conduits, icons on every space) and held-out boards
may look different again, so each image draws a new look: terrain palette and
texture, river/lake/pipe colours and widths, how spaces are outlined and filled,
icon density and clutter. The clean reference map is one look among them.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import cv2
import numpy as np

from automa.barrage.data import barrage_map
from vision.barrage.map_geometry import pipes, rivers
from vision.barrage.reference_map import put_text_centred, reference_png
from vision.layout import Box, load_layout

from .icons import KINDS, draw_icon, drop_outline
from .textures import blend_layers, fill, jitter, modulate, noise, random_colour, shade

# Typical hues of the printed areas; used by the "natural" palettes, ignored by "random" ones.
NATURAL = {"mountains": (120, 125, 135), "hills": (70, 140, 95), "plains": (90, 175, 200)}
LOOKS = ("painted", "flat", "schematic")


@dataclass
class BoardStyle:
    look: str
    palette: str                              # natural | random
    area_colours: dict[str, list[int]]
    texture_strength: float
    water: list[int]
    river_width: float
    lake_scale: float
    pipe: list[int]
    pipe_width: float
    space_fill: list[int]
    space_edge: list[int]
    red: list[int]
    edge_width: int
    icon_density: float
    clutter: int


def sample_style(rng: np.random.Generator) -> BoardStyle:
    look = str(rng.choice(LOOKS, p=[0.65, 0.2, 0.15]))
    palette = "natural" if rng.random() < 0.7 else "random"
    if palette == "natural":
        areas = {a: list(jitter(rng, c, 10, 0.35, 0.3)) for a, c in NATURAL.items()}
    else:
        areas = {a: list(random_colour(rng)) for a in NATURAL}
    light_spaces = rng.random() < 0.7
    return BoardStyle(
        look=look, palette=palette, area_colours=areas,
        texture_strength=float(rng.uniform(0.05, 0.45)),
        water=list(jitter(rng, (200, 140, 60), 12, 0.4, 0.3)),
        river_width=float(rng.uniform(5, 22)),
        lake_scale=float(rng.uniform(0.95, 1.35)),
        pipe=list(random_colour(rng, (0.0, 0.6), (0.3, 0.8)) if rng.random() < 0.5 else jitter(rng, (120, 120, 125), 20, 0.5, 0.3)),
        pipe_width=float(rng.uniform(4, 13)),
        space_fill=list(random_colour(rng, (0, 0.25), (0.75, 1.0)) if light_spaces else random_colour(rng, (0, 0.5), (0.15, 0.5))),
        space_edge=list(random_colour(rng, (0, 0.4), (0.05, 0.4))),
        red=list(jitter(rng, (40, 40, 200), 6, 0.3, 0.3)),
        edge_width=int(rng.integers(1, 5)),
        icon_density=float(rng.uniform(0.2, 1.0)),
        clutter=int(rng.integers(0, 60)),
    )


def paint_board(style: BoardStyle, rng: np.random.Generator) -> np.ndarray:
    """The board image (1464 x 1000 BGR) in the canonical frame."""
    if style.look == "schematic":
        img = reference_png()
        if style.palette == "random":      # same drawing, shifted hues: schematic boards of other makers
            hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
            hsv[..., 0] = (hsv[..., 0].astype(np.int16) + int(rng.integers(0, 180))) % 180
            img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
        return modulate(img, noise(rng, *img.shape[:2], 200, 2), style.texture_strength / 3)
    img = _terrain(style, rng)
    _water(img, style, rng)
    _spaces(img, style, rng)
    _clutter(img, style, rng)
    return img


# -- terrain -------------------------------------------------------------------------
def _terrain(style: BoardStyle, rng: np.random.Generator) -> np.ndarray:
    lay = load_layout()
    h, w = lay.height, lay.width
    # Colour fields and coarse texture are smooth: paint them at a quarter of the size.
    q = 4
    hq, wq = h // q, w // q
    img = fill(hq, wq, tuple(style.area_colours["mountains"]))
    # Area borders wander like painted ones rather than running straight.
    wobble = (noise(rng, 1, wq, 150 / q, 2)[0] - 0.5) * rng.uniform(0, 80)
    yy = np.arange(hq, dtype=np.float32)[:, None] * q
    for area in ("hills", "plains"):
        y0 = lay.area_bands[area][0] + wobble[None, :]
        alpha = np.clip((yy - y0) / rng.uniform(2, 40) + 0.5, 0, 1)
        img = blend_layers(img, fill(hq, wq, tuple(style.area_colours[area])), alpha)
    img = modulate(img, noise(rng, hq, wq, rng.uniform(30, 250) / q, 4), style.texture_strength)
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
    if style.look == "painted":
        _decorate_areas(img, style, rng)
    # paper/paint grain, sometimes stretched into brush strokes
    stretch = rng.uniform(1, 6) if rng.random() < 0.4 else 1.0
    grain = noise(rng, h // 2, max(2, int(w / 2 / stretch)), rng.uniform(1, 3), 2)
    grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        grain = cv2.flip(cv2.resize(grain.T, (w, h)), 0)
    return modulate(img, grain, style.texture_strength / 3)


def _decorate_areas(img: np.ndarray, style: BoardStyle, rng: np.random.Generator) -> None:
    """Peaks in the mountains, tree clumps on the hills, fields in the plains."""
    lay = load_layout()
    aa = cv2.LINE_AA
    y0, y1 = lay.area_bands["mountains"]
    base = tuple(style.area_colours["mountains"])
    for _ in range(int(rng.integers(20, 90))):
        cx, cy, s = rng.uniform(0, lay.width), rng.uniform(y0, y1), rng.uniform(25, 110)
        peak = (cx + rng.uniform(-0.3, 0.3) * s, cy - s * rng.uniform(0.5, 1.0))
        left = np.array([(cx - s, cy), peak, (cx, cy)], np.float32)
        right = np.array([(cx, cy), peak, (cx + s, cy)], np.float32)
        cv2.fillPoly(img, [np.round(left).astype(np.int32)], shade(base, rng.uniform(1.0, 1.3)), aa)
        cv2.fillPoly(img, [np.round(right).astype(np.int32)], shade(base, rng.uniform(0.6, 0.9)), aa)
        if rng.random() < 0.4:    # snow cap
            cap = np.array([peak, (peak[0] - s * 0.2, peak[1] + s * 0.25), (peak[0] + s * 0.2, peak[1] + s * 0.25)])
            cv2.fillPoly(img, [np.round(cap).astype(np.int32)], (235, 235, 240), aa)
    y0, y1 = lay.area_bands["hills"]
    base = tuple(style.area_colours["hills"])
    for _ in range(int(rng.integers(30, 160))):
        c = (int(rng.uniform(0, lay.width)), int(rng.uniform(y0, y1)))
        r = int(rng.uniform(4, 16))
        cv2.circle(img, c, r, shade(base, rng.uniform(0.45, 0.8)), -1, aa)
        cv2.circle(img, (c[0] - r // 3, c[1] - r // 3), max(1, r // 3), shade(base, 1.15), -1, aa)
    y0, y1 = lay.area_bands["plains"]
    base = tuple(style.area_colours["plains"])
    for _ in range(int(rng.integers(10, 60))):
        rect = ((rng.uniform(0, lay.width), rng.uniform(y0, y1)), (rng.uniform(30, 140), rng.uniform(20, 90)),
                rng.uniform(-30, 30))
        pts = np.round(cv2.boxPoints(rect)).astype(np.int32)
        cv2.fillPoly(img, [pts], jitter(rng, base, 10, 0.3, 0.2), aa)


# -- water and pipes -----------------------------------------------------------------
def _smooth(points: np.ndarray, rng: np.random.Generator, wiggle: float) -> np.ndarray:
    """Subdivide a polyline, push it sideways a little and round its corners (Chaikin)."""
    dense = [points[0]]
    for a, b in zip(points[:-1], points[1:]):
        n = max(1, int(np.linalg.norm(b - a) / 40))
        dense += [a + (b - a) * t for t in np.linspace(0, 1, n + 1)[1:]]
    pts = np.array(dense, np.float32)
    pts[1:-1] += rng.normal(0, wiggle, pts[1:-1].shape).astype(np.float32)
    for _ in range(2):
        q = 0.75 * pts[:-1] + 0.25 * pts[1:]
        r = 0.25 * pts[:-1] + 0.75 * pts[1:]
        pts = np.concatenate([pts[:1], np.stack([q, r], 1).reshape(-1, 2), pts[-1:]])
    return pts


def _water(img: np.ndarray, style: BoardStyle, rng: np.random.Generator) -> None:
    lay = load_layout()
    aa = cv2.LINE_AA
    water = tuple(style.water)
    rim = shade(water, 0.6)
    pipe = tuple(style.pipe)
    pw = max(2, int(style.pipe_width))
    if style.look == "painted" or rng.random() < 0.5:
        for path in pipes().values():
            pts = np.round(np.array(path, np.float32)).astype(np.int32)
            cv2.polylines(img, [pts], False, shade(pipe, 0.55), pw + 2, aa)
            cv2.polylines(img, [pts], False, pipe, pw, aa)
            cv2.polylines(img, [pts - [0, max(1, pw // 4)]], False, shade(pipe, 1.4), max(1, pw // 4), aa)
            for p in pts[1:-1]:
                cv2.circle(img, tuple(int(v) for v in p), pw, shade(pipe, 0.8), -1, aa)
    rw = max(2, int(style.river_width))
    for path in rivers().values():
        pts = np.round(_smooth(np.array(path, np.float32), rng, style.river_width / 2)).astype(np.int32)
        cv2.polylines(img, [pts], False, rim, rw + 4, aa)
        cv2.polylines(img, [pts], False, water, rw, aa)
        cv2.polylines(img, [pts], False, shade(water, 1.25), max(1, rw // 5), aa)
    for box in lay.lakes:
        _lake(img, box, style, rng)


def _lake(img: np.ndarray, box: Box, style: BoardStyle, rng: np.random.Generator) -> None:
    """An irregular painted lake covering the lake box (drops stand on it)."""
    (cx, cy), aa = box.centre, cv2.LINE_AA
    a = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    rad = 1 + 0.12 * np.convolve(rng.normal(0, 1, 46), np.ones(7) / 7, "valid")[:40] * 3
    rx, ry = box.w / 2 * style.lake_scale, box.h / 2 * style.lake_scale * rng.uniform(1.0, 1.4)
    pts = np.stack([cx + rx * rad * np.cos(a), cy + ry * rad * np.sin(a)], 1)
    poly = np.round(pts).astype(np.int32)
    water = tuple(style.water)
    cv2.fillPoly(img, [poly], shade(water, 0.65), aa)
    inner = np.round((pts - (cx, cy)) * 0.88 + (cx, cy)).astype(np.int32)
    cv2.fillPoly(img, [inner], water, aa)
    for _ in range(int(rng.integers(0, 5))):     # ripples
        c = (int(cx + rng.uniform(-0.6, 0.6) * rx), int(cy + rng.uniform(-0.5, 0.5) * ry))
        cv2.ellipse(img, c, (int(rng.uniform(5, 18)), 2), 0, 200, 340, shade(water, 1.35), 1, aa)


# -- spaces and clutter --------------------------------------------------------------
def _spaces(img: np.ndarray, style: BoardStyle, rng: np.random.Generator) -> None:
    lay, bmap = load_layout(), barrage_map()
    aa = cv2.LINE_AA
    fill_c, edge = tuple(style.space_fill), tuple(style.space_edge)
    text = (20, 20, 20) if sum(fill_c) > 380 else (235, 235, 235)
    for slot in lay.slots:
        b = slot
        p0, p1 = (int(b.x), int(b.y)), (int(b.x + b.w), int(b.y + b.h))
        edge_c = tuple(style.red) if slot.red_outlined else edge
        ew = style.edge_width + (1 if slot.red_outlined else 0)
        if slot.kind == "headstream":
            tile = jitter(rng, fill_c, 10, 0.3, 0.1)
            cv2.rectangle(img, p0, p1, tile, -1, aa)
            cv2.rectangle(img, p0, p1, edge, ew, aa)
            # printed drop icons on the tile: look-alikes of drop pieces that are not pieces
            for k in range(int(rng.integers(0, 4))):
                x = b.x + b.w * (0.2 + 0.2 * k)
                poly = drop_outline(x, b.y + b.h * rng.uniform(0.6, 0.8), rng.uniform(5, 10))
                cv2.fillPoly(img, [poly], tuple(style.water), aa)
            if rng.random() < 0.7:
                put_text_centred(img, slot.id, (b.x + b.w * 0.15, b.y + b.h * 0.2), 14, text)
        elif slot.kind == "conduit":
            c, r = (int(b.x + b.w / 2), int(b.y + b.h / 2)), int(b.w / 2 * rng.uniform(0.75, 1.0))
            cv2.circle(img, c, r, fill_c, -1, aa)
            cv2.circle(img, c, r, edge, style.edge_width, aa)
            put_text_centred(img, str(bmap.conduits[slot.id].value), c, r * 0.8, text)
        else:
            inset = rng.uniform(0, 0.12)
            q0 = (int(b.x + b.w * inset), int(b.y + b.h * inset))
            q1 = (int(b.x + b.w * (1 - inset)), int(b.y + b.h * (1 - inset)))
            if rng.random() < 0.8:
                cv2.rectangle(img, q0, q1, fill_c, -1, aa)
            cv2.rectangle(img, q0, q1, edge_c, ew, aa)
            if rng.random() < style.icon_density:
                kind = str(rng.choice(KINDS))
                draw_icon(img, kind, b.centre, min(b.w, b.h) * rng.uniform(0.35, 0.6), jitter(rng, text, 10, 0.5, 0.3), rng)


def _clutter(img: np.ndarray, style: BoardStyle, rng: np.random.Generator) -> None:
    """Icons, numbers and track squares scattered as on a real board, and a printed frame."""
    lay = load_layout()
    for _ in range(style.clutter):
        centre = (rng.uniform(0, lay.width), rng.uniform(0, lay.height))
        draw_icon(img, str(rng.choice(KINDS)), centre, rng.uniform(8, 30), random_colour(rng), rng)
    if rng.random() < 0.5:       # a track of numbered squares along the edge, as on many boards
        step = int(rng.integers(28, 50))
        colour = random_colour(rng, (0, 0.5), (0.5, 1.0))
        for i, y in enumerate(range(step, lay.height - step, step)):
            x = 2 if rng.random() < 0.5 else lay.width - step + 2
            cv2.rectangle(img, (x, y), (x + step - 4, y + step - 4), colour, 1, cv2.LINE_AA)
            put_text_centred(img, str(i), (x + step / 2 - 2, y + step / 2 - 2), step / 4, colour)
    cv2.rectangle(img, (0, 0), (lay.width - 1, lay.height - 1), shade(tuple(style.space_edge), 0.8),
                  int(rng.integers(1, 8)), cv2.LINE_AA)


def style_record(style: BoardStyle) -> dict:
    return asdict(style)

