"""``automa-vision calibrate`` (a profile from a photo of the empty board) and
``automa-vision adapt`` ("teach it my table": the profile's heads fitted to photos whose
state is known).

``calibrate`` registers the empty board (its markers; else the four corners given, of the
layout's canonical 1000x1464 frame; else the profile's own reference picture's features)
and saves, in the profile folder, ``profile.json`` (what ``Pipeline.load`` reads),
``reference.png`` (the rectified board, whose features find it again at play time) and
``empty_view.png`` (what ``vision.barrage.reference_reading`` compares each box with).

``adapt`` reads each photo against the empty board, labels each visible box from the
state the photo shows (something there or not; a piece's owner) and fits, in numpy, each
box kind's gate (pulled towards the default gate, so two photos adapt it rather than
replace it) and an owner head over the owners the photos show: a few seconds on two cores.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from automa.barrage.state import GameState
from vision.barrage.labels import OWNERS
from vision.barrage.pipeline import Pipeline
from vision.barrage.reference_reading import (ADAPTED, EMPTY_VIEW, GATE_FILE, GATE_KINDS, PROFILE, BoxEvidence, Heads,
                                              OwnerHead, ReferenceReader, empty_view_of, fit_logistic, owner_inputs)
from vision.layout import Layout
from vision.paper_white import paper_white
from vision.radial_lens import RadialLens

from .board import reference_picture
from .profiles import REFERENCE

# The pull of an adapted gate towards the default one, and of the owner head towards no
# preference; chosen as round numbers, not tuned on the held-out look.
GATE_L2, OWNER_L2 = 20.0, 2.0


class CalibrationError(ValueError):
    """A photo that cannot calibrate or teach a profile; the message says why."""


def corners_homography(corners: list[float], layout: Layout) -> np.ndarray:
    """Image -> canonical homography from the four corners of the layout's frame, given as
    x1,y1,...,x4,y4: top-left, top-right, bottom-right, bottom-left image pixels."""
    if len(corners) != 8:
        raise CalibrationError("--corners takes 8 numbers: x1,y1,x2,y2,x3,y3,x4,y4")
    image = np.array(corners, np.float32).reshape(4, 2)
    canonical = np.array([(0, 0), (layout.width, 0), (layout.width, layout.height), (0, layout.height)], np.float32)
    if abs(cv2.contourArea(image)) < 100:
        raise CalibrationError("the four corners enclose no area: give them as top-left, top-right, bottom-right, bottom-left")
    return cv2.getPerspectiveTransform(image, canonical).astype(np.float64)


def calibrate(empty: np.ndarray, folder: Path, corners: list[float] | None = None) -> dict:
    """Make (or remake) the profile in ``folder`` from ``empty``, a photo of the empty board.
    Returns what was found: the registration used and the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    known = folder / PROFILE
    pipeline = Pipeline.load(known if known.exists() else None)
    frame, _, reg = pipeline.register(empty)
    layout = pipeline.profile.layout
    H, source, lens = reg.H, reg.source, reg.lens
    if corners is not None and (H is None or source != "aruco"):
        H, source, lens = corners_homography(corners, layout), "corners", None
    if H is None:
        raise CalibrationError("the board was not found (no markers, no reference features): "
                               "give its four corners with --corners")
    profile = json.loads(known.read_text()) if known.exists() else {}
    if source == "corners":
        profile["clicked_corners"] = {"homography": H.tolist(), "frame": [empty.shape[1], empty.shape[0]]}
    _write(known, profile)
    done = save_empty_board(folder, frame, H, layout, lens, paper_white(frame, reg.corners), empty)
    return {"registration": source, "profile": str(known)} | done


