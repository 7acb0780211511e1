"""The synthetic camera: deterministic frames whose ground truth matches the picture."""
from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from automa.barrage.data import barrage_map
from automa.barrage.setup import new_game
from automa.barrage.state import Dam, GameState
from automa_vision.cli import main as cli_main
from lab.synth import pieces
from lab.synth.batch import options_for
from lab.synth.camera import Camera, sample_camera
from lab.synth.cli import shot_flags, shot_options
from lab.synth.make_fixtures import GROUPS, fixture_options
from lab.synth.pairs import table_of
from lab.synth.render import LATE_MOVES, WET_MOST, WIDE_K, Options, game_state, render, set_table
from lab.synth.truth import covered_fraction, slot_truth
from vision.barrage.reference_map import reference_png, reference_svg
from vision.layout import load_layout
from vision.pose import camera_position
from vision.registration import make_detector

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"
PIECES = {"headstream": {None}, "dam": {"empty", "base", "base+1", "base+2"},
          "conduit": {"empty", "conduit"}, "powerhouse": {"empty", "powerhouse"}}
CLEAN = Options(photo="clean", occlusion=0.0)


@cache
def sample(seed: int, options: Options = Options()):
    return render(seed, options)


def decode(jpeg: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def to_board(H: list[list[float]], pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), np.array(H)).reshape(-1, 2)


# -- determinism and schema ------------------------------------------------------------
def test_same_seed_gives_byte_identical_jpeg_and_truth():
    a = render(11)
    assert a.jpeg == sample(11).jpeg
    assert json.dumps(a.truth) == json.dumps(sample(11).truth)
    assert render(12).jpeg != a.jpeg


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_truth_follows_the_contract(seed):
    truth = sample(seed).truth
    lay = load_layout()
    state = GameState.from_dict(truth["state"])          # the engine validates it
    assert truth["seed"] == seed and truth["image_size"] == [1280, 960]
    assert np.array(truth["homography"]).shape == (3, 3)
    assert [s["id"] for s in truth["slots"]] == [s.id for s in lay.slots]
    owners = set(state.companies) | {"neutral", None}
    for entry in truth["slots"]:
        assert set(entry) == {"id", "kind", "piece", "owner", "drops", "occluded"}
        assert entry["piece"] in PIECES[entry["kind"]]
        assert entry["owner"] in owners
        assert isinstance(entry["occluded"], bool)
        if entry["kind"] == "headstream":
            assert entry["drops"] == state.headstreams[entry["id"]] and entry["owner"] is None
        elif entry["kind"] == "dam":
            dam = state.dams.get(entry["id"])
            expected = "empty" if dam is None else ["base", "base+1", "base+2"][dam.pieces - 1]
            assert entry["piece"] == expected and entry["drops"] == (dam.drops if dam else 0)
            assert entry["owner"] == (dam.owner if dam else None)
        else:
            table = state.conduits if entry["kind"] == "conduit" else state.powerhouses
            assert entry["drops"] is None and entry["owner"] == table.get(entry["id"])
            assert (entry["piece"] == "empty") == (entry["id"] not in table)


def test_options_are_checked():
    with pytest.raises(ValueError):
        Options(size=(800, 600))
    with pytest.raises(ValueError):
        Options(occlusion=1.5)
    with pytest.raises(ValueError, match="placement"):
        Options(placement="slide")
    with pytest.raises(ValueError, match="headstreams"):
        Options(headstreams="flooded")
    with pytest.raises(ValueError, match="lens"):
        Options(lens="fisheye")
    with pytest.raises(ValueError, match="processing"):
        Options(processing="vivid")
    with pytest.raises(ValueError, match="shapes"):
        Options(shapes="clay")
    with pytest.raises(ValueError, match="games"):
        Options(games="endless")


def _without_headstreams(state: GameState) -> dict:
    record = state.to_dict()
    del record["map"]["headstreams"]
    return record


