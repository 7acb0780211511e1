"""The held-out sets the goal is measured on (``lab.heldout_sets``, ``automa-vision eval-sets``)."""
from __future__ import annotations

import json
from collections import Counter

import cv2
import pytest

import lab.heldout_sets as heldout_sets
from automa_vision.cli import main as cli_main
from lab.evaluate import Tally, evaluate_folder, pooled, summary
from lab.heldout_sets import GOAL_GROUP, HeldoutSet, SetError, load_sets, make, meets_goal, on_disk, select
from lab.mistakes_sheet import COLUMNS, HEAD, TILE
from lab.synth.render import Options
from vision.barrage.pipeline import Pipeline

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

TINY = HeldoutSet("tiny", GOAL_GROUP, 2, 5100, {"size": [640, 480], "placement": "turn"})


def test_the_sets_file_names_each_set_once_with_options_the_generator_takes():
    sets = load_sets()
    assert len({s.name for s in sets}) == len(sets)
    for s in sets:
        assert isinstance(s.render_options(), Options) and s.n > 0
    # The goal: the nine sets of docs/benchmarks.md, 1500 frames.
    goal = select(sets, [GOAL_GROUP])
    assert len(goal) == 9 and sum(s.n for s in goal) == 1500
    assert select(sets, []) == goal
    twin = next(s for s in sets if s.name == "turn_hard2_moulded")
    assert twin.render_options() == Options(size=(1280, 720), photo="hard", placement="turn", shapes="moulded")
    assert twin.seed == next(s for s in sets if s.name == "turn_hard2").seed
    late = select(sets, ["late"])     # the turned sets' seeds played longer: fuller maps
    assert [(s.name, s.seed) for s in late] == [("turn_random2_late", 930000), ("turn_hard2_late", 920000)]
    assert late[1].render_options() == Options(size=(1280, 720), photo="hard", placement="turn", games="late")
    # Choices are made on the tuning frames, so they hold full maps too, from a seed of their own:
    # a file that reads early games better by reading late ones worse must not look better there.
    tuning = select(sets, ["tuning"])
    assert sum(s.n for s in tuning) == 900
    tune_late = [s for s in tuning if s.render_options().games == "late"]
    assert [s.name for s in tune_late] == ["tune_late"]
    assert tune_late[0].seed not in {s.seed for s in sets if s is not tune_late[0]}


def test_sets_are_chosen_by_group_or_name_and_unknown_ones_are_refused():
    sets = load_sets()
    chosen = select(sets, ["stress", "heldout_random"])
    assert [s.name for s in chosen] == ["heldout_random", "heldout_wet", "turn_random2_wide"]
    with pytest.raises(SetError, match="no held-out set or group named nine.*groups: goal, late, looks"):
        select(sets, ["nine"])


def test_a_set_is_used_from_disk_only_when_it_is_that_set(tmp_path):
    folder = tmp_path / "tiny"
    assert not on_disk(folder, TINY)
    make(folder, TINY, jobs=1)
    assert on_disk(folder, TINY)
    (folder / "0001.jpg").unlink()          # one image short: made again, not read short
    assert not on_disk(folder, TINY)
    other = HeldoutSet("tiny", GOAL_GROUP, 2, 5200, TINY.options)
    with pytest.raises(SetError, match="holds other images than the set tiny"):
        on_disk(folder, other)


def test_pooled_tallies_add_up():
    a = Tally(images=2, boards_right=1, slots=100, slot_errors=3, by_kind=Counter(dam=2, conduit=1), latency_ms=[1.0])
    b = Tally(images=3, boards_right=0, slots=150, slot_errors=7, by_kind=Counter(dam=5), latency_ms=[2.0, 3.0])
    both = pooled([a, b])
    assert (both.images, both.boards_right, both.slots, both.slot_errors) == (5, 1, 250, 10)
    assert both.by_kind == Counter(dam=7, conduit=1) and both.latency_ms == [1.0, 2.0, 3.0]
    assert summary(both)["slot_error"] == pytest.approx(10 / 250)     # pooled, not a mean of 3 % and 4.7 %
    assert a.images == 2 and a.by_kind == Counter(dam=2, conduit=1)     # the parts are left alone
    assert meets_goal({"slot_error": 0.0005, "boards_fully_correct": 0.99})
    assert not meets_goal({"slot_error": 0.0006, "boards_fully_correct": 1.0})
    assert not meets_goal({"slot_error": 0.0, "boards_fully_correct": 0.985})


@pytest.fixture
def tiny_sets_file(tmp_path, monkeypatch):
    sets = tmp_path / "sets.json"
    sets.write_text(json.dumps({"sets": [{"name": TINY.name, "group": TINY.group, "n": TINY.n, "seed": TINY.seed,
                                          "options": TINY.options}]}))
    monkeypatch.setattr(heldout_sets, "SETS_FILE", sets)
    return tmp_path / "data"


