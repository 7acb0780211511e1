"""The whole frame path with the shipped ONNX model, and the read/eval commands."""
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from automa_vision.cli import build_parser, main
from vision.barrage.annotate import annotate
from vision.barrage.cli import load_pipeline
from vision.barrage.pipeline import Pipeline
from vision.barrage.slot_model import SEEN
from vision.capture import open_source
from vision.layout import ProfileFileError

from .drawn import LAYOUT, board_canvas, camera_view

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"


@pytest.fixture(scope="module")
def pipeline():
    return Pipeline.load()


def test_read_frame_gives_every_slot_with_confidence_and_timings(pipeline):
    frame, H_true = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    first = pipeline.read_frame(frame)
    assert first.registration == "aruco" and first.map is not None
    assert [r.id for r in first.slots] == [s.id for s in LAYOUT.slots]
    assert all(0.0 <= r.confidence <= 1.0 for r in first.slots)
    assert {"registration", "rectify", "model", "decode", "total"} <= set(first.timings)
    second = pipeline.read_frame(frame)
    assert second.registration == "cached"
    assert second.motion < 1.0, "the same frame twice is no motion"
    json.dumps(second.to_dict())          # the reading is plain JSON data
    assert annotate(frame, second, LAYOUT).shape == frame.shape


def test_no_board_is_a_reading_without_a_map(pipeline):
    pipeline.registrar.reset()
    reading = pipeline.read_frame(np.full((720, 1280, 3), 100, np.uint8))
    assert reading.map is None and reading.flags[0].slot == "board"
    assert "mirrored" not in reading.flags[0].problem


@pytest.mark.parametrize("convert,problem", [
    (lambda f: cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), "unexpected frame shape (720, 1280)"),
    (lambda f: cv2.cvtColor(f, cv2.COLOR_BGR2BGRA), "unexpected frame shape (720, 1280, 4)"),
    (lambda f: f.astype(np.uint16) * 257, "unexpected frame type uint16"),
    (lambda f: f.astype(np.float32) / 255, "unexpected frame type float32"),
    (lambda f: f[:0], "no frame")])
def test_a_frame_that_is_no_8_bit_bgr_picture_is_refused_by_name(pipeline, convert, problem):
    """Such frames reached OpenCV's colour conversion or marker search and raised its own
    errors (or a numpy broadcast error for BGRA) from deep inside; a converted one reads."""
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    pipeline.registrar.reset()
    with pytest.raises(ValueError, match=re.escape(f"cannot read this frame: {problem}")):
        pipeline.read_frame(convert(frame))
    bgra = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    assert pipeline.read_frame(cv2.cvtColor(bgra, cv2.COLOR_BGRA2BGR)).map is not None


def test_a_mirrored_picture_is_named_as_the_reason_the_board_is_not_found(pipeline):
    """A camera set to mirror its picture: the markers are no markers, but their mirror images are."""
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    pipeline.registrar.reset()
    reading = pipeline.read_frame(cv2.flip(frame, 1))
    assert reading.map is None and "mirrored" in reading.flags[0].problem
    pipeline.registrar.reset()
    assert pipeline.read_frame(frame).map is not None


def test_a_still_board_becomes_stable_after_agreeing_frames():
    p = Pipeline.load()
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    stable = [p.read_frame(frame).stable for _ in range(p.stability.frames + 2)]
    assert stable == [False] * p.stability.frames + [True, False]


def test_the_frame_that_completes_a_state_reads_each_still_frame_mirrored_too(monkeypatch):
    """The stable state averages the still frames' outputs and, asked for once, those of
    each still frame's crops mirrored; single frames are read as they are."""
    import vision.barrage.pipeline as vp
    p = Pipeline.load()
    assert p.read_mirrored
    frames = [camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720), shift=(dx, 0))[0] for dx in (0, 0, 1, 2)]
    frames.append(frames[-1])
    real_run, read = vp.run, []

    def recorded_run(session, inputs):
        read.append(inputs.copy())
        return real_run(session, inputs)

    monkeypatch.setattr(vp, "run", recorded_run)
    readings = [p.read_frame(f) for f in frames]
    # the first frame is motion (nothing before it); the next three complete the spell
    assert [r.stable for r in readings] == [False, False, False, True, False]
    own = read[:4]
    assert len(read) == 4 + p.stability.frames + 1
    for inputs, frame_inputs in zip(read[4:4 + p.stability.frames], own[1:]):
        assert np.array_equal(inputs, frame_inputs[..., ::-1])     # each crop and its context mirrored
    assert not np.array_equal(own[1], own[3])          # each still frame's own crops, not the last one's


