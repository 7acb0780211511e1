"""A second frame of a synthetic table: the same game a turn earlier.

A turn moves a few pieces; everything else on the table stays exactly where it stood,
and the camera, the light and the board do not change. ``frame_before`` renders a
seed's table (``render.set_table``) with the pieces of an earlier map: the structures
built since are lifted off (a raised dam loses its top elevations), and drops are
taken from or added to the lakes and headstreams whose counts differ. Every other
solid is the very one of the seed's frame. The shot takes fresh sensor noise and a
slightly different exposure, as two frames of a webcam do. The seed's own frame stays
what ``render`` makes, byte for byte.
"""
from __future__ import annotations

import zlib

import cv2
import numpy as np

from vision.barrage.board_state import MapState
from vision.layout import load_layout

from . import pieces
from .finish import FINISHES
from .lights import LIGHTINGS
from .photo import encode_jpeg
from .processing import PROCESSINGS
from .render import GAMES, HEADSTREAMS, Options, Table, set_table, shoot
from .shapes import SHAPES

EXPOSURE_DRIFT = 0.03       # a webcam's auto exposure moves by a few percent between turns
# Grey levels two renderings of one table may differ by and still be the same picture. The
# commit that made the test fixtures, run again on another machine, drew 2 of the 40 apart in
# one 8x8 JPEG block each, by up to 3 levels (the rest byte for byte): numpy and OpenCV are
# not pinned, and builds may round apart. A piece on or off differs by far more.
SAME_PICTURE_LEVELS = 8


def solids_before(t: Table, before: MapState) -> list[pieces.Solid]:
    """The table's solids as ``before`` has the map: ``before`` may lack structures the table
    holds, have lower dams, and hold other drop counts; drops added stand clear of the
    pieces and drops already there. The k-th drop added to a box has a place of its own,
    drawn from the table's seed and the box, so two earlier maps with a drop there show it
    in the same place (a drop stays where it was put)."""
    lay = load_layout()
    after = t.state
    if any(s not in after.dams for s in before.dams) or any(s not in after.conduits for s in before.conduits) \
            or any(s not in after.powerhouses for s in before.powerhouses):
        raise ValueError("the earlier map has a structure the table does not: a turn never takes one off")

    def stands(solid: pieces.Solid) -> bool:
        if solid.slot in after.dams:
            dam = before.dams.get(solid.slot)
            return dam is not None and solid.level < dam.pieces
        return solid.slot is None or solid.slot in before.conduits or solid.slot in before.powerhouses

    kept = [s for s in t.solids if s.holder is None and stands(s)]
    built = [lay.slot(s) for s in (*before.dams, *before.conduits, *before.powerhouses)]
    wanted = {lay.lake(s).key: d.drops for s, d in before.dams.items()}
    wanted |= {lay.slot(h).key: n for h, n in before.headstreams.items()}
    by_holder: dict[str, list[pieces.Solid]] = {}
    for s in t.solids:
        if s.holder is not None:
            by_holder.setdefault(s.holder, []).append(s)
    boxes = {b.key: b for b in lay.boxes}
    for key in sorted(set(by_holder) | set(wanted)):
        standing, n = by_holder.get(key, []), wanted.get(key, 0)
        kept += standing[:n]
        added = list(standing)
        for k in range(len(standing), n):
            rng = np.random.default_rng([t.seed, zlib.crc32(key.encode()), k])
            added += pieces.add_drops(boxes[key], 1, t.piece_style, rng, built, added)
        kept += added[len(standing):]
    return kept


def frame_before(t: Table, before: MapState, seed: int) -> np.ndarray:
    """The camera frame (BGR) of the table with ``before``'s pieces and no hand over it (the
    page took it when the board last held still); ``seed`` draws the sensor noise and the
    exposure drift."""
    rng = np.random.default_rng([t.seed, seed])
    shot = shoot(t, solids_before(t, before), noise=rng, exposure=float(rng.uniform(1 - EXPOSURE_DRIFT, 1 + EXPOSURE_DRIFT)),
                 occluder=False)
    return _decoded(encode_jpeg(shot.frame, shot.photo_style.jpeg_quality))


def table_of(truth: dict, jpeg: bytes) -> Table | None:
    """The table a generated image shows, from its ground truth, or None when no options
    reproduce ``jpeg`` (an image not made by this generator's code): byte for byte, or
    within ``SAME_PICTURE_LEVELS`` where the libraries' builds round differently."""
    given = _decoded(jpeg)
    style = truth["style"]
    # the light, the pieces' surfaces and shapes, the webcam's processing, the headstreams'
    # drops and the game's length are recorded only when not the default
    lighting, finish = _kind(style.get("lighting"), "one", LIGHTINGS), _kind(style.get("finish"), "matte", FINISHES)
    chip, shape = _kind(style.get("processing"), "none", PROCESSINGS), _kind(style.get("shapes"), "blocks", SHAPES)
    rain, games = _kind(style.get("headstreams"), "game", HEADSTREAMS), _kind(style.get("games"), "any", GAMES)
    if None in (lighting, finish, chip, shape, rain, games):
        return None
    base = dict(size=tuple(truth["image_size"]), markers=truth["markers"]["present"],
                occlusion=1.0 if style["occluder"] else 0.0,
                placement=style["camera"].get("placement", "shift"),     # older truths: no placement
                lens=style["camera"].get("lens", "mild"), lighting=lighting, finish=finish,
                processing=chip, shapes=shape, headstreams=rain, games=games)
    photos = ("hard", "random") if style["photo_mode"] == "hard" else (style["photo_mode"], "random")
    for photo_option in dict.fromkeys(photos):
        for saturated in (False, True):
            t = set_table(int(truth["seed"]), Options(photo=photo_option, saturated_spaces=saturated, **base))
            shot = shoot(t)
            made = encode_jpeg(shot.frame, shot.photo_style.jpeg_quality)
            if made == jpeg or _same_picture(_decoded(made), given):
                return t
    return None


def _kind(record: object, default: str, kinds: tuple[str, ...]) -> str | None:
    """The kind a truth's style record names (``default`` where there is none), or None where
    it names none of ``kinds``: no options of this generator made that picture."""
    kind = default if record is None else record.get("kind") if isinstance(record, dict) else None
    return kind if kind in kinds else None


def _decoded(jpeg: bytes) -> np.ndarray | None:
    """The BGR picture of ``jpeg``, or None where it does not decode."""
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def _same_picture(made: np.ndarray | None, given: np.ndarray | None) -> bool:
    return made is not None and given is not None and made.shape == given.shape \
        and int(cv2.absdiff(made, given).max()) <= SAME_PICTURE_LEVELS
