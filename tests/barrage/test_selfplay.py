"""Whole games: the Actions phase in turn order, round 1's water once, and replays that agree."""
import pytest

from automa.barrage.ops import apply_ops
from automa.barrage.selfplay import play
from automa.barrage.setup import new_game


def test_automas_take_turns_in_turn_order():
    """Base rules: in the Actions phase players take one turn each in turn order, so the shared Automa pile
    is drawn in the table's order (004: "Automa and human players take turns as usual")."""
    events = list(play(automas=3, seed=5, rounds=1))
    turns = [ev for ev in events if ev.kind == "turn"]
    order = turns[0].before.turn_order
    assert [ev.decision.automa for ev in turns[:6]] == order + order
    for a, b in zip(turns, turns[1:]):
        if a.decision.automa == b.decision.automa:   # only when the others have no engineer left
            others = [c for c in order if c != a.decision.automa]
            assert all(b.before.companies[c].engineers == 0 for c in others)


def test_round_one_water_is_added_once():
    """The set-up state is the start of round 1's Actions phase with round I's headstream water on the
    map; the driver adds no second helping (no Income or Headstreams phase in round 1)."""
    start = new_game(2, 0, seed=9)
    events = list(play(automas=2, seed=9, rounds=2))
    assert events[0].kind == "turn" and events[0].before.headstreams == start.headstreams
    names = [(ev.round, ev.name) for ev in events if ev.kind == "phase"]
    assert (1, "Headstreams") not in names and (2, "Headstreams") in names


@pytest.mark.parametrize("seed, officers, humans", [(11, [None, None, "battista"], 0),
                                                    (12, [None, None, "spencer"], 0),
                                                    (13, [None, None, "sekibo"], 1)])
def test_a_seeded_game_at_three_levels_with_leeghwater_replays(seed, officers, humans):
    """3 Automas at Easy, Hard and Very Hard with the Leeghwater Project: the same seed gives the same game,
    and replaying every decision's and phase's ops from the set-up state gives the same final scores."""
    kw = dict(automas=3, humans=humans, seed=seed, levels=["easy", "hard", "very-hard"], officers=officers,
              leeghwater=True)
    first = list(play(**kw))
    second = list(play(**kw))
    assert [ev.after.to_dict() for ev in first] == [ev.after.to_dict() for ev in second]
    final = first[-1].after
    assert first[-1].name == "Final scoring" and final.round == 5
    state = first[0].before
    for ev in first:
        state = apply_ops(state, ev.decision.ops if ev.kind == "turn" else ev.ops)
    assert {c: state.companies[c].vp for c in state.companies} == {c: final.companies[c].vp for c in final.companies}
    assert state.to_dict() == final.to_dict()
    turns = [ev.decision for ev in first if ev.kind == "turn"]
    assert {d.level for d in turns if d.action != "human_first_action"} == {"easy", "hard", "very-hard"}
    if officers[2] == "battista":
        assert any(d.extra_turn for d in turns)
    if officers[2] == "sekibo":
        assert sum(d.action == "human_first_action" for d in turns) == 5, "one tile a round for the human"
