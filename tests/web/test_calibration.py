from __future__ import annotations

import io
import json
import os
from pathlib import Path
from urllib.parse import quote

import cv2
import numpy as np
import pytest

from calibration import board, lens, sheets
from calibration.board import check_markers, register_corners
from calibration.profiles import ProfileError, Profiles, profile_file, valid_name, write_whole
from lab import reference_eval
from lab.registration_eval import board_grid_error
from lab.synth.camera import Camera
from tests.vision.rendered import wide_frame, wide_sample
from vision.barrage.slot_model import DEFAULT_MODEL
from vision.layout import load_layout, load_profile
from vision.registration import FeatureReference, Registrar
from web.app import WebConfig, create_app

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "synth" / "clean_01.jpg"


@pytest.fixture
def photo() -> bytes:
    if not FIXTURE.exists():
        pytest.skip("no synthetic fixture image committed (tests/fixtures/synth/clean_01.jpg)")
    return FIXTURE.read_bytes()


def upload(client, url, field, data, name="board.jpg"):
    return client.post(url, data={field: (io.BytesIO(data), name)}, content_type="multipart/form-data")


def test_wizard_steps_write_a_profile_the_vision_pipeline_loads(client, photo, app):
    api = "/calibration/api/table-1"
    assert upload(client, f"{api}/photo", "photo", photo).json["photo"] is True
    check = client.post(f"{api}/markers").json
    assert check["ok"] and check["found"] == [0, 1, 2, 3]
    registered = client.post(f"{api}/register", json={"method": "markers"}).json
    assert registered["registered"] and registered["heights"].startswith("Dam heights: one elevation moves")
    assert client.get(f"{api}/rectified.jpg").mimetype == "image/jpeg"
    assert client.post(f"{api}/reference").json["reference"]
    moved = client.post(f"{api}/layout", json={"slots": {"1U": {"x": 130, "y": 259, "w": 73, "h": 59}}}).json
    assert moved["overrides"] == 1
    assert client.post(f"{api}/recognition").json["available"] is False     # no model in these tests
    assert client.post(f"{api}/save").json["profiles"] == ["table-1"]
    profile = load_profile(app.extensions["automa_vision"].config.profiles_dir / "table-1" / "profile.json")
    assert profile.layout.slot("1U").x == 130 and profile.reference_image.endswith("reference.png")
    assert "table-1" in client.get("/barrage/").get_data(as_text=True)      # offered at game start


def test_a_board_registered_by_clicked_corners_keeps_them_as_the_last_resort(client, photo, app):
    api = "/calibration/api/table-1"
    upload(client, f"{api}/photo", "photo", photo)
    widths = [cv2.imdecode(np.frombuffer(client.get(f"{api}/preview.jpg{q}").data, np.uint8), cv2.IMREAD_COLOR).shape[1]
              for q in ("", "?full=1")]
    assert widths == [960, 1280]         # corners are clicked on the picture at its own size
    points = [[100, 50], [700, 60], [720, 900], [90, 880]]
    assert client.post(f"{api}/register", json={"method": "corners", "points": points}).json["registration"] == "corners"
    res = client.post(f"{api}/save")
    assert res.status_code == 400 and "needs its reference image" in res.json["problems"][0]
    assert client.post(f"{api}/reference").json["reference"]
    client.post(f"{api}/save")
    folder = app.extensions["automa_vision"].config.profiles_dir / "table-1"
    profile = load_profile(folder / "profile.json")
    height, width = cv2.imread(str(FIXTURE)).shape[:2]
    assert profile.clicked.frame == (width, height)
    assert np.allclose(profile.clicked.homography, register_corners(points, load_layout()))
    assert client.post(f"{api}/register", json={"method": "markers"}).json["registration"] == "markers"
    client.post(f"{api}/save")
    assert load_profile(folder / "profile.json").clicked is None       # the markers find it


