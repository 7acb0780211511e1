"""The moves a human's turn can make, ranked by the camera's evidence (vision.barrage.move_ranking)."""
from __future__ import annotations

import math

import pytest

from automa.barrage.human_moves import human_moves
from automa.barrage.state import Dam
from vision.barrage.board_state import MapState
from vision.barrage.move_ranking import (
    ALTERNATIVES,
    ARRIVED_RIGHT,
    PICTURE_MOVED,
    PICTURE_UNMOVED,
    rank,
)


@pytest.fixture
def known() -> MapState:
    return MapState(dams={"1U": Dam("italy", 2, 2), "5U": Dam("neutral", 1, 0)},
                    conduits={"1B": "germany"}, powerhouses={"P5_0": "italy"},
                    headstreams={"A": 0, "B": 1, "C": 0, "D": 0})


def read(board: MapState, sure: float = 0.97, **confidence: float) -> MapState:
    """``board`` as the camera read it: every slot at ``sure``, some at their own chance."""
    seen = board.copy()
    slots = [*seen.dams, *seen.conduits, *seen.powerhouses, *seen.headstreams, "1A", "2U", "P6_0"]
    seen.confidence = {s: confidence.get(s, sure) for s in slots}
    return seen


def test_a_conduit_read_built_ranks_first_with_its_likelihood(known):
    seen = read(known, **{"1A": 0.9})
    seen.conduits["1A"] = "italy"
    ranking = rank(known, seen, human_moves(known, "italy"))
    assert ranking.best.move.key == "conduit:1A" and ranking.unexplained == []
    # log P(read | conduit) - log P(read | nothing) = log 0.9 - log(0.1 / ALTERNATIVES)
    assert ranking.best.score == pytest.approx(math.log(0.9) - math.log(0.1 / ALTERNATIVES))
    assert ranking.moves[1].move.key == "none"
    assert sum(s.confidence for s in ranking.moves) == pytest.approx(1.0)
    # the softmax: every other move (each a slot read as it was, against it) shares the rest
    assert ranking.best.confidence == pytest.approx(
        math.exp(ranking.best.score) / sum(math.exp(m.score) for m in ranking.moves))
    assert ranking.best.confidence > 0.8 and ranking.moves[1].confidence < 0.1
    assert len(ranking.offered()) == 3


def test_a_turn_read_unchanged_is_nothing(known):
    ranking = rank(known, read(known), human_moves(known, "italy"))
    assert ranking.best.move.key == "none" and ranking.best.score == 0 and ranking.unexplained == []


def test_a_change_no_legal_move_makes_is_flagged_not_applied(known):
    seen = read(known)
    seen.conduits["1A"] = "germany"          # on Italy's turn nobody else builds
    ranking = rank(known, seen, human_moves(known, "italy"))
    assert ranking.best.move.key == "none"
    [flag] = ranking.unexplained
    assert flag.slot == "1A" and "no legal move of italy's makes it" in flag.problem


def test_one_action_a_turn_the_less_sure_change_is_flagged(known):
    seen = read(known, **{"1A": 0.95, "P6_0": 0.6})
    seen.conduits["1A"] = "italy"
    seen.powerhouses["P6_0"] = "italy"
    ranking = rank(known, seen, human_moves(known, "italy"))
    assert [s.move.key for s in ranking.offered()] == ["conduit:1A", "powerhouse:P6_0", "none"]
    [flag] = ranking.unexplained
    assert flag.slot == "P6_0" and "not together with the best one" in flag.problem


def test_a_production_read_from_the_water_that_moved(known):
    seen = read(known)
    seen.dams["1U"] = Dam("italy", 2, 1)     # one drop left the dam ...
    seen.dams["5U"] = Dam("neutral", 1, 1)   # ... and was caught below group 5
    ranking = rank(known, seen, human_moves(known, "italy"))
    assert ranking.best.move.key == "production:1U:1B:1" and ranking.unexplained == []


