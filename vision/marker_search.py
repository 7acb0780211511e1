"""Finding the corner markers when ArUco's own decoding gives up, and placing them precisely.

ArUco decodes a marker by thresholding its 4x4 bits; motion blur or defocus of a few
pixels on a 25-40 px marker breaks that, yet the detector still reports the marker's
outline among its *rejected* candidates. Here each candidate is compared with the
four known markers as pictures (normalised correlation, any of four rotations, the
white margin included), so a blurred marker is still recognised; a set of candidates
is only believed when three or more of them fit the board's marker layout. A candidate
must also look more like its marker than like any of the board's markers mirrored: a
mirrored marker resembles another at some quarter turn (``mirror_scores``).

With only two markers (decoded or recognised), the layout still says roughly where
the others are: ``search_predicted`` looks for their pictures in a window around that
prediction (template matching), which finds markers too blurred to be proposed as quads.

Blur also biases ArUco's corner refinement by a pixel or two, which a homography
extrapolates to 10+ board px on the far side. ``refine`` therefore aligns the whole
marker picture with the frame (``cv2.findTransformECC``), which uses every pixel of
the pattern and is not pulled by symmetric blur.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import cv2
import numpy as np

CELL = 8                      # template px per marker cell (a 4x4 marker is 6 cells with its border)
SIDE = 6 * CELL
MARGIN_CELLS = 1              # white paper around the marker that the templates include
MIN_SCORE = 0.7               # correlation for a rejected candidate to be considered at all
PER_ID = 4                    # best candidates kept per marker id
MIN_RHO = 0.6                 # ECC correlation below which a refinement is not trusted
MAX_SHIFT = 0.25              # of the marker side: a refinement moving a corner further is refused
BLUR_SIDES = 16.0             # predicted-search template blur: sigma = marker side / this
SEARCH = 4.0                  # half-width of the predicted-position search window, in marker sides
MIN_SCORE_PREDICTED = 0.6     # a peak found where the layout predicts a marker needs less
# Template corners of the marker itself (TL, TR, BR, BL) inside its white margin.
_M = MARGIN_CELLS * CELL
TEMPLATE_CORNERS = np.float32([[_M, _M], [_M + SIDE, _M], [_M + SIDE, _M + SIDE], [_M, _M + SIDE]])
TEMPLATE_SIZE = SIDE + 2 * _M


@lru_cache(maxsize=None)
def template(dictionary_id: int, marker_id: int) -> np.ndarray:
    """The marker as printed, with its white margin, float32 0..255."""
    dictionary = cv2.aruco.getPredefinedDictionary(dictionary_id)
    ink = cv2.aruco.generateImageMarker(dictionary, marker_id, SIDE, borderBits=1)
    return cv2.copyMakeBorder(ink, _M, _M, _M, _M, cv2.BORDER_CONSTANT, value=255).astype(np.float32)


def _sample(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The frame around a marker quad, warped onto the template grid."""
    M = cv2.getPerspectiveTransform(corners.astype(np.float32), TEMPLATE_CORNERS)
    return cv2.warpPerspective(gray, M, (TEMPLATE_SIZE, TEMPLATE_SIZE), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def _unit(x: np.ndarray) -> np.ndarray:
    """Zero-mean, unit-length rows: their dot products are normalised correlations."""
    x = x.reshape(len(x), -1) - x.reshape(len(x), -1).mean(1, keepdims=True)
    return x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-6)


@lru_cache(maxsize=None)
def _bank(dictionary_id: int, wanted: tuple[int, ...]) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Every wanted template at every quarter turn, as unit rows, and (id, turns) per row."""
    keys = [(i, k) for i in wanted for k in range(4)]
    # A quad whose picture matches the template turned k times clockwise starts k corners late.
    return _unit(np.stack([np.rot90(template(dictionary_id, i), -k) for i, k in keys])), keys


@lru_cache(maxsize=None)
def _mirror_bank(dictionary_id: int, ids: tuple[int, ...]) -> np.ndarray:
    """The markers mirrored, at every quarter turn, as unit rows: what the board's markers
    look like through a camera set to mirror its picture."""
    return _unit(np.stack([np.rot90(template(dictionary_id, i)[:, ::-1], -k) for i in ids for k in range(4)]))


def _samples(gray: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """The frame's picture in each quad (N, 4, 2), as unit rows."""
    return _unit(np.stack([_sample(gray, q) for q in quads]))