def test_a_new_picture_or_lens_forgets_the_board_registered_on_the_one_before(client, photo, app):
    """The homography is of the picture it was found on: kept, the reference step cut the new
    picture with the old picture's homography."""
    api = "/calibration/api/table-1"
    upload(client, f"{api}/photo", "photo", photo)
    assert client.post(f"{api}/register", json={"method": "markers"}).json["registered"]
    assert client.post(f"{api}/layout", json={"slots": {"1U": {"x": 130}}}).json["overrides"] == 1
    again = upload(client, f"{api}/photo", "photo", photo).json
    assert again["registered"] is False and again["registration"] is None and again["overrides"] == 1
    res = client.post(f"{api}/reference")
    assert res.status_code == 400 and res.json["problems"] == ["register the board first (step 4)"]
    assert client.post(f"{api}/register", json={"method": "markers"}).json["registered"]
    photos = charuco_uploads()
    calibrated = client.post(f"{api}/lens", data={"photos": photos}, content_type="multipart/form-data").json
    assert calibrated["lens"] and calibrated["registered"] is False
    folder = app.extensions["automa_vision"].config.profiles_dir / "table-1"
    assert sorted(p.name for p in folder.iterdir()) == ["frame.jpg", "lens.npz", "wizard.json"]   # no .part left


def test_wizard_refuses_bad_input(client, photo):
    api = "/calibration/api/table-1"
    assert upload(client, f"{api}/photo", "photo", b"%PDF-1.4 not an image", "x.jpg").status_code == 400
    assert client.post(f"{api}/markers").status_code == 400                 # no picture yet
    assert client.post("/calibration/api/bad name!/markers").status_code == 400
    upload(client, f"{api}/photo", "photo", photo)
    assert client.post(f"{api}/save").status_code == 400                    # not registered yet
    res = client.post(f"{api}/register", json={"method": "corners", "points": [[0, 0], [10, 0]]})
    assert res.status_code == 400 and "four corners" in res.json["problems"][0]
    client.post(f"{api}/register", json={"method": "markers"})
    res = client.post(f"{api}/layout", json={"slots": {"1U": {"x": 990}}})
    assert res.status_code == 400 and "leave the board" in res.json["problems"][0]


def test_wizard_answers_json_that_is_not_an_object_or_not_numbers_with_its_problem(client, photo):
    """A JSON list for a body, or corners that are no numbers, answered 500 (AttributeError, TypeError)."""
    api = "/calibration/api/table-1"
    upload(client, f"{api}/photo", "photo", photo)
    res = client.post(f"{api}/layout", json=[1, 2])
    assert res.status_code == 400 and res.json["problems"] == ['send {"slots": {slot id: {x, y, w, h}}}']
    assert client.post(f"{api}/register", json=[1, 2]).json["registration"] == "markers"     # no fields: the default
    for points in ([[{}, 1]] * 4, [[1, 2], [3]] * 2, "four corners", [[True, 1]] * 3):
        res = client.post(f"{api}/register", json={"method": "corners", "points": points})
        assert res.status_code == 400 and "click exactly four corners" in res.json["problems"][0], points
    res = client.post(f"{api}/layout", json={"slots": {"1U": {"x": 130.5}}})
    assert res.status_code == 400 and res.json["problems"] == ["1U.x must be a whole number"]


def test_marker_check_names_a_missing_and_a_swapped_marker(photo):
    frame = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    layout = load_layout()
    found = check_markers(frame, layout).found
    hidden = frame.copy()
    pts = np.asarray(found[2], np.int32)
    cv2.fillConvexPoly(hidden, cv2.convexHull(pts), (255, 255, 255))
    check = check_markers(hidden, layout)
    assert not check.ok and any("marker 2 (bottom-right) not seen" in m for m in check.messages)
    swapped = frame.copy()       # marker 1's picture pasted over marker 3's place
    a, b = np.asarray(found[1], np.float32), np.asarray(found[3], np.float32)
    warped = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(a, b), frame.shape[1::-1])
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, b.astype(np.int32), 255)
    swapped[mask > 0] = warped[mask > 0]
    cv2.fillConvexPoly(swapped, cv2.convexHull(a.astype(np.int32)), (255, 255, 255))
    check = check_markers(swapped, layout)
    assert not check.ok and any("from where it belongs" in m for m in check.messages)


def test_corner_registration_maps_the_corners_to_the_board_frame():
    layout = load_layout()
    H = register_corners([[100, 50], [700, 60], [720, 900], [90, 880]], layout)
    p = cv2.perspectiveTransform(np.array([[[700, 60]]], np.float64), H)[0, 0]
    assert np.allclose(p, (layout.width, 0), atol=1e-6)


