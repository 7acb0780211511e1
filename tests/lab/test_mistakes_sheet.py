"""The contact sheet of an evaluation's wrong slots (``lab.mistakes_sheet``, ``eval --mistakes``)."""
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from automa_vision.cli import main
from lab.evaluate import Mistake, Tally, score_image
from lab.mistakes_sheet import ASKED, COLUMNS, HEAD, PICTURE, SILENT, TILE, box_key, captions, said, sheet
from vision.layout import load_layout
from vision.paper_white import frame_paper
from vision.pose import camera_position
from vision.reader import SlotReading
from vision.rectify import canonical_view, plan_crops
from vision.registration import process_detector

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"
LAYOUT = load_layout()


def mistake(image: str, truth: dict, read: SlotReading, cause: str, flagged: bool = False) -> Mistake:
    t = SlotReading(truth["id"], truth["kind"], truth["piece"], truth["owner"], truth["drops"], 1.0)
    return Mistake(image, truth["id"], cause, t, read, flagged)


@pytest.fixture()
def folder(tmp_path) -> Path:
    for suffix in (".jpg", ".json"):
        shutil.copy(FIXTURES / f"clean_00{suffix}", tmp_path / f"clean_00{suffix}")
    return tmp_path


def slot_truth(folder: Path, kind: str, piece=True) -> dict:
    truth = json.loads((folder / "clean_00.json").read_text())
    return next(s for s in truth["slots"]
                if s["kind"] == kind and not s.get("occluded") and (s["piece"] not in (None, "empty")) == piece)


def test_a_mistake_reads_as_the_eval_line_and_says_whether_it_is_flagged():
    truth = {"slots": [{"id": "1U", "kind": "dam", "piece": "base+1", "owner": "usa", "drops": 1}]}
    tally = Tally()
    score_image(tally, truth, [SlotReading("1U", "dam", "base", "usa", 1, 0.99)], "img0")
    score_image(tally, truth, [SlotReading("1U", "dam", "base", "usa", 1, 0.3)], "img1")
    sure, unsure = tally.mistakes
    assert str(sure) == "img0 1U: truth base+1/usa/1 read base/usa/1 (unknown=False, conf 0.99)"
    assert sure.cause == "dam height" and not sure.flagged and unsure.flagged
    assert str(unsure).endswith("conf 0.30, flagged)")


def test_a_dams_drops_are_seen_on_its_lake_and_everything_else_on_its_slot():
    dam = {"id": "3U", "kind": "dam", "piece": "base", "owner": "italy", "drops": 1}
    read = SlotReading("3U", "dam", "base", "italy", 0, 0.9)
    assert box_key(mistake("a", dam, read, "dam drops short")) == "lake:3U"
    assert box_key(mistake("a", dam, SlotReading("3U", "dam", "empty", None, 0, 0.9), "dam missed")) == "3U"
    assert captions(mistake("0007", dam, read, "dam drops short")) == ("0007 3U 0.90", "base ita 1d > base ita 0d")


@pytest.mark.parametrize("reading, text", [
    (SlotReading("A", "headstream", None, None, 3, 0.8), "3 drops"),
    (SlotReading("1L", "dam", "base+2", "neutral", 2, 0.8), "base+2 ntr 2d"),
    (SlotReading("1L", "dam", "empty", None, 0, 0.8), "empty"),
    (SlotReading("4B", "conduit", "conduit", "france", None, 0.8), "conduit fra"),
    (SlotReading("4B", "conduit", None, None, None, 0.8, unknown=True), "unknown"),
])
def test_a_reading_is_said_in_a_few_characters(reading, text):
    assert said(reading) == text


def test_each_tile_is_the_box_the_models_read_framed_by_whether_the_page_asks(folder):
    conduit, empty = slot_truth(folder, "conduit"), slot_truth(folder, "powerhouse", piece=False)
    missed = mistake("clean_00", conduit, SlotReading(conduit["id"], "conduit", "empty", None, None, 0.97), "conduit missed")
    phantom = mistake("clean_00", empty, SlotReading(empty["id"], "powerhouse", "powerhouse", "usa", None, 0.6),
                      "powerhouse phantom", flagged=True)
    picture = sheet(folder, [phantom, missed], LAYOUT)
    assert picture.shape == (HEAD + TILE, COLUMNS * TILE, 3)
    first, second = (picture[HEAD:, i * TILE:(i + 1) * TILE] for i in range(2))
    # Surest first: the confident miss, which no flag catches, framed red; the unsure phantom amber.
    assert tuple(first[1, TILE // 2]) == SILENT and tuple(second[1, TILE // 2]) == ASKED
    # The tile shows the conduit's box cut from the normalised view by the true homography.
    frame = cv2.imread(str(folder / "clean_00.jpg"))
    H = np.asarray(json.loads((folder / "clean_00.json").read_text())["homography"])
    view = canonical_view(frame, H, LAYOUT, frame_paper(frame, LAYOUT, process_detector()))
    x0, y0, x1, y1 = plan_crops(LAYOUT, camera_position(H, frame.shape)).rects[LAYOUT.box_index()[conduit["id"]]]
    size = min(PICTURE, TILE - 8)     # a conduit's box is about square
    inner = first[4 + (PICTURE - size) // 2:, (TILE - size) // 2:][:size, :size].astype(float)
    box = cv2.resize(view[int(y0):int(np.ceil(y1)), int(x0):int(np.ceil(x1))], (size, size)).astype(float)
    assert np.abs(inner - box).mean() < 12
    assert np.abs(inner - inner.mean((0, 1))).mean() > 4       # a picture, not a blank


def test_an_image_that_cannot_be_read_again_is_left_out(folder):
    conduit = slot_truth(folder, "conduit")
    gone = mistake("missing", conduit, SlotReading(conduit["id"], "conduit", "empty", None, None, 0.9), "conduit missed")
    assert sheet(folder, [gone], LAYOUT).shape == (HEAD, COLUMNS * TILE, 3)


def test_eval_draws_the_sheet_and_names_it(folder, tmp_path, capsys):
    png = tmp_path / "out" / "mistakes.png"
    assert main(["eval", str(folder), "--json", "--confusion", str(tmp_path / "c.png"),
                 "--mistakes", str(png), "--mistakes-most", "3"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["mistakes_png"] == str(png)
    drawn = cv2.imread(str(png))
    visible = [s for s in json.loads((folder / "clean_00.json").read_text())["slots"] if not s.get("occluded")]
    wrong = round(figures["slot_error"] * len(visible))
    assert drawn.shape[1] == COLUMNS * TILE and drawn.shape[0] == HEAD + (TILE if wrong else 0)
    with pytest.raises(SystemExit):
        main(["eval", str(folder), "--mistakes", str(png), "--mistakes-most", "0"])


def test_a_sheet_that_cannot_be_written_is_said_and_the_figures_still_printed(folder, tmp_path, capsys):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    assert main(["eval", str(folder), "--json", "--confusion", str(tmp_path / "c.png"),
                 "--mistakes", str(blocked / "mistakes.png")]) == 1
    out, err = capsys.readouterr()
    figures = json.loads(out)
    assert figures["n_images"] == 1 and "mistakes_png" not in figures
    assert f"cannot write {blocked / 'mistakes.png'}" in err and blocked.read_text() == "not a folder"


def test_a_sheet_must_be_a_png_before_anything_is_read(folder, capsys):
    for option in ("--mistakes", "--confusion"):
        with pytest.raises(SystemExit) as stopped:
            main(["eval", str(folder), option, "out/mistakes.txt"])
        assert stopped.value.code == 2 and "want a .png file" in capsys.readouterr().err