def mirror_scores(gray: np.ndarray, quads: np.ndarray, dictionary_id: int, ids: set[int],
                  samples: np.ndarray | None = None) -> np.ndarray:
    """For each quad, its best correlation with one of the markers ``ids`` mirrored. ArUco's
    dictionary keeps its markers apart under rotation, not under mirroring: a mirrored
    marker correlates 0.7-0.85 with another marker's picture (held-out frames, flipped),
    and three such once fitted the layout, a board found where there was only its mirror
    image. A real marker, however blurred, is closer to itself than to any mirrored one.
    ``samples``: the quads' pictures (``_samples``), when already taken."""
    samples = _samples(gray, quads) if samples is None else samples
    return (samples @ _mirror_bank(dictionary_id, tuple(sorted(ids))).T).max(1)


def match(gray: np.ndarray, quads: np.ndarray, dictionary_id: int, wanted: set[int],
          samples: np.ndarray | None = None) -> list[list[tuple[float, int, np.ndarray]]]:
    """For each quad (N, 4, 2) and each wanted id: (score, id, corners in the marker's own
    TL, TR, BR, BL order) at the quarter turn that fits best. The score is the normalised
    correlation of the frame with the marker's picture, white margin included.
    ``samples``: the quads' pictures (``_samples``), when already taken."""
    bank, keys = _bank(dictionary_id, tuple(sorted(wanted)))
    scores = (_samples(gray, quads) if samples is None else samples) @ bank.T       # (quads, ids x turns)
    out = []
    for quad, row in zip(quads, scores):
        per_id = []
        for col0 in range(0, len(keys), 4):
            k = int(row[col0:col0 + 4].argmax())
            per_id.append((float(row[col0 + k]), keys[col0][0], np.roll(quad, -k, axis=0)))
        out.append(per_id)
    return out


def candidates(gray: np.ndarray, rejected: list[np.ndarray], dictionary_id: int,
               wanted: set[int], board: set[int]) -> dict[int, list[tuple[float, np.ndarray]]]:
    """The rejected quads that look most like each wanted marker, best first, at most
    ``PER_ID`` per id, none scoring under ``MIN_SCORE`` or looking more like one of the
    ``board``'s markers mirrored, each refined."""
    if not rejected or not wanted:
        return {}
    quads = np.stack([q.reshape(4, 2) for q in rejected]).astype(np.float32)
    # The plain and the enlarged pass often reject the same quad: keep one of each.
    centres = np.round(quads.mean(1) / 2.0)
    quads = quads[np.unique(centres, axis=0, return_index=True)[1]]
    per_id: dict[int, list[tuple[float, np.ndarray]]] = {}
    samples = _samples(gray, quads)
    decoys = mirror_scores(gray, quads, dictionary_id, board, samples)
    for matches, decoy in zip(match(gray, quads, dictionary_id, wanted, samples), decoys):
        for score, marker_id, corners in matches:
            if score >= MIN_SCORE and score > decoy:
                per_id.setdefault(marker_id, []).append((score, corners))
    # Placed precisely before the layout judges them: blurred outlines are a few px off.
    return {i: [(score, refine(gray, i, corners, dictionary_id))
                for score, corners in sorted(c, key=lambda sc: -sc[0])[:PER_ID]] for i, c in per_id.items()}


def _predicted(chosen: dict[int, np.ndarray], marker_id: int, geometry: dict[int, np.ndarray]) -> bool:
    """Whether the other chosen markers put ``marker_id`` where the layout has it, within
    one marker side. A homography through four points can reach any fourth point, so
    only this leave-one-out test catches a marker-like square elsewhere on the table.
    Two markers tie the far side of the board too loosely to judge a third: then the
    homography's own residual (``fit``) is the only test."""
    others = [j for j in chosen if j != marker_id]
    if len(others) < 3:
        return True
    H, _ = cv2.findHomography(np.concatenate([chosen[j] for j in others]),
                              np.concatenate([geometry[j] for j in others]), 0)
    if H is None:
        return False
    seen = cv2.perspectiveTransform(chosen[marker_id].reshape(-1, 1, 2).astype(np.float64), H).reshape(4, 2)
    side = float(np.linalg.norm(geometry[marker_id][1] - geometry[marker_id][0]))
    return float(np.abs(seen - geometry[marker_id]).max()) < side