def test_wet_headstreams_rain_on_the_game_and_leave_the_rest_of_the_table():
    """``headstreams="wet"``: each tile holds a count drawn from 0..WET_MOST, or the game's
    drops where it left more; everything else on the table is the game's, drawn alike."""
    wet_counts = []
    for seed in range(31, 35):
        game, wet = set_table(seed), set_table(seed, Options(headstreams="wet"))
        for letter, n in wet.state.headstreams.items():
            kept = game.state.headstreams[letter]
            assert n == kept or kept < n <= WET_MOST
            wet_counts.append(n)
        assert _without_headstreams(wet.state) == _without_headstreams(game.state)
        assert wet.records == game.records and wet.piece_style == game.piece_style
        assert game.state.headstreams == game_state(seed).headstreams, "the game's draw is untouched"
    assert max(wet_counts) > 7 and min(wet_counts) < 3, "large counts and small ones"
    truth = render(31, Options(headstreams="wet")).truth
    assert {s["id"]: s["drops"] for s in truth["slots"] if s["kind"] == "headstream"} == \
        GameState.from_dict(truth["state"]).headstreams


def test_a_wet_pictures_table_is_found_from_its_truth():
    """The truth records the wet tiles (only then), so the turn before's picture can be made
    again: the table found holds the wet counts, not the game's."""
    sample = render(31, Options(headstreams="wet", size=(640, 480)))
    assert sample.truth["style"]["headstreams"] == {"kind": "wet"}
    assert "headstreams" not in render(31, Options(size=(640, 480))).truth["style"]
    table = table_of(sample.truth, sample.jpeg)
    assert table is not None and table.options.headstreams == "wet"
    assert table.state.headstreams == GameState.from_dict(sample.truth["state"]).headstreams
    lost = {**sample.truth, "style": {k: v for k, v in sample.truth["style"].items() if k != "headstreams"}}
    assert table_of(lost, sample.jpeg) is None, "the game's drops make another picture"


def _company_dams(state: GameState) -> list[Dam]:
    return [d for d in state.dams.values() if d.owner != "neutral"]


def test_a_late_game_builds_most_dam_spaces_and_keeps_the_rest_of_the_table():
    """``games="late"``: the seed's set-up (the same companies) played for LATE_MOVES random
    moves, so the map is nearly built; the board, camera and pieces' looks are the seed's."""
    any_dams, late_dams, late_raised = [], [], []
    for seed in range(31, 37):
        game, late = set_table(seed), set_table(seed, Options(games="late"))
        assert late.records == game.records and late.piece_style == game.piece_style
        assert late.state.turn_order == game.state.turn_order
        assert game.state.to_dict() == game_state(seed).to_dict(), "the game's draw is untouched"
        any_dams.append(len(_company_dams(game.state)))
        late_dams.append(len(_company_dams(late.state)))
        late_raised.append(sum(d.pieces > 1 for d in _company_dams(late.state)))
    assert LATE_MOVES[0] >= 60, "later than any game the default draws (0-60 moves)"
    assert sum(late_dams) > 2 * sum(any_dams), (any_dams, late_dams)
    assert sum(late_raised) > sum(late_dams) / 3, "raised dams are common, as near a game's end"


def test_a_late_pictures_table_is_found_from_its_truth():
    sample_ = render(32, Options(games="late", size=(640, 480)))
    assert sample_.truth["style"]["games"] == {"kind": "late"}
    assert "games" not in render(32, Options(size=(640, 480))).truth["style"]
    table = table_of(sample_.truth, sample_.jpeg)
    assert table is not None and table.options.games == "late"
    assert table.state.to_dict() == GameState.from_dict(sample_.truth["state"]).to_dict()
    lost = {**sample_.truth, "style": {k: v for k, v in sample_.truth["style"].items() if k != "games"}}
    assert table_of(lost, sample_.jpeg) is None, "the game as first drawn makes another picture"


