"""One camera frame -> one board reading: registration, crops, model, map, checks.

``Pipeline`` keeps what outlives a frame (the ONNX session, the cached
homography, the motion and stability filters); ``read_frame`` is the whole
per-frame path and reports how long each stage took.
"""
from __future__ import annotations

import time
import warnings
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Collection, Iterator, Mapping, Protocol

import cv2
import numpy as np

from ..capture import Capture, FileFrames, format_problem, frames
from ..layout import Profile, ProfileFileError, load_profile
from ..paper_white import paper_white
from ..pose import camera_position
from ..radial_lens import RadialLens
from ..reader import Flag, SlotReading
from ..rectify import CropPlan, crops_from_frame, cut_crops, plan_crops
from ..reference_features import light_map, relit
from ..registration import Calibration, FeatureReference, Registrar, Registration
from ..stability import MotionDetector, StabilityFilter
from .board_state import MapState, build_map, slot_readings
from .changes import Move, diff
from .confidence import CONFIDENCE_FILE, ConfidenceCalibration, board_chance
from .dam_heights import DEFAULT_HEIGHTS_MODEL, DamHeights
from .drop_counter import KINDS as COUNTED_KINDS
from .drop_counter import DropCounter
from .height_cues import lean_over_map
from .held_water import HeldWater
from .neutral_dams import NeutralDams
from .slot_model import (DEFAULT_MODEL, MOVED_SURE, SEEN, Surety, decode, kind_context, load_session, more_looks,
                         moved_inputs, run, second_look, to_input)
from .specialist import SPECIALIST_MODEL, SURE, Specialist


@dataclass(frozen=True)
class SlotLook:
    """The slot net's first look at a frame: the crops, what each was read beside (the
    pipeline's ``context``) and the net's outputs for them, before any later look or model
    weighs in; a reader that weighs the crops further starts from it. ``focus``: what the
    pipeline's ``closer_look`` made of it, if it has one."""
    crops: np.ndarray
    context: np.ndarray
    outputs: dict[str, np.ndarray]
    focus: "Focus | None" = None


class Focus(Protocol):
    """Which boxes of a frame the later looks and models read (``Pipeline.closer_look``)."""
    rows: np.ndarray            # (N,) bool over the layout's boxes


class CloserLook(Protocol):
    """Chooses a frame's ``Focus`` from the slot net's first look, with what it measures on the
    crops alone (``prepare``: run while the net reads them, on the other core; ``light``: the
    lines from the empty board's light to the frame's, ``Pipeline.context``)."""
    def prepare(self, crops: np.ndarray, context: np.ndarray, light: np.ndarray | None) -> object: ...
    def focus(self, look: SlotLook, prepared: object) -> Focus: ...


# One worker for the slot net's first look while a ``CloserLook`` prepares beside it: both
# release the GIL (onnxruntime, numpy, OpenCV), so on two cores the two take as long as the
# longer instead of their sum.
_BESIDE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="first-look")


@dataclass
class Reading:
    """What one frame says about the board. ``map`` is None when the board was not found."""
    map: MapState | None
    slots: list[SlotReading]
    flags: list[Flag]
    registration: str                      # aruco | features | manual | cached | held | stale | none
    homography: np.ndarray | None
    timings: dict[str, float]              # ms per stage, and "total"
    motion: float = float("inf")           # change since the previous frame (grey levels)
    stable: bool = False                   # this frame completed a new stable state, which it reports
    view: np.ndarray | None = field(default=None, repr=False)     # the normalised canonical view (vision.slot_change)
    camera: np.ndarray | None = None       # (x, y, height) in canonical px (vision.pose)
    lens: RadialLens | None = None         # the distortion ``homography`` is taken after (vision.radial_lens)
    look: SlotLook | None = field(default=None, repr=False)       # the slot net's first look at this frame

    @property
    def low_confidence(self) -> list[str]:
        return [f.slot for f in self.flags if f.problem.startswith("low confidence")]

    @property
    def board_chance(self) -> float | None:
        """The chance that every visible slot is read right (``vision.barrage.confidence.board_chance``);
        None when the board was not found."""
        return board_chance(self.slots) if self.map is not None else None

    def to_dict(self) -> dict:
        return {"map": self.map.to_dict() if self.map else None,
                "slots": [asdict(s) for s in self.slots],
                "flags": [asdict(f) for f in self.flags],
                "board_chance": None if (chance := self.board_chance) is None else round(chance, 4),
                "registration": self.registration,
                "homography": None if self.homography is None else self.homography.tolist(),
                # the homography's frame is the distortion-free one when a lens was fitted
                "lens_kappa": None if self.lens is None else round(self.lens.kappa, 4),
                "timings": {k: round(v, 2) for k, v in self.timings.items()},
                "motion": None if self.motion == float("inf") else round(self.motion, 2),
                "stable": self.stable}