def consistent_set(decoded: dict[int, np.ndarray], soft: dict[int, list[tuple[float, np.ndarray]]],
                   geometry: dict[int, np.ndarray], fit, min_markers: int) -> dict[int, np.ndarray]:
    """Decoded markers plus the choice of soft candidates that the board layout accepts
    (``fit`` returns a homography or None, and each soft marker must be predicted by the
    others): most markers first, then the best scores."""
    options = {i: [(1.0, c)] for i, c in decoded.items()}
    for i, cands in soft.items():
        if i not in decoded:
            options[i] = cands + [(0.0, None)]          # (0, None): leave this marker out
    ids = sorted(options)
    choices = []
    for choice in itertools.product(*(options[i] for i in ids)):
        chosen = {i: c for i, (_, c) in zip(ids, choice) if c is not None}
        if len(chosen) >= min_markers:
            choices.append(((len(chosen), sum(s for s, _ in choice)), chosen))
    for _, chosen in sorted(choices, key=lambda kc: kc[0], reverse=True):
        if (len(chosen) > len(decoded) and fit(chosen) is not None
                and all(_predicted(chosen, i, geometry) for i in chosen if i not in decoded)):
            return chosen
    return dict(decoded)


def _side(corners: np.ndarray) -> float:
    """Mean length of a marker quad's first two edges, px."""
    return float(np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[3] - corners[0])) / 2


def refine(gray: np.ndarray, marker_id: int, corners: np.ndarray, dictionary_id: int) -> np.ndarray:
    """``corners`` moved to where the whole marker picture fits the frame best; the input
    corners when the alignment fails, drifts, or correlates poorly."""
    side = _side(corners)
    pad = side * (MARGIN_CELLS / 6 + 0.5)
    x0, y0 = np.maximum(np.floor(corners.min(0) - pad), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(0) + pad), gray.shape[::-1]).astype(int)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return corners
    roi = gray[y0:y1, x0:x1].astype(np.float32)
    local = (corners - (x0, y0)).astype(np.float32)
    warp = cv2.getPerspectiveTransform(TEMPLATE_CORNERS, local).astype(np.float32)
    # Blur the template to about the frame's scale so both are compared at one sharpness.
    t = template(dictionary_id, marker_id)
    sigma = max(0.5 * TEMPLATE_SIZE / max(side * (1 + 2 * MARGIN_CELLS / 6), 1.0), 0.5)
    t = cv2.GaussianBlur(t, (0, 0), sigma)
    try:
        rho, warp = cv2.findTransformECC(t, roi, warp, cv2.MOTION_HOMOGRAPHY,
                                         (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-4), None, 3)
    except cv2.error:           # did not converge
        return corners
    moved = cv2.perspectiveTransform(TEMPLATE_CORNERS.reshape(-1, 1, 2), warp).reshape(4, 2) + (x0, y0)
    if rho < MIN_RHO or np.abs(moved - corners).max() > MAX_SHIFT * side:
        return corners
    return moved.astype(np.float32)


def complete_pairs(gray: np.ndarray, decoded: dict[int, np.ndarray], soft: dict[int, list[tuple[float, np.ndarray]]],
                   geometry: dict[int, np.ndarray], fit, min_markers: int, dictionary_id: int) -> dict[int, np.ndarray]:
    """Too few markers for ``consistent_set``: take each pair of markers (decoded, or a
    soft candidate's best), search for the others where that pair predicts them, and let
    ``consistent_set`` judge everything found. ``decoded`` when no pair completes."""
    pool = dict(decoded) | {i: c[0][1] for i, c in soft.items() if i not in decoded}
    for a, b in itertools.combinations(sorted(pool), 2):
        predicted = search_predicted(gray, {a: pool[a], b: pool[b]}, geometry, dictionary_id)
        options = {i: soft.get(i, []) + predicted.get(i, []) for i in set(soft) | set(predicted)}
        chosen = consistent_set(decoded, options, geometry, fit, min_markers)
        if len(chosen) >= min_markers:
            return chosen
    return dict(decoded)