def test_without_the_mirrored_reading_a_state_costs_no_extra_model_run(monkeypatch):
    import vision.barrage.pipeline as vp
    p = Pipeline.load()
    p.read_mirrored = False
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    real_run, runs = vp.run, []
    monkeypatch.setattr(vp, "run", lambda session, inputs: runs.append(1) or real_run(session, inputs))
    readings = [p.read_frame(frame) for _ in range(p.stability.frames + 1)]
    assert readings[-1].stable and len(runs) == len(readings)


def test_a_noisy_still_board_gives_at_most_one_state_per_still_spell(tmp_path, capsys):
    from lab.stability_eval import main as stability_main
    for suffix in (".jpg", ".json"):
        (tmp_path / f"0000{suffix}").write_bytes((FIXTURES / f"clean_00{suffix}").read_bytes())
    assert stability_main([str(tmp_path), "--n", "1", "--spell", "6"]) == 0
    figures = json.loads(capsys.readouterr().out)
    # Two still spells of a noisy frame around a passing hand: a state for the first, and
    # at most one more (if the board reads differently after the hand), never a stream.
    assert figures["boards"] == 1 and figures["boards_no_state"] == 0 and figures["phantom_states"] <= 1
    assert {"phantom_moves", "corrections", "boards_phantom_move"} <= set(figures)
    # The first stable state is scored like a single frame: a clean fixture reads ~2-3 % wrong.
    assert figures["stable_slot_error"] <= 0.1 and 0.0 <= figures["stable_boards_fully_correct"] <= 1.0
    assert stability_main([str(tmp_path), "--n", "1", "--spell", "6", "--no-mirrored"]) == 0
    assert json.loads(capsys.readouterr().out)["stable_slot_error"] <= 0.1
    assert stability_main([str(tmp_path), "--n", "1", "--spell", "6", "--game-companies"]) == 0
    assert json.loads(capsys.readouterr().out)["boards_no_state"] == 0
    assert stability_main([str(tmp_path / "missing")]) == 2


