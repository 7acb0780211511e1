"""Stability (motion + N-frame agreement) and the moves between stable states."""
import numpy as np

from automa.barrage.state import Dam
from vision.board_state import MapState, SlotReading
from vision.changes import diff
from vision.stability import MotionDetector, StabilityFilter


def readings(piece="empty", unknown=False):
    return [SlotReading("4B", "conduit", piece, "germany" if piece != "empty" else None, None, 0.99, unknown),
            SlotReading("A", "headstream", None, None, 1, 0.99)]


def test_a_state_needs_n_still_agreeing_frames_and_is_given_once():
    f = StabilityFilter(frames=3, motion_threshold=3.0)
    assert f.update(0.5, readings()) is None
    assert f.update(0.5, readings()) is None
    assert f.update(0.5, readings()) is not None
    assert f.update(0.5, readings()) is None, "the same state is not given twice"


def test_motion_or_a_changing_reading_resets_the_count():
    f = StabilityFilter(frames=2, motion_threshold=3.0)
    f.update(0.5, readings())
    assert f.update(9.0, readings()) is None          # a hand moves over the board
    assert f.update(0.5, readings()) is None
    assert f.update(0.5, readings("conduit")) is None  # reading still changing
    assert f.update(0.5, readings("conduit"))[0].piece == "conduit"


def test_occluded_slots_stay_unknown_in_the_stable_state():
    f = StabilityFilter(frames=2)
    f.update(0.1, readings("conduit"))
    f.update(0.1, readings("conduit"))
    f.update(0.1, readings("conduit", unknown=True))
    stable = f.update(0.1, readings("conduit", unknown=True))
    assert stable[0].unknown


def test_motion_detector_sees_a_hand_and_not_noise():
    rng = np.random.default_rng(0)
    view = rng.integers(0, 255, (732, 500, 3), dtype=np.uint8)
    m = MotionDetector()
    assert m.score(view) == float("inf")
    noisy = np.clip(view + rng.normal(0, 2, view.shape), 0, 255).astype(np.uint8)
    assert m.score(noisy) < 3.0
    hand = noisy.copy()
    hand[200:500, 100:400] = (150, 170, 210)
    assert m.score(hand) > 3.0


def test_moves_between_two_states():
    before = MapState(dams={"5L": Dam("germany", 1, 0), "1U": Dam("usa", 1, 1)}, conduits={},
                      headstreams={"A": 1, "B": 0})
    after = MapState(dams={"5L": Dam("germany", 2, 2), "1U": Dam("usa", 1, 1), "2L": Dam("italy", 1, 0)},
                     conduits={"4B": "germany"}, powerhouses={"P5_0": "italy"}, headstreams={"A": 3, "B": 0})
    texts = [m.text for m in diff(before, after)]
    assert "germany built a conduit on 4B" in texts
    assert "2 drops added to the dam on 5L" in texts
    assert "germany added 1 elevation to the dam on 5L" in texts
    assert "italy built a dam on 2L" in texts
    assert "italy built a powerhouse on P5_0" in texts
    assert "2 drops added to headstream A" in texts
    assert len(texts) == 6


def test_unknown_slots_give_no_moves():
    before = MapState(conduits={})
    after = MapState(conduits={"4B": "germany"}, unknown=["4B"])
    assert diff(before, after) == []
    assert [m.text for m in diff(MapState(dams={"5L": Dam("usa", 2, 2)}), MapState(dams={"5L": Dam("usa", 2, 1)}))] \
        == ["1 drop left the dam on 5L"]