def search_predicted(gray: np.ndarray, found: dict[int, np.ndarray], geometry: dict[int, np.ndarray],
                     dictionary_id: int) -> dict[int, list[tuple[float, np.ndarray]]]:
    """Candidates for the markers missing from ``found`` (two or more placed markers), from
    a template search around where the placed ones put them (``predictions``).

    The marker's picture is drawn at the predicted size and angle and matched by
    normalised correlation in a window ``SEARCH`` marker sides wide each way; a peak under
    ``MIN_SCORE_PREDICTED`` is no candidate (lower than for a quad anywhere, as the
    prediction already narrows the place; a covered marker scores ~0.5). As with the
    rejected quads, ``consistent_set`` decides whether the layout believes them.
    """
    out = {}
    for marker_id in sorted(set(geometry) - set(found)):
        hits = [hit for quad in predictions(found, geometry, marker_id)
                if (hit := _search(gray, quad, marker_id, dictionary_id, set(geometry))) is not None]
        if hits:
            out[marker_id] = [max(hits, key=lambda h: h[0])]
    return out


def predictions(found: dict[int, np.ndarray], geometry: dict[int, np.ndarray], marker_id: int) -> list[np.ndarray]:
    """Where the placed markers (two or more) put ``marker_id`` in the frame: by an affine
    fit of their corners, and by the homography through them.

    Two adjacent markers seen in perspective mislead the affine fit by up to ~13 marker
    sides on the far side of the board (synthetic frames), while the homography, which
    follows the perspective, lands within about one side when their corners are exact;
    blurred corners bend the homography instead, and then the affine guess is the
    steadier one. Both places are searched.
    """
    ids = sorted(set(found) & set(geometry))
    if len(ids) < 2:
        return []
    src = np.concatenate([geometry[i] for i in ids]).astype(np.float64)
    dst = np.concatenate([found[i] for i in ids]).astype(np.float64)
    affine = np.linalg.lstsq(np.column_stack([src, np.ones(len(src))]), dst, rcond=None)[0].T    # canonical -> frame
    out = [(geometry[marker_id] @ affine[:, :2].T + affine[:, 2]).astype(np.float32)]
    H, _ = cv2.findHomography(src, dst, 0)
    if H is not None:
        quad = cv2.perspectiveTransform(geometry[marker_id].reshape(-1, 1, 2).astype(np.float64), H).reshape(4, 2)
        if np.isfinite(quad).all() and _side(quad) > 0:
            out.append(quad.astype(np.float32))
    return out


def _search(gray: np.ndarray, quad: np.ndarray, marker_id: int, dictionary_id: int,
            board: set[int]) -> tuple[float, np.ndarray] | None:
    side = _side(quad)
    if side < 6:
        return None
    # The template drawn at the predicted pose, in a patch around the marker (margin included).
    margin = side * MARGIN_CELLS / 6
    lo = np.floor(quad.min(0) - margin).astype(int)
    size = tuple(int(v) for v in np.ceil(quad.max(0) + margin).astype(int) - lo)
    if size[0] >= gray.shape[1] or size[1] >= gray.shape[0]:
        # No window of the frame holds it: a prediction from markers placed wrong (a hand's
        # edge taken for one), which can reach thousands of frame widths.
        return None
    M = cv2.getPerspectiveTransform(TEMPLATE_CORNERS, (quad - lo).astype(np.float32))
    patch = cv2.warpPerspective(template(dictionary_id, marker_id), M, size, flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=np.nan)
    valid = ~np.isnan(patch)
    patch[~valid] = 255.0
    # Softened like a camera would (focus, motion): a sharp template correlates poorly.
    patch = cv2.GaussianBlur(patch, (0, 0), max(side / BLUR_SIDES, 0.5))
    reach = int(SEARCH * side)
    x0, y0 = np.maximum(lo - reach, 0)
    x1, y1 = np.minimum(lo + np.array(size) + reach, gray.shape[::-1])
    window = gray[y0:y1, x0:x1].astype(np.float32)
    if window.shape[0] <= size[1] or window.shape[1] <= size[0]:
        return None
    scores = cv2.matchTemplate(window, patch, cv2.TM_CCOEFF_NORMED, mask=valid.astype(np.float32))
    scores[~(np.abs(scores) <= 1.0)] = -1.0     # masked matching is unstable where the window is flat
    _, score, _, (bx, by) = cv2.minMaxLoc(scores)
    if score < MIN_SCORE_PREDICTED:
        return None
    moved = (quad + (np.array([x0 + bx, y0 + by]) - lo)).astype(np.float32)
    placed = refine(gray, marker_id, moved, dictionary_id)
    samples = _samples(gray, placed[None])
    itself = match(gray, placed[None], dictionary_id, {marker_id}, samples)[0][0][0]
    if itself <= mirror_scores(gray, placed[None], dictionary_id, board, samples)[0]:
        return None
    return float(score), placed