def save_empty_board(folder: Path, frame: np.ndarray, H: np.ndarray, layout: Layout, lens: RadialLens | None = None,
                     paper: np.ndarray | None = None, photo: np.ndarray | None = None) -> dict:
    """Save what reading against the empty board needs in the profile ``folder`` (whose
    ``profile.json`` exists): ``frame``, the empty board registered by ``H`` (of the frame
    without ``lens``'s distortion, where given; ``paper``: the markers' white, if seen), as the
    reference picture that finds the board by its features (``calibration.board``), as the
    normalised view each box is compared with, and the drops the pipeline reads on its
    headstream tiles (printed drops) in ``photo``, the camera's own picture (default: ``frame``,
    where no saved lens calibration undistorts the camera's pictures). The wizard's recognition step can call it with its own
    registration. Any teaching the profile had is dropped: it was of another empty board."""
    known = folder / PROFILE
    cv2.imwrite(str(folder / REFERENCE), reference_picture(frame, H, layout, lens))
    cv2.imwrite(str(folder / EMPTY_VIEW), empty_view_of(frame, H, layout, paper, lens))
    (folder / ADAPTED).unlink(missing_ok=True)
    profile = json.loads(known.read_text())
    profile |= {"reference_image": REFERENCE, "empty_view": EMPTY_VIEW}
    _write(known, profile)
    empty_reading = Pipeline.load(known).read_frame(frame if photo is None else photo)
    profile["empty_drops"] = {r.id: r.drops or 0 for r in empty_reading.slots if r.kind == "headstream"}
    _write(known, profile)
    return {"empty_view": str(folder / EMPTY_VIEW), "printed_drops": profile["empty_drops"]}


def _write(path: Path, profile: dict) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(profile, indent=1))
    part.replace(path)


def box_labels(state: GameState, layout: Layout) -> tuple[np.ndarray, list[str | None]]:
    """For each box of ``layout`` (batch order): whether ``state`` puts something on it that
    the empty board does not show (a structure; drops on a headstream tile or in a dam's
    lake), and the owner of the structure there (None where none)."""
    changed, owners = [], []
    for box in layout.boxes:
        owner: str | None = None
        if box.kind == "headstream":
            there = state.headstreams.get(box.id, 0) > 0
        elif box.kind == "lake":
            dam = state.dams.get(box.id)
            there = dam is not None and dam.drops > 0
        elif box.kind == "dam":
            dam = state.dams.get(box.id)
            there, owner = dam is not None, None if dam is None else dam.owner
        elif box.kind == "conduit":
            owner = state.conduits.get(box.id)
            there = owner is not None
        else:
            owner = state.powerhouses.get(box.id)
            there = owner is not None
        changed.append(there)
        owners.append(owner)
    return np.array(changed), owners


def fit_heads(examples: list[tuple[BoxEvidence, GameState]], layout: Layout, default: Heads) -> Heads:
    """Heads fitted to ``examples`` (each photo's evidence and the state it shows); the
    occluded boxes are left out."""
    kinds = np.array(layout.kinds)
    xs, ys, ks, colours, owner_logits, owner_ids = [], [], [], [], [], []
    index = layout.box_index()
    for ev, state in examples:
        changed, owners = box_labels(state, layout)
        hidden = {index[r.id] for r in ev.reading.slots if r.unknown}
        keep = np.array([i not in hidden for i in range(len(kinds))])
        xs.append(ev.gate_inputs[keep])
        ys.append(changed[keep])
        ks.append(kinds[keep])
        for i, owner in enumerate(owners):
            if owner is not None and keep[i]:
                colours.append(ev.colour[i])
                owner_logits.append(ev.owner_logits[i])
                owner_ids.append(owner)
    x, y, k = np.concatenate(xs), np.concatenate(ys), np.concatenate(ks)
    gates = {}
    for kind in GATE_KINDS:
        rows = k == kind
        prior = default.gates[kind]
        # a kind the photos show only one way (nothing ever built there) keeps the default gate
        gates[kind] = fit_logistic(x[rows], y[rows], l2=GATE_L2, prior=prior) if len(set(y[rows])) == 2 else prior
    owner = None
    seen = sorted(set(owner_ids), key=OWNERS.index)
    if seen:
        inputs = owner_inputs(np.array(colours), np.array(owner_logits))
        labels = np.array([seen.index(o) for o in owner_ids])
        owner = OwnerHead(tuple(seen), fit_logistic(inputs, labels, classes=len(seen), l2=OWNER_L2))
    return Heads(gates, owner)


