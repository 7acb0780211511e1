"""lab.height_limits: what a dam's height needs, from the geometry of the ground truth."""
import json

import cv2
import numpy as np
import pytest

from lab.height_limits import (Printing, Reach, Reads, SeenDam, along_lean, along_shadow, frame_dams, heights_read,
                               main, printings, read_frame)
from lab.synth.render import Options, render
from lab.truth_view import truth_dams
from vision.layout import load_layout

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


@pytest.fixture(scope="module")
def sample():
    return render(930_004, Options(size=(640, 480), placement="turn"))


def test_frame_dams_are_the_truths_visible_standing_dams_with_the_readers_leans(sample):
    layout = load_layout()
    printing, dams = frame_dams(sample.truth, layout)
    style = sample.truth["style"]["pieces"]
    assert printing == Printing(style["dam_width"], style["dam_depth"], style["base_height"], style["elevation_height"])
    frame = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)
    cut = truth_dams(layout, 0, frame, sample.truth)        # what the reader is trained and judged on
    assert [d.lean.ratio for d in dams] == pytest.approx(cut.leans)
    assert [d.elevations for d in dams] == cut.heights
    assert [d.neutral for d in dams] == [role > 0 for role in cut.roles]
    assert any(d.neutral for d in dams) and any(not d.neutral for d in dams)
    box = layout.slot("1U")
    cot = 1 / np.tan(np.radians(style["light_elevation"]))
    for d in dams:           # each way's direction is a unit vector over the space's sides
        for reach in (d.lean, d.shadow):
            assert (reach.per_width / box.w) ** 2 + (reach.per_depth / box.h) ** 2 == pytest.approx(1.0)
        assert d.shadow.ratio == pytest.approx(cot)      # one distant light: one shadow length per px of height


def test_under_lamps_a_frame_has_no_shadow_measure(sample):
    lit = {**sample.truth, "style": {**sample.truth["style"], "lighting": {"kind": "lamps", "lights": []}}}
    _, dams = frame_dams(lit, load_layout())
    assert dams and all(d.shadow is None for d in dams)
    tally = Reads()
    read_frame(tally, Printing(0.8, 0.45, 12.0, 10.0), dams, "shadow", 0.5, printings("shadow"), np.random.default_rng(0))
    assert tally == Reads(frames_left_out=1)
    read_frame(tally, Printing(0.8, 0.45, 12.0, 10.0), dams, "silhouette", 0.5, printings("silhouette"),
               np.random.default_rng(0))
    assert tally.company > 0


def _dam(elevations: int, neutral: bool, lean: float = 0.3, angle: float = 0.0) -> SeenDam:
    """A dam leaning ``lean`` at ``angle`` to the map's x axis, lit from straight across that."""
    way = (73 * abs(np.cos(angle)), 59 * abs(np.sin(angle)))
    return SeenDam(elevations, neutral, Reach(lean, *way), Reach(0.8, way[1] * 73 / 59, way[0] * 59 / 73))


def test_a_short_raised_dam_passes_for_a_base_alone_and_not_beside_the_neutral_dams():
    """Base 10 px and elevations 9 px: a base+1 stands 19 px high, as a tall base would. The
    neutral dams (heights known) show the printing, and the dam is read right with them."""
    printing = Printing(0.8, 0.45, 10.0, 9.0)
    dams = [_dam(1, False), _dam(0, True), _dam(2, True)]
    tally = Reads()
    read_frame(tally, printing, dams, "height", 0.01, printings("height"), np.random.default_rng(0))
    assert (tally.company, tally.wrong_alone, tally.wrong_with_frame) == (1, 1, 0)