@dataclass
class Pipeline:
    profile: Profile
    session: object
    registrar: Registrar
    lens: Calibration | None = None             # the profile's saved lens calibration, if any
    undistort: Callable[[np.ndarray], np.ndarray] | None = None     # built from it for the first frame's size
    neutral: NeutralDams | None = None          # where the map's neutral dams can stand
    water: HeldWater | None = None              # which lake holds each dam's drops
    heights: DamHeights | None = None           # reads the standing dams' heights together
    counters: tuple[DropCounter, ...] = ()      # count drops of headstreams and lakes at the boxes' size
    specialist: Specialist | None = None        # a second opinion where the slot model is unsure
    confidence: ConfidenceCalibration | None = None     # each reading's share -> its chance of being right
    motion: MotionDetector = field(default_factory=MotionDetector)
    stability: StabilityFilter = field(default_factory=StabilityFilter)
    # A stable state is read from its still frames, each also read once more, from its crops
    # mirrored left to right (both nets were trained on mirrored crops too), when the spell
    # completes: each slot is judged from two pictures of it (docs/benchmarks.md, Stability).
    # Crops moved or grown by a view px were read before; mirroring reads better for less.
    read_mirrored: bool = True
    # Boxes the slot model reads with less than this chance for their likeliest reading are
    # read once more, mirrored, on every frame (``vision.barrage.slot_model.second_look``); None: never.
    # The specialist's threshold; the figures are in docs/benchmarks.md, "A second look".
    second_look: float | None = SURE
    # Of those, the boxes read with less than this are also read from their crops cut a view
    # px off each way (``vision.barrage.slot_model.moved_inputs``): four looks a box, for a quarter of the
    # slot model's batch time; None: never. Chosen on the tuning group (docs/benchmarks.md,
    # "Unsure boxes read from moved crops too").
    moved_look: float | None = MOVED_SURE
    # Read blind (the companies not given), a company counts as in the game when some visible
    # piece reads as its with at least this share (``vision.barrage.slot_model.companies_seen``, rulings V10);
    # None: every colour stays possible.
    seen: float | None = SEEN
    # The empty board's normalised view (``vision.barrage.reference_reading``, set by the reader
    # that reads against it): each crop is read beside the same box of it, in the frame's light,
    # instead of beside its kind's median crop. None: the kind's median.
    reference: np.ndarray | None = field(default=None, repr=False)
    # Chooses, from the slot net's first look and its own measures of the crops, the boxes the
    # later looks and models read (the second and moved looks, the specialist, the drop
    # counters, the heights): a reader that judges the other boxes itself spares their cost
    # (``vision.barrage.reference_reading``: the boxes the empty board's picture says are
    # unchanged read empty whatever the nets say). None: every box.
    closer_look: CloserLook | None = field(default=None, repr=False)
    surety: Surety = field(init=False, repr=False)      # over every box of the layout
    _reference_crops: tuple = field(default=(None, b"", None), init=False, repr=False)     # (view, rects, crops)

    def __post_init__(self) -> None:
        kinds = tuple(self.profile.layout.kinds)
        self.surety = Surety(np.arange(len(kinds)), kinds)

    @classmethod
    def load(cls, profile: str | Path | None = None, model: str | Path = DEFAULT_MODEL,
             heights: str | Path | None = DEFAULT_HEIGHTS_MODEL,
             counters: Mapping[str, str | Path | None] | None = None,
             specialist: str | Path | None = SPECIALIST_MODEL, fit_lens: bool = True,
             confidence: str | Path | None = CONFIDENCE_FILE) -> "Pipeline":
        """``heights``: the dam-height model, or None to read heights with the slot model alone;
        ``counters``: a drop counter for each kind of ``vision.barrage.drop_counter.KINDS`` (its shipped
        file where not given), or None for a kind to count its drops with the slot model alone
        (as it does, with a warning, when a file is missing: recognition goes on);
        ``specialist``: the specialist slot model (``vision.barrage.specialist``), or None for none;
        ``fit_lens``: fit the lens's distortion from the markers (``vision.radial_lens``), as
        is done unless the profile has a lens calibration; ``confidence``: the calibration of
        the readings' confidences (``vision.barrage.confidence``), or None for the decoder's shares."""
        heights = _present(heights, "dam-height", "dam heights are read by the slot model alone")
        specialist = _present(specialist, "specialist", "every box is read by the slot model alone")
        confidence = _present(confidence, "confidence calibration", "confidences are the decoder's shares")
        paths = {kind: _present(path, f"{kind} drop", f"{kind} drops are counted by the slot model alone")
                 for kind, path in ({kind: counted.model for kind, counted in COUNTED_KINDS.items()}
                                    | dict(counters or {})).items()}
        prof = load_profile(profile)
        geometry = {i: np.asarray(c, np.float32) for i, c in prof.markers.items()} if prof.markers else None
        lens = _profile_file(prof.calibration, "lens calibration", Calibration.load)
        image = _profile_file(prof.reference_image, "reference image", cv2.imread)
        reference = None if image is None else FeatureReference.from_image(image, prof.layout)
        neutral = NeutralDams.from_map(prof.layout)
        registrar = Registrar(prof.layout, geometry, reference, fit_lens=fit_lens and lens is None, clicked=prof.clicked)
        return cls(prof, load_session(model), registrar, lens=lens,
                   neutral=neutral, water=HeldWater.from_layout(prof.layout),
                   heights=None if heights is None else DamHeights.load(prof.layout, neutral.heights(), heights),
                   counters=tuple(DropCounter.load(prof.layout, kind, path) for kind, path in paths.items()
                                  if path is not None),
                   specialist=None if specialist is None else Specialist.load(prof.layout, specialist),
                   confidence=None if confidence is None else ConfidenceCalibration.load(confidence))

    @property
    def stable(self) -> list[SlotReading] | None:
        """The last stable state's readings (``StabilityFilter``); None before the first."""
        return self.stability.stable

    @property
    def camera_matrix(self) -> np.ndarray | None:
        """K of the saved lens calibration, if any."""
        return None if self.lens is None else self.lens.K

    def _undistort(self, frame: np.ndarray) -> np.ndarray:
        if self.lens is None:
            return frame
        if self.undistort is None:
            h, w = frame.shape[:2]
            self.undistort = self.lens.undistorter((w, h))
        return self.undistort(frame)

    def register(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, Registration]:
        """Where the board is in ``frame`` (``read_frame``'s first stage): the frame with the
        saved lens's distortion taken out, its grey picture, and their registration, which the
        registrar keeps for the frames after (``register_cold`` times it alone). ValueError for
        a frame that is not 8-bit BGR."""
        if (problem := format_problem(frame)) is not None:
            raise ValueError(f"cannot read this frame: {problem}")
        frame = self._undistort(frame)
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return frame, gray, self.registrar.register(gray)

    def register_cold(self, frame: np.ndarray) -> float:
        """Register ``frame`` afresh, the cached registration dropped first, and return how many
        ms that took; the registration is kept for the frames after (``eval``'s and ``bench``'s
        cold registration, timed without reading the frame)."""
        self.registrar.reset()
        t0 = time.perf_counter()
        self.register(frame)
        return _since(t0)

    def read_frame(self, frame: np.ndarray, companies: Collection[str] | None = None,
                   del_monte: Collection[str] = ()) -> Reading:
        """``frame``: an 8-bit BGR picture, as OpenCV reads and captures them (ValueError
        otherwise: ``cv2.cvtColor`` converts a grey or BGRA one). ``companies``: the companies
        in the game, when known (a session knows them): a piece is then read as one of theirs
        or neutral (rulings V4); ``del_monte``: those with Graziano Del Monte, whose level 3
        dams hold 4 drops (rulings V14)."""
        t: dict[str, float] = {}
        t0 = time.perf_counter()
        frame, gray, reg = self.register(frame)
        t["registration"] = _since(t0)
        if reg.H is None:
            problem = "board not found (no markers, no feature match)"
            clicked = self.registrar.clicked
            if clicked is not None and not clicked.fits(gray.shape):
                width, height = clicked.frame
                problem = (f"board not found (no markers, no feature match; the corners clicked at calibration fit "
                           f"{width}x{height} frames, not {gray.shape[1]}x{gray.shape[0]}: calibrate on this camera's picture)")
            if self.registrar.mirrored(gray):
                problem = "board not found: the picture is mirrored; turn off the camera's mirror setting"
            t["total"] = _since(t0)
            return Reading(None, [], [Flag("board", problem)], reg.source, None, t)
        t1 = time.perf_counter()
        camera = camera_position(reg.H, frame.shape, self.camera_matrix)
        plan = plan_crops(self.profile.layout, camera)
        view, crops = crops_from_frame(frame, reg.H, self.profile.layout, plan=plan,
                                       paper=paper_white(frame, reg.corners), lens=reg.lens)
        t["rectify"] = _since(t1)
        t1 = time.perf_counter()
        context, light = self.context(crops, plan)
        if self.closer_look is None:
            inputs, first = self._first_look(crops, context)
            look = SlotLook(crops, context, first)
        else:
            reading = _BESIDE.submit(self._first_look, crops, context)
            prepared = self.closer_look.prepare(crops, context, light)
            inputs, first = reading.result()
            look = SlotLook(crops, context, first)
            look = replace(look, focus=self.closer_look.focus(look, prepared))
        rows = None if look.focus is None else look.focus.rows
        raw = self._later_looks(first, inputs, view, camera, plan, rows)
        t["model"] = _since(t1)
        t1 = time.perf_counter()
        lean = {} if self.confidence is None else lean_over_map(reg.H, frame.shape, self.profile.layout, camera=camera)

        def read(outputs: dict[str, np.ndarray], plain: dict[str, np.ndarray] | None = None) -> list[SlotReading]:
            slots = slot_readings(self.profile.layout, decode(outputs, self.profile.layout.kinds, self.neutral,
                                                              self.water, companies, self.seen, plain,
                                                              del_monte))
            return slots if self.confidence is None else self.confidence.apply(slots, lean)

        def mirrored() -> list[dict[str, np.ndarray]]:
            flipped, again = self._first_look(crops, context, mirrored=True)
            return [self._later_looks(again, flipped, view, camera, plan, rows, mirrored=True)]

        motion = self.motion.score(view)
        single = read(raw)
        settled = self.stability.update(motion, raw, single, read, mirrored if self.read_mirrored else None)
        # The frame that completes a stable state reports that state (read from the still
        # spell's frames together); any other frame reports itself.
        slots = settled if settled is not None else single
        board, flags = build_map(slots, del_monte)
        if reg.source == "stale":
            flags.insert(0, Flag("board", "markers hidden: using the last known board position"))
        elif reg.source == "manual":
            flags.insert(0, Flag("board", "placed by the corners clicked at calibration (no markers or features "
                                          "found): calibrate again if the camera has moved"))
        t["decode"] = _since(t1)
        t["total"] = _since(t0)
        return Reading(board, slots, flags, reg.source, reg.H, t, motion, settled is not None, view, camera, reg.lens,
                       look)

    def context(self, crops: np.ndarray, plan: CropPlan) -> tuple[np.ndarray, np.ndarray | None]:
        """What each crop is read beside: the same box of the empty board's view in the frame's
        light where the pipeline has one (``reference``), else its kind's median crop; and the
        lines from the empty board's light to the frame's (``vision.reference_features.light_map``;
        None without an empty board)."""
        if self.reference is None:
            return kind_context(crops, self.profile.layout.kinds), None
        # the same boxes while the registration holds: cut once
        view, rects, cut = self._reference_crops
        if view is not self.reference or rects != plan.rects.tobytes():
            cut = cut_crops(self.reference, plan)
            self._reference_crops = (self.reference, plan.rects.tobytes(), cut)
        light = light_map(crops, cut)
        return relit(cut, light), light

    def _first_look(self, crops: np.ndarray, context: np.ndarray,
                    mirrored: bool = False) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """The slot net's input for a frame's crops, each beside its ``context`` and mirrored
        or not, and the net's outputs for it."""
        if mirrored:
            crops, context = (np.ascontiguousarray(x[:, :, ::-1]) for x in (crops, context))
        inputs = to_input(crops, context)
        return inputs, run(self.session, inputs)

    def _later_looks(self, first: dict[str, np.ndarray], inputs: np.ndarray, view: np.ndarray, camera: np.ndarray,
                     plan: CropPlan, rows: np.ndarray | None = None, mirrored: bool = False) -> dict[str, np.ndarray]:
        """The slot net's ``first`` look at a frame's net ``inputs`` (crops cut by ``plan``) with
        the later looks and models weighed in: the second and moved looks where it is unsure,
        the specialist, the drop counters and the heights, each only on the boxes ``rows``
        (None: on any)."""
        raw = first
        if self.second_look is not None:
            sure = self.surety(raw)
            focus = np.ones(len(sure), bool) if rows is None else rows
            raw = second_look(self.session, inputs, raw, np.flatnonzero(focus & (sure < self.second_look)))
            if self.moved_look is not None:
                moved = np.flatnonzero(focus & (sure < min(self.moved_look, self.second_look)))
                # after the second look, those rows' logits are the mean of two looks already
                raw = more_looks(self.session, raw, moved, moved_inputs(view, plan.rects, inputs, moved, mirrored), before=2)
        if self.specialist is not None:
            raw = self.specialist.refine(raw, inputs, rows)
        for counter in self.counters:
            raw = counter.refine(raw, view, plan, mirrored, rows)
        return raw if self.heights is None else self.heights.refine(raw, view, camera, mirrored, rows)

    def watch(self, source: Capture | FileFrames) -> Iterator[tuple[Reading, list[Move]]]:
        """Each new stable state with the moves since the previous one."""
        last: MapState | None = None
        for frame in frames(source):
            reading = self.read_frame(frame)
            if reading.stable and reading.map is not None:
                moves = diff(last, reading.map) if last is not None else []
                last = reading.map
                yield reading, moves


