"""Scoring readings against ground truth: slot errors, and which errors the page flags."""
from pathlib import Path

import pytest

from lab.evaluate import Tally, confidence_band, evaluate_folder, score_image, summary
from vision.barrage.pipeline import Pipeline
from vision.reader import LOW_CONFIDENCE, SlotReading

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

TRUTH = {"slots": [
    {"id": "1U", "kind": "dam", "piece": "base+1", "owner": "usa", "drops": 1},
    {"id": "4B", "kind": "conduit", "piece": "conduit", "owner": "italy", "drops": None},
    {"id": "P5_0", "kind": "powerhouse", "piece": None, "owner": None, "drops": None},
    {"id": "A", "kind": "headstream", "piece": None, "owner": None, "drops": 2},
    {"id": "5L", "kind": "dam", "piece": None, "owner": None, "drops": 0, "occluded": True},
]}
SURE, UNSURE = 0.99, LOW_CONFIDENCE / 2


def right_readings(**changes):
    readings = {
        "1U": SlotReading("1U", "dam", "base+1", "usa", 1, SURE, False),
        "4B": SlotReading("4B", "conduit", "conduit", "italy", None, SURE, False),
        "P5_0": SlotReading("P5_0", "powerhouse", "empty", None, None, SURE, False),
        "A": SlotReading("A", "headstream", None, None, 2, SURE, False),
        "5L": SlotReading("5L", "dam", None, None, None, SURE, True),
    }
    readings.update(changes)
    return list(readings.values())


def scored(*boards) -> dict:
    tally = Tally()
    for i, readings in enumerate(boards):
        score_image(tally, TRUTH, readings, f"img{i}")
    return summary(tally)


def test_a_right_board():
    s = scored(right_readings())
    assert s["slot_error"] == 0 and s["boards_fully_correct"] == 1
    assert s["boards_with_every_error_flagged"] == 1 and s["flagged_slots_per_board"] == 0


def test_a_confident_mistake_is_not_flagged():
    s = scored(right_readings(**{"1U": SlotReading("1U", "dam", "base", "usa", 1, SURE, False)}))
    assert s["slot_error"] == pytest.approx(1 / 4)        # the occluded slot is not a visible one
    assert s["errors_flagged"] == 0 and s["boards_with_every_error_flagged"] == 0


def test_unsure_and_unknown_mistakes_are_flagged():
    s = scored(right_readings(**{"1U": SlotReading("1U", "dam", "base", "usa", 1, UNSURE, False),
                                 "4B": SlotReading("4B", "conduit", None, None, None, SURE, True)}))
    assert s["slot_error"] == pytest.approx(2 / 4) and s["boards_fully_correct"] == 0
    assert s["errors_flagged"] == 1 and s["boards_with_every_error_flagged"] == 1
    assert s["flagged_slots_per_board"] == 2


def test_an_occluded_slot_read_confidently_is_a_mistake_nobody_sees():
    s = scored(right_readings(**{"5L": SlotReading("5L", "dam", "empty", None, 0, SURE, False)}))
    assert s["slot_error"] == 0 and s["boards_fully_correct"] == 0
    assert s["occluded_reported_unknown"] == 0 and s["boards_with_every_error_flagged"] == 0


def test_a_board_not_found_is_announced():
    s = scored([], right_readings())
    assert s["boards_not_found"] == 1 and s["slot_error"] == pytest.approx(5 / 9)
    assert s["boards_with_every_error_flagged"] == 1 and s["flagged_slots_per_board"] == 0


def test_a_broken_image_or_truth_file_is_skipped_with_a_warning_not_a_crash(tmp_path, capsys):
    from pathlib import Path

    from lab.evaluate import synthetic_samples
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "synth"
    for suffix in (".jpg", ".json"):
        (tmp_path / f"0000{suffix}").write_bytes((fixtures / f"clean_00{suffix}").read_bytes())
    (tmp_path / "0001.jpg").write_bytes(b"not a picture")
    (tmp_path / "0001.json").write_bytes((fixtures / "clean_01.json").read_bytes())
    (tmp_path / "0002.jpg").write_bytes((fixtures / "clean_02.jpg").read_bytes())
    (tmp_path / "0002.json").write_text("{ truncated")
    samples = list(synthetic_samples(tmp_path))
    assert [p.name for p, _, _ in samples] == ["0000.jpg"]
    assert samples[0][1].shape[2] == 3 and "slots" in samples[0][2]
    err = capsys.readouterr().err
    assert "skipped 0001.jpg: not a readable image" in err and "skipped 0002.jpg: no ground truth in 0002.json" in err