def test_a_wide_lens_shoots_the_same_table_through_a_barrel():
    """``lens="wide"``: the same game, board, pieces and pose, a stronger distortion drawn
    from a stream of its own, and the table beyond the pinhole picture's edges in view
    (not a mirror image of what lies inside them: each marker shows once)."""
    mild, wide = set_table(930_005, Options(placement="turn")), set_table(930_005, Options(placement="turn", lens="wide"))
    assert wide.state.to_dict() == mild.state.to_dict() and wide.piece_style == mild.piece_style
    assert np.array_equal(wide.cam.R, mild.cam.R) and np.array_equal(wide.cam.K, mild.cam.K)
    assert WIDE_K[0] <= wide.cam.k1 <= WIDE_K[1] and abs(mild.cam.k1) <= 0.035
    assert wide.pad == wide.cam.overshoot() > 0 and mild.pad == 0
    assert wide.scene.shape[:2] == (960 + 2 * wide.pad, 1280 + 2 * wide.pad)
    shot = render(930_005, Options(placement="turn", lens="wide"))
    truth = shot.truth
    assert truth["style"]["camera"]["lens"] == "wide" and "lens" not in sample(11).truth["style"]["camera"]
    assert table_of(truth, shot.jpeg).pad == wide.pad, "a turn earlier's picture is shot through the same lens"
    frame = decode(render(930_005, Options(placement="turn", lens="wide", photo="clean")).jpeg)
    corners, ids, _ = make_detector().detectMarkers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    # the truth's slots are where the distorted camera shows them: the first dam's centre
    cam = Camera.from_record(truth["image_size"], truth["style"]["camera"])
    dam = next(b for b in load_layout().slots if b.kind == "dam")
    px = cam.project(np.array([[*dam.centre, 0.0]]))[0]
    assert 0 <= px[0] < 1280 and 0 <= px[1] < 960


# -- geometry: the saved homography matches the picture ---------------------------------
@pytest.mark.parametrize("seed", [21, 22, 23])
def test_detected_markers_agree_with_the_homography(seed):
    s = sample(seed, CLEAN)
    gray = cv2.cvtColor(decode(s.jpeg), cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)
    corners, ids, _ = detector.detectMarkers(gray)
    assert ids is not None and set(ids.ravel()) == {0, 1, 2, 3}
    placed = {m["id"]: np.array(m["corners"]) for m in s.truth["markers"]["placed"]}
    cam = Camera.from_record(s.truth["image_size"], s.truth["style"]["camera"])
    for c, i in zip(corners, ids.ravel()):
        c = c.reshape(4, 2)
        exact = cam.project(np.column_stack([placed[int(i)], np.zeros(4)]))
        assert np.linalg.norm(c - exact, axis=1).max() < 2.0          # image px
        # the saved homography (a best fit over the board, absorbing the slight lens
        # distortion) extrapolates to the markers outside the frame within a few px
        err = np.linalg.norm(to_board(s.truth["homography"], c) - placed[int(i)], axis=1)
        assert err.max() < 8, (i, err)                                  # canonical px (~4 mm)


def test_no_markers_option():
    s = sample(24, Options(markers=False, occlusion=0.0, photo="clean"))
    assert s.truth["markers"]["present"] is False and s.truth["markers"]["placed"] == []
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(decode(s.jpeg), cv2.COLOR_BGR2GRAY))
    assert ids is None or not set(ids.ravel()) & {0, 1, 2, 3}


def test_saturated_spaces_option_prints_spaces_outside_the_training_range():
    """Training boards print their spaces at saturation <= 0.5; this option's boards at >= 0.6
    (a held-out board look)."""
    def saturation(truth):
        fill = np.uint8([[truth["style"]["board"]["space_fill"]]])
        return cv2.cvtColor(fill, cv2.COLOR_BGR2HSV)[0, 0, 1] / 255

    for seed in (3, 4):
        assert saturation(sample(seed, Options(occlusion=0.0)).truth) <= 0.5 + 1e-9
        assert saturation(sample(seed, Options(occlusion=0.0, saturated_spaces=True)).truth) >= 0.59


