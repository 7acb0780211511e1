"""The camera side of the page: frames, board registration, recognition, overlays.

Frames are pulled when the page asks for them (a few times a second), not
pushed by a thread: a request reads one frame, reads the board once and
caches the result briefly, so the image and the status calls of one poll
agree and an idle page costs nothing.

Recognition needs the trained model files; without them (missing, or a file
onnxruntime cannot load) the page still shows the camera and finds the board
(registration uses markers, not the model), and says plainly that pieces cannot
be recognised and why.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from flask_babel import gettext

from automa.barrage.data import company_colours
from calibration.profiles import profile_file
from vision.barrage.reference_map import bgr
from vision.reader import Flag
from vision.barrage.board_state import MapState, build_map
from vision.capture import Capture, FileFrames, open_source
from vision.layout import Layout, ProfileFileError, load_profile
from vision.barrage.slot_model import DEFAULT_MODEL
from vision.runner import ModelFileError
from vision.barrage.pipeline import Pipeline, Reading
from vision.barrage.reference_reading import ADAPTED, EMPTY_VIEW, ReferenceError, ReferenceReader, table_reader
from vision.radial_lens import RadialLens, frame_outline
from vision.registration import Registrar
from vision.slot_change import Comparison, compare

from ..camera_health import Health, HealthWatch
from ..services import Source
from ..store import Picture, Step
from .views import COLOUR_HEX

DEMO_DIR = Path(__file__).resolve().parent / "demo_replay"
DEMO_DELAY = 4.0          # seconds the demo "players" take to carry out a turn on the table
CACHE_SECONDS = 0.3
PIECE_BGR = {name: bgr(hex_) for name, hex_ in COLOUR_HEX.items()}    # the page's colours, for OpenCV
HIGHLIGHT = bgr("#ffd400")
# how a board is found (vision.registration), "stale" and "held" at its last known place; "none": not found
FOUND = ("aruco", "features", "manual", "cached", "held", "stale")
HALO = 14              # canonical px between a highlighted slot and its ring


class DemoTable:
    """The bundled replay as a table the demo players play on: frame ``i`` is the table after
    ``i`` turns; while a turn is pending, its frame appears once the players have had time to
    carry it out."""

    def __init__(self, folder: Path = DEMO_DIR):
        index = json.loads((folder / "replay.json").read_text())
        self.frames = [cv2.imread(str(folder / e["file"]), cv2.IMREAD_COLOR) for e in index]
        self.game = json.loads((folder / "game.json").read_text())

    def frame(self, turns: int, since_last_step: float) -> np.ndarray:
        i = turns + (1 if since_last_step >= DEMO_DELAY else 0)
        return self.frames[min(i, len(self.frames) - 1)]


@dataclass
class Look:
    frame: np.ndarray | None
    reading: Reading | None          # None when recognition is unavailable
    H: np.ndarray | None             # camera -> canonical board homography (of the distortion-free frame with a lens)
    registration: str
    stable_map: MapState | None = None   # the last state the board held still in (recognition only)
    problem: str | None = None           # why there is no frame
    stable_view: StableView | None = None    # the picture of that state (vision.slot_change)
    camera_note: str | None = None       # a remark on the frames that come (too small: vision.capture)
    lens: RadialLens | None = None       # the lens distortion fitted with H (vision.radial_lens)
    stable_flags: tuple[Flag, ...] = ()  # what the page asks the players to check in that state


@dataclass(frozen=True)
class StableView:
    """The canonical view of a stable state and the camera it was seen from."""
    view: np.ndarray
    camera: np.ndarray

    def encode(self) -> tuple[bytes, list[float]]:
        """(PNG, camera) as the session store keeps them: lossless, since the next turn's
        picture is compared with this one a few grey levels at a time."""
        ok, png = cv2.imencode(".png", self.view)
        if not ok:
            raise ValueError("could not encode the picture")
        return png.tobytes(), [float(v) for v in self.camera]

    @classmethod
    def decode(cls, image: bytes, camera: list[float]) -> "StableView | None":
        """The picture ``encode`` made; None when the bytes are no picture (a damaged file)."""
        view = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_COLOR) if image else None
        if view is None or len(camera) != 3:
            return None
        return cls(view, np.asarray(camera, np.float64))


class Live:
    """One frame source, with one registrar and (when the model exists) one pipeline per profile."""

    def __init__(self, source: Source, model: Path = DEFAULT_MODEL, profiles_dir: Path | None = None):
        self.source = source
        self.model = Path(model)
        self.profiles_dir = profiles_dir
        self.demo = DemoTable() if source.kind == "demo" else None
        # a webcam's frames must differ; a webcam or a video file can stop giving any
        self.watch = HealthWatch(live_sensor=source.kind == "camera", can_drop_out=source.kind != "demo")
        self._capture: Capture | FileFrames | None = None
        self._last_frame: np.ndarray | None = None
        self._lock = threading.Lock()
        self._load_lock = threading.Lock()        # one load of a profile's models at a time
        # profile -> (its file's stamp, its pipeline or None, why there is none): a profile
        # saved again in the wizard is loaded again
        self._pipelines: dict[str | None,
                              tuple[tuple[int, ...] | None, Pipeline | ReferenceReader | None, str | None]] = {}
        self._registrars: dict[str | None, Registrar] = {}
        self._cache: tuple[float, tuple, Look] | None = None
        self._stable_views: dict[str | None, StableView] = {}
        # the kept picture (web.store.Picture) last decoded: (session, its step's seq and time), picture
        self._kept: tuple[tuple[int, int, float], StableView | None] | None = None
        self._compared_cache: tuple[tuple[int, int, float], StableView, StableView, Comparison] | None = None
        self._load_problem: str | None = None     # why the models could not be loaded, once tried (said in the page's language)

    # -- status --------------------------------------------------------------------
    @property
    def recognition_problem(self) -> str | None:
        if not self.model.exists():
            return gettext("Recognition unavailable: the model file %(file)s is missing (train it with "
                           "`automa-vision train`). Confirm moves by hand on the map.", file=self.model.name)
        self._pipeline(None)        # the models load once: a damaged file is said from the first page on
        if self._load_problem is None:
            return None
        return gettext("Recognition unavailable: %(reason)s. Confirm moves by hand on the map.", reason=self._load_problem)

    def problem(self, profile: str | None) -> str | None:
        """Why a game on ``profile`` is not read by the camera: the models', else the profile's."""
        if (problem := self.recognition_problem) is not None:
            return problem
        self._pipeline(profile)
        reason = self._pipelines[profile][2] if profile in self._pipelines else None
        if reason is None:
            return None
        return gettext("Recognition unavailable: %(reason)s. Save the profile again in the calibration wizard, "
                       "or confirm moves by hand on the map.", reason=reason)

    def profile_path(self, profile: str | None) -> Path | None:
        """``profile``'s saved file, never one outside the profiles folder (an imported game names its own)."""
        return None if self.profiles_dir is None else profile_file(self.profiles_dir, profile)

    def _stamp(self, profile: str | None) -> tuple[int, ...] | None:
        """When ``profile``'s file was last saved, and its empty board and teaching (the wizard)."""
        path = self.profile_path(profile)
        try:
            return None if path is None else tuple(
                p.stat().st_mtime_ns for p in (path, path.parent / EMPTY_VIEW, path.parent / ADAPTED) if p.exists())
        except OSError:           # removed since
            return None

    def layout(self, profile: str | None) -> Layout:
        """``profile``'s layout; the default one while its file cannot be read (``problem`` says so)."""
        try:
            return load_profile(self.profile_path(profile)).layout
        except ProfileFileError:
            return load_profile(None).layout

    # -- frames --------------------------------------------------------------------
    def frame(self, turns: int = 0, since_last_step: float = 0.0) -> np.ndarray | None:
        if self.demo is not None:
            frame = self.demo.frame(turns, since_last_step)
            self.watch.saw(frame)
            return frame
        if self._capture is None:
            self._capture = open_source(int(self.source.spec) if self.source.kind == "camera" else self.source.spec)
        frame = self._capture.read()
        if frame is None and isinstance(self._capture, FileFrames) and self._capture.done:
            self._capture = None          # a video loops, so the page never goes blank
        if frame is not None:
            self._last_frame = frame
            self.watch.saw(frame)
        return self._last_frame       # the last one while none comes: ``health`` says how old it is

    def health(self, look: Look) -> Health:
        """Whether the camera can be trusted now (``web.camera_health``): lost, frozen, or the board not found."""
        problems = getattr(self._capture, "problems", None)
        registered = look.H is not None or look.registration in FOUND
        return self.watch.health(look.frame is not None, registered, problems[-1] if problems else None)

    def look(self, profile: str | None = None, turns: int = 0, since_last_step: float = 0.0,
             companies: tuple[str, ...] | None = None, del_monte: tuple[str, ...] = ()) -> Look:
        """One frame read through the pipeline, cached briefly (the image and the status poll
        share it); ``companies``: the game's, whose pieces alone are read (rulings V4);
        ``del_monte``: those with Graziano Del Monte, whose level 3 dams hold 4 drops."""
        key = (profile, turns, since_last_step >= DEMO_DELAY, companies, del_monte)
        with self._lock:
            now = time.monotonic()
            if self._cache and self._cache[1] == key and now - self._cache[0] < CACHE_SECONDS:
                return self._cache[2]
            look = self._read(profile, self.frame(turns, since_last_step), companies, del_monte)
            self._cache = (now, key, look)
            return look

    def _read(self, profile: str | None, frame: np.ndarray | None, companies: tuple[str, ...] | None,
              del_monte: tuple[str, ...]) -> Look:
        if frame is None:
            problems = getattr(self._capture, "problems", [])
            return Look(None, None, None, "none", problem=problems[-1] if problems else "no frame from the camera yet")
        note = getattr(self._capture, "note", None)     # a file or the demo has none
        pipeline = self._pipeline(profile)
        if pipeline is not None:
            reading = pipeline.read_frame(frame, companies, del_monte)
            if reading.stable and reading.view is not None and reading.camera is not None:
                self._stable_views[profile] = StableView(reading.view, reading.camera)
            stable = pipeline.stable
            stable_map, stable_flags = build_map(stable, del_monte) if stable else (None, [])
            return Look(frame, reading, reading.homography, reading.registration, stable_map,
                        stable_view=self._stable_views.get(profile), camera_note=note, lens=reading.lens,
                        stable_flags=tuple(stable_flags))
        registrar = self._registrars.get(profile)
        if registrar is None:
            registrar = self._registrars[profile] = Registrar(self.layout(profile))
        reg = registrar.register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        return Look(frame, None, reg.H, reg.source, camera_note=note, lens=reg.lens)

    # -- what changed since the game last read the table ---------------------------------
    def compared_since(self, sid: int, step: Step, kept: Picture | None, look: Look,
                       profile: str | None) -> Comparison | None:
        """The pictures now and when ``step`` took its map from the camera compared
        (``vision.slot_change``), ``kept`` being the picture the session store holds;
        None when it holds none for ``step`` (another step since, no camera) or the two
        cannot be compared. ``profile``'s layout is read only when a comparison is made."""
        if kept is None or (kept.seq, kept.created) != (step.seq, step.created) or look.stable_view is None:
            return None
        key = (sid, kept.seq, kept.created)
        if self._kept is None or self._kept[0] != key:        # decoded once, not on every poll
            self._kept = (key, StableView.decode(kept.image, kept.camera))
        before, now = self._kept[1], look.stable_view
        if before is None or before.view.shape != now.view.shape:
            return None
        # the page polls a few times a second; a comparison (~20-40 ms) is redone only for a new state
        cached = self._compared_cache
        if cached is None or cached[0] != key or cached[1] is not before or cached[2] is not now:
            cached = self._compared_cache = (key, before, now,
                                          compare(self.layout(profile), before.view, now.view, now.camera))
        return cached[3]

    def _pipeline(self, profile: str | None) -> Pipeline | ReferenceReader | None:
        """``profile``'s pipeline, loaded on first use, reading against the profile's empty board
        where it has one (``table_reader``); None when recognition is unavailable."""
        with self._load_lock:
            if self._load_problem is not None or not self.model.exists():
                return None
            stamp = self._stamp(profile)
            if profile not in self._pipelines or self._pipelines[profile][0] != stamp:
                # Either problem is said on every page, not a failed request on each poll; the camera view goes on.
                try:
                    path = self.profile_path(profile)
                    pipeline = Pipeline.load(path, self.model)
                    self._pipelines[profile] = (stamp, table_reader(pipeline, path and path.parent), None)
                except (ProfileFileError, ReferenceError) as exc:     # this profile's alone: recognition goes on for the others
                    self._pipelines[profile] = (stamp, None, str(exc))
                except ModelFileError as exc:     # damaged, or not the model it stands for: the message names it
                    self._load_problem = str(exc)
                    return None
            return self._pipelines[profile][1]