def test_errors_are_told_apart_by_how_blurred_the_frame_was():
    """The generator's style says how it blurred each frame; the error per blur band says
    whether a model fails on blur or on something else. A picture without that style
    (a real photo with hand-made truth) is left out of the bands, not put in one."""
    def truth(blur, amount):
        return TRUTH | {"style": {"photo": {"blur": blur, "blur_amount": amount}}}

    tally = Tally()
    wrong = right_readings(**{"1U": SlotReading("1U", "dam", "base", "usa", 1, SURE, False)})
    score_image(tally, truth("none", 4.0), right_readings(), "sharp")
    score_image(tally, truth("gaussian", 2.0), wrong, "defocused")
    score_image(tally, truth("motion", 8.0), [], "shaken, not found")
    score_image(tally, truth("motion", 3.0), right_readings(), "slightly shaken")
    score_image(tally, TRUTH, wrong, "no style")
    score_image(tally, TRUTH | {"style": "not the generator's"}, wrong, "a style of another kind")
    s = summary(tally)
    assert s["slot_error_by_blur"] == {"defocus > 1.5 px": 1 / 4, "no blur": 0.0,
                                       "shake <= 6 px": 0.0, "shake > 6 px": 1.0}
    assert s["slot_error"] == pytest.approx((1 + 5 + 1 + 1) / (4 + 4 + 5 + 4 + 4 + 4))


def test_each_piece_class_is_scored_on_its_own():
    """A dam read one elevation short is a right slot count away from invisible in the
    overall error; per class it shows. Owner mistakes and drop counts do not count against
    the piece class, an unknown reading does, occluded slots and headstreams take no part.
    Neutral dams, whose heights the decoder knows, are scored apart."""
    tally = Tally()
    low = right_readings(**{"1U": SlotReading("1U", "dam", "base", "usa", 1, SURE, False)})
    wrong_owner = right_readings(**{"4B": SlotReading("4B", "conduit", "conduit", "usa", None, SURE, False)})
    unknown = right_readings(**{"P5_0": SlotReading("P5_0", "powerhouse", None, None, None, 0.0, True)})
    for i, readings in enumerate((right_readings(), low, wrong_owner, unknown)):
        score_image(tally, TRUTH, readings, f"img{i}")
    neutral = {"slots": [{"id": "5U", "kind": "dam", "piece": "base+1", "owner": "neutral", "drops": 1}]}
    score_image(tally, neutral, [SlotReading("5U", "dam", "base+1", "neutral", 1, SURE, False)], "neutral")
    assert summary(tally)["piece_recall"] == {"empty": 3 / 4, "base+1": 3 / 4, "base+1 neutral": 1.0, "conduit": 1.0}
    assert list(summary(tally)["piece_recall"]) == ["empty", "base+1", "base+1 neutral", "conduit"]


def test_each_error_is_told_by_its_cause():
    """The first thing wrong names the error: a dam a piece short with a drop short is a
    height error; a wrong owner only counts where the piece is right."""
    tally = Tally()
    boards = (
        {"1U": SlotReading("1U", "dam", "base", "usa", 0, SURE, False)},                # height (and drops)
        {"1U": SlotReading("1U", "dam", "base+1", "usa", 2, SURE, False)},              # drops over
        {"1U": SlotReading("1U", "dam", "empty", None, 0, SURE, False)},                # missed
        {"4B": SlotReading("4B", "conduit", "conduit", "usa", None, SURE, False)},      # owner
        {"P5_0": SlotReading("P5_0", "powerhouse", "powerhouse", "usa", None, SURE, False)},   # phantom
        {"P5_0": SlotReading("P5_0", "powerhouse", None, None, None, 0.0, True)},      # unknown
        {"A": SlotReading("A", "headstream", None, None, 1, SURE, False)},              # drops short
        {"5L": SlotReading("5L", "dam", "base", "usa", 1, SURE, False)},                # occluded: not a cause
    )
    for i, change in enumerate(boards):
        score_image(tally, TRUTH, right_readings(**change), f"img{i}")
    causes = summary(tally)["errors_by_cause"]
    assert causes == {"dam height": 1, "dam drops over": 1, "dam missed": 1, "conduit owner": 1,
                      "powerhouse phantom": 1, "powerhouse unknown": 1, "headstream drops short": 1}
    assert sum(causes.values()) == sum(summary(tally)["errors_by_kind"].values())


def test_a_sure_mistake_that_breaks_a_rule_is_flagged_as_the_page_flags_it():
    """The page also asks about a slot whose reading breaks a rule or was chosen over one
    that did (``board_state.build_map``), however sure the camera was."""
    too_many = SlotReading("1U", "dam", "base+1", "usa", 3, SURE, False)            # 3 drops, 2 pieces
    chosen = SlotReading("4B", "conduit", "conduit", "usa", None, SURE, False, "looks like italy's colour")
    s = scored(right_readings(**{"1U": too_many, "4B": chosen}))
    assert s["slot_error"] == pytest.approx(2 / 4)
    assert s["errors_flagged"] == 1 and s["boards_with_every_error_flagged"] == 1
    assert s["flagged_slots_per_board"] == 2


