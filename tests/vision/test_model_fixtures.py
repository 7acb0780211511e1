"""The shipped ONNX model on the committed synthetic fixtures (tests/fixtures/synth/).

Two tiers, both on real ONNX inference:
- the issue-4 goal (per-slot error <= 0.05 %, >= 99 % boards fully correct, occluded
  slots reported unknown). The shipped model does not reach it yet (see
  models/MODEL_CARD.md), so these are strict xfails: the day a model meets the goal they
  turn into failures, and the marker must come off.
- a regression floor at the level the shipped model measures (with a small margin), so a
  worse model or a broken stage fails now.
"""
import math
from pathlib import Path

import pytest

from lab.evaluate import BOARDS_GOAL, SLOT_ERROR_GOAL, Tally, evaluate_folder, synthetic_samples, truth_companies
from vision.barrage.pipeline import Pipeline
from vision.barrage.slot_model import SEEN

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"
NOT_YET = pytest.mark.xfail(strict=True, reason="goal not reached by the shipped model (models/MODEL_CARD.md)")

# Measured with the shipped models on the 30 fixtures that have markers (docs/benchmarks.md):
# slot error 2.22 % (43 of 1934; 44 before 2026-11-27, twenty-sixth session), occluded ->
# unknown 96.1 % (73 of 76; 74 with the files before it, and before 2026-11-26,
# fourth session). That occluded floor went 0.95 -> 0.94 with those files:
# two slots of 76 here, while the nine held-out sets report 2173 of 2302 occluded slots unknown
# with them against 2174 before, and the fifteen other sets 4569 of 4844 against 4563.
# The slot-error floor rose from 3 % on 2026-11-23: the fixtures were made again once synthetic boards had as many raised dams as
# a real table (a third of the company dams, not 8 %), and a raised dam is the camera's
# weakest reading (4.55 % wrong with the slot model alone); the dam-height reader brought
# it down again, and the floor with it (5 -> 4.5 %; 4.2 % with the reader trained 24 epochs;
# 3.9 % with both models trained on 10,000 images on a GPU; 3.7 % with the drop counters
# of headstreams and lakes, 3.36 -> 3.26 %; 60 -> 56 wrong slots of 1934, 2.90 %, occluded 73 of
# 76, with the slot model fine-tuned for webcams on 2026-11-25; 53 wrong, 2.74 %, occluded 74
# of 76, with the slot model, the height reader and the drop counters fine-tuned on a GPU on
# webcam-mix images, 2026-11-25 later; 51 wrong, 2.64 %, with each lake read without the
# training lakes' lean to no drops, rulings V2, 2026-11-25 evening).
FLOOR_SLOT_ERROR = 0.030
FLOOR_OCCLUDED_UNKNOWN = 0.94


pytestmark = pytest.mark.skipif(not any(FIXTURES.glob("*.json")),
                                reason="no synthetic fixtures committed (tests/fixtures/synth/)")


@pytest.fixture(scope="module")
def tally() -> Tally:
    return evaluate_folder(FIXTURES, Pipeline.load())


@NOT_YET
def test_goal_slot_error(tally):
    allowed = math.floor(SLOT_ERROR_GOAL * tally.slots)
    assert tally.slot_errors <= allowed, f"{tally.slot_errors} wrong slots (allowed {allowed})"


@NOT_YET
def test_goal_boards_fully_correct(tally):
    allowed = math.floor((1 - BOARDS_GOAL) * tally.images + 1e-9)
    assert tally.images - tally.boards_right <= allowed


@NOT_YET
def test_goal_occluded_slots_are_reported_unknown(tally):
    assert tally.occluded_unknown == tally.occluded


def test_floor_on_fixtures_with_markers():
    marked = evaluate_folder(FIXTURES, Pipeline.load(), select=lambda p: not p.name.startswith("nomarkers"))
    assert marked.images == 30
    assert marked.slot_errors / marked.slots <= FLOOR_SLOT_ERROR, marked.mistakes[:20]
    assert marked.occluded_unknown / marked.occluded >= FLOOR_OCCLUDED_UNKNOWN


def test_knowing_the_games_companies_reads_only_theirs_and_changes_only_what_blind_could_not_know():
    """Rulings V4, as a session reads: no piece of a company nobody plays. Knowing the game's
    companies changes a reading only where the blind one named a company nobody plays, or where
    it now names one the game plays that the blind reading shows no piece of (rulings V10: read
    blind, a company the frame does not surely show is not offered). Over the goal sets knowing
    them reads fewer slots wrong (2114 against 2226 with the files of 2026-11-27, twenty-sixth
    session, docs/benchmarks.md); on these 30 frames the second kind once puts a France conduit,
    flagged, on an empty space that blind reading left empty."""
    pipeline = Pipeline.load()
    colourless = {"neutral", "none", None}       # owners any game may show
    changed = 0
    for img, frame, truth in synthetic_samples(FIXTURES, select=lambda p: not p.name.startswith("nomarkers")):
        game = set(truth_companies(truth))
        blind = pipeline.read_frame(frame).slots
        known = pipeline.read_frame(frame, truth_companies(truth)).slots
        assert {s.owner for s in known} <= game | colourless, img.name
        shown_blind = {s.owner for s in blind} & game
        for b, k in zip(blind, known):
            if (b.piece, b.owner) != (k.piece, k.owner):
                changed += 1
                assert b.owner not in game | colourless or k.owner in game - shown_blind, \
                    (img.name, b.id, (b.piece, b.owner), (k.piece, k.owner))
    assert changed > 0, "the fixtures show companies nobody plays read blind, which knowing the game corrects"


def test_read_blind_the_companies_surely_seen_stand_for_the_games():
    """Rulings V10, as ``automa-vision read`` without ``--companies`` reads: the companies the
    frame surely shows a piece of stand for the game's. On a clean fixture those are the
    companies whose pieces stand there; asking for more surety than any reading can have
    leaves only neutral dams and pieces with no company colour."""
    img, frame, truth = next(synthetic_samples(FIXTURES, select=lambda p: p.name.startswith("clean")))
    built = {s["owner"] for s in truth["slots"] if s["owner"] and not s["occluded"]}
    pipeline = Pipeline.load()
    assert pipeline.seen == SEEN
    assert {s.owner for s in pipeline.read_frame(frame).slots} - {None} == built, img.name
    pipeline.seen = 1.01
    assert {s.owner for s in pipeline.read_frame(frame).slots} <= {"neutral", "none", None}