# -- drawing -------------------------------------------------------------------------
def overlay(look: Look, layout: Layout, highlight: set[str], width: int = 960) -> np.ndarray:
    """The camera frame with the recognised pieces outlined in their owners' colours and the
    Automa's target slots highlighted; scaled to ``width`` px."""
    frame = look.frame.copy()
    if look.H is not None:
        colours = company_colours()
        readings = {r.id: r for r in look.reading.slots} if look.reading else {}
        for box in layout.slots:
            pts = frame_outline(look.H, look.lens, box.x, box.y, box.w, box.h)
            r = readings.get(box.id)
            if r is not None and r.piece not in (None, "empty") and r.owner:
                colour = PIECE_BGR.get(colours.get(r.owner, r.owner), (255, 0, 255))
                cv2.polylines(frame, pts, True, colour, 3, cv2.LINE_AA)
            if r is not None and r.unknown:
                cv2.polylines(frame, pts, True, (0, 0, 255), 1, cv2.LINE_AA)
            if box.id in highlight:      # a wide ring around the slot: seen at a glance, piece still visible
                ring = frame_outline(look.H, look.lens, box.x - HALO, box.y - HALO,
                                     box.w + 2 * HALO, box.h + 2 * HALO)
                cv2.polylines(frame, ring, True, (0, 0, 0), 12, cv2.LINE_AA)
                cv2.polylines(frame, ring, True, HIGHLIGHT, 7, cv2.LINE_AA)
    scale = width / frame.shape[1]
    return cv2.resize(frame, (width, round(frame.shape[0] * scale)), interpolation=cv2.INTER_AREA)


def placeholder(text: str, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    img = np.full((size[1], size[0], 3), 60, np.uint8)
    cv2.putText(img, text[:60], (30, size[1] // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (230, 230, 230), 2, cv2.LINE_AA)
    return img


def jpeg(img: np.ndarray, quality: int = 80) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("could not encode the image")
    return buf.tobytes()

