"""Whole games replayed on the held-out printed look, each turn ranked as the page ranks it
(lab.printed_turns), with the real shipped models."""
from __future__ import annotations

import random

import pytest

from automa.barrage.human_moves import human_moves
from lab.printed_turns import KINDS, draw_move, evaluate, kind_of, summarise
from lab.reference_tables import TableShots
from web.barrage.game import map_of

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


def test_each_kind_of_move_is_drawn_that_a_company_can_make():
    state = TableShots(905).state(3)
    known = map_of(state)
    mover = state.turn_order[0]
    rng = random.Random(1)
    drawn = [draw_move(known, mover, rng) for _ in range(60)]
    assert all(m in human_moves(known, mover) for m in drawn)
    kinds = {kind_of(m) for m in human_moves(known, mover)}
    assert {kind_of(m) for m in drawn} == kinds and kinds <= set(KINDS) and "none" in kinds


def test_a_short_game_on_a_printed_table_is_ranked_turn_by_turn(tmp_path):
    out = evaluate(tables=1, games=1, turns=4, teach=2, work=tmp_path, first=905)
    assert out["turns"] == 4 and out["all"]["turns"] == 4 and out["all"]["not_registered"] == 0
    assert sum(out[k]["turns"] for k in KINDS if k in out) == 4
    # a table calibrated and taught: at most one of the four turns listed wrong first
    assert out["all"]["first_pct"] >= 75.0
    assert out["all"]["first_pct"] <= out["all"]["offered_pct"]
    assert 0 <= out["all"]["seen_done_pct"] <= 100


def test_the_summary_counts_corrections_and_flags():
    rows = [{"kind": "build", "registered": True, "first": True, "offered": True, "flagged": False, "seen_done": True},
            {"kind": "build", "registered": True, "first": False, "offered": True, "flagged": True, "seen_done": False},
            {"kind": "water", "registered": True, "first": False, "offered": False, "flagged": False, "seen_done": True},
            {"kind": "none", "registered": False}]
    out = summarise(rows)
    assert out["build"] == {"turns": 2, "not_registered": 0, "first_pct": 50.0, "offered_pct": 100.0,
                            "correction_pct": 0.0, "wrong_first": 1, "wrong_but_flagged": 1, "seen_done_pct": 50.0}
    assert out["water"]["correction_pct"] == 100.0
    assert out["none"]["not_registered"] == 1 and out["none"]["correction_pct"] == 100.0
    assert out["all"]["turns"] == 4 and out["all"]["first_pct"] == 25.0 and out["all"]["wrong_first"] == 3
    assert out["all"]["seen_done_pct"] == 50.0
