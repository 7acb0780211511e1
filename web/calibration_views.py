"""The calibration wizard: one page, one JSON endpoint per step, a live preview.

The wizard works on one picture at a time: the live camera frame (snapshot)
or an uploaded photo. Every step's result is stored in the profile's folder
at once, so a wizard left half-way can be resumed.
"""
from __future__ import annotations

import cv2
import numpy as np
from flask import Blueprint, Response, jsonify, render_template, request
from flask_babel import gettext

from calibration import board, lens, sheets
from calibration.elevations import check_elevations
from calibration.empty_board import check_empty_board
from calibration.profiles import LENS, REFERENCE, Draft, ProfileError, Profiles
from vision.layout import load_layout
from vision.radial_lens import RadialLens
from vision.registration import MIN_MATCHES, FeatureReference

from .barrage.live import jpeg, placeholder
from .barrage.views import layout_view
from .forms import FormError, integer, request_body
from .services import services
from .uploads import decode_picture, decode_pictures

bp = Blueprint("calibration", __name__, url_prefix="/calibration")
MAX_LENS_PHOTOS = 30
PREVIEW_WIDTH = 960


def profiles() -> Profiles:
    return Profiles(services().config.profiles_dir)


def draft(name: str) -> Draft:
    try:
        return profiles().draft(name)
    except ProfileError as exc:
        raise FormError([str(exc)]) from None


def _picture(d: Draft) -> np.ndarray | None:
    try:
        return d.frame()
    except ProfileError as exc:            # its lens calibration is damaged
        raise FormError([str(exc)]) from None


def _frame(d: Draft) -> np.ndarray:
    frame = _picture(d)
    if frame is None:
        raise FormError([gettext("take a snapshot or upload a photo first (step 1)")])
    return frame


def _image(img: np.ndarray, kind: str = "jpeg") -> Response:
    if kind == "png":
        return Response(sheets.png(img), mimetype="image/png")
    return Response(jpeg(img), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/")
def wizard():
    live = services().live
    return render_template("calibration.html", profiles=profiles().names(), source=live.source.describe(),
                           recognition=live.recognition_problem)


# -- printable sheets ----------------------------------------------------------------
@bp.get("/sheets/markers.png")
def markers_png():
    return _image(sheets.marker_sheet(), "png")


@bp.get("/sheets/markers.pdf")
def markers_pdf():
    return Response(sheets.pdf(sheets.marker_sheet()), mimetype="application/pdf",
                    headers={"Content-Disposition": 'attachment; filename="automa-vision-markers.pdf"'})


@bp.get("/sheets/charuco.png")
def charuco_png():
    return _image(sheets.charuco_sheet(), "png")


# -- the wizard's picture --------------------------------------------------------------
@bp.get("/api/<name>")
def status(name: str):
    d = draft(name)
    frame = _picture(d)
    return jsonify({**d.status(), "frame_size": None if frame is None else [frame.shape[1], frame.shape[0]]})


@bp.post("/api/<name>/snapshot")
def snapshot(name: str):
    frame = services().live.frame()
    if frame is None:
        raise FormError([gettext("the camera gives no picture: check it is plugged in, or upload a photo instead")])
    d = draft(name)
    d.take_picture(frame)
    return jsonify(d.status())


@bp.post("/api/<name>/photo")
def photo(name: str):
    upload = request.files.get("photo")
    if upload is None:
        raise FormError([gettext("choose a photo of the board to upload")])
    img = decode_picture(upload.read(), upload.filename or "the upload")
    d = draft(name)
    d.take_picture(img)
    return jsonify(d.status())


@bp.get("/api/<name>/preview.jpg")
def preview(name: str):
    """The wizard's picture with what it found drawn on it; the live camera before there is one.
    ``?full=1``: at the picture's own size, for clicking the board's corners to the pixel."""
    d = draft(name)
    frame = _picture(d)
    if frame is None:
        frame = services().live.frame()
        if frame is None:
            return _image(placeholder(gettext("no camera frame: upload a photo")))
        frame = frame.copy()        # the live frame is the game page's too (the demo's is a replay frame): draw on a copy
    check = board.check_markers(frame, d.layout(), fit_lens=False)       # only where the markers are
    if d.H is not None:
        frame = board.board_outline(frame, d.H, d.layout(), d.lens(frame))
    for i, corners in check.found.items():
        pts = np.asarray(corners, np.int32)
        cv2.polylines(frame, [pts], True, (0, 200, 0), 3, cv2.LINE_AA)
        cv2.putText(frame, str(i), tuple(int(v) for v in pts.mean(0)), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 255), 4)
    if request.args.get("full") == "1":
        return _image(frame)
    scale = PREVIEW_WIDTH / frame.shape[1]
    return _image(cv2.resize(frame, (PREVIEW_WIDTH, round(frame.shape[0] * scale)), interpolation=cv2.INTER_AREA))