def test_the_errors_nobody_is_asked_about_are_told_by_their_cause():
    """Of the errors, those the page does not flag, by cause: a sure wrong height counts, a
    wrong height read unsure (the page asks) and an unknown slot (asked too) do not."""
    tally = Tally()
    boards = (
        {"1U": SlotReading("1U", "dam", "base", "usa", 1, SURE, False)},                # height, sure: not asked
        {"1U": SlotReading("1U", "dam", "base", "usa", 1, UNSURE, False)},              # height, unsure: asked
        {"4B": SlotReading("4B", "conduit", "empty", None, None, SURE, False)},         # missed, sure: not asked
        {"P5_0": SlotReading("P5_0", "powerhouse", None, None, None, 0.0, True)},      # unknown: asked
    )
    for i, change in enumerate(boards):
        score_image(tally, TRUTH, right_readings(**change), f"img{i}")
    s = summary(tally)
    assert s["errors_not_flagged_by_cause"] == {"dam height": 1, "conduit missed": 1}
    assert s["errors_by_cause"]["dam height"] == 2
    assert sum(s["errors_not_flagged_by_cause"].values()) == round(tally.read_errors * (1 - s["errors_flagged"]))


def test_each_reading_is_scored_in_its_confidence_band():
    """How often a reading is right, by how sure it was: the visible slots read, not those read
    unknown nor the occluded ones, each in the band of its confidence."""
    s = scored(right_readings(**{"1U": SlotReading("1U", "dam", "base", "usa", 1, 0.88, False),
                                 "A": SlotReading("A", "headstream", None, None, 2, 0.89, False),
                                 "4B": SlotReading("4B", "conduit", None, None, None, SURE, True)}),
               right_readings(**{"P5_0": SlotReading("P5_0", "powerhouse", "empty", None, None, 0.3, False)}))
    assert s["reading_right_by_confidence"] == {
        "< 0.5": {"slots": 1, "right": 1.0},
        "0.875-0.9": {"slots": 2, "right": 0.5},
        ">= 0.99": {"slots": 4, "right": 1.0},
    }
    assert list(scored(right_readings())["reading_right_by_confidence"]) == [">= 0.99"]


def test_the_confidence_bands_meet_at_the_pages_line():
    assert confidence_band(LOW_CONFIDENCE) == f"{LOW_CONFIDENCE:g}-0.9"
    assert confidence_band(LOW_CONFIDENCE - 1e-6) == f"0.7-{LOW_CONFIDENCE:g}"
    assert confidence_band(0.0) == "< 0.5" and confidence_band(1.0) == ">= 0.99"


def test_each_board_is_scored_in_the_band_of_its_chance_of_being_read_right():
    """Per board found: the visible readings' chances multiplied (the hidden slot left out),
    and whether the board was read fully right."""
    sure = right_readings()                                              # 0.99 ** 4 = 0.96
    doubtful = right_readings(**{"4B": SlotReading("4B", "conduit", "conduit", "italy", None, 0.6, False)})
    wrong = right_readings(**{"1U": SlotReading("1U", "dam", "base", "usa", 1, 0.62, False)})
    s = scored(sure, doubtful, wrong, [])                                # the last board not found
    assert s["boards_right_by_chance"] == {
        "0.5-0.7": {"boards": 2, "right": 0.5},
        ">= 0.9": {"boards": 1, "right": 1.0},
    }


def test_each_image_is_registered_cold_then_read_once_with_its_registration_cached():
    """``evaluate_folder`` times a cold registration of each image apart (``Pipeline.register_cold``)
    and scores one reading of it, made with that registration cached: the steady state at a
    table, whose time is the latency."""
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "synth"
    chosen = sorted(p.name for p in fixtures.glob("clean_*.jpg"))[:2]
    if len(chosen) < 2:
        pytest.skip("no synthetic fixtures committed")
    pipeline = Pipeline.load()
    registered, sources = [], []
    register, read_frame = pipeline.register, pipeline.read_frame

    def recorded_register(frame):
        out = register(frame)
        registered.append(out[2].source)
        return out

    def recorded_read(frame, companies=None):
        reading = read_frame(frame, companies)
        sources.append(reading.registration)
        return reading

    pipeline.register, pipeline.read_frame = recorded_register, recorded_read
    tally = evaluate_folder(fixtures, pipeline, select=lambda p: p.name in chosen)
    # each image: the cold registration, then the read's own, which finds it cached
    assert registered == ["aruco", "cached"] * 2 and sources == ["cached"] * 2
    assert tally.images == 2
    assert len(tally.registration_ms) == len(tally.latency_ms) == 2
    assert min(tally.registration_ms) > 0 and min(tally.latency_ms) > 0