def test_a_silhouette_measured_finely_is_read_with_its_frame():
    """The footprint's extent along the lean is as long as an elevation's lean or longer: a
    dam alone cannot be read from its length, the frame's other dams fix the printing."""
    printing = Printing(0.7, 0.4, 16.0, 12.0)
    dams = [_dam(k, neutral, lean, angle) for k, neutral, lean, angle in
            [(0, True, 0.5, 0.2), (1, True, 0.4, 1.2), (2, True, 0.6, 0.7), (0, True, 0.45, 1.5),
             (2, False, 0.5, 0.4), (1, False, 0.35, 1.0), (0, False, 0.55, 0.1)]]
    tally = Reads()
    read_frame(tally, printing, dams, "silhouette", 0.2, printings("silhouette"), np.random.default_rng(1))
    assert tally.company == 3 and tally.wrong_with_frame == 0
    assert tally.wrong_alone >= 1
    # the measures themselves: footprint reach plus the top's lean, or its shadow's
    d = dams[4]
    assert along_lean(d, 2, printing) == pytest.approx(d.lean.per_width * 0.7 + d.lean.per_depth * 0.4 + (16 + 24) * 0.5)
    assert along_shadow(d, 2, printing) == pytest.approx(
        d.shadow.per_width * 0.7 + d.shadow.per_depth * 0.4 + (16 + 24) * 0.8)
    both = Reads()
    read_frame(both, printing, dams, "silhouette+shadow", 0.2, printings("silhouette+shadow"), np.random.default_rng(1))
    assert both.company == 3 and both.wrong_with_frame == 0


def test_a_frame_without_company_dams_reads_nothing():
    tally = Reads()
    read_frame(tally, Printing(0.8, 0.4, 12.0, 10.0), [_dam(0, True)], "height", 0.1, printings("height"),
               np.random.default_rng(0))
    assert tally == Reads()


def test_cli_reads_a_folder_and_says_what_it_cannot(tmp_path, sample, capsys):
    (tmp_path / "0000.jpg").write_bytes(sample.jpeg)
    (tmp_path / "0000.json").write_text(json.dumps(sample.truth))
    assert main([str(tmp_path), "--sigmas", "0.01,0.3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    company = sum(1 for s in sample.truth["slots"] if s["kind"] == "dam" and not s["occluded"]
                  and s["piece"] not in (None, "empty") and s["owner"] != "neutral")
    assert out["measure"] == "height" and set(out["sigmas"]) == {"0.01", "0.3"}
    assert out["sigmas"]["0.01"]["company_dams"] == company > 0
    # its neutral dams stand at all three heights: a fine measure then leaves nothing in doubt
    assert {d.elevations for d in frame_dams(sample.truth, load_layout())[1] if d.neutral} == {0, 1, 2}
    assert out["sigmas"]["0.01"]["wrong_with_frame"] == 0
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "nowhere")])
    assert stop.value.code == 2 and "not a folder" in capsys.readouterr().err
    assert main([str(tmp_path), "--sigmas", "a,b"]) == 2
    assert main([str(tmp_path), "--sigmas", "0"]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([str(empty)]) == 2           # no table of zeros
    assert "no visible standing company dam" in capsys.readouterr().err
    (tmp_path / "0001.jpg").write_bytes(sample.jpeg)
    (tmp_path / "0001.json").write_text("{not json")
    assert main([str(tmp_path), "--sigmas", "0.1"]) == 0
    captured = capsys.readouterr()
    assert "skipped" in captured.err and "0001.json" in captured.err
    assert f"| 0.1 | {company} |" in captured.out


def test_a_part_measured_loosely_says_nothing():
    """Each part of a measure has its own error: a lean known to a kilometre leaves the
    reading to the shadow, as if only the shadow were measured."""
    printing = Printing(0.7, 0.4, 16.0, 12.0)
    dams = [_dam(k, neutral, lean, angle) for k, neutral, lean, angle in
            [(0, True, 0.1, 0.2), (2, True, 0.1, 1.2), (1, False, 0.1, 0.4), (0, False, 0.1, 1.0)]]
    # the company dams' leans read long, by more than two elevations' lean (1.2 px each)
    lean = [float(along_lean(d, d.elevations, printing)) + (0.0 if d.neutral else 3.0) for d in dams]
    shadow = [float(along_shadow(d, d.elevations, printing)) for d in dams]
    grid = printings("silhouette+shadow")
    both = heights_read(dams, [[a, b] for a, b in zip(lean, shadow)], [[1e6, 0.5]] * len(dams), "silhouette+shadow", grid)
    alone = heights_read(dams, [[b] for b in shadow], [[0.5]] * len(dams), "shadow", grid)
    assert set(both) == set(alone) == {2, 3}
    for i in both:
        for got, want in zip(both[i], alone[i]):
            assert got == pytest.approx(want, abs=1e-6)
        assert both[i][1].argmax() == dams[i].elevations
    trusting_lean = heights_read(dams, [[a] for a in lean], [[0.2]] * len(dams), "silhouette", grid)
    assert any(trusting_lean[i][1].argmax() != dams[i].elevations for i in trusting_lean), "the lean misleads"
