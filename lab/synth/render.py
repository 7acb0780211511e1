"""One synthetic camera frame of a Barrage board, with its ground truth.

Pipeline (all randomness from the seed, one independent stream per stage so that
changing one stage does not reshuffle the others):

1. a random legal game state (``automa.barrage.random_states``);
2. a board look painted in the canonical frame, marker sheets in a margin around it;
3. a camera pose; table, board edge, board and sheets warped into the undistorted image;
4. piece shadows and pieces, projected in 3-D, shaped as ``Options.shapes`` and their surfaces as
   ``Options.finish`` say;
5. an optional occluder (hand or object);
6. lighting, then lens distortion (for a wide lens, the other way round), blur, noise, the
   webcam's own processing where ``Options.processing`` asks for it, and JPEG.

``set_table`` does 1-3 and makes the pieces' solids; ``shoot`` draws them and does 4-6, so a
second picture of the same table (``lab.synth.pairs``) shares everything but what changed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from automa.barrage.ops import apply_op
from automa.barrage.random_states import random_state
from automa.barrage.state import GameState
from vision.barrage.labels import MAX_HEADSTREAM_DROPS
from vision.layout import load_layout

from . import board, photo, pieces
from .camera import PLACEMENTS, Camera, sample_camera
from .finish import FINISHES, Finish, finish
from .lights import LIGHTINGS, Light, lighting
from .markers import MARGIN, MARKER_CORNERS, draw_sheets
from .occluders import draw_occluder
from .processing import PROCESSINGS, Processing, processing
from .shapes import SHAPES, shapes
from .textures import blend_layers, darken, random_colour, table
from .truth import slot_truth

SIZES = ((640, 480), (1280, 720), (1280, 960), (1920, 1080))
PHOTO_MODES = ("random", "clean", "hard")
SCHEMA = "barrage-synth/1"
HEADSTREAMS = ("game", "wet")
LENSES = ("mild", "wide")
# A wide-angle webcam's barrel distortion, k of camera.py's model (k1 of OpenCV's is about -k):
# where the board's corners lie 0.8 focal lengths from the centre, 3-13 % of their distance
# (a "mild" lens: +-2.2 %). A lens calibration removes it (calibration/lens.py); without one
# the registration must live with it.
WIDE_K = (0.05, 0.2)
WET_MOST = MAX_HEADSTREAM_DROPS      # a wet tile's count is drawn from 0..WET_MOST
GAMES = ("any", "late")
# A late game's random moves (random_state draws 0-60 for any game). After 60-150 moves a board
# holds about 11.5 company dams, 6.8 of them raised, and 21 conduits and powerhouses (any game:
# 3.9, 1.5 and 7.7), as a real table does near its end: most of the 20 dam spaces are built, so
# a frame's median dam crop (the slot model's kind context) shows a dam, not an empty space.
LATE_MOVES = (60, 150)


@dataclass(frozen=True)
class Options:
    size: tuple[int, int] = (1280, 960)
    markers: bool = True
    occlusion: float = 0.3               # probability of an occluder in a frame
    photo: str = "random"                # random | clean | hard
    board_look: str | None = None        # force a board look (see board.LOOKS)
    saturated_spaces: bool = False       # spaces printed in strong colours, outside the training range
    placement: str = "shift"             # how the board is put in the frame (see camera.py)
    lighting: str = "one"                # the style's distant light, lamps near the table, or a low light (lights.py)
    finish: str = "matte"                # the pieces' surfaces: matte, glossy plastic, or clear drops (finish.py)
    headstreams: str = "game"            # the game's drops on the headstream tiles, or "wet": more (wet_headstreams)
    lens: str = "mild"                   # the camera's radial distortion: mild (camera.py), or a wide-angle webcam's
    processing: str = "none"             # the webcam's own denoising, colour, tone and sharpening (processing.py)
    shapes: str = "blocks"               # the structures' shapes: blocks, or moulded arches and pipes (shapes.py)
    games: str = "any"                   # the game's length: any (0-60 random moves), or late (LATE_MOVES)

    def __post_init__(self) -> None:
        if self.size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(f'{w}x{h}' for w, h in SIZES)}")
        if not 0.0 <= self.occlusion <= 1.0:
            raise ValueError("occlusion must be a probability between 0 and 1")
        if self.photo not in PHOTO_MODES:
            raise ValueError(f"photo must be one of {', '.join(PHOTO_MODES)}")
        if self.placement not in PLACEMENTS:
            raise ValueError(f"placement must be one of {', '.join(PLACEMENTS)}")
        if self.lighting not in LIGHTINGS:
            raise ValueError(f"lighting must be one of {', '.join(LIGHTINGS)}")
        if self.finish not in FINISHES:
            raise ValueError(f"finish must be one of {', '.join(FINISHES)}")
        if self.headstreams not in HEADSTREAMS:
            raise ValueError(f"headstreams must be one of {', '.join(HEADSTREAMS)}")
        if self.lens not in LENSES:
            raise ValueError(f"lens must be one of {', '.join(LENSES)}")
        if self.processing not in PROCESSINGS:
            raise ValueError(f"processing must be one of {', '.join(PROCESSINGS)}")
        if self.shapes not in SHAPES:
            raise ValueError(f"shapes must be one of {', '.join(SHAPES)}")
        if self.games not in GAMES:
            raise ValueError(f"games must be one of {', '.join(GAMES)}")
        if self.board_look is not None and self.board_look not in board.LOOKS:
            raise ValueError(f"board_look must be one of {', '.join(board.LOOKS)}")


@dataclass
class Sample:
    jpeg: bytes
    truth: dict = field(repr=False)


def _streams(seed: int) -> dict[str, np.random.Generator]:
    names = ("state", "board", "pieces", "camera", "table", "occluder", "photo", "markers", "lights", "finish", "wet", "lens",
             "processing", "shapes")
    return {n: np.random.default_rng([seed, i]) for i, n in enumerate(names)}


@dataclass
class Table:
    """One frame's table before the shot: what a second frame of the same game, camera and
    light shares with the first (``lab.synth.pairs`` takes pieces off it and shoots again)."""
    seed: int
    options: Options
    state: GameState
    scene: np.ndarray = field(repr=False)       # table, board edge, board and sheets; no pieces
    cam: Camera = field(repr=False)
    piece_style: pieces.PieceStyle
    lights: tuple[Light, ...]
    finish: Finish
    processing: Processing
    solids: list[pieces.Solid] = field(repr=False)
    records: dict = field(repr=False)           # the truth's style records and the sheets placed
    pad: int = 0                                # px of ``scene`` past the undistorted picture on every side

    @property
    def scene_cam(self) -> Camera:
        """The camera that draws on ``scene``."""
        return self.cam.padded(self.pad)


@dataclass
class Shot:
    frame: np.ndarray = field(repr=False)
    mask: np.ndarray | None = field(repr=False)     # where the occluder covers the scene
    occluder: dict | None
    mode: str
    photo_style: photo.PhotoStyle


def render(seed: int, options: Options = Options()) -> Sample:
    t = set_table(seed, options)
    shot = shoot(t)
    lay = load_layout()
    truth = {
        "schema": SCHEMA,
        "seed": seed,
        "image_size": list(options.size),
        "homography": [[round(float(v), 9) for v in row] for row in t.cam.image_to_board()],
        "markers": {"present": options.markers, "dictionary": "DICT_4X4_50", "placed": t.records["placed"]},
        "state": t.state.to_dict(),
        "slots": slot_truth(t.state, lay, t.cam, shot.mask, pieces.drop_footprints(t.solids)),
        "style": {"photo_mode": shot.mode, "board": t.records["board"],
                  "pieces": pieces.style_record(t.piece_style), "camera": t.records["camera"],
                  "table": t.records["table"], "photo": photo.style_record(shot.photo_style),
                  "occluder": shot.occluder},
    }
    if options.lighting != "one":       # the one distant light is the piece style's own
        truth["style"]["lighting"] = {"kind": options.lighting, "lights": [light.record() for light in t.lights]}
    if options.finish != "matte":
        truth["style"]["finish"] = t.finish.record()
    if options.processing != "none":
        truth["style"]["processing"] = t.processing.record()
    if options.shapes != "blocks":
        truth["style"]["shapes"] = t.records["shapes"]
    if options.headstreams != "game":
        truth["style"]["headstreams"] = {"kind": options.headstreams}
    if options.games != "any":
        truth["style"]["games"] = {"kind": options.games}
    return Sample(photo.encode_jpeg(shot.frame, shot.photo_style.jpeg_quality), truth)


def game_state(seed: int, games: str = "any") -> GameState:
    """Stage 1: the seed's game: 1-3 Automas and up to as many people as companies are
    left, among four companies or, in a quarter of the games, five. A ``late`` game is the
    same set-up played for ``LATE_MOVES`` random moves instead of 0-60."""
    r = _streams(seed)["state"]
    automas = int(r.integers(1, 4))
    leeghwater = bool(r.random() < 0.25)
    humans = int(r.integers(0, (5 if leeghwater else 4) - automas + 1))
    moves = int(r.integers(LATE_MOVES[0], LATE_MOVES[1] + 1)) if games == "late" else None
    return random_state(seed, automas=automas, humans=humans, leeghwater=leeghwater, moves=moves)


def wet_headstreams(state: GameState, rng: np.random.Generator) -> None:
    """Rain from the supply until each headstream tile holds a count drawn evenly from 0 to
    ``WET_MOST`` (a tile that holds more keeps its drops). A random game seldom leaves more
    than four drops on a tile (a Water Flow empties them every round), so a drop counter
    trained on games alone sees few large counts, and none past 12."""
    for letter in sorted(state.headstreams):
        more = int(rng.integers(0, WET_MOST + 1)) - state.headstreams[letter]
        if more > 0:
            apply_op(state, {"op": "drops", "source": "supply", "target": f"headstream:{letter}", "count": more})


def set_table(seed: int, options: Options = Options(),
              paint: Callable[[np.random.Generator], tuple[np.ndarray, dict]] | None = None) -> Table:
    """Stages 1-3 and the pieces' solids (stage 4 undrawn). ``paint``: another board look's
    painter (``lab.synth.printed_look``), given the board's stream: the board picture and
    its style record, in place of the sampled looks'."""
    rng = _streams(seed)
    lay = load_layout()
    state = game_state(seed, options.games)
    if options.headstreams == "wet":
        wet_headstreams(state, rng["wet"])

    board_style = board.sample_style(rng["board"])
    if options.board_look:
        board_style.look = options.board_look
    if options.saturated_spaces:     # sample_style keeps space fills at saturation <= 0.5
        board_style.space_fill = list(random_colour(rng["board"], (0.6, 0.95), (0.4, 0.9)))
    board_img = board.paint_board(board_style, rng["board"]) if paint is None else None
    board_record = board.style_record(board_style)
    if paint is not None:
        board_img, board_record = paint(rng["board"])

    # canvas: the board plus a margin where the marker sheets lie; alpha marks paper
    canvas = cv2.copyMakeBorder(board_img, MARGIN, MARGIN, MARGIN, MARGIN, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    alpha = np.zeros(canvas.shape[:2], np.uint8)
    alpha[MARGIN:MARGIN + lay.height, MARGIN:MARGIN + lay.width] = 255
    placed = draw_sheets(canvas, alpha, MARGIN, rng["markers"]) if options.markers else []

    corners = np.array([(0, 0), (lay.width, 0), (lay.width, lay.height), (0, lay.height)], np.float64)
    extent = np.vstack([corners] + ([c for c in MARKER_CORNERS.values()] if options.markers else []))
    cam, cam_record = sample_camera(rng["camera"], options.size, extent, options.placement)
    pad = 0
    if options.lens == "wide":      # its own stream: the same scene through another lens
        cam.k1 = cam_record["k1"] = float(rng["lens"].uniform(*WIDE_K))
        cam_record["lens"] = "wide"
        pad = cam.overshoot()       # the table it sees past the pinhole picture's edges

    w, h = options.size
    scene_cam = cam.padded(pad)
    scene, table_record = table(rng["table"], h + 2 * pad, w + 2 * pad)
    _board_edge(scene, scene_cam, rng["board"])
    _warp_canvas(scene, canvas, alpha, scene_cam)

    piece_style = pieces.sample_style(rng["pieces"])
    shape = shapes(options.shapes, rng["shapes"])
    solids = pieces.build_solids(state, piece_style, rng["pieces"], shape)
    lights = lighting(options.lighting, rng["lights"], piece_style.sun, (lay.width / 2, lay.height / 2),
                      math.hypot(lay.width, lay.height) / 2, options.size[0])
    surfaces = finish(options.finish, rng["finish"])
    chip = processing(options.processing, rng["processing"], options.size[0])
    records = {"placed": placed, "board": board_record, "camera": cam_record, "table": table_record,
               "shapes": shape.record()}
    return Table(seed, options, state, scene, cam, piece_style, lights, surfaces, chip, solids, records, pad)


def shoot(t: Table, solids: list[pieces.Solid] | None = None, noise: np.random.Generator | None = None,
          exposure: float | tuple[float, float, float] = 1.0, occluder: bool = True) -> Shot:
    """Stages 4-6: ``solids`` (default: the table's own) drawn on the table, the occluder, the
    light and the camera. The occluder, light and blur are the seed's every time; ``noise``
    draws the sensor noise instead of the seed's stream (another frame of the same scene),
    ``exposure`` scales the light (a camera's auto exposure between two frames; (B, G, R): each
    channel's, a light of another colour), and
    ``occluder=False`` leaves the seed's hand or object out (the light and noise stay the same)."""
    rng = _streams(t.seed)
    options = t.options
    lay = load_layout()
    scene = t.scene.copy()
    solids = t.solids if solids is None else solids
    pieces.draw_shadows(scene, t.scene_cam, solids, t.lights)
    pieces.draw_solids(scene, t.scene_cam, solids, t.piece_style, t.lights, t.finish)

    mask, drawn = None, None
    ro = rng["occluder"]
    if ro.random() < options.occlusion and occluder:
        target_slot = lay.slots[int(ro.integers(len(lay.slots)))]
        target = t.scene_cam.ideal(np.array([[*target_slot.centre, 0.0]]))[0] + ro.normal(0, 20, 2)
        scale = _px_per_unit(t.cam) * ro.uniform(110, 170)         # a palm is ~ 8.5 cm = 155 canonical px
        mask, drawn = draw_occluder(scene, (float(target[0]), float(target[1])), scale, ro)

    mode = options.photo if options.photo != "random" else ("hard" if rng["photo"].random() < 0.25 else "random")
    photo_style = photo.sample_style(rng["photo"], options.size, hard=mode == "hard")
    if mode == "clean":
        photo_style.glare, photo_style.blur, photo_style.noise = [], "none", min(photo_style.noise, 1.5)
        photo_style.gradient, photo_style.vignette, photo_style.exposure = 0.1 * photo_style.gradient, 0.0, 1.0
    def develop(picture: np.ndarray) -> np.ndarray:
        lit = photo.lighting(picture, photo_style)
        if isinstance(exposure, tuple):        # a light of another colour: each of B, G, R scaled
            return cv2.merge([cv2.convertScaleAbs(c, alpha=g) for c, g in zip(cv2.split(lit), exposure)])
        return lit if exposure == 1.0 else cv2.convertScaleAbs(lit, alpha=exposure)

    def through_lens(picture: np.ndarray) -> np.ndarray:
        return cv2.remap(picture, *t.cam.remap_grids(t.pad), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)

    # A padded scene is the wide lens's: its light falloff and glare are laid on the picture
    # the lens makes, the size of the frame (the mild lens's picture is the frame's size already).
    lit = develop(through_lens(scene)) if t.pad else through_lens(develop(scene))
    frame = t.processing.apply(photo.optics_and_sensor(lit, photo_style, rng["photo"], noise))
    if mask is not None and t.pad:
        mask = mask[t.pad:-t.pad, t.pad:-t.pad]     # the truth's occlusion is the pinhole picture's
    return Shot(frame, mask, drawn, mode, photo_style)


def _px_per_unit(cam: Camera) -> float:
    """Image pixels per canonical unit near the board centre."""
    lay = load_layout()
    c = np.array([[lay.width / 2, lay.height / 2, 0.0], [lay.width / 2 + 100, lay.height / 2, 0.0]])
    p = cam.ideal(c)
    return float(np.linalg.norm(p[1] - p[0]) / 100)


def _board_edge(scene: np.ndarray, cam: Camera, rng: np.random.Generator) -> None:
    """The board's cardboard edge and its shadow on the table (the board top covers the rest)."""
    lay = load_layout()
    thick = rng.uniform(2, 6)
    out = [(0, 0), (lay.width, 0), (lay.width, lay.height), (0, lay.height)]
    ground = cam.ideal(np.array([(x, y, thick) for x, y in out]))     # z>0: below the board top
    # the shadow is soft and wide: draw it at a quarter of the size
    h, w = scene.shape[:2]
    shadow = np.zeros((h // 4, w // 4), np.uint8)
    cv2.fillConvexPoly(shadow, np.round((ground + rng.normal(0, 4, 2)) / 4).astype(np.int32), 255, cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(0.75, 3))
    soft = cv2.resize(shadow, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32) / 255
    scene[:] = darken(scene, soft, 0.45)
    edge = tuple(int(v) for v in rng.uniform(15, 90, 3))
    cv2.fillConvexPoly(scene, np.round(ground).astype(np.int32), edge, cv2.LINE_AA)


def _warp_canvas(scene: np.ndarray, canvas: np.ndarray, alpha: np.ndarray, cam: Camera) -> None:
    """Warp the board canvas into the scene. A canvas much larger than its footprint is first
    shrunk (area-averaged) so fine textures do not alias into moire."""
    scale = _px_per_unit(cam)
    shrink = 2 ** max(0, min(2, int(math.floor(math.log2(1 / max(scale, 1e-3)) - 0.3))))
    h, w = scene.shape[:2]
    to_board = np.array([[shrink, 0, -MARGIN], [0, shrink, -MARGIN], [0, 0, 1.0]])
    H = cam.board_homography() @ to_board
    if shrink > 1:
        size = (canvas.shape[1] // shrink, canvas.shape[0] // shrink)
        canvas = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    board_px = cv2.warpPerspective(canvas, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    cover = cv2.warpPerspective(alpha, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    scene[:] = blend_layers(scene, board_px, cover.astype(np.float32) / 255)