def charuco_views(n: int = 6) -> list[tuple[str, np.ndarray]]:
    """The flat ChArUco sheet seen by one pinhole camera from ``n`` tilted poses."""
    sheet = sheets.charuco_sheet(dpi=100)
    views = []
    rng = np.random.default_rng(0)
    h, w = sheet.shape
    K = np.array([[900.0, 0, 500], [0, 900.0, 500], [0, 0, 1]])
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    for i in range(n):
        rvec = rng.uniform(-0.35, 0.35, 3)
        corners3d = np.hstack([src - (w / 2, h / 2), np.zeros((4, 1))]).astype(np.float64)
        dst, _ = cv2.projectPoints(corners3d, rvec, np.array([0.0, 0.0, 1600.0]), K, None)
        H = cv2.getPerspectiveTransform(src, dst.reshape(4, 2).astype(np.float32))
        views.append((f"v{i}", cv2.cvtColor(cv2.warpPerspective(sheet, H, (1000, 1000), borderValue=255), cv2.COLOR_GRAY2BGR)))
    return views


def charuco_uploads() -> list[tuple[io.BytesIO, str]]:
    """``charuco_views`` as the lens step's upload fields: (PNG file, file name)."""
    return [(io.BytesIO(cv2.imencode(".png", img)[1].tobytes()), f"{name}.png") for name, img in charuco_views()]


def test_sheets_and_lens_calibration():
    page = sheets.marker_sheet()
    ids = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(page)[1]
    assert sorted(ids.ravel()) == [0, 1, 2, 3]
    assert sheets.pdf(page).startswith(b"%PDF-1.4") and sheets.pdf(page).rstrip().endswith(b"%%EOF")
    result = lens.calibrate(iter(charuco_views()))      # read once, one photo at a time
    assert result.views == 6 and result.rms < 1.0
    with pytest.raises(lens.LensError, match="usable photos"):
        lens.calibrate([("blank", np.full((200, 200, 3), 255, np.uint8))])


def test_the_lens_step_calibrates_from_uploaded_photos_and_refuses_a_picture_too_large(client, app):
    api = "/calibration/api/table-1"
    photos = charuco_uploads()
    res = client.post(f"{api}/lens", data={"photos": photos}, content_type="multipart/form-data")
    assert res.status_code == 200 and res.json["views"] == 6 and res.json["rms"] < 1.0
    lens_file = app.extensions["automa_vision"].config.profiles_dir / "table-1" / "lens.npz"
    saved = lens_file.read_bytes()
    # one PNG of one colour, 9000x6000 px: 0.2 MB sent, 162 MB decoded; refused by its header
    huge = cv2.imencode(".png", np.zeros((6000, 9000), np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 9])[1].tobytes()
    photos = charuco_uploads()
    res = client.post(f"{api}/lens", data={"photos": photos + [(io.BytesIO(huge), "huge.png")]},
                      content_type="multipart/form-data")
    assert res.status_code == 400 and "huge.png is 9000x6000 px" in res.get_data(as_text=True)
    assert lens_file.read_bytes() == saved                          # the saved calibration is kept


def test_a_reference_picture_too_soft_to_find_the_board_by_is_refused(client, app, photo):
    api = "/calibration/api/table-1"
    upload(client, f"{api}/photo", "photo", photo)
    client.post(f"{api}/register", json={"method": "markers"})
    saved = client.post(f"{api}/reference").json
    assert saved["reference"] and saved["reference_features"] > 1000
    folder = app.extensions["automa_vision"].config.profiles_dir / "table-1"
    (folder / "reference.png").unlink()
    frame = cv2.imread(str(folder / "frame.jpg"))
    cv2.imwrite(str(folder / "frame.jpg"), cv2.GaussianBlur(frame, (0, 0), 12))      # far out of focus
    res = client.post(f"{api}/reference")
    assert res.status_code == 400 and "too little sharp detail" in res.json["problems"][0]
    assert not (folder / "reference.png").exists()