def _plain_camera(rng: np.random.Generator) -> Camera:
    """A random camera over the board, without lens distortion."""
    lay = load_layout()
    corners = np.array([(0, 0), (lay.width, 0), (lay.width, lay.height), (0, lay.height)], float)
    cam, _ = sample_camera(rng, (1280, 960), corners)
    return Camera(cam.size, cam.K, cam.R, cam.t, 0.0)       # ideal and output images coincide


def test_piece_drawn_at_a_slot_lands_on_that_slot_under_the_homography():
    """Render one uniquely coloured dam on an empty scene and find it through the homography."""
    lay = load_layout()
    rng = np.random.default_rng(3)
    cam = _plain_camera(rng)
    style = pieces.sample_style(rng)
    style.jitter_px, style.jitter_deg, style.colours["neutral"] = 0.0, 0.0, [255, 0, 255]
    state = new_game(1, 1, 0)
    state.dams = {"6U": Dam("neutral", 1, 0)}
    state.headstreams = {h: 0 for h in "ABCD"}
    img = np.zeros((960, 1280, 3), np.uint8)
    pieces.draw_solids(img, cam, pieces.build_solids(state, style, rng), style, (style.sun,))
    ys, xs = np.nonzero(img.max(2) > 0)
    found = to_board(cam.image_to_board().tolist(), np.array([[xs.mean(), ys.mean()]]))[0]
    assert np.linalg.norm(found - lay.slot("6U").centre) < 15     # a short piece leans a little


def _rim_state() -> GameState:
    """Lake 2L full of water, with pieces built on every space its box reaches over."""
    state = new_game(1, 1, 0)
    owner = next(iter(state.companies))
    state.dams = {"2L": Dam(owner, 3, 3), "2U": Dam(owner, 1, 0)}
    state.conduits = {"2A": owner, "2B": owner}
    state.headstreams = {"A": 2, "B": 0, "C": 0, "D": 0}
    return state


def test_drops_stand_clear_of_the_pieces_at_the_lake_rim():
    """A lake's box reaches over the conduit and dam spaces at its rim; no drop may stand
    inside a piece built there (it would be hidden, yet counted in the ground truth)."""
    lay = load_layout()
    state = _rim_state()
    rim = [lay.slot(s) for s in ("2U", "2A", "2B")]
    placed = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        style = pieces.sample_style(rng)
        style.drop_shape = "cylinder"
        feet = pieces.drop_footprints(pieces.build_solids(state, style, rng))
        assert len(feet["lake:2L"]) == 3 and len(feet["A"]) == 2
        for foot in feet["lake:2L"]:
            centre = tuple(foot.mean(0))
            assert pieces._clear_of(centre, style.drop_radius * 0.999, rim)
            placed += 1
    assert placed == 60


@pytest.mark.parametrize("slot,box", [("2L", "lake:2L"), ("A", "A")])
def test_a_hidden_drop_makes_its_slot_unreadable(slot, box):
    """A hand over one drop hides less than half of the lake or headstream, yet its count
    cannot be read: the slot is occluded in the ground truth."""
    lay = load_layout()
    cam = _plain_camera(np.random.default_rng(3))
    state = _rim_state()
    rng = np.random.default_rng(5)
    feet = pieces.drop_footprints(pieces.build_solids(state, pieces.sample_style(rng), rng))
    mask = np.zeros((960, 1280), np.uint8)
    hull = cam.ideal(np.column_stack([feet[box][0], np.zeros(len(feet[box][0]))]))
    cv2.fillConvexPoly(mask, np.round(cv2.convexHull(hull.astype(np.float32)).reshape(-1, 2)).astype(np.int32), 255)
    mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    holder = lay.lake("2L") if box.startswith("lake") else lay.slot(slot)
    assert covered_fraction(cam, holder.corners(), mask) < 0.5
    occluded = {e["id"]: e["occluded"] for e in slot_truth(state, lay, cam, mask, feet) if e["kind"] in ("dam", "headstream")}
    assert occluded[slot] and sum(occluded.values()) == 1
    assert not any(e["occluded"] for e in slot_truth(state, lay, cam, mask))       # boxes alone: mostly visible
    assert not any(e["occluded"] for e in slot_truth(state, lay, cam, None, feet))


