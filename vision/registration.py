"""Homography from a camera frame to the canonical board frame.

Three ways in, best first: ArUco markers at the board corners (subpixel corners;
blurred ones recognised as pictures; in a frame smeared by camera shake, looked for
again once the smear is taken out), feature matching against a reference picture of
the board, and, where neither has found it since the camera started, the four corners
clicked in the calibration wizard (for frames of that picture's size: the camera must not
have moved since, which nothing can check, so the reading says so). ``Registrar`` remembers the last
homography and reuses it while the board has not moved, which it checks cheaply by
comparing the pixels around the markers (or a thumbnail of the whole frame when the
board was registered without markers). With all four markers seen it also fits the lens's
radial distortion from their corners (``vision.radial_lens``): where the markers call for one,
the homography is that of the distortion-free frame and the view is warped through the lens.
Registered by features while the markers are hidden, the frame goes through the lens its
markers gave earlier.

A hand over the markers makes the board look moved, but mostly it has not: where the markers
still seen lie where they did, or (none seen) where the features put the board where it was,
the last position is *held* (source ``held``), not replaced by a rougher one; a marker found
elsewhere while more of the others lie where they did is taken for a misreading. A features
registration is ~5 canonical px off the markers' (median) and far more in a soft frame; held,
the board stays where the markers put it, and the pictures of two turns stay comparable
(``vision.slot_change``). Held or stale, the frame's own pixels are watched from then on, so
that a hand resting over the markers costs one search, not one per frame.
"""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from . import marker_search, radial_lens
from .layout import ClickedCorners, Layout
from .motion_blur import deblur, frame_smears
from .radial_lens import RadialLens

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_SIZE = 80.0    # canonical px (~45 mm on the real board)
MARKER_GAP = 12.0     # canonical px between the board edge and a marker
MIN_MARKERS = 3
MAX_RESIDUAL = 30.0  # canonical px: a corner further off means a misread marker
LENS_FITS = 9        # the lens is the median of this many latest fits
MIN_MATCHES = 25     # feature matches (MAGSAC++ inliers) that register a frame by its reference picture
HELD_PX = 3.0        # frame px: a marker found again this close to where it was has not moved
# canonical px: a features registration this close to the last one all over the board puts
# the board where it was (a still board's: 2.6-5 median, p90 5-44, against 26+ for a camera
# moved by 10 frame px and 1 degree; docs/benchmarks.md)
AGREE_PX = 20.0


def default_markers(width: float, height: float, size: float = MARKER_SIZE,
                    gap: float = MARKER_GAP) -> dict[int, np.ndarray]:
    """Canonical corners (TL, TR, BR, BL as ArUco orders them) of markers 0-3 just outside
    the board's top-left, top-right, bottom-right and bottom-left corners."""
    origins = {0: (-gap - size, -gap - size), 1: (width + gap, -gap - size),
               2: (width + gap, height + gap), 3: (-gap - size, height + gap)}
    return {i: np.array([[x, y], [x + size, y], [x + size, y + size], [x, y + size]], np.float32)
            for i, (x, y) in origins.items()}


@dataclass(frozen=True)
class Calibration:
    """Lens model from ``cv2.calibrateCamera``; undistortion maps are built per frame size."""
    K: np.ndarray
    dist: np.ndarray

    @classmethod
    def load(cls, path: str | Path) -> "Calibration":
        with np.load(path) as data:
            K, dist = np.asarray(data["K"], np.float64), np.asarray(data["dist"], np.float64).ravel()
        if K.shape != (3, 3) or dist.size not in (4, 5, 8, 12, 14):     # the lens models OpenCV knows
            raise ValueError(f"not a lens calibration: K is {K.shape}, dist has {dist.size} values")
        return cls(K, dist)

    def undistorter(self, size: tuple[int, int]):
        """A function that undistorts frames of ``size`` (w, h): the maps are built once."""
        m1, m2 = cv2.initUndistortRectifyMap(self.K, self.dist, None, self.K, size, cv2.CV_16SC2)
        return lambda frame: cv2.remap(frame, m1, m2, cv2.INTER_LINEAR)


def make_detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), params)


@functools.cache
def process_detector() -> cv2.aruco.ArucoDetector:
    """One detector per process, made on first use: for work spread over processes."""
    return make_detector()