# -- steps -----------------------------------------------------------------------------
@bp.post("/api/<name>/lens")
def lens_step(name: str):
    uploads = request.files.getlist("photos")
    if not uploads:
        raise FormError([gettext("choose photos of the printed ChArUco sheet")])
    if len(uploads) > MAX_LENS_PHOTOS:
        raise FormError([gettext("at most %(n)d photos at once", n=MAX_LENS_PHOTOS)])
    # sized together first, then decoded one at a time as the calibration goes: only the sheet's corners are kept of each
    images = decode_pictures([(u.filename or f"photo {i + 1}", u.read()) for i, u in enumerate(uploads)])
    try:
        result = lens.calibrate(images)
    except lens.LensError as exc:
        raise FormError([str(exc)]) from None
    d = draft(name)
    d.create()
    result.save(d.folder / LENS)
    d.forget_registration()     # registered on the picture as the lens before undistorted it
    return jsonify({**d.status(), "rms": round(result.rms, 3), "views": result.views, "rejected": result.rejected})


@bp.post("/api/<name>/markers")
def markers_step(name: str):
    d = draft(name)
    return jsonify(board.check_markers(_frame(d), d.layout(), fit_lens=not d.has(LENS)).to_dict())


@bp.post("/api/<name>/register")
def register(name: str):
    d = draft(name)
    frame = _frame(d)
    body = request_body(request)
    method = body.get("method", "markers")
    try:
        if method == "markers":
            H, lens = board.register_markers(frame, d.layout(), fit_lens=not d.has(LENS))
        elif method == "corners":
            H, lens = board.register_corners(body.get("points") or [], d.layout(), (frame.shape[1], frame.shape[0])), None
        else:
            raise ValueError("method must be markers or corners")
        heights = check_elevations(H, frame.shape, d.layout()).message     # before storing: a refusal changes nothing
    except (ValueError, ArithmeticError, np.linalg.LinAlgError, cv2.error) as exc:
        raise FormError([gettext("registration failed: %(reason)s", reason=exc)]) from None
    d.homography, d.registration = H.tolist(), method
    d.lens_kappa = None if lens is None else lens.kappa
    d.store()
    return jsonify({**d.status(), "heights": heights})


def _registered(d: Draft) -> tuple[np.ndarray, np.ndarray, RadialLens | None]:
    """The wizard's picture, the homography registered on it and the lens fitted with it."""
    frame = _frame(d)
    if d.H is None:
        raise FormError([gettext("register the board first (step 4)")])
    return frame, d.H, d.lens(frame)


@bp.get("/api/<name>/rectified.jpg")
def rectified(name: str):
    d = draft(name)
    frame, H, lens = _registered(d)
    return _image(board.rectified(frame, H, d.layout(), lens=lens))


@bp.post("/api/<name>/reference")
def reference(name: str):
    d = draft(name)
    frame, H, lens = _registered(d)
    img = board.reference_picture(frame, H, d.layout(), lens)
    features = len(FeatureReference.from_image(img, d.layout()).keypoints)
    if features < MIN_MATCHES:
        # such a picture could never find the board (a soft focus, a dark or blank board)
        raise FormError([gettext("the straightened board shows too little sharp detail to find it by (%(n)d features, "
                                 "at least %(least)d needed): focus the camera, light the board and take the picture "
                                 "again", n=features, least=MIN_MATCHES)])
    cv2.imwrite(str(d.folder / REFERENCE), img)
    return jsonify({**d.status(), "reference_features": features})


@bp.get("/api/<name>/layout")
def layout(name: str):
    return jsonify(layout_view(draft(name).layout()))


@bp.post("/api/<name>/layout")
def save_layout(name: str):
    """Slot boxes moved in the editor become the profile's overrides (only those that differ)."""
    d = draft(name)
    body = request_body(request)
    boxes = body.get("slots")
    if not isinstance(boxes, dict):
        raise FormError(["send {\"slots\": {slot id: {x, y, w, h}}}"])
    default = {b.id: b for b in load_layout().slots}
    overrides: dict[str, dict[str, float]] = {}
    for sid, box in boxes.items():
        if sid not in default or not isinstance(box, dict):
            raise FormError([gettext("unknown slot %(slot)r", slot=sid)])
        limits = {"x": (0, 1000), "y": (0, 1464), "w": (8, 400), "h": (8, 400)}
        values = {k: integer(box.get(k, getattr(default[sid], k)), f"{sid}.{k}", *limits[k]) for k in limits}
        if values["x"] + values["w"] > 1000 or values["y"] + values["h"] > 1464:
            raise FormError([gettext("slot %(slot)s would leave the board", slot=sid)])
        changed = {k: v for k, v in values.items() if v != getattr(default[sid], k)}
        if changed:
            overrides[sid] = changed
    d.overrides = overrides
    d.store()
    return jsonify(d.status())


@bp.post("/api/<name>/recognition")
def recognition(name: str):
    live = services().live
    if live.recognition_problem:
        return jsonify({"available": False, "message": live.recognition_problem})
    d = draft(name)
    frame, H, lens = _registered(d)
    result = check_empty_board(frame, H, d.layout(), live.model, lens=lens)
    message = (gettext("all %(n)d slots read empty", n=result.slots) if result.ok
               else gettext("%(n)d slots not read as empty:", n=len(result.wrong)) + " " + ", ".join(result.wrong))
    return jsonify({"available": True, "ok": result.ok, "message": message, "unsure": result.unsure})


@bp.post("/api/<name>/save")
def save(name: str):
    d = draft(name)
    try:
        profiles().save(d)
    except ProfileError as exc:
        raise FormError([str(exc)]) from None
    return jsonify({**d.status(), "profiles": profiles().names()})