def test_wizard_names_its_damaged_progress_file_and_leaves_it_as_it_is(client, app):
    folder = app.extensions["automa_vision"].config.profiles_dir / "table-1"
    folder.mkdir(parents=True)
    (folder / "wizard.json").write_text('{"homography": [[1, 0')
    res = client.get("/calibration/api/table-1")
    assert res.status_code == 400 and "wizard.json cannot be read" in res.json["problems"][0]
    assert (folder / "wizard.json").read_text() == '{"homography": [[1, 0'
    (folder / "wizard.json").unlink()                     # as the message says: the wizard starts again
    assert client.get("/calibration/api/table-1").json["registered"] is False


def test_a_save_cut_short_leaves_the_saved_profile_as_it_was(tmp_path, monkeypatch):
    """The new text goes to a file beside the old one, which is replaced only once it is whole."""
    path = tmp_path / "profile.json"
    write_whole(path, '{"slot_overrides": {}}')

    def crash(src, dst):
        raise OSError("power cut")
    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        write_whole(path, '{"slot_overrides": {"1U": {"x": 130}}}')
    assert json.loads(path.read_text()) == {"slot_overrides": {}}


def features_error(reference: np.ndarray, frame: np.ndarray, truth: dict) -> float:
    """Grid error (canonical px) of the board found by features against ``reference`` in
    ``frame`` with its markers painted over, through the lens its markers gave play time."""
    layout = load_layout()
    camera = Camera.from_record(truth["image_size"], truth["style"]["camera"])
    lens = Registrar(layout).register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).lens
    hidden = cv2.cvtColor(reference_eval.markers_hidden(frame, truth, camera), cv2.COLOR_BGR2GRAY)
    H = FeatureReference.from_image(reference, layout).homography(hidden, lens=lens)
    assert H is not None
    return board_grid_error(H, lens, camera, layout)


def test_the_wizard_takes_a_wide_lens_out_of_its_pictures_of_the_board(client, app):
    """A wide-angle webcam: the marker check fits the lens play time fits from the same
    markers, and the reference picture is cut through it, so that the board is found by its
    features when its markers are hidden; cut with one homography, it is bent."""
    frame, truth = wide_frame(930_005)
    api = "/calibration/api/wide"
    assert upload(client, f"{api}/photo", "photo", cv2.imencode(".png", frame)[1].tobytes(), "wide.png").json["photo"]
    check = client.post(f"{api}/markers").json
    played = Registrar(load_layout()).register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).lens
    assert check["ok"] and check["lens_kappa"] == pytest.approx(played.kappa, abs=1e-3)
    assert any("the lens bends the picture" in m for m in check["messages"])
    assert client.post(f"{api}/register", json={"method": "markers"}).json["registered"]
    folder = app.extensions["automa_vision"].config.profiles_dir / "wide"
    assert json.loads((folder / "wizard.json").read_text())["lens_kappa"] == pytest.approx(played.kappa, abs=1e-3)
    assert client.post(f"{api}/reference").json["reference"]
    through = features_error(cv2.imread(str(folder / "reference.png")), frame, truth)
    bent = features_error(board.reference_picture(frame, board.register_markers(frame, load_layout(), False)[0],
                                                  load_layout()), frame, truth)
    assert through < 8.0 and through < 0.6 * bent
    assert client.get(f"{api}/preview.jpg").mimetype == "image/jpeg"          # its outline drawn through the lens
    client.post(f"{api}/register", json={"method": "corners", "points": [[100, 50], [700, 60], [720, 900], [90, 880]]})
    assert json.loads((folder / "wizard.json").read_text())["lens_kappa"] is None