def adapt(folder: Path, photos: list[tuple[np.ndarray, GameState]], gate_file: Path = GATE_FILE) -> dict:
    """Teach the profile in ``folder`` its table from ``photos`` (each with the state it
    shows); saves ``adapted.npz``. Returns how many boxes each photo taught and the time."""
    t0 = time.perf_counter()
    # fitted from the default gates; the profile's teaching so far stays until this one is saved
    reader = replace(ReferenceReader.load(folder, gate_file), heads=Heads.load(gate_file), adapted=False)
    layout = reader.pipeline.profile.layout
    examples = []
    for n, (image, state) in enumerate(photos, 1):
        reader.pipeline.registrar.reset()
        companies = sorted(state.companies)
        ev = reader.evidence(image, companies)
        if ev is None:
            raise CalibrationError(f"photo {n}: the board was not found")
        examples.append((ev, state))
    heads = fit_heads(examples, layout, reader.heads)
    heads.save(folder / ADAPTED)
    return {"photos": len(photos), "boxes": sum(len(ev.gate_inputs) for ev, _ in examples),
            "owners": list(heads.owner.owners) if heads.owner else [], "seconds": round(time.perf_counter() - t0, 2)}


def _image(path: str) -> np.ndarray:
    frame = cv2.imread(path, cv2.IMREAD_COLOR) if Path(path).is_file() else None
    if frame is None:
        raise CalibrationError(f"cannot read the picture {path}")
    return frame


def _photo(spec: str) -> tuple[np.ndarray, GameState]:
    """IMAGE:STATE.json -> the picture and the state it shows."""
    image, sep, state = spec.rpartition(":")
    if not sep or not image:
        raise CalibrationError(f"{spec!r}: give each photo as IMAGE.jpg:STATE.json")
    try:
        return _image(image), GameState.from_json(Path(state).read_text())
    except OSError as exc:
        raise CalibrationError(f"cannot read the state {state} ({exc})") from exc
    except ValueError as exc:
        raise CalibrationError(f"the state {state} is not a valid Barrage state ({exc})") from exc


def corner_list(text: str) -> list[float]:
    """``--corners``' value: 8 numbers, checked before any picture is read (with markers found
    they go unused, and a typo would pass unseen)."""
    try:
        corners = [float(v) for v in text.split(",")]
    except ValueError:
        corners = []
    if len(corners) != 8 or not np.isfinite(corners).all():
        raise argparse.ArgumentTypeError(f"{text!r}: want 8 numbers, x1,y1,x2,y2,x3,y3,x4,y4")
    return corners


def cmd_calibrate(args: argparse.Namespace) -> int:
    try:
        done = calibrate(_image(args.empty), Path(args.profile), args.corners)
    except ValueError as exc:
        print(f"automa-vision calibrate: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(done))
    return 0


def cmd_adapt(args: argparse.Namespace) -> int:
    try:
        done = adapt(Path(args.profile), [_photo(s) for s in args.photos])
    except ValueError as exc:
        print(f"automa-vision adapt: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(done))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("calibrate", help="make a profile from a photo of the empty board",
                              description="Register the empty board and save a profile folder with its "
                                          "empty-board picture, which reading compares each space with.")
    p.add_argument("--empty", required=True, help="a photo of the empty board, as the camera sees it at play")
    p.add_argument("--profile", required=True, help="the profile folder (made where missing)")
    p.add_argument("--corners", type=corner_list, help="x1,y1,...,x4,y4: the image px of the layout frame's corners, top-left, "
                                     "top-right, bottom-right, bottom-left (where the board has no markers)")
    p.set_defaults(func=cmd_calibrate)
    p = subparsers.add_parser("adapt", help="teach a profile its table from photos whose state is known",
                              description="Fit the profile's reading heads to 2-3 photos of the board with "
                                          "pieces on it, each given with the Barrage state it shows.")
    p.add_argument("--profile", required=True, help="a profile folder made by calibrate")
    p.add_argument("photos", nargs="+", metavar="IMAGE:STATE.json")
    p.set_defaults(func=cmd_adapt)