def test_camera_projection_and_saved_homography_agree():
    lay = load_layout()
    rng = np.random.default_rng(9)
    corners = np.array([(0, 0), (lay.width, 0), (lay.width, lay.height), (0, lay.height)], float)
    for _ in range(5):
        cam, _ = sample_camera(rng, (1280, 960), corners)
        pts = np.array([s.centre for s in lay.slots])
        img = cam.project(np.column_stack([pts, np.zeros(len(pts))]))
        assert (img >= 0).all() and (img[:, 0] < 1280).all() and (img[:, 1] < 960).all()
        assert np.abs(to_board(cam.image_to_board().tolist(), img) - pts).max() < 6


def test_a_turned_camera_keeps_its_principal_point_and_shows_its_pose():
    """``placement="turn"`` aims the camera at the board instead of shifting the principal
    point: the board is still placed anywhere inside the frame, the principal point stays within
    2 % of the centre (a real webcam), and the homography then tells where the camera is, which
    it cannot for a shifted principal point."""
    lay = load_layout()
    corners = np.array([(0, 0), (lay.width, 0), (lay.width, lay.height), (0, lay.height)], float)
    off = {"shift": [], "turn": []}
    places = []
    for seed in range(40):
        for placement in off:
            cam, record = sample_camera(np.random.default_rng(seed), (1280, 720), corners, placement)
            assert record["placement"] == placement
            seen = cam.project(np.column_stack([corners, np.zeros(4)]))
            assert (seen >= 0).all() and (seen[:, 0] < 1280).all() and (seen[:, 1] < 720).all()
            plain = Camera(cam.size, cam.K, cam.R, cam.t, 0.0)
            x, y, height = camera_position(plain.image_to_board(), (720, 1280))
            off[placement].append(np.hypot(x - cam.centre[0], y - cam.centre[1]) / height)
            if placement == "turn":
                assert np.abs(cam.K[:2, 2] - [640, 360]).max() <= 0.02 * 1280 + 1e-9
                places.append(seen.mean(0))
    assert np.median(off["turn"]) < 0.03 and max(off["turn"]) < 0.15
    assert np.median(off["shift"]) > 3 * np.median(off["turn"])
    assert np.ptp(np.array(places)[:, 0]) > 150         # the board is not always in the middle


# -- occlusion --------------------------------------------------------------------------
def test_occluders_mark_slots_and_clear_frames_do_not():
    covered = sample(31, Options(occlusion=1.0)).truth
    assert covered["style"]["occluder"] is not None
    assert any(s["occluded"] for s in covered["slots"])
    clear = sample(31, Options(occlusion=0.0)).truth
    assert clear["style"]["occluder"] is None
    assert not any(s["occluded"] for s in clear["slots"])


def test_720p_frames():
    s = sample(41, Options(size=(1280, 720)))
    assert decode(s.jpeg).shape == (720, 1280, 3) and s.truth["image_size"] == [1280, 720]