def test_with_a_lens_calibration_the_wizard_works_on_the_undistorted_picture(client, app):
    """Play time undistorts every frame by the profile's lens calibration and then fits no
    lens of its own: the wizard's picture and marker check do the same."""
    frame, _ = wide_frame(930_005)
    api = "/calibration/api/wide"
    upload(client, f"{api}/photo", "photo", cv2.imencode(".png", frame)[1].tobytes(), "wide.png")
    assert client.post(f"{api}/markers").json["lens_kappa"] > 0.05           # no calibration: fitted
    folder = app.extensions["automa_vision"].config.profiles_dir / "wide"
    K = np.array([[1000.0, 0, frame.shape[1] / 2], [0, 1000.0, frame.shape[0] / 2], [0, 0, 1]])
    dist = np.array([-0.05, 0.0, 0.0, 0.0, 0.0])
    np.savez(folder / "lens.npz", K=K, dist=dist)
    picture, raw = Profiles(folder.parent).draft("wide").frame(), cv2.imread(str(folder / "frame.jpg"))
    m1, m2 = cv2.initUndistortRectifyMap(K, dist, None, K, raw.shape[1::-1], cv2.CV_16SC2)
    assert np.array_equal(picture, cv2.remap(raw, m1, m2, cv2.INTER_LINEAR))
    assert np.abs(picture.astype(int) - raw).mean() > 1.0          # a picture of its own, not the file's
    check = client.post(f"{api}/markers").json
    assert check["found"] == [0, 1, 2, 3] and check["lens_kappa"] is None     # the calibration's, not a fit
    (folder / "lens.npz").write_bytes(b"PK\x03\x04 cut short")          # a damaged zip
    res = client.post(f"{api}/markers")
    assert res.status_code == 400 and "lens calibration" in res.json["problems"][0]


def test_reference_eval_prints_the_features_registration_with_the_markers_hidden(tmp_path, capsys):
    sample = wide_sample(930_005)
    (tmp_path / "0000.jpg").write_bytes(sample.jpeg)
    (tmp_path / "0000.json").write_text(json.dumps(sample.truth))
    figures = {}
    for flags in ([], ["--no-lens-fit"], ["--empty"]):
        assert reference_eval.main([str(tmp_path), *flags]) == 0
        figures[" ".join(flags)] = json.loads(capsys.readouterr().out)
    assert all(f["features_registered"] == 1 for f in figures.values())
    assert figures[""]["grid_error_px_median"] < 8.0 < figures["--no-lens-fit"]["grid_error_px_median"]
    # the wizard shown the table before the game: no piece, no hand, the same camera
    assert figures["--empty"]["not_made_again"] == 0 and figures["--empty"]["grid_error_px_median"] < 8.0
    assert reference_eval.main([str(tmp_path / "nothing")]) == 2


def test_the_table_before_the_game_has_the_board_and_no_piece(tmp_path):
    """What ``--empty`` shows the wizard: the same camera on the same board, every piece off."""
    sample = wide_sample(930_005)
    (tmp_path / "0000.jpg").write_bytes(sample.jpeg)
    empty = reference_eval.empty_table(tmp_path / "0000.jpg", sample.truth)
    frame, _ = wide_frame(930_005)
    layout = load_layout()
    (H0, lens0), (H1, lens1) = board.register_markers(frame, layout), board.register_markers(empty, layout)
    assert board_grid_error(H1, lens1, Camera.from_record(sample.truth["image_size"], sample.truth["style"]["camera"]),
                            layout) < 8.0                                 # the same camera
    before, now = board.rectified(empty, H1, layout, lens=lens1), board.rectified(frame, H0, layout, lens=lens0)

    def change(slot: str) -> float:
        b = layout.slot(slot)
        box = (slice(int(b.y / 2), int((b.y + b.h) / 2)), slice(int(b.x / 2), int((b.x + b.w) / 2)))   # views at 0.5
        return float(np.abs(before[box].astype(int) - now[box]).mean())
    built = [t["id"] for t in sample.truth["slots"] if t["piece"] not in (None, "empty")]
    bare = [t["id"] for t in sample.truth["slots"] if t["piece"] == "empty"]
    assert built and bare
    assert np.median([change(i) for i in built]) > 3 * np.median([change(i) for i in bare])
    (tmp_path / "0000.jpg").write_bytes(b"not the generator's picture")
    assert reference_eval.empty_table(tmp_path / "0000.jpg", sample.truth) is None


