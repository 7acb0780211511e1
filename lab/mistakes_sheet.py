"""A contact sheet of an evaluation's wrong slots: each one's box as the camera saw it.

The figures of ``automa-vision eval`` say how often and where a reading is wrong; what a
wrong box looks like says why (a white piece on a pale printed space, drops touching in a
cluster, glare over a tile) far faster than its line of text. Each tile is the box cut from
the colour-normalised view that the models read, by the image's true homography (the
pipeline cuts its own from the homography it finds, a few tenths of a px away), a dam's
drop errors by its lake's box. The surest errors come first: those are the ones no flag
catches, and the tile's frame says which (red: the page would not ask; amber: it would).
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from vision.layout import Layout
from vision.reader import SlotReading
from vision.rectify import cut_rects, plan_crops

from .evaluate import Mistake, read_sample, write_png
from .truth_view import truth_view

TILE = 160            # tile side, px; the box's crop fills its width or its picture's height
PICTURE = 124         # the crop's height at most, above two caption lines
COLUMNS = 8
HEAD = 28             # the title line above the tiles, px
SILENT = (40, 40, 220)     # BGR frame of an error the page would not ask about
ASKED = (0, 170, 255)      # ... and of one it would


def box_key(mistake: Mistake) -> str:
    """The layout box a mistake is seen on: a dam's lake for its drops, else the slot."""
    return f"lake:{mistake.slot}" if mistake.cause.startswith("dam drops") else mistake.slot


def said(s: SlotReading) -> str:
    """A reading in a few characters: ``base+1 fra 2d``, ``conduit ntr``, ``3 drops``, ``unknown``."""
    if s.unknown:
        return "unknown"
    if s.kind == "headstream":
        return f"{s.drops} drops"
    owner = "" if s.owner is None else " ntr" if s.owner == "neutral" else f" {s.owner[:3]}"
    drops = f" {s.drops}d" if s.kind == "dam" and s.piece not in (None, "empty") else ""
    return f"{s.piece or 'empty'}{owner}{drops}"


def captions(mistake: Mistake) -> tuple[str, str]:
    return (f"{mistake.image} {mistake.slot} {mistake.read.confidence:.2f}",
            f"{said(mistake.truth)} > {said(mistake.read)}")


def tile(view: np.ndarray, rect: np.ndarray, mistake: Mistake) -> np.ndarray:
    x0, y0, x1, y1 = rect
    aspect = (x1 - x0) / max(y1 - y0, 1e-3)
    w = int(min(TILE - 8, round(PICTURE * aspect)))
    h = int(min(PICTURE, round(w / aspect)))
    crop = cut_rects(view, rect[None], (max(w, 1), max(h, 1)))[0]
    out = np.full((TILE, TILE, 3), 24, np.uint8)
    cv2.rectangle(out, (0, 0), (TILE - 1, TILE - 1), ASKED if mistake.flagged else SILENT, 3)
    x, y = (TILE - crop.shape[1]) // 2, 4 + (PICTURE - crop.shape[0]) // 2
    out[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
    for row, text in enumerate(captions(mistake)):
        cv2.putText(out, text[:30], (5, PICTURE + 14 + 13 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.34,
                    (235, 235, 235), 1, cv2.LINE_AA)
    return out


def sheet(folder: Path, mistakes: Sequence[Mistake], layout: Layout, most: int = 96) -> np.ndarray:
    """The tiles of up to ``most`` of ``mistakes`` (of images in ``folder``), surest first,
    ``COLUMNS`` to a row, under a line that says how many are shown. A mistake whose image
    or truth cannot be read again is left out (``read_sample`` says why on stderr)."""
    chosen = sorted(mistakes, key=lambda m: (-m.read.confidence, m.image, m.slot))[:most]
    by_image: dict[str, list[int]] = defaultdict(list)
    for n, m in enumerate(chosen):
        by_image[m.image].append(n)
    tiles: dict[int, np.ndarray] = {}
    index = layout.box_index()
    for image, ns in by_image.items():
        sample = read_sample(Path(folder) / f"{image}.jpg", Path(folder) / f"{image}.json")
        if sample is None:
            continue
        camera, view = truth_view(layout, *sample)
        rects = plan_crops(layout, camera).rects
        for n in ns:
            key = box_key(chosen[n])
            if key in index:
                tiles[n] = tile(view, rects[index[key]], chosen[n])
    shown = [tiles[n] for n in sorted(tiles)]
    head = np.full((HEAD, COLUMNS * TILE, 3), 255, np.uint8)
    cv2.putText(head, f"{len(shown)} of {len(mistakes)} wrong slots, surest first; "
                      "caption: image slot confidence / truth > read; red frame: not flagged",
                (6, 19), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    if not shown:
        return head
    shown += [np.full_like(shown[0], 255)] * (-len(shown) % COLUMNS)
    rows = [np.hstack(shown[i:i + COLUMNS]) for i in range(0, len(shown), COLUMNS)]
    return np.vstack([head, *rows])


def write_sheet(path: Path, folder: Path, mistakes: Sequence[Mistake], layout: Layout, most: int = 96) -> None:
    """``sheet`` as a PNG file (OSError where it cannot be written)."""
    write_png(path, sheet(folder, mistakes, layout, most))