@pytest.mark.parametrize("size", [(640, 480), (1920, 1080)])
def test_other_webcam_sizes_blur_in_proportion(size):
    """A smaller or larger webcam frame: the board still fits, and the seed's blur and glare
    cover the same share of the frame as at 1280 px wide (noise and JPEG are per pixel)."""
    w, h = size
    s = sample(44, Options(size=size, photo="hard"))
    assert decode(s.jpeg).shape == (h, w, 3) and s.truth["image_size"] == [w, h]
    ref = sample(44, Options(size=(1280, 720), photo="hard")).truth["style"]["photo"]
    photo = s.truth["style"]["photo"]
    assert photo["blur"] == ref["blur"] and photo["noise"] == ref["noise"]
    assert photo["blur_amount"] == pytest.approx(ref["blur_amount"] * w / 1280)
    assert [g[2] for g in photo["glare"]] == pytest.approx([g[2] * w / 1280 for g in ref["glare"]])
    lay = load_layout()
    board = np.float32([(0, 0), (lay.width, 0), (lay.width, lay.height), (0, lay.height)]).reshape(-1, 1, 2)
    to_image = np.linalg.inv(np.asarray(s.truth["homography"]))     # the truth maps image -> board
    corners = cv2.perspectiveTransform(board, to_image).reshape(-1, 2)
    assert (corners >= 0).all() and (corners[:, 0] <= w).all() and (corners[:, 1] <= h).all()


# -- reference map ----------------------------------------------------------------------
def test_reference_map_svg_and_png():
    svg = reference_svg()
    root = ET.fromstring(svg)
    assert root.get("viewBox") == "0 0 1000 1464"
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {s.id for s in load_layout().slots if s.kind in ("headstream", "dam")} <= texts
    assert {str(c.value) for c in barrage_map().conduits.values()} <= texts
    png = reference_png()
    assert png.shape == (1464, 1000, 3) and png.dtype == np.uint8