_DEFAULT: Pipeline | None = None


def read_frame(frame: np.ndarray, pipeline: Pipeline | None = None) -> Reading:
    """Read one frame with ``pipeline`` (default: the shipped model and layout, loaded once)."""
    global _DEFAULT
    if pipeline is None:
        _DEFAULT = _DEFAULT or Pipeline.load()
        pipeline = _DEFAULT
    return pipeline.read_frame(frame)


def _present(path: str | Path | None, model: str, instead: str) -> str | Path | None:
    """``path`` where its file is there; None, with a warning saying what is done ``instead``,
    where it is not (recognition goes on without that model)."""
    if path is not None and not Path(path).exists():
        warnings.warn(f"no {model} model at {path}: {instead}")
        return None
    return path


def _profile_file(path: str | None, what: str, read: Callable[[str], object]):
    """What ``read`` makes of a file the profile names; ProfileFileError, naming it, when it
    is missing or damaged (said when the profile is loaded, not on the first frame)."""
    if path is None:
        return None
    try:
        value = read(path)
    # np.load of a damaged .npz: a bad zip, a pickle it refuses, or a missing array
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise ProfileFileError(f"the profile's {what} {path} cannot be read ({type(exc).__name__}: {exc})") from exc
    if value is None:          # cv2.imread's answer for a missing or damaged picture
        raise ProfileFileError(f"the profile's {what} {path} cannot be read")
    return value


def _since(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0
