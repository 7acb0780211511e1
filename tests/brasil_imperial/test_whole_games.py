"""Whole games against a simulated table: a seed replays the same game from its recorded ops, and
random games keep every invariant; the registry and the command line."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from automa.brasil_imperial.ops import apply_ops
from automa.brasil_imperial.selfplay import play
from automa.brasil_imperial.setup import new_game
from automa.brasil_imperial.state import dump, load
from automa.common import hexgrid
from automa.games import get

OPTIONS = {"players": ["you:green", "ana:blue"], "difficulty": "hard"}


def test_seeded_game_replays_from_its_ops():
    start = new_game({**OPTIONS, "seed": 11})
    steps = list(play(start, 11))
    again = list(play(new_game({**OPTIONS, "seed": 11}), 11))
    assert dump(steps[-1].state) == dump(again[-1].state)
    state = start
    for step in steps:
        state = apply_ops(state, list(step.ops))
    assert dump(state) == dump(steps[-1].state) and state.over, "the recorded ops rebuild the final state"
    assert any(step.kind == "table" for step in steps) and any(step.kind == "automa" for step in steps)


@pytest.mark.parametrize("seed", range(10))
def test_random_games_keep_the_invariants(seed):
    difficulty = ("easy", "hard", "epic")[seed % 3]
    s = new_game({**OPTIONS, "seed": seed, "difficulty": difficulty, "movement_difficulty": ("hard", "epic")[seed % 2]})
    n_action, n_move = len(s.action_deck.cards()), len(s.movement_deck.cards())
    turns = 0
    for step in play(s, seed):
        st = step.state
        assert load(dump(st)) == st
        assert 0 <= st.automa.adder <= 1 and 0 <= st.automa.combat_cards <= 3
        assert len(st.action_deck.cards()) == n_action and len(st.movement_deck.cards()) == n_move
        assert all(u.at == st.compass_at for u in st.standing().values())
        if step.decision and not step.decision.get("needs"):
            turns += 1
            d = step.decision
            path = [tuple(map(int, p.split(","))) for p in d.get("path", [])]
            assert len(path) <= 4, "never more than 3 moves"
            assert all(hexgrid.distance(a, b) == 1 for a, b in zip(path, path[1:]))
            if path and d.get("movements") == 0:
                assert len(path) == 1, "no bonus, no move"
            assert sum(o["op"] in ("explore", "attack") for o in d["ops"]) <= 1, "either ends the movement"
            assert d["trace"] and d["instruction"]
    assert st.over and turns >= 20


def test_game_registry_and_cli(tmp_path):
    game = get("brasil-imperial")
    state = game.new_game({"seed": "4", "players": "you:green"})
    d = game.decide(state).to_dict()
    for key in ("automa", "action", "target", "instruction", "trace", "ops"):
        assert key in d
    assert game.dump(game.apply(state, d)) == dump(apply_ops(state, d["ops"]))

    def run(*args, stdin=None):
        return subprocess.run([sys.executable, "-m", "automa_vision.cli", *args], input=stdin,
                              capture_output=True, text=True, timeout=60)
    new = run("brasil-imperial", "new", "--seed", "4", "--players", "you:green,ana:red")
    assert new.returncode == 0, new.stderr
    path = tmp_path / "s.json"
    path.write_text(new.stdout)
    out = run("brasil-imperial", "decide", str(path), "--json")
    assert out.returncode == 0, out.stderr
    applied = run("brasil-imperial", "apply", str(path), "-", stdin=out.stdout)
    assert applied.returncode == 0, applied.stderr
    assert json.loads(applied.stdout)["turns"] == 1
    demo = run("demo", "--game", "brasil-imperial", "--seed", "2")
    assert demo.returncode == 0, demo.stderr
    assert "Scores:" in demo.stdout