# -- command line -----------------------------------------------------------------------
def test_cli_writes_images_and_truth(tmp_path, capsys):
    assert cli_main(["synth", "--n", "2", "--out", str(tmp_path), "--seed", "11", "--size", "1280x960"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0000.jpg", "0000.json", "0001.jpg", "0001.json"]
    assert (tmp_path / "0000.jpg").read_bytes() == sample(11).jpeg
    assert json.loads((tmp_path / "0001.json").read_text())["seed"] == 12
    turned = tmp_path / "turned"
    assert cli_main(["synth", "--n", "1", "--out", str(turned), "--seed", "11", "--placement", "turn"]) == 0
    assert (turned / "0000.jpg").read_bytes() == sample(11, Options(placement="turn")).jpeg
    assert json.loads((turned / "0000.json").read_text())["style"]["camera"]["placement"] == "turn"


def test_cli_mixes_webcams_image_by_image(tmp_path):
    """--size and --placement repeated: each image draws its camera from its own seed, so it
    is still made again from its seed and options alone, whatever the folder around it."""
    assert cli_main(["synth", "--n", "8", "--out", str(tmp_path), "--seed", "40", "--size", "640x480",
                     "--size", "1920x1080", "--placement", "shift", "--placement", "turn", "--jobs", "2"]) == 0
    mix = [Options(size=size, placement=placement) for size in ((640, 480), (1920, 1080)) for placement in ("shift", "turn")]
    cameras = []
    for i in range(8):
        truth = json.loads((tmp_path / f"{i:04d}.json").read_text())
        size, placement = tuple(truth["image_size"]), truth["style"]["camera"]["placement"]
        assert size in {(640, 480), (1920, 1080)} and placement in {"shift", "turn"}
        assert options_for(40 + i, mix) == Options(size=size, placement=placement)
        cameras.append((size, placement))
        if i == 0:
            assert (tmp_path / "0000.jpg").read_bytes() == sample(40, Options(size=size, placement=placement)).jpeg
    assert len(set(cameras)) > 1, "eight images, four cameras: not all of one"
    assert options_for(40, mix[:1]) == mix[0], "one camera: every image is shot with it"


def test_cli_lights_the_pieces_as_asked(tmp_path):
    assert cli_main(["synth", "--n", "1", "--out", str(tmp_path), "--seed", "11", "--lighting", "lamps"]) == 0
    assert (tmp_path / "0000.jpg").read_bytes() == sample(11, Options(lighting="lamps")).jpeg
    assert json.loads((tmp_path / "0000.json").read_text())["style"]["lighting"]["kind"] == "lamps"


def test_cli_wets_the_headstreams_as_asked(tmp_path):
    assert cli_main(["synth", "--n", "1", "--out", str(tmp_path), "--seed", "11", "--headstreams", "wet"]) == 0
    assert (tmp_path / "0000.jpg").read_bytes() == sample(11, Options(headstreams="wet")).jpeg


def test_cli_plays_the_game_as_late_as_asked(tmp_path):
    assert cli_main(["synth", "--n", "1", "--out", str(tmp_path), "--seed", "11", "--games", "late"]) == 0
    assert (tmp_path / "0000.jpg").read_bytes() == sample(11, Options(games="late")).jpeg
    args = argparse.Namespace(size=None, placement=None, lighting=None, finish=None, headstreams=None,
                              lens=None, processing=None, shapes=None, games=["any", "late"])
    assert shot_options(args, occlusion=0.0) == [Options(occlusion=0.0), Options(games="late", occlusion=0.0)]
    assert shot_flags(args) == ["--games", "any", "--games", "late"]


def test_cli_shoots_through_the_lens_asked_for(tmp_path):
    assert cli_main(["synth", "--n", "1", "--out", str(tmp_path), "--seed", "11", "--lens", "wide"]) == 0
    assert (tmp_path / "0000.jpg").read_bytes() == sample(11, Options(lens="wide")).jpeg
    args = argparse.Namespace(size=[(640, 480)], placement=None, lighting=None, finish=None, headstreams=None,
                              lens=["mild", "wide"], processing=None, shapes=None, games=None)
    assert shot_options(args, occlusion=0.0) == [Options(size=(640, 480), lens="mild", occlusion=0.0),
                                                Options(size=(640, 480), lens="wide", occlusion=0.0)]
    assert shot_flags(args) == ["--size", "640x480", "--lens", "mild", "--lens", "wide"]


@pytest.mark.parametrize("bad", [["--n", "0"], ["--n", "x"], ["--n", "1", "--size", "800x600"],
                                 ["--n", "1", "--occlusion", "2"], ["--n", "1", "--placement", "slide"],
                                 ["--n", "1", "--lighting", "candles"], ["--n", "1", "--finish", "velvet"],
                                 ["--n", "1", "--headstreams", "dry"], ["--n", "1", "--lens", "fisheye"],
                                 ["--n", "1", "--processing", "vivid"], ["--n", "1", "--shapes", "clay"],
                                 ["--n", "1", "--games", "endless"]])
def test_cli_rejects_bad_arguments(tmp_path, bad, capsys):
    with pytest.raises(SystemExit) as exc:
        cli_main(["synth", "--out", str(tmp_path), *bad])
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


# -- committed fixtures -----------------------------------------------------------------
def test_fixtures_are_consistent():
    jsons = sorted(FIXTURES.glob("*.json"))
    assert len(jsons) >= 30
    modes = set()
    for path in jsons:
        truth = json.loads(path.read_text())
        GameState.from_dict(truth["state"])
        img = cv2.imread(str(path.with_suffix(".jpg")))
        assert [img.shape[1], img.shape[0]] == truth["image_size"]
        modes.add((truth["style"]["photo_mode"], truth["markers"]["present"], truth["style"]["occluder"] is not None))
    assert any(not m for _, m, _ in modes) and any(o for _, _, o in modes)
    assert {"clean", "hard"} <= {p for p, _, _ in modes}


@pytest.mark.parametrize("group,index", [("clean", 1), ("occluded", 0)])
def test_fixtures_are_reproduced_by_the_fixture_script(group, index):
    sample = render(GROUPS[group][0] + index, fixture_options(group, index))
    assert sample.jpeg == (FIXTURES / f"{group}_{index:02d}.jpg").read_bytes()
