"""The calibration wizard: one page, one JSON endpoint per step, a live preview.

The wizard works on one picture at a time: the live camera frame (snapshot)
or an uploaded photo. Every step's result is stored in the profile's folder
at once, so a wizard left half-way can be resumed.
"""
from __future__ import annotations

import cv2
import numpy as np
from flask import Blueprint, Response, jsonify, render_template, request
from flask_babel import gettext, ngettext

from automa.barrage.data import company_colours
from calibration import board, lens, sheets, teaching
from calibration.adapt import CalibrationError, adapt, save_empty_board
from calibration.elevations import check_elevations
from calibration.empty_board import check_empty_board
from calibration.profiles import FRAME, LENS, PROFILE, REFERENCE, Draft, ProfileError, Profiles, write_whole
from vision.barrage.pipeline import Pipeline
from vision.barrage.reference_reading import EMPTY_VIEW, ReferenceReader
from vision.layout import ProfileFileError, load_layout
from vision.paper_white import frame_paper
from vision.radial_lens import RadialLens
from vision.registration import MIN_MATCHES, FeatureReference

from .barrage.live import PIECE_BGR, jpeg, placeholder
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
                           recognition=live.recognition_problem, photos=teaching.PHOTOS,
                           companies=[(c, _company_names()[c]) for c in teaching.COMPANIES])


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
    message = _save_empty_board(d, frame, H, lens)
    return jsonify({**d.status(), "reference_features": features, "empty_board_message": message})


def _save_empty_board(d: Draft, frame: np.ndarray, H: np.ndarray, lens: RadialLens | None) -> str:
    """The board on the wizard's picture, empty, saved for reading every space against it
    (``calibration.adapt.save_empty_board``: the profile is saved with it); what the page says."""
    problem = services().live.recognition_problem
    if problem is not None:
        return gettext("The empty board is not saved for reading against it: %(reason)s", reason=problem)
    photo = cv2.imread(str(d.folder / FRAME), cv2.IMREAD_COLOR)      # as the camera gave it
    try:
        profiles().save(d)
        done = save_empty_board(d.folder, frame, H, d.layout(), lens, frame_paper(frame, d.layout()), photo=photo)
    except (ValueError, OSError, cv2.error) as exc:     # ProfileError, a model or profile file that cannot be read
        return gettext("The empty board is not saved for reading against it: %(reason)s", reason=exc)
    printed = sum(done["printed_drops"].values())
    return gettext("The empty board is saved: every space is read against it (%(n)d printed drops on the headstream "
                   "tiles taken for drops without it).", n=printed)


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
    if not result.ok and d.has(EMPTY_VIEW):
        message += " " + gettext("(read without the empty board saved at step 5: at the table every space is read "
                                 "against it, and a printed icon is not taken for a piece)")
    return jsonify({"available": True, "ok": result.ok, "message": message, "unsure": result.unsure})


# -- teach it my table -------------------------------------------------------------------
def _company_names() -> dict[str, str]:
    return {"usa": gettext("USA"), "germany": gettext("Germany"), "italy": gettext("Italy"),
            "france": gettext("France"), "netherlands": gettext("Netherlands"), "neutral": gettext("neutral")}


def _label(value: str) -> str:
    """A slot's value (``calibration.teaching``) in words."""
    parts = value.split(":")
    names = _company_names()
    if parts[0] == "drops":
        return ngettext("%(num)d water drop", "%(num)d water drops", int(parts[1]))
    if parts[0] == "conduit":
        return gettext("%(company)s conduit", company=names[parts[1]])
    if parts[0] == "powerhouse":
        return gettext("%(company)s powerhouse", company=names[parts[1]])
    if parts[0] == "dam":
        height = {1: gettext("base"), 2: gettext("base + 1 elevation"), 3: gettext("base + 2 elevations")}[int(parts[2])]
        if len(parts) == 4:
            return ngettext("%(company)s dam, %(height)s, %(num)d drop in its lake",
                            "%(company)s dam, %(height)s, %(num)d drops in its lake", int(parts[3]),
                            company=names[parts[1]], height=height)
        return gettext("%(company)s dam, %(height)s", company=names[parts[1]], height=height)
    return gettext("empty")


def _companies(names: object) -> tuple[str, ...]:
    try:
        return teaching.companies_of(names)
    except teaching.TeachingError as exc:
        raise FormError([str(exc)]) from None


def _asked_companies() -> tuple[str, ...]:
    """The companies of ``?companies=usa,italy``: those the player plays with."""
    names = request.args.get("companies", "")
    return _companies([n for n in names.split(",") if n])


def _photo_number(k: int) -> int:
    if not 1 <= k <= teaching.PHOTOS:
        raise FormError([gettext("photo %(n)d: the wizard takes photos 1 to %(most)d", n=k, most=teaching.PHOTOS)])
    return k


def _teachable(d: Draft) -> None:
    """Refused unless the pieces can be recognised and the profile holds its empty board."""
    problem = services().live.recognition_problem
    if problem is not None:
        raise FormError([problem])
    if not (d.has(EMPTY_VIEW) and d.has(PROFILE)):
        raise FormError([gettext("save the reference image with the board empty first (step 5)")])


@bp.get("/api/<name>/teach")
def teach_plan(name: str):
    """The pieces to set for each photo, and every value a slot of each kind can be set to."""
    d = draft(name)
    companies = _asked_companies()
    kinds = {s.id: s.kind for s in d.layout().slots}
    photos = [[{"slot": slot, "kind": kinds[slot], "value": v, "label": _label(v)} for slot, v in planned.items()]
              for planned in teaching.plan(companies)]
    return jsonify({"companies": list(companies), "photos": photos, "slots": kinds,
                    "choices": {kind: [[v, _label(v)] for v in teaching.choices(kind, companies)]
                                for kind in sorted(set(kinds.values()))},
                    "taken": [k for k in range(1, teaching.PHOTOS + 1) if teaching.photo_file(d.folder, k).exists()],
                    **d.status()})