def test_eval_sets_makes_a_missing_set_and_reads_it_as_eval_does(tiny_sets_file, capsys):
    data = tiny_sets_file
    assert cli_main(["eval-sets", "--data", str(data), "--jobs", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    alone = summary(evaluate_folder(data / "tiny", Pipeline.load()))
    figures = out["sets"]["tiny"]
    for key in ("n_images", "slot_error", "boards_fully_correct", "errors_by_kind", "errors_flagged"):
        assert figures[key] == alone[key]
    group = out["groups"][GOAL_GROUP]
    assert group["sets"] == ["tiny"] and group["n_images"] == 2
    assert group["wrong_visible_slots"] == sum(alone["errors_by_kind"].values())
    assert out["goal_met"] == meets_goal(alone)


def test_eval_sets_draws_each_sets_wrong_slots_when_asked(tiny_sets_file, tmp_path, capsys):
    data, sheets = tiny_sets_file, tmp_path / "sheets"
    assert cli_main(["eval-sets", "--data", str(data), "--jobs", "1", "--json", "--mistakes", str(sheets)]) == 0
    figures = json.loads(capsys.readouterr().out)["sets"]["tiny"]
    assert figures["mistakes_png"] == str(sheets / "tiny.png")
    drawn = cv2.imread(figures["mistakes_png"])
    wrong = sum(figures["errors_by_kind"].values())
    assert drawn is not None and drawn.shape[0] == HEAD + TILE * -(-min(wrong, 96) // COLUMNS)


def test_eval_sets_says_which_sheet_it_cannot_write_and_prints_the_figures(tiny_sets_file, tmp_path, capsys):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    assert cli_main(["eval-sets", "--data", str(tiny_sets_file), "--jobs", "1", "--json",
                     "--mistakes", str(blocked)]) == 1
    out, err = capsys.readouterr()
    figures = json.loads(out)["sets"]["tiny"]
    assert figures["n_images"] == 2 and "mistakes_png" not in figures
    assert f"cannot write {blocked / 'tiny.png'}" in err and blocked.read_text() == "not a folder"


def test_eval_sets_reads_knowing_the_companies_when_asked(tiny_sets_file, capsys):
    data = tiny_sets_file
    assert cli_main(["eval-sets", "--data", str(data), "--jobs", "1", "--json", "--game-companies"]) == 0
    figures = json.loads(capsys.readouterr().out)["sets"]["tiny"]
    knowing = summary(evaluate_folder(data / "tiny", Pipeline.load(), game_companies=True))
    assert {k: figures[k] for k in ("slot_error", "errors_by_cause", "reading_right_by_confidence")} == \
        {k: knowing[k] for k in ("slot_error", "errors_by_cause", "reading_right_by_confidence")}


def test_eval_sets_keeps_a_folder_of_other_images_unless_told_to_remake_it(tiny_sets_file, capsys):
    data = tiny_sets_file
    make(data / "tiny", HeldoutSet("tiny", GOAL_GROUP, 2, 5300, TINY.options), jobs=1)
    before = (data / "tiny" / "0000.jpg").read_bytes()
    assert cli_main(["eval-sets", "--data", str(data), "--jobs", "1"]) == 2
    assert "holds other images than the set tiny" in capsys.readouterr().err
    assert (data / "tiny" / "0000.jpg").read_bytes() == before
    assert cli_main(["eval-sets", "--data", str(data), "--jobs", "1", "--remake"]) == 0
    assert on_disk(data / "tiny", TINY)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["set", "images", "slot", "error", "boards", "right", "wrong", "slots", "errors", "flagged"]
    assert lines[1].split()[:2] == ["tiny", "2"] and lines[2].split()[:4] == ["goal", "(1", "set)", "2"]
    tally = evaluate_folder(data / "tiny", Pipeline.load())
    causes = ", ".join(f"{cause} {n}" for cause, n in tally.by_cause.most_common(8)) or "none"
    assert lines[3] == f"goal, wrong slots by cause: {causes}"
    unasked = Counter(m.cause for m in tally.mistakes if not m.flagged)
    assert lines[4] == "goal, of them not flagged by the page: " + (
        ", ".join(f"{cause} {n}" for cause, n in unasked.most_common(8)) or "none")
    expected = "met" if meets_goal(summary(tally)) else "not met"
    assert lines[5].startswith("issue 4's goal on the goal sets") and lines[5].endswith(f": {expected}")


def test_eval_sets_says_so_when_the_data_folder_cannot_be_written(tiny_sets_file, capsys):
    blocked = tiny_sets_file.parent / "a file"
    blocked.write_text("not a folder")
    assert cli_main(["eval-sets", "--data", str(blocked), "--jobs", "1"]) == 2
    assert "cannot write the set under" in capsys.readouterr().err
    assert blocked.read_text() == "not a folder"