def test_read_command_writes_json_and_an_annotated_png(tmp_path, capsys):
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    cv2.imwrite(str(tmp_path / "board.jpg"), frame)
    assert main(["read", str(tmp_path / "board.jpg"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["map"] is not None and len(out["slots"]) == len(LAYOUT.slots)
    assert cv2.imread(out["annotated"]).shape == frame.shape
    seen = [s["confidence"] for s in out["slots"] if not s["unknown"]]
    assert out["board_chance"] == pytest.approx(float(np.prod(seen)), abs=1e-4)
    assert main(["read", str(tmp_path / "board.jpg")]) == 0
    said = capsys.readouterr().out
    assert f"every visible slot read right: {100 * out['board_chance']:.0f} % likely" in said
    assert "hint" not in out and "hint:" not in said, "a reading that breaks no rule needs no hint"


def test_a_reading_that_breaks_the_rules_without_its_empty_board_says_to_calibrate():
    """A printed board's icons read as pieces make more dams than a company owns: the read
    command then says how to calibrate with the empty board; against it, it does not."""
    from types import SimpleNamespace

    from automa.barrage.state import Dam
    from vision.barrage.board_state import MapState
    from vision.barrage.cli import calibration_hint

    spaces = ["1U", "2U", "3U", "4U", "5U", "6U", "7U"]
    broken = SimpleNamespace(map=MapState(dams={s: Dam("usa", 1, 0) for s in spaces}))
    fine = SimpleNamespace(map=MapState(dams={s: Dam("usa", 1, 0) for s in spaces[:2]}))
    assert "calibrate --empty" in calibration_hint(broken, against_empty=False)
    assert calibration_hint(broken, against_empty=True) is None
    assert calibration_hint(fine, against_empty=False) is None
    assert calibration_hint(SimpleNamespace(map=None), against_empty=False) is None
    deep = SimpleNamespace(map=MapState(dams={"1U": Dam("usa", 3, 4)}))      # rulings V14
    assert calibration_hint(deep, against_empty=False) is not None
    assert calibration_hint(deep, against_empty=False, del_monte=["usa"]) is None


def test_read_command_says_an_annotated_png_it_cannot_write_and_still_prints_the_reading(tmp_path, capsys):
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    cv2.imwrite(str(tmp_path / "board.jpg"), frame)
    (tmp_path / "file").write_text("not a folder")
    assert main(["read", str(tmp_path / "board.jpg"), "--json", "--out", str(tmp_path / "file" / "a.png")]) == 1
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["map"] is not None and "annotated" not in out
    assert f"cannot write {tmp_path / 'file' / 'a.png'}" in captured.err
    with pytest.raises(SystemExit) as stop:    # OpenCV writes by the suffix: refused before reading
        main(["read", str(tmp_path / "board.jpg"), "--out", str(tmp_path / "a.txt")])
    assert stop.value.code == 2 and "want a .png file" in capsys.readouterr().err


def test_read_command_names_a_missing_file_and_one_that_is_no_picture(tmp_path, capsys):
    assert main(["read", str(tmp_path / "gone.jpg")]) == 2
    assert capsys.readouterr().err.strip() == f"no such image file: {tmp_path / 'gone.jpg'}"
    (tmp_path / "notes.jpg").write_text("not a picture")
    assert main(["read", str(tmp_path / "notes.jpg")]) == 2
    assert "cannot read image" in capsys.readouterr().err and not (tmp_path / "notes.annotated.png").exists()


def test_read_command_takes_the_games_companies(tmp_path, capsys):
    if not (FIXTURES / "clean_00.json").exists():
        pytest.skip("no synthetic fixtures committed yet")
    image = str(FIXTURES / "clean_00.jpg")
    assert main(["read", image, "--companies", "USA, italy", "--json", "--out", str(tmp_path / "a.png")]) == 0
    owners = {s["owner"] for s in json.loads(capsys.readouterr().out)["slots"]}
    assert owners <= {"usa", "italy", "neutral", "none", None} and "usa" in owners
    with pytest.raises(SystemExit) as stop:
        main(["read", image, "--companies", "usa,spain"])
    assert stop.value.code == 2 and "unknown company 'spain'" in capsys.readouterr().err
    assert build_parser("read").parse_args(["read", image, "--del-monte", "USA"]).del_monte == ["usa"]
    assert build_parser("read").parse_args(["read", image]).del_monte == ()
    with pytest.raises(SystemExit) as stop:
        main(["read", image, "--del-monte", "spain"])
    assert stop.value.code == 2 and "unknown company 'spain'" in capsys.readouterr().err


def test_read_and_eval_can_read_blind_with_every_colour(tmp_path):
    """Rulings V10 is the blind default; ``--every-colour`` reads as before it."""
    for command in ("read", "eval"):
        plain = build_parser(command).parse_args([command, str(tmp_path)])
        every = build_parser(command).parse_args([command, str(tmp_path), "--every-colour"])
        assert load_pipeline(plain).seen == SEEN and load_pipeline(every).seen is None


def copy_pairs(sources, folder: Path) -> Path:
    """Each of the synthetic fixture pictures ``sources`` and its ground truth, copied into ``folder``."""
    folder.mkdir(exist_ok=True)
    for src in sources:
        for suffix in (".jpg", ".json"):
            (folder / (src.stem + suffix)).write_bytes(src.with_suffix(suffix).read_bytes())
    return folder


@pytest.fixture
def two_images(tmp_path) -> Path:
    """A folder of the first two synthetic fixtures."""
    if not sorted(FIXTURES.glob("*.json")):
        pytest.skip("no synthetic fixtures committed yet")
    return copy_pairs(sorted(FIXTURES.glob("*.jpg"))[:2], tmp_path / "two")


def test_eval_command_reports_the_figures(two_images, capsys):
    assert main(["eval", str(two_images), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["n_images"] == 2
    for key in ("slot_error", "boards_fully_correct", "drop_count_error", "latency_ms_median", "latency_ms_p95"):
        assert 0 <= figures[key]
    assert Path(figures["confusion_png"]).exists()
    assert main(["eval", str(two_images), "--json", "--game-companies"]) == 0
    assert json.loads(capsys.readouterr().out)["slot_error"] <= figures["slot_error"]


def test_eval_prints_the_figures_and_the_first_mistakes(two_images, tmp_path, capsys):
    assert main(["eval", str(two_images), "--confusion", str(tmp_path / "c.png")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("slot_error: ") for line in lines)
    mistakes = [line for line in lines if line.startswith("  ")]
    assert mistakes and all(" truth " in line and " read " in line for line in mistakes)


def test_eval_names_a_folder_that_is_not_there_and_one_without_images(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["eval", str(tmp_path / "missing")])
    assert "not a folder" in capsys.readouterr().err
    assert main(["eval", str(tmp_path)]) == 2
    assert "no images with ground truth in" in capsys.readouterr().err


def test_eval_counts_boards_it_could_not_find(tmp_path, capsys):
    if not sorted(FIXTURES.glob("nomarkers_*.json")):
        pytest.skip("no synthetic fixtures committed yet")
    # Without a profile's reference picture a frame without markers cannot be registered.
    copy_pairs((FIXTURES / "nomarkers_00.jpg", FIXTURES / "clean_00.jpg"), tmp_path)
    assert main(["eval", str(tmp_path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["n_images"] == 2 and figures["boards_not_found"] == 1
    assert figures["slot_error"] >= 0.5            # the lost board's slots all count as wrong


def test_watch_gives_one_stable_state_for_a_still_board(tmp_path):
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    for i in range(5):
        cv2.imwrite(str(tmp_path / f"{i:04d}.png"), frame)
    p = Pipeline.load()
    states = list(p.watch(open_source(str(tmp_path))))
    assert len(states) == 1
    reading, moves = states[0]
    assert reading.stable and reading.map is not None and moves == []


def test_a_saved_lens_calibration_also_gives_the_camera_matrix_to_the_crops(tmp_path):
    K = np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]])
    np.savez(tmp_path / "cal.npz", K=K, dist=np.zeros(5))
    (tmp_path / "profile.json").write_text(json.dumps({"calibration": "cal.npz"}))
    calibrated = Pipeline.load(tmp_path / "profile.json")
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    assert calibrated.read_frame(frame).map is not None
    assert np.array_equal(calibrated.camera_matrix, K)


def test_a_board_with_no_markers_is_read_where_its_corners_were_clicked(tmp_path):
    """A profile registered by clicked corners (here with no reference picture to match): the
    board is read where the corners put it, and the reading says the camera must not have moved."""
    frame, H_true = camera_view(board_canvas(LAYOUT, markers=False), LAYOUT, size=(1280, 720), tilt=0.05)
    assert Pipeline.load().read_frame(frame).map is None
    (tmp_path / "profile.json").write_text(json.dumps({"clicked_corners": {"homography": H_true.tolist(), "frame": [1280, 720]}}))
    p = Pipeline.load(tmp_path / "profile.json")
    reading = p.read_frame(frame)
    assert reading.registration == "manual" and reading.map is not None
    assert "corners clicked at calibration" in reading.flags[0].problem and reading.flags[0].slot == "board"
    assert p.read_frame(frame).registration == "manual"
    p.registrar.reset()
    smaller = p.read_frame(cv2.resize(frame, (960, 540)))
    assert smaller.map is None and "fit 1280x720 frames, not 960x540" in smaller.flags[0].problem


@pytest.mark.parametrize("damage, named", [
    ({"profile.json": b'{"clicked_corners": {"homography": [[1, 0, 0], [0, 1, 0]], "frame": [1280, 720]}}'}, "profile.json"),
    ({"profile.json": b'{"clicked_corners": {"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "frame": [0, 720]}}'}, "profile.json"),
    ({"profile.json": b'{"slot_overrides": '}, "profile.json"),                      # cut short
    ({"profile.json": b'{"markers": {"0": [[0, 0], [1, 0], [1, 1]]}}'}, "profile.json"),   # a corner short
    ({"profile.json": b'{"calibration": "lens.npz"}', "lens.npz": b"PK\x03\x04 cut"}, "lens.npz"),
    ({"profile.json": b'{"calibration": "lens.npz"}'}, "lens.npz"),                 # named, not there
    ({"profile.json": b'{"reference_image": "reference.png"}', "reference.png": b"\x89PNG cut"}, "reference.png"),
])
def test_a_damaged_profile_is_named_when_it_is_loaded_not_on_the_first_frame(tmp_path, damage, named):
    for name, data in damage.items():
        (tmp_path / name).write_bytes(data)
    with pytest.raises(ProfileFileError, match=named):
        Pipeline.load(tmp_path / "profile.json")


def test_a_lens_file_of_other_arrays_is_no_lens_calibration(tmp_path):
    np.savez(tmp_path / "lens.npz", K=np.eye(2), dist=np.zeros(5))
    (tmp_path / "profile.json").write_text(json.dumps({"calibration": "lens.npz"}))
    with pytest.raises(ProfileFileError, match=r"K is \(2, 2\)"):
        Pipeline.load(tmp_path / "profile.json")


def test_read_command_names_a_damaged_profile_in_one_line(tmp_path):
    (tmp_path / "profile.json").write_text("[1, 2")
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, size=(1280, 720))
    cv2.imwrite(str(tmp_path / "board.png"), frame)
    with pytest.raises(SystemExit, match="cannot load the profile: .*profile.json cannot be read"):
        main(["read", str(tmp_path / "board.png"), "--profile", str(tmp_path / "profile.json")])