def _detect(gray: np.ndarray, detector: cv2.aruco.ArucoDetector, wanted: set[int],
            enlarge: bool = False) -> tuple[dict[int, np.ndarray], list[np.ndarray]]:
    """Decoded markers and the rejected candidate quads, in frame px. ``enlarge`` looks at
    the frame enlarged 2x and unsharp-masked (recovers some out-of-focus markers)."""
    scale = 2.0 if enlarge else 1.0
    if enlarge:
        big = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        gray = cv2.addWeighted(big, 2.0, cv2.GaussianBlur(big, (0, 0), 3), -1.0, 0)
    corners, ids, rejected = detector.detectMarkers(gray)
    decoded = {} if ids is None else {int(i): c.reshape(4, 2) / scale
                                      for c, i in zip(corners, ids.ravel()) if int(i) in wanted}
    return decoded, [r.reshape(4, 2) / scale for r in rejected]


def detect_markers(gray: np.ndarray, detector: cv2.aruco.ArucoDetector,
                   wanted: set[int]) -> dict[int, np.ndarray]:
    return _detect(gray, detector, wanted)[0]


def decode_markers(gray: np.ndarray, detector: cv2.aruco.ArucoDetector,
                   wanted: set[int]) -> tuple[dict[int, np.ndarray], list[np.ndarray]]:
    """Markers ArUco can decode, looking again at the frame enlarged and sharpened when the
    plain pass finds too few; and every rejected candidate quad of the passes made."""
    found, rejected = _detect(gray, detector, wanted)
    if len(found) >= MIN_MARKERS:
        return found, rejected
    again, rejected_again = _detect(gray, detector, wanted, enlarge=True)
    return (again if len(again) > len(found) else found), rejected + rejected_again