@bp.get("/api/<name>/teach/<int:k>.jpg")
def teach_picture(name: str, k: int):
    """Photo ``k``'s pieces drawn on the straightened empty board: each space outlined in its
    company's colour, with its id and a dam's elevations or a tile's drops."""
    d = draft(name)
    planned = teaching.plan(_asked_companies())[_photo_number(k) - 1]
    img = cv2.imread(str(d.folder / REFERENCE), cv2.IMREAD_COLOR) if d.has(REFERENCE) else None
    if img is None:
        return _image(placeholder(gettext("save the reference image first (step 5)")))
    boxes = {s.id: s for s in d.layout().slots}
    colours = company_colours()
    for slot, value in planned.items():
        b, parts = boxes[slot], value.split(":")
        colour = PIECE_BGR.get(colours.get(parts[1], parts[1]), (255, 200, 0)) if parts[0] != "drops" else (255, 160, 0)
        p0, p1 = (int(b.x), int(b.y)), (int(b.x + b.w), int(b.y + b.h))
        cv2.rectangle(img, p0, p1, (0, 0, 0), 9)
        cv2.rectangle(img, p0, p1, colour, 5)
        text = slot
        if parts[0] == "drops":
            text += f" x{parts[1]}"             # drops on the tile
        elif parts[0] == "dam":
            text += (f" +{int(parts[2]) - 1}" if parts[2] != "1" else "") + (" ~" if len(parts) == 4 else "")   # ~: water
        org = (int(b.x), max(int(b.y) - 6, 20))
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2, cv2.LINE_AA)
    return _image(cv2.resize(img, (img.shape[1] * 2 // 3, img.shape[0] * 2 // 3), interpolation=cv2.INTER_AREA))


@bp.post("/api/<name>/teach/<int:k>")
def teach_photo(name: str, k: int):
    """Photo ``k``: the uploaded one, else the camera's frame, read against the empty board;
    kept only when the board is found on it. Answers each slot read or planned with something."""
    d = draft(name)
    _photo_number(k)
    _teachable(d)
    companies = _asked_companies()
    upload = request.files.get("photo")
    if upload is not None:
        img = decode_picture(upload.read(), upload.filename or "the upload")
    else:
        img = services().live.frame()
        if img is None:
            raise FormError([gettext("the camera gives no picture: check it is plugged in, or upload a photo instead")])
    try:
        reader = ReferenceReader.around(Pipeline.load(d.folder / PROFILE, services().live.model), d.folder)
        reading = reader.read(img, companies)
    except (ProfileFileError, ValueError) as exc:       # a profile file, or a frame that is no picture
        raise FormError([str(exc)]) from None
    if reading.map is None:
        raise FormError([gettext("photo %(n)d: the board was not found (%(reason)s)", n=k,
                                 reason="; ".join(f.problem for f in reading.flags))])
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:
        raise FormError([gettext("the picture could not be stored")])
    write_whole(teaching.photo_file(d.folder, k), data.tobytes())
    planned = teaching.plan(companies)[k - 1]
    rows = []
    for r in reading.slots:
        read = teaching.value(r)
        plan = planned.get(r.id, "drops:0" if r.kind == "headstream" else "empty")
        if read is None or read != plan or plan not in ("empty", "drops:0"):
            rows.append({"slot": r.id, "kind": r.kind, "read": read, "read_label": _label(read) if read else None,
                         "confidence": round(float(r.confidence), 2), "planned": plan,
                         "value": read if read is not None and read in teaching.choices(r.kind, companies) else plan})
    return jsonify({"photo": k, "slots": rows})


@bp.post("/api/<name>/teach")
def teach(name: str):
    """Adapt the profile's reader to the photos taken, each with its slots as the player
    confirmed them (``{"companies": [...], "photos": [{"photo": k, "slots": {id: value}}]}``,
    the slots not named empty); nothing is saved unless every photo is good."""
    d = draft(name)
    _teachable(d)
    body = request_body(request)
    companies = _companies(body.get("companies"))
    photos = body.get("photos")
    if not isinstance(photos, list) or not teaching.MIN_PHOTOS <= len(photos) <= teaching.PHOTOS:
        raise FormError([gettext("teach it with %(least)d to %(most)d photos", least=teaching.MIN_PHOTOS,
                                 most=teaching.PHOTOS)])
    examples, seen = [], set()
    for photo in photos:
        k = _photo_number(integer(photo.get("photo") if isinstance(photo, dict) else None, "photo", 1, teaching.PHOTOS))
        if k in seen:
            raise FormError([gettext("photo %(n)d is given twice", n=k)])
        seen.add(k)
        path = teaching.photo_file(d.folder, k)
        img = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.exists() else None
        if img is None:
            raise FormError([gettext("photo %(n)d has not been taken", n=k)])
        try:
            examples.append((img, teaching.state_of(photo.get("slots"), d.layout(), companies)))
        except teaching.TeachingError as exc:
            raise FormError([gettext("photo %(n)d: %(problem)s", n=k, problem=exc)]) from None
    try:
        done = adapt(d.folder, examples)
    except (CalibrationError, ValueError) as exc:     # a photo whose board is not found; a profile file unreadable
        raise FormError([str(exc)]) from None
    return jsonify({**d.status(), **done})


@bp.post("/api/<name>/save")
def save(name: str):
    d = draft(name)
    try:
        profiles().save(d)
    except ProfileError as exc:
        raise FormError([str(exc)]) from None
    return jsonify({**d.status(), "profiles": profiles().names()})
