"""A held-out board look of its own: a printed, illustrated board, other pieces, other lights.

No net is trained on this look; it measures how the reader does on a board it has never
seen (``lab.printed_eval``). It is drawn from a description, never from any publisher's
artwork, and differs from the sampled looks (``lab.synth.board``) where a printed board does:

- every empty space carries a printed icon shaped like its structure: a conduit space a
  grey pipe lying along the space with its production value on a disc, a powerhouse space a
  grey house with its cost, a dam space a grey or whitish dam wall outline on a pale apron;
  the upper (costlier) dam and powerhouse spaces framed in red, each with its cost; a
  headstream tile shows one to four printed drops and its letter;
- the terrain is painted like an illustration: snowy grey rock with bright snow fields in
  the mountains, brown and ochre hills with dark scrub, green plains with fields, blue
  lakes with a light shore and rivers, and each conduit's pipe line in a colour of its own;
- the pieces are other models in other colours (``printed_pieces``): companies' colours moved
  off the trained ones, no painted outlines; ``lab.reference_tables`` builds them moulded
  (arches and round pipes) and draws each table's webcam, light and finish.
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from automa.barrage.data import barrage_map
from vision.barrage.map_geometry import pipes, rivers
from vision.barrage.reference_map import put_text_centred
from vision.layout import Box, load_layout

from .icons import drop_outline
from .pieces import PieceStyle
from .textures import blend_layers, fill, jitter, modulate, noise, shade

LOOK = "printed"
AA = cv2.LINE_AA
# Pipe-line colours of the conduits (BGR): purple, orange, yellow, teal, magenta, brown.
PIPE_COLOURS = ((150, 60, 120), (40, 120, 230), (40, 200, 230), (150, 150, 40), (140, 50, 200), (40, 80, 130))
# Companies' piece colours moved off the trained ones (BGR): an orange-red, a brown-black,
# a teal green, a cream white; the neutral grey lighter and bluish.
PIECE_COLOURS = {"usa": (40, 70, 215), "germany": (35, 40, 55), "italy": (110, 150, 40), "france": (200, 230, 240),
                 "netherlands": (30, 140, 240), "neutral": (165, 150, 140)}


def paint_printed(rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    """The printed board (1464 x 1000 BGR, the canonical frame) and its style record."""
    lay = load_layout()
    record = {"look": LOOK, "icon_grey": int(rng.integers(150, 235)), "snow": float(rng.uniform(0.2, 0.5)),
              "saturation": float(rng.uniform(0.8, 1.2)), "pipe_width": float(rng.uniform(6, 12)),
              "river_width": float(rng.uniform(10, 24))}
    img = _terrain(rng, record)
    _water_and_pipes(img, rng, record)
    for slot in lay.slots:
        _space(img, slot, rng, record)
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] = np.clip(hsv[..., 1] * record["saturation"], 0, 255)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR), record


def _terrain(rng: np.random.Generator, record: dict) -> np.ndarray:
    lay = load_layout()
    h, w = lay.height, lay.width
    rock = fill(h, w, jitter(rng, (120, 118, 115), 6, 0.3, 0.1))
    rock = modulate(rock, noise(rng, h, w, rng.uniform(40, 90), 5, 0.6), 0.7)
    snow = noise(rng, h, w, rng.uniform(30, 70), 4)
    snow_mask = np.clip((snow - (1 - record["snow"])) * 6, 0, 1)
    rock = blend_layers(rock, fill(h, w, (245, 245, 240)), snow_mask)
    hills = modulate(fill(h, w, jitter(rng, (55, 105, 150), 8, 0.3, 0.15)), noise(rng, h, w, rng.uniform(20, 60), 5, 0.6), 0.6)
    plains = modulate(fill(h, w, jitter(rng, (60, 160, 95), 8, 0.3, 0.15)), noise(rng, h, w, rng.uniform(50, 120), 4), 0.4)
    yy = np.arange(h, dtype=np.float32)[:, None] + (noise(rng, 1, w, 80, 3)[0][None, :] - 0.5) * 60
    img = rock
    for area, layer in (("hills", hills), ("plains", plains)):
        top = lay.area_bands[area][0]
        img = blend_layers(img, layer, np.broadcast_to(np.clip((yy - top) / 25 + 0.5, 0, 1), (h, w)).copy())
    y0, y1 = lay.area_bands["hills"]
    for _ in range(int(rng.integers(150, 300))):          # scrub and trees
        c = (int(rng.uniform(0, w)), int(rng.uniform(y0, y1)))
        cv2.circle(img, c, int(rng.uniform(3, 9)), jitter(rng, (30, 60, 45), 10, 0.3, 0.3), -1, AA)
    y0, y1 = lay.area_bands["plains"]
    for _ in range(int(rng.integers(30, 80))):            # fields
        rect = ((rng.uniform(0, w), rng.uniform(y0, y1)), (rng.uniform(40, 160), rng.uniform(25, 90)), rng.uniform(-20, 20))
        cv2.fillPoly(img, [np.round(cv2.boxPoints(rect)).astype(np.int32)], jitter(rng, (70, 175, 150), 12, 0.4, 0.2), AA)
    return img


def _water_and_pipes(img: np.ndarray, rng: np.random.Generator, record: dict) -> None:
    lay = load_layout()
    water = jitter(rng, (205, 150, 60), 6, 0.2, 0.15)
    rw = int(record["river_width"])
    for path in rivers().values():
        pts = np.round(np.array(path, np.float32)).astype(np.int32)
        cv2.polylines(img, [pts], False, (215, 225, 225), rw + 6, AA)       # light shore
        cv2.polylines(img, [pts], False, water, rw, AA)
    for box in lay.lakes:
        (cx, cy) = box.centre
        axes = (int(box.w * rng.uniform(0.55, 0.7)), int(box.h * rng.uniform(0.55, 0.75)))
        cv2.ellipse(img, (int(cx), int(cy)), (axes[0] + 5, axes[1] + 5), 0, 0, 360, (215, 225, 225), -1, AA)
        cv2.ellipse(img, (int(cx), int(cy)), axes, 0, 0, 360, water, -1, AA)
        for _ in range(3):                                # painted ripples
            c = (int(cx + rng.uniform(-0.4, 0.4) * axes[0]), int(cy + rng.uniform(-0.4, 0.4) * axes[1]))
            cv2.ellipse(img, c, (int(rng.uniform(6, 16)), 2), 0, 200, 340, shade(water, 1.3), 1, AA)
    pw = int(record["pipe_width"])
    for k, path in enumerate(pipes().values()):
        colour = jitter(rng, PIPE_COLOURS[k % len(PIPE_COLOURS)], 4, 0.2, 0.1)
        pts = np.round(np.array(path, np.float32)).astype(np.int32)
        cv2.polylines(img, [pts], False, shade(colour, 0.5), pw + 3, AA)
        cv2.polylines(img, [pts], False, colour, pw, AA)


def _space(img: np.ndarray, slot: Box, rng: np.random.Generator, record: dict) -> None:
    """A space's printed icon, shaped like the structure that goes there."""
    bmap = barrage_map()
    grey = int(record["icon_grey"])
    icon, edge, red = (grey, grey, grey + 8), (grey // 3,) * 3, (40, 40, 200)
    x, y, w, h = slot.x, slot.y, slot.w, slot.h
    cx, cy = slot.centre
    if slot.kind == "headstream":
        cv2.rectangle(img, (int(x), int(y)), (int(x + w), int(y + h)), (225, 215, 190), -1, AA)
        cv2.rectangle(img, (int(x), int(y)), (int(x + w), int(y + h)), (90, 70, 50), 3, AA)
        for k in range(int(rng.integers(1, 5))):
            poly = drop_outline(x + w * (0.2 + 0.2 * k), y + h * 0.62, min(w, h) * 0.12)
            cv2.fillPoly(img, [poly], (200, 130, 40), AA)
        put_text_centred(img, slot.id, (x + w * 0.12, y + h * 0.2), 18, (60, 40, 30))
    elif slot.kind == "conduit":
        horizontal = w >= h
        length, width = (w, h) if horizontal else (h, w)
        half = np.array([length * 0.45, width * 0.3])
        if not horizontal:
            half = half[::-1]
        p0, p1 = (int(cx - half[0]), int(cy - half[1])), (int(cx + half[0]), int(cy + half[1]))
        # a printed pipe drawn as if round: a dark drop shadow, the body, a light highlight
        cv2.rectangle(img, (p0[0] + 3, p0[1] + 3), (p1[0] + 3, p1[1] + 3), shade(icon, 0.45), -1, AA)
        cv2.rectangle(img, p0, p1, icon, -1, AA)
        lit = (p0, (p1[0], (p0[1] + p1[1]) // 2)) if horizontal else (p0, ((p0[0] + p1[0]) // 2, p1[1]))
        cv2.rectangle(img, *lit, shade(icon, 1.15), -1, AA)
        cv2.rectangle(img, p0, p1, edge, 2, AA)
        r = int(min(w, h) * 0.28)
        cv2.circle(img, (int(cx), int(cy)), r, (245, 245, 245), -1, AA)
        put_text_centred(img, str(bmap.conduits[slot.id].value), (cx, cy), r * 0.9, (30, 30, 30))
    elif slot.kind == "powerhouse":
        s = min(w, h) * 0.42
        house = np.array([(-0.8, 0.9), (-0.8, -0.1), (0, -0.9), (0.8, -0.1), (0.8, 0.9)]) * s + (cx, cy)
        cv2.fillPoly(img, [np.round(house + 3).astype(np.int32)], shade(icon, 0.45), AA)     # printed shadow
        cv2.fillPoly(img, [np.round(house).astype(np.int32)], icon, AA)
        roof = house[1:4]
        cv2.fillPoly(img, [np.round(roof).astype(np.int32)], shade(icon, 0.8), AA)
        cv2.polylines(img, [np.round(house).astype(np.int32)], True, edge, 2, AA)
        upper = bmap.powerhouses[slot.id].red
        if upper:
            cv2.rectangle(img, (int(x + 2), int(y + 2)), (int(x + w - 2), int(y + h - 2)), red, 3, AA)
        put_text_centred(img, str(int(rng.integers(0, 4)) if not upper else 3), (cx, cy + s * 0.35), s * 0.5, (250, 250, 250))
    else:
        pale = jitter(rng, (225, 228, 230), 4, 0.2, 0.05)
        cv2.rectangle(img, (int(x + w * 0.06), int(y + h * 0.08)), (int(x + w * 0.94), int(y + h * 0.92)), pale, -1, AA)
        wall = np.array([(-0.42, 0.28), (-0.34, -0.28), (0.34, -0.28), (0.42, 0.28)]) * (w, h * 1.4) + (cx, cy)
        whitish = (min(grey + 30, 245),) * 3 if rng.random() < 0.5 else icon
        cv2.fillPoly(img, [np.round(wall + 4).astype(np.int32)], shade(whitish, 0.45), AA)       # printed shadow
        cv2.fillPoly(img, [np.round(wall).astype(np.int32)], whitish, AA)
        crest = np.array([wall[1], wall[2], wall[2] + (0, h * 0.12), wall[1] + (0, h * 0.12)])
        cv2.fillPoly(img, [np.round(crest).astype(np.int32)], shade(whitish, 1.1), AA)
        cv2.polylines(img, [np.round(wall).astype(np.int32)], True, edge, 2, AA)
        if slot.red_outlined:
            cv2.rectangle(img, (int(x + 1), int(y + 1)), (int(x + w - 1), int(y + h - 1)), red, 6, AA)
            put_text_centred(img, "3", (x + w * 0.1, y + h * 0.2), 12, red)


def printed_pieces(style: PieceStyle, rng: np.random.Generator) -> PieceStyle:
    """``style`` with the printed look's piece colours (each a little jittered)."""
    colours = {owner: list(jitter(rng, PIECE_COLOURS.get(owner, tuple(c)), 4, 0.15, 0.1))
               for owner, c in style.colours.items()}
    return replace(style, colours=colours, drop_colour=list(jitter(rng, (215, 120, 30), 5, 0.2, 0.1)),
                   outline=False)