def test_the_recognition_step_reads_with_the_shipped_model(tmp_path):
    """Step 7 with the real model file: the empty table reads empty, the same table in play
    names the pieces on it (it answered 500 once: the model was run with the wrong arguments)."""
    if not DEFAULT_MODEL.exists():
        pytest.skip(f"no shipped model at {DEFAULT_MODEL}")
    client = create_app(WebConfig(data_dir=tmp_path / "data", model=DEFAULT_MODEL)).test_client()
    truth = json.loads(FIXTURE.with_suffix(".json").read_text())
    empty = reference_eval.empty_table(FIXTURE, truth)
    assert empty is not None
    api = "/calibration/api/table-1"
    for picture, reads_empty in ((cv2.imencode(".jpg", empty, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes(), True),
                                 (FIXTURE.read_bytes(), False)):
        assert upload(client, f"{api}/photo", "photo", picture).status_code == 200
        assert client.post(f"{api}/register", json={"method": "markers"}).status_code == 200
        res = client.post(f"{api}/recognition")
        assert res.status_code == 200 and res.json["available"] is True, res.json
        assert res.json["ok"] is reads_empty, res.json
        built = [t["id"] for t in truth["slots"] if t["piece"] not in (None, "empty")]
        if reads_empty:
            assert res.json["message"] == f"all {len(load_layout().slots)} slots read empty"
        else:
            assert any(f"{sid}:" in res.json["message"] for sid in built), res.json["message"]


def test_the_wizard_preview_draws_on_a_copy_of_the_live_frame(client, app):
    """In demo mode the preview's marker outlines went into the replay's own frame: the marker
    check then failed and the game page showed the drawings until a restart."""
    live = app.extensions["automa_vision"].live
    before = live.frame().copy()
    for _ in range(2):
        assert client.get("/calibration/api/table-1/preview.jpg").mimetype == "image/jpeg"
    assert np.array_equal(live.frame(), before)


@pytest.mark.parametrize("name", ["table\n", "..", "a/b", "table 1\r", "x" * 41, " lead", "ta\tble"])
def test_a_profile_name_is_one_plain_folder_name(client, app, name):
    """A name ending in a newline made a folder of that name (``$`` matches before it)."""
    root = app.extensions["automa_vision"].config.profiles_dir
    assert not valid_name(name)
    res = client.post("/calibration/api/table-1/register".replace("table-1", quote(name, safe="")), json={})
    assert res.status_code in (400, 404)
    with pytest.raises(ProfileError):
        Profiles(root).draft(name)
    assert list(root.iterdir()) == []


def test_viewing_a_profile_makes_no_folder_and_a_name_from_elsewhere_reads_only_inside(client, app, photo, tmp_path):
    root = app.extensions["automa_vision"].config.profiles_dir
    for url in ("", "/preview.jpg", "/layout"):
        assert client.get(f"/calibration/api/looked-at{url}").status_code == 200
    assert client.post("/calibration/api/looked-at/markers").status_code == 400      # no picture: nothing written
    assert list(root.iterdir()) == []
    upload(client, "/calibration/api/kept/photo", "photo", photo)
    assert [p.name for p in root.iterdir()] == ["kept"]
    outside = tmp_path / "elsewhere" / "profile.json"
    outside.parent.mkdir()
    outside.write_text("{}")
    assert profile_file(root, "../../elsewhere") is None and profile_file(root, str(outside.parent)) is None
    assert profile_file(root, "kept") is None             # not saved yet
    (root / "kept" / "profile.json").write_text("{}")
    assert profile_file(root, "kept") == root / "kept" / "profile.json"


@pytest.mark.parametrize("points", [[[3e38, 3e38], [3.1e38, 3e38], [3.1e38, 3.1e38], [3e38, 3.1e38]],
                                    [[100, 50], [700, 60], [720, 900], [90, 1e6]],
                                    [[-5, 50], [700, 60], [720, 900], [90, 880]]])
def test_corners_outside_the_picture_are_refused_and_change_nothing(client, photo, app, points):
    """Corners near 3e38 answered 500 after the wizard had already saved the broken registration."""
    api = "/calibration/api/table-1"
    upload(client, f"{api}/photo", "photo", photo)
    assert client.post(f"{api}/register", json={"method": "markers"}).status_code == 200
    wizard = app.extensions["automa_vision"].config.profiles_dir / "table-1" / "wizard.json"
    before = wizard.read_bytes()
    res = client.post(f"{api}/register", json={"method": "corners", "points": points})
    assert res.status_code == 400 and "outside the 1280x960 picture" in res.json["problems"][0], res.json
    assert wizard.read_bytes() == before
    assert client.get(f"{api}/rectified.jpg").status_code == 200        # the registration before stands
