"""Stability (motion, and the still frames read together) and the moves between stable states."""
import numpy as np

from automa.barrage.state import Dam
from vision.barrage.board_state import MapState
from vision.barrage.changes import diff
from vision.barrage.slot_model import SEEN, decode
from vision.reader import SlotReading
from vision.stability import MotionDetector, StabilityFilter

KINDS = ["conduit", "headstream"]


def outputs(p_conduit: float, occluded: bool = False) -> dict[str, np.ndarray]:
    """Model outputs for a conduit slot (``p_conduit``: the net's belief in a German conduit)
    and a headstream with one drop."""
    piece = np.full((2, 6), -30.0, np.float32)
    piece[0, 0], piece[0, 4] = np.log(1 - p_conduit), np.log(p_conduit)
    owner = np.full((2, 7), -30.0, np.float32)
    owner[:, 1] = 0.0
    drops = np.full((2, 8), -30.0, np.float32)
    drops[:, 1] = 0.0
    hidden = np.array([[8.0 if occluded else -8.0], [-8.0]], np.float32)     # a hand over the conduit slot only
    return {"piece": piece, "owner": owner, "drops": drops, "occluded": hidden}


def read(raw: dict[str, np.ndarray], plain: dict[str, np.ndarray] | None = None, seen: float | None = None) -> list[SlotReading]:
    return [SlotReading(i, k, r.piece, r.owner, r.drops, r.confidence, r.occluded)
            for i, k, r in zip(["4B", "A"], KINDS, decode(raw, KINDS, seen=seen, seen_also=plain))]


def blind(raw: dict[str, np.ndarray], plain: dict[str, np.ndarray] | None = None) -> list[SlotReading]:
    """Read without the game's companies, those surely seen standing for them (rulings V10)."""
    return read(raw, plain, SEEN)


def feed(f: StabilityFilter, motion: float, raw: dict[str, np.ndarray]):
    return f.update(motion, raw, read(raw), read)


def test_the_still_frames_are_read_together_into_one_state():
    f = StabilityFilter(frames=3, motion_threshold=3.0)
    # One slot the net is unsure about: read alone, these frames say conduit, empty, conduit.
    assert [read(outputs(p))[0].piece for p in (0.6, 0.45, 0.7)] == ["conduit", "empty", "conduit"]
    assert feed(f, 0.5, outputs(0.6)) is None
    assert feed(f, 0.5, outputs(0.45)) is None
    state = feed(f, 0.5, outputs(0.7))
    assert state[0].piece == "conduit" and f.stable is state
    # The rest of the still spell gives nothing, whatever single frames would say.
    assert all(feed(f, 0.5, outputs(p)) is None for p in (0.3, 0.2, 0.1, 0.05))


def test_each_still_frames_more_looks_are_asked_for_when_the_spell_completes_and_share_its_weight():
    f = StabilityFilter(frames=2, motion_threshold=3.0)
    asked = []

    def looks(frame: int, p: float, n: int):
        def more():
            asked.append(frame)
            return [outputs(p)] * n
        return more

    # The first frame reads the slot empty (0.2) and has no more looks; the second reads it
    # empty too (0.45), but its four more looks say conduit (0.65). Each frame weighs the
    # same, its looks sharing its weight: empty. Counted look by look, the one frame's
    # looks would outvote the other frame: conduit.
    assert f.update(0.5, outputs(0.2), read(outputs(0.2)), read, looks(1, 0.2, 0)) is None
    assert asked == []
    state = f.update(0.5, outputs(0.45), read(outputs(0.45)), read, looks(2, 0.65, 4))
    assert asked == [1, 2] and state[0].piece == "empty"
    every = [outputs(0.2), outputs(0.45)] + [outputs(0.65)] * 4
    assert read({h: np.mean([r[h] for r in every], axis=0) for h in every[0]})[0].piece == "conduit"
    # The spell is read: later frames ask for nothing.
    assert f.update(0.5, outputs(0.4), read(outputs(0.4)), read, looks(3, 0.9, 2)) is None and asked == [1, 2]
    # Both frames' looks reading a conduit carry both frames over to it.
    f = StabilityFilter(frames=2, motion_threshold=3.0)
    f.update(0.5, outputs(0.45), read(outputs(0.45)), read, looks(1, 0.9, 2))
    assert f.update(0.5, outputs(0.4), read(outputs(0.4)), read, looks(2, 0.9, 2))[0].piece == "conduit"


def test_read_blind_a_look_cannot_take_away_a_company_the_frames_show_surely():
    """Each frame reads the conduit as France's with 0.75 of its chance, its mirrored look
    with 0.55: averaged, 0.66, under V10's 0.7, and France, seen on no box, was left out of
    the state that single frames kept it in. The frames' own outputs now count too."""
    def french(share: float) -> dict[str, np.ndarray]:
        raw = outputs(0.99)
        raw["owner"][0] = -30.0
        raw["owner"][0, 3], raw["owner"][0, 1] = np.log(share), np.log(1 - share)   # france, germany
        return raw

    assert blind(french(0.75))[0].owner == "france"
    looks = [french(0.75), french(0.55)]
    assert blind({h: np.mean([r[h] for r in looks], axis=0) for h in looks[0]})[0].owner != "france"
    f = StabilityFilter(frames=2, motion_threshold=3.0)
    assert f.update(0.5, french(0.75), blind(french(0.75)), blind, lambda: [french(0.55)]) is None
    state = f.update(0.5, french(0.75), blind(french(0.75)), blind, lambda: [french(0.55)])
    assert (state[0].piece, state[0].owner) == ("conduit", "france")
    assert state[0].confidence < 0.7           # the looks' doubt stays: the page asks about it