def test_a_hidden_slot_is_no_evidence_and_a_held_one_stands(known):
    seen = read(known)
    seen.unknown = ["1A"]
    ranking = rank(known, seen, human_moves(known, "italy"))
    conduit = next(s for s in ranking.moves if s.move.key == "conduit:1A")
    assert conduit.score == 0 and ranking.best.move.key == "none"     # as likely as nothing, listed after it
    seen = read(known, **{"1A": 0.99})
    seen.conduits["1A"] = "italy"
    ranking = rank(known, seen, human_moves(known, "italy"), held={"1A"})   # its picture has not changed
    assert ranking.best.move.key == "none" and ranking.unexplained == []


def test_a_new_dam_read_taller_or_holding_water_is_still_evidence_of_the_dam(known):
    # a dam is built bare; the camera reads heights and water apart from whose dam it is
    for misread in (Dam("italy", 3, 0), Dam("italy", 1, 1)):
        seen = read(known, **{"2U": 0.6})
        seen.dams["2U"] = misread
        ranking = rank(known, seen, human_moves(known, "italy"))
        assert ranking.best.move.key == "dam_base:2U"
        [flag] = ranking.unexplained            # the part no move explains is flagged, not applied
        assert flag.slot == "2U" and ranking.best.move.dams == {"2U": Dam("italy", 1, 0)}


def test_a_picture_that_changed_is_evidence_of_a_move_there(known):
    # an elevation added to 1U, read at its old height, unsure: the reading alone says nothing moved
    seen = read(known, **{"1U": 0.55})
    moves = human_moves(known, "italy")
    assert rank(known, seen, moves).best.move.key == "none"
    # its picture changed since the game last read the table, as a moved slot's does (rulings V8)
    ranking = rank(known, seen, moves, changed={"1U"})
    assert ranking.best.move.key == "elevation:1U"
    assert ranking.best.score == pytest.approx(math.log(0.45 / ALTERNATIVES) - math.log(0.55)
                                               + math.log(PICTURE_MOVED / PICTURE_UNMOVED))
    # a hidden slot's picture (a hand over it) is no evidence
    seen.unknown = ["1U"]
    assert rank(known, seen, moves, changed={"1U"}).best.move.key == "none"


def test_drops_seen_coming_in_the_pictures_outweigh_a_tiles_count_read_wrong(known):
    # Water Management: a drop on A and one on C; the counters read 2 on A (a printed drop icon
    # taken for one) and nothing on C, surely
    seen = read(known, sure=0.94)
    seen.headstreams["A"] = 2
    moves = human_moves(known, "italy")
    changed = {"A", "C"}
    assert rank(known, seen, moves, changed=changed).best.move.key == "water:p2:A+A"
    # the pictures show one drop-sized shape come on each tile (rulings V9)
    ranking = rank(known, seen, moves, changed=changed, arrived={"A": 1, "C": 1})
    assert ranking.best.move.key == "water:p2:A+C"
    a_and_c = ranking.best.score
    # against nothing: A read 2, neither the move's 1 nor nothing's 0; C read 0, nothing's; both
    # pictures changed; each tile's drops counted coming match the move's, not nothing's
    assert a_and_c == pytest.approx(math.log(0.06 / ALTERNATIVES) - math.log(0.94)
                                    + 2 * math.log(PICTURE_MOVED / PICTURE_UNMOVED)
                                    + 2 * (math.log(ARRIVED_RIGHT) - math.log(1 - ARRIVED_RIGHT)))
    # a tile whose reading the game holds (its picture unchanged) gives no count either way
    held = rank(known, seen, moves, held={"C"}, changed={"A"}, arrived={"A": 1, "C": 1})
    assert held.best.move.key != "water:p2:A+C"


def test_a_dams_own_picture_speaks_for_its_height_and_its_lakes_for_its_water(known):
    # 1U (Italy's, 2 pieces, 2 drops) read unchanged, unsure: an elevation changes its height,
    # a production its water
    seen = read(known, **{"1U": 0.55})
    moves = human_moves(known, "italy")

    def score(key: str, changed: set[str]) -> float:
        return next(s.score for s in rank(known, seen, moves, changed=changed).moves if s.move.key == key)
    seen_change = math.log(PICTURE_MOVED / PICTURE_UNMOVED)
    for key, speaks, silent in (("elevation:1U", "1U", "lake:1U"), ("production:1U:1B:1", "lake:1U", "1U")):
        assert score(key, {speaks}) == pytest.approx(score(key, set()) + seen_change), key
        assert score(key, {silent}) == score(key, set()), key