def locate_markers(gray: np.ndarray, detector: cv2.aruco.ArucoDetector,
                   geometry: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Every marker that can be found, each placed by aligning its whole picture. When
    ArUco decodes too few, blurred markers are recognised as pictures among the rejected
    candidates and kept if they fit the layout; with two, the others are searched for
    where the layout puts them (``vision.marker_search``). When that still finds too few
    in a frame smeared by camera shake, the same look is taken again at the frame with the
    smear taken out, and with the smears of the cepstrum's deepest dips where they differ from
    it (``vision.motion_blur``)."""
    found = _look(gray, detector, geometry)
    for smear in frame_smears(gray) if len(found) < MIN_MARKERS else ():
        again = _look(deblur(gray, smear), detector, geometry)
        found = again if len(again) > len(found) else found
        if len(found) >= MIN_MARKERS:
            break
    return found


def place_markers(gray: np.ndarray, decoded: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Decoded markers, each placed by aligning its whole picture with the frame: ArUco's
    corners alone are a pixel or so off in a soft frame (``marker_search.refine``)."""
    return {i: marker_search.refine(gray, i, c, ARUCO_DICT) for i, c in decoded.items()}


def _look(gray: np.ndarray, detector: cv2.aruco.ArucoDetector,
          geometry: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """``locate_markers`` on one picture of the frame."""
    decoded, rejected = decode_markers(gray, detector, set(geometry))
    found = place_markers(gray, decoded)
    if len(found) >= MIN_MARKERS:
        return found
    soft = marker_search.candidates(gray, rejected, ARUCO_DICT, set(geometry) - set(found), set(geometry))

    def fit(chosen: dict[int, np.ndarray]) -> np.ndarray | None:
        return homography_from_markers(chosen, geometry)

    chosen = marker_search.consistent_set(found, soft, geometry, fit, MIN_MARKERS)
    if len(chosen) >= MIN_MARKERS:
        return chosen
    return marker_search.complete_pairs(gray, found, soft, geometry, fit, MIN_MARKERS, ARUCO_DICT)


def homography_from_markers(found: dict[int, np.ndarray], geometry: dict[int, np.ndarray],
                            lens: RadialLens | None = None) -> np.ndarray | None:
    """Needs three markers: two (adjacent, blurred) leave the far side of the board so
    loosely tied that synthetic frames read up to 200 px off. With a ``lens``, the homography
    of the distortion-free frame."""
    ids = sorted(set(found) & set(geometry))
    if len(ids) < MIN_MARKERS:
        return None
    src = np.concatenate([found[i] for i in ids])
    src = src if lens is None else lens.undistort(src).astype(np.float32)
    dst = np.concatenate([geometry[i] for i in ids])
    # Least squares over all corners, not RANSAC: blurred corners are off by several px,
    # and RANSAC then fits one marker's four corners exactly and calls the rest outliers.
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        return None
    residual = np.linalg.norm(cv2.perspectiveTransform(src.reshape(-1, 1, 2), H).reshape(-1, 2) - dst, axis=1)
    return H if residual.max() < MAX_RESIDUAL else None


def homography_from_corners(points: list[tuple[float, float]] | np.ndarray, layout: Layout) -> np.ndarray:
    """Last resort: four clicked board corners, in order top-left, top-right, bottom-right, bottom-left."""
    src = np.asarray(points, np.float32).reshape(4, 2)
    dst = np.array([[0, 0], [layout.width, 0], [layout.width, layout.height], [0, layout.height]], np.float32)
    return cv2.getPerspectiveTransform(src, dst)


@dataclass
class FeatureReference:
    """ORB features of a canonical-frame picture of the board (computed once), and of the
    picture at half its size (``coarse``), tried where these find nothing: ORB's pyramid
    spans 3.6 times in scale, and a 640x480 webcam shows the board about 4 times smaller
    than the picture (docs/benchmarks.md, "A reference at half size")."""
    keypoints: np.ndarray
    descriptors: np.ndarray
    orb: cv2.ORB
    scale: float          # reference px -> canonical px
    coarse: "FeatureReference | None" = None

    @classmethod
    def from_image(cls, image: np.ndarray, layout: Layout, features: int = 3000,
                   coarse: bool = True) -> "FeatureReference":
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        orb = cv2.ORB_create(features)
        kps, desc = _features(orb, gray)
        half = None
        if coarse and min(gray.shape[:2]) >= 4:
            half = cls.from_image(cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA),
                                  layout, features, coarse=False)
        return cls(np.array([k.pt for k in kps], np.float32).reshape(-1, 2), desc, orb, layout.width / gray.shape[1], half)

    def homography(self, gray: np.ndarray, min_inliers: int = MIN_MATCHES,
                   lens: RadialLens | None = None) -> np.ndarray | None:
        """Frame -> canonical board from the frame's features matched to the reference's (or,
        where they find nothing, to the half-size picture's); with a ``lens``, of the
        distortion-free frame (the frame's points are undistorted first)."""
        if len(self.keypoints) < min_inliers:         # a featureless picture (a soft focus, a blank board)
            return None
        kps, desc = _features(self.orb, gray)
        if desc is None or len(kps) < min_inliers:
            return None
        H = self._match(kps, desc, min_inliers, lens)
        if H is None and self.coarse is not None:
            H = self.coarse._match(kps, desc, min_inliers, lens)
        return H

    def _match(self, kps: tuple, desc: np.ndarray, min_inliers: int, lens: RadialLens | None) -> np.ndarray | None:
        """The frame's features (``kps``, ``desc``) matched to this picture's."""
        if len(self.keypoints) < min_inliers:
            return None
        pairs = cv2.BFMatcher(cv2.NORM_HAMMING).knnMatch(desc, self.descriptors, k=2)
        good = [m for m, *rest in pairs if rest and m.distance < 0.8 * rest[0].distance]
        if len(good) < min_inliers:
            return None
        src = np.float32([kps[m.queryIdx].pt for m in good])
        if lens is not None:
            src = lens.undistort(src).astype(np.float32)
        dst = self.keypoints[[m.trainIdx for m in good]] * self.scale
        # MAGSAC++ weighs each match by its residual instead of counting those under one
        # threshold: with the markers hidden, boards found 0.4-3 canonical px closer (median) than
        # by RANSAC, for no more time (docs/benchmarks.md, "Features found with MAGSAC++").
        H, inliers = cv2.findHomography(src, dst, cv2.USAC_MAGSAC, 4.0)
        if H is None or int(inliers.sum()) < min_inliers:
            return None
        return H


def _features(orb: cv2.ORB, gray: np.ndarray) -> tuple[tuple, np.ndarray | None]:
    """ORB's keypoints and descriptors; none in a picture a pixel thin (ORB's pyramid fails on it)."""
    if min(gray.shape[:2]) < 2:
        return (), None
    return orb.detectAndCompute(gray, None)


@dataclass
class Registration:
    H: np.ndarray | None  # frame -> canonical board; of the distortion-free frame when there is a lens
    source: str           # aruco | features | manual | cached | held | stale | none
    ms: float
    corners: dict[int, np.ndarray] = field(default_factory=dict)   # frame corners of the markers seen, by id
    lens: RadialLens | None = None      # the lens distortion fitted from the markers, if any

    @property
    def markers(self) -> int:
        return len(self.corners)


@dataclass
class Registrar:
    """Frame -> canonical homography, re-registering only when the board has moved."""
    layout: Layout
    geometry: dict[int, np.ndarray] | None = None
    reference: FeatureReference | None = None
    moved_threshold: float = 6.0        # mean grey-level change that means "moved"
    # Fit the lens's distortion from the markers (``vision.radial_lens``); off where the
    # frames are undistorted already, by a saved lens calibration.
    fit_lens: bool = True
    # The last resort: the board's four corners clicked in the calibration wizard, used only
    # for frames of the wizard picture's size while no marker or feature has found the board.
    clicked: ClickedCorners | None = None
    detector: cv2.aruco.ArucoDetector = field(default_factory=make_detector)
    _H: np.ndarray | None = None
    _lens: RadialLens | None = None
    _kappas: list[float] = field(default_factory=list)     # the fits so far: one camera, one lens
    _lens_size: tuple[int, int] | None = None               # the frame size they were fitted on
    _source: str = "none"
    _corners: dict[int, np.ndarray] = field(default_factory=dict)      # the markers the position was found by
    _seen: dict[int, np.ndarray] = field(default_factory=dict)         # the markers seen in the watched frame
    _watch: list[tuple[slice, slice]] = field(default_factory=list)
    _patches: list[np.ndarray] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.geometry is None:
            self.geometry = default_markers(self.layout.width, self.layout.height)

    def reset(self) -> None:
        """Forget the board's position and the lens: the next frame may be another camera's."""
        self._H, self._source, self._corners, self._seen, self._watch, self._patches = None, "none", {}, {}, [], []
        self._lens, self._kappas = None, []

    def mirrored(self, gray: np.ndarray) -> bool:
        """Whether the board's markers are found in the frame's mirror image: a camera (or a
        phone app) set to mirror its picture. Markers are not symmetric, so mirrored they are
        no markers at all (``marker_search.mirror_scores`` keeps them from passing for
        others), and the board is never found. The same search as ``register``, blurred
        markers included, on the flipped frame."""
        flipped = cv2.flip(gray, 1)
        return homography_from_markers(locate_markers(flipped, self.detector, self.geometry), self.geometry) is not None

    def register(self, gray: np.ndarray) -> Registration:
        t0 = time.perf_counter()
        if self._H is not None and not self._moved(gray):
            # a frame like the last stale one is still stale: its markers are still hidden; one
            # like the last placed by the clicked corners is still placed by nothing else
            return Registration(self._H, self._source if self._source in ("stale", "manual") else "cached", _ms(t0),
                                self._seen, self._lens)
        found = locate_markers(gray, self.detector, self.geometry)
        still = self._still(found)
        if still:
            # Most markers lie where they did, so the board has not moved: a marker found
            # elsewhere is a misreading (a look-alike found where a hidden one was searched for).
            found = {i: c for i, c in found.items() if i in still or i not in self._corners}
        lens = self._lens_from(found, gray.shape)
        H = homography_from_markers(found, self.geometry, lens)
        source = "aruco"
        if H is None and still:
            return self._keep(gray, found, t0, "held")
        if H is None and self.reference is not None:
            # the camera's lens, fitted while its markers showed, bends the features too
            H, source = self.reference.homography(gray, lens=lens), "features"
            if H is not None and self._H is not None and self._agrees(H, lens):
                return self._keep(gray, found, t0, "held")
        if H is None and self._H is None and self.clicked is not None and self.clicked.fits(gray.shape):
            # Nothing found it, and it was never found since: where the wizard's corners put it.
            H, source, lens = np.asarray(self.clicked.homography, np.float64), "manual", None
        if H is None and self._H is None:
            return Registration(None, "none", _ms(t0), found, None)
        if H is None:
            # Markers hidden (a hand?): keep the last answer but say it is stale.
            return self._keep(gray, found, t0, "stale")
        self._H, self._source, self._corners, self._seen, self._lens = H, source, found, found, lens
        self._remember(gray, list(found.values()) if source == "aruco" else [])
        return Registration(H, source, _ms(t0), found, lens)

    def _lens_from(self, found: dict[int, np.ndarray], shape: tuple[int, ...]) -> RadialLens | None:
        """The lens of this camera: the median of its fits from the latest registrations with
        all four markers (the lens does not change; one fit can be a blurred marker's); None
        before the first, and where the median is no distortion (``radial_lens.fit``)."""
        if not self.fit_lens:
            return None
        ids = sorted(set(found) & set(self.geometry))
        size = (shape[1], shape[0])
        if self._kappas and self._lens_size != size:     # frames of another size: another camera
            self._kappas = []
        self._lens_size = size
        lens = radial_lens.fit(np.concatenate([found[i] for i in ids]), np.concatenate([self.geometry[i] for i in ids]),
                               size) if ids else None
        if lens is not None:
            self._kappas = (self._kappas + [lens.kappa])[-LENS_FITS:]
        kappa = float(np.median(self._kappas)) if self._kappas else 0.0
        return RadialLens(size, kappa) if kappa != 0.0 else None

    # -- whether a board whose markers are hidden has moved --------------------------------
    def _keep(self, gray: np.ndarray, found: dict[int, np.ndarray], t0: float, source: str) -> Registration:
        """The last position stands, ``held`` (the board has not moved) or ``stale`` (nothing
        tells). The watched pixels are taken anew from this frame, hand and all, so that the
        frames after it, while the hand stays, are not searched again (a search for hidden
        markers takes 100-400 ms): cached after a held frame, stale after a stale one."""
        self._remember(gray, list(self._corners.values()))
        self._source, self._seen = source, found
        return Registration(self._H, source, _ms(t0), found, self._lens)

    def _still(self, found: dict[int, np.ndarray]) -> set[int]:
        """The markers of ``found`` that lie where the last registration found them, when they
        outnumber those found elsewhere; else none (a camera turned about one marker moves
        the others)."""
        if self._H is None:
            return set()
        again = set(found) & set(self._corners)
        still = {i for i in again if float(np.linalg.norm(found[i] - self._corners[i], axis=1).mean()) < HELD_PX}
        return still if len(still) > len(again - still) else set()

    def _agrees(self, H: np.ndarray, lens: RadialLens | None) -> bool:
        """``H`` (with ``lens``) puts every point of the board within ``AGREE_PX`` of where
        the last registration does."""
        gx, gy = np.meshgrid(np.linspace(0, self.layout.width, 3), np.linspace(0, self.layout.height, 3))
        grid = np.stack([gx.ravel(), gy.ravel()], 1)
        moved = radial_lens.to_board(H, lens, radial_lens.to_frame(self._H, self._lens, grid)) - grid
        return float(np.hypot(*moved.T).max()) < AGREE_PX

    # -- the cheap "has the board moved?" check ------------------------------------------
    def _remember(self, gray: np.ndarray, marker_corners: list[np.ndarray]) -> None:
        h, w = gray.shape
        if marker_corners:
            self._watch = []
            for c in marker_corners:
                pad = 0.25 * float(np.ptp(c[:, 0]))
                x0, y0 = np.maximum(c.min(0) - pad, 0).astype(int)
                x1, y1 = np.minimum(c.max(0) + pad, (w, h)).astype(int)
                self._watch.append((slice(y0, y1, 2), slice(x0, x1, 2)))
        else:
            self._watch = [(slice(0, h, 8), slice(0, w, 8))]
        self._patches = [gray[r].astype(np.int16) for r in self._watch]

    def _moved(self, gray: np.ndarray) -> bool:
        if not self._watch:
            return True
        for region, before in zip(self._watch, self._patches):
            now = gray[region]
            if now.shape != before.shape or np.abs(now.astype(np.int16) - before).mean() > self.moved_threshold:
                return True
        return False


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0