def test_a_slot_the_more_looks_read_otherwise_does_not_restart_the_spell_on_every_frame():
    """The stable state reads the conduit (the looks say so), single frames read the slot
    empty, confidently: compared with the spell's own frames read alone, as they are, that
    is no change, and no frame starts a new spell."""
    f = StabilityFilter(frames=2, motion_threshold=3.0)
    sure_empty = outputs(0.02)
    f.update(0.5, sure_empty, read(sure_empty), read, lambda: [outputs(0.999)] * 8)
    state = f.update(0.5, sure_empty, read(sure_empty), read, lambda: [outputs(0.999)] * 8)
    assert state[0].piece == "conduit" and read(sure_empty)[0].piece == "empty"
    assert not read(sure_empty)[0].low_confidence
    asked = []
    for _ in range(5):
        assert f.update(0.5, sure_empty, read(sure_empty), read, lambda: asked.append(1) or []) is None
    assert asked == []         # no new spell was read
    # a frame that reads a slot confidently otherwise than the spell's frames did still does
    other = outputs(0.02)
    other["drops"][1] = -30.0
    other["drops"][1, 3] = 0.0
    f.update(0.5, other, read(other), read)
    assert f.update(0.5, other, read(other), read) is not None


def test_after_motion_a_new_state_only_if_the_board_reads_differently():
    f = StabilityFilter(frames=2, motion_threshold=3.0)
    feed(f, 0.5, outputs(0.05))
    assert feed(f, 0.5, outputs(0.05))[0].piece == "empty"
    assert feed(f, 9.0, outputs(0.05)) is None          # a hand moves over the board
    assert feed(f, 0.5, outputs(0.1)) is None
    assert feed(f, 0.5, outputs(0.02)) is None          # still empty: no new state
    assert feed(f, 9.0, outputs(0.5)) is None           # the hand places a conduit
    assert feed(f, 0.5, outputs(0.97)) is None
    assert feed(f, 0.5, outputs(0.99))[0].piece == "conduit"


def test_an_uncertain_reading_does_not_overturn_a_stable_one():
    f = StabilityFilter(frames=2, motion_threshold=3.0)
    feed(f, 0.5, outputs(0.02))
    assert feed(f, 0.5, outputs(0.02))[0].piece == "empty"
    feed(f, 9.0, outputs(0.6))                         # a hand passes; nothing is built
    feed(f, 0.5, outputs(0.6))
    assert feed(f, 0.5, outputs(0.65)) is None        # read alone: a conduit at ~62 %
    assert f.stable[0].piece == "empty"
    feed(f, 9.0, outputs(0.6))                         # now a conduit is built
    feed(f, 0.5, outputs(0.95))
    state = feed(f, 0.5, outputs(0.97))
    assert state[0].piece == "conduit" and state[0].confidence > 0.9


def test_a_slot_kept_against_an_uncertain_reading_carries_the_low_confidence():
    f = StabilityFilter(frames=1, motion_threshold=3.0)
    feed(f, 0.5, outputs(0.02))
    both = outputs(0.65)
    both["drops"][1] = -30.0
    both["drops"][1, 3] = 0.0                                  # and 2 drops added to the headstream
    state = feed(f, 9.0, both) or feed(f, 0.5, both)
    assert state[1].drops == 3
    assert state[0].piece == "empty" and state[0].confidence < 0.8   # kept, and flagged


def test_a_change_read_confidently_starts_a_spell_even_without_motion():
    # A page reading two frames a second can miss the hand that placed a piece.
    f = StabilityFilter(frames=2, motion_threshold=3.0)
    feed(f, 0.5, outputs(0.02))
    feed(f, 0.5, outputs(0.02))
    assert feed(f, 0.5, outputs(0.7)) is None and feed(f, 0.5, outputs(0.7)) is None   # unsure: nothing
    assert feed(f, 0.5, outputs(0.97)) is None
    assert feed(f, 0.5, outputs(0.98))[0].piece == "conduit"


def test_motion_in_the_middle_of_a_spell_starts_it_again():
    f = StabilityFilter(frames=3, motion_threshold=3.0)
    feed(f, 0.5, outputs(0.05))
    feed(f, 0.5, outputs(0.05))
    assert feed(f, 9.0, outputs(0.05)) is None
    assert feed(f, 0.5, outputs(0.99)) is None
    assert feed(f, 0.5, outputs(0.99)) is None
    assert feed(f, 0.5, outputs(0.99))[0].piece == "conduit"   # only frames after the motion count


def test_occluded_slots_stay_unknown_in_the_stable_state():
    f = StabilityFilter(frames=2)
    feed(f, 0.1, outputs(0.9))
    feed(f, 0.1, outputs(0.9))
    feed(f, 9.0, outputs(0.9, occluded=True))           # a hand comes to rest over the board
    feed(f, 0.1, outputs(0.9, occluded=True))
    stable = feed(f, 0.1, outputs(0.9, occluded=True))
    assert stable[0].unknown and not stable[1].unknown


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
