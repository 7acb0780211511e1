"""The dam-height reader judged alone (``python -m lab.reader_eval``): what it counts,
with a stand-in reader whose answers are known, and the shipped reader on fixture images."""
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

import lab.heldout_sets as heldout_sets
from lab.bands import band as band_of
from lab.reader_eval import LEAN_BANDS, ReaderTally, folders_named, main, summary, tally_frame
from lab.truth_view import FrameDams, truth_dams
from vision.barrage.dam_heights import HEIGHTS, SIZE
from vision.layout import load_layout

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"


class StandIn:
    """An ONNX session's ``run`` that answers with ``answer(roles)``: one height per dam."""

    def __init__(self, answer):
        self.answer = answer
        self.calls = 0

    def run(self, names, feeds):
        assert names == ["heights"] and feeds["dams"].shape[1:] == (4, SIZE, SIZE)
        self.calls += 1
        return [np.eye(len(HEIGHTS), dtype=np.float32)[self.answer(feeds["roles"])]]


def frame(heights, roles, leans):
    n = len(heights)
    return FrameDams([np.zeros((SIZE, SIZE, 3), np.uint8)] * n, list(leans), list(heights), list(roles))


def test_a_reader_that_always_says_base_errs_on_exactly_the_raised_company_dams():
    # company: base, base+1, base+2, base+1; a neutral base+2 is a reference, never counted
    dams = frame([0, 1, 2, 1, 2], [0, 0, 0, 0, 3], [0.1, 0.2, 0.6, 0.4, 0.3])
    tally = ReaderTally()
    tally_frame(tally, StandIn(lambda roles: np.zeros(len(roles), int)), dams, references=False)
    f = summary(tally, references=False)
    assert (f["company_dams"], f["wrong"], f["frames"]) == (4, 3, 1)
    assert f["error_by_height"] == {"base": 0.0, "base+1": 1.0, "base+2": 1.0}
    assert f["raised_error_by_lean"] == {"< 0.15": None, "0.15-0.3": 1.0, "0.3-0.5": 1.0, ">= 0.5": 1.0}
    assert "wrong_with_references" not in f


def test_knowing_the_others_gives_each_company_dam_every_other_ones_true_height():
    truth = np.array([0, 1, 2, 1, 2])
    roles = np.array([0, 0, 0, 0, 3])
    seen = []

    def answer(given):
        seen.append(given.copy())
        # reads right only where every company dam but one is given as a reference at its height
        unknown = np.flatnonzero(given == 0)
        out = np.zeros(len(given), int)
        if len(unknown) == 1:
            out[unknown] = truth[unknown]
        return out

    tally = ReaderTally()
    reader = StandIn(answer)
    tally_frame(tally, reader, frame(truth, roles, [0.5] * 5), references=True)
    f = summary(tally, references=True)
    assert reader.calls == 1 + 4, "one read of the frame, then one per company dam"
    assert f["wrong"] == 3 and f["wrong_with_references"] == 0 and f["error_with_references"] == 0.0
    for i, given in enumerate(seen[1:]):
        expected = 1 + truth
        expected[i] = 0
        expected[4] = 3           # the neutral dam keeps its own role
        assert given.tolist() == expected.tolist()


def test_a_frame_without_company_dams_counts_nothing():
    tally = ReaderTally()
    reader = StandIn(lambda roles: np.zeros(len(roles), int))
    tally_frame(tally, reader, frame([1], [2], [0.3]), references=True)
    assert tally.frames == 0 and reader.calls == 0 and summary(tally, True)["error"] is None


@pytest.mark.parametrize("lean,band", [(0.0, "< 0.15"), (0.15, "0.15-0.3"), (0.49, "0.3-0.5"), (1.4, ">= 0.5")])
def test_lean_bands(lean, band):
    assert band_of(LEAN_BANDS, lean) == band


def test_the_shipped_reader_on_fixture_images(tmp_path, capsys):
    for i, name in enumerate(("clean_00", "clean_01", "hard_09")):
        for ext in (".jpg", ".json"):
            shutil.copy(FIXTURES / (name + ext), tmp_path / f"{i:04d}{ext}")
    layout = load_layout()
    expected = 0
    for i in range(3):
        truth = json.loads((tmp_path / f"{i:04d}.json").read_text())
        expected += sum(1 for s in truth["slots"] if s["kind"] == "dam" and not s.get("occluded")
                        and s["piece"] in HEIGHTS and s["owner"] != "neutral")
    assert main([str(tmp_path), "--json", "--jobs", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {tmp_path.name, "pooled"}
    f = figures["pooled"]
    assert f["company_dams"] == expected > 0
    assert 0 <= f["wrong"] <= f["company_dams"] and f["error"] == pytest.approx(f["wrong"] / expected, abs=1e-4)
    # the crops are the training cut's
    dams = truth_dams(layout, 0, cv2.imread(str(tmp_path / "0000.jpg")),
                      json.loads((tmp_path / "0000.json").read_text()))
    assert all(c.shape == (SIZE, SIZE, 3) for c in dams.crops) and len(dams.crops) == len(dams.roles)


def test_a_missing_folder_or_reader_is_said(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "nowhere")])
    assert stop.value.code == 2 and "not a folder" in capsys.readouterr().err
    assert main([str(tmp_path), "--heights", str(tmp_path / "none.onnx")]) == 2
    assert "not found" in capsys.readouterr().err
    bad = tmp_path / "reader.onnx"
    bad.write_bytes(b"not onnx")
    assert main([str(tmp_path), "--heights", str(bad)]) == 2
    assert "not a dam-height reader" in capsys.readouterr().err
    assert main([str(tmp_path)]) == 2          # a folder without images: no table of zeros
    assert "no visible standing company dam" in capsys.readouterr().err


def test_held_out_sets_are_named_by_set_or_group_and_made_where_missing(tmp_path, monkeypatch, capsys):
    sets = tmp_path / "sets.json"
    sets.write_text(json.dumps({"sets": [
        {"name": "early", "group": "pair", "n": 2, "seed": 5200, "options": {"size": [640, 480]}},
        {"name": "full", "group": "pair", "n": 2, "seed": 5300, "options": {"size": [640, 480], "games": "late"}}]}))
    monkeypatch.setattr(heldout_sets, "SETS_FILE", sets)
    data = tmp_path / "data"
    assert main(["pair", "--data", str(data), "--heights", str(tmp_path / "none.onnx")]) == 2
    assert "not found" in capsys.readouterr().err and not data.exists()    # said before any set is made
    assert folders_named(["pair", "full"], data, 1) == [data / "early", data / "full"]    # each once
    assert sorted(p.name for p in (data / "full").iterdir()) == ["0000.jpg", "0000.json", "0001.jpg", "0001.json"]
    assert main(["full", "--data", str(data), "--json", "--jobs", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"full", "pooled"}
    truths = [json.loads((data / "full" / f"000{i}.json").read_text()) for i in range(2)]
    assert figures["pooled"]["company_dams"] == sum(
        1 for t in truths for s in t["slots"]
        if s["kind"] == "dam" and not s.get("occluded") and s["piece"] in HEIGHTS and s["owner"] != "neutral")
    with pytest.raises(SystemExit) as stop:
        main(["nine", "--data", str(data)])
    assert stop.value.code == 2 and "not a folder, nor a held-out set or group (groups: pair)" in capsys.readouterr().err
