"""The game behind the shared interface: registry, command line, whole seeded games."""
import json
import random

import pytest

from automa.age_of_innovation.board import Board
from automa.age_of_innovation.data import cards, components
from automa.age_of_innovation.game import GAME
from automa.age_of_innovation.ops import apply_ops
from automa.age_of_innovation.selfplay import play
from automa.games import get
from automa.common.errors import StateError
from automa_vision.cli import main


def test_registered_under_its_id():
    assert get("age-of-innovation") is GAME
    assert GAME.automas(GAME.new_game({})) == ["automa"]
    with pytest.raises(StateError):
        GAME.decide(GAME.new_game({}), "someone")


def test_command_line_new_decide_apply(tmp_path, capsys):
    assert main(["age-of-innovation", "new", "--level", "3", "--seed", "5", "--player-terrain", "forest"]) == 0
    state = tmp_path / "s.json"
    state.write_text(capsys.readouterr().out)
    assert main(["age-of-innovation", "decide", str(state), "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert {"automa", "action", "target", "instruction", "trace", "ops"} <= set(decision)
    (tmp_path / "d.json").write_text(json.dumps(decision))
    assert main(["age-of-innovation", "apply", str(state), str(tmp_path / "d.json")]) == 0
    after = json.loads(capsys.readouterr().out)
    assert after["phase"] == "play" and after["level"] == 3
    assert main(["age-of-innovation", "new", "--level", "9"]) == 2
    assert "level must be one of" in capsys.readouterr().err


def test_apply_refuses_ops_that_do_not_fit():
    s = GAME.new_game({"seed": 1})
    with pytest.raises(StateError, match="unknown op"):
        GAME.apply(s, {"ops": [{"op": "teleport"}]})
    with pytest.raises(StateError, match="no building"):
        GAME.apply(s, {"ops": [{"op": "upgrade", "hex": [0, 0], "kind": "guild"}]})
    with pytest.raises(StateError, match="malformed"):
        GAME.apply(s, {"ops": [{"op": "build"}]})
    with pytest.raises(StateError):
        GAME.apply(s, {"nothing": 1})


def _whole_game(options):
    events = list(play(GAME.new_game(options), max_turns=2000))
    return events


def test_a_seeded_game_replays_exactly_and_ends_after_six_rounds():
    first = _whole_game({"seed": 21, "level": 4, "player_terrain": "desert"})
    again = _whole_game({"seed": 21, "level": 4, "player_terrain": "desert"})
    assert [e.decision for e in first] == [e.decision for e in again]
    last = first[-1]
    assert last.state.phase == "over" and last.decision["action"] == "final_scoring"
    rounds = [e.decision for e in first if e.decision and e.decision["action"] == "round_end"]
    assert len(rounds) == 5
    passes = [e.decision for e in first if e.decision and e.decision["action"] == "pass"]
    assert len(passes) == 6                                     # exactly one pass per round


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_whole_games_keep_every_invariant(level):
    for seed in range(3):
        faction = random.Random(seed * 7 + level).choice(["simpletons", "kuddlers", "druids", "racelings",
                                                          "wanderers", "mimics", "powermongers", "symbionts"])
        options = {"seed": seed, "level": level, "faction": faction, "player_terrain": "forest"}
        previous = None
        for ev in play(GAME.new_game(options), max_turns=2000):
            s = ev.state
            GAME.load(GAME.dump(s))                                  # always a valid state
            # deck conservation: every decision card is in the deck or the reserve, once
            assert sorted(s.deck.cards() + s.reserve) == sorted(set(s.deck.cards() + s.reserve))
            assert len(s.deck.cards()) + len(s.reserve) == len(cards())
            for kind, limit in components().buildings.items():
                assert 0 <= s.automa_supply(kind) <= limit
            assert s.automa.vp >= 20 and len(s.automa.innovations) <= 3
            d = ev.decision
            if d and previous is not None and d["action"] not in ("pass", "round_end", "final_scoring", "wait",
                                                                   "setup"):
                # one action card per turn: exactly one card turned face up (two at a round's first turn)
                drawn = sum(op.get("count", 1) for op in d["ops"] if op["op"] == "draw")
                assert drawn == (2 if previous.automa.turns == 0 else 1)
                assert d["trace"] and d["instruction"]
            previous = s
        assert s.phase == "over"


def test_two_players_plus_automa_whole_game():
    events = _whole_game({"seed": 3, "players": 2, "player_terrain": "swamp"})
    assert events[-1].state.phase == "over"
    assert events[-1].state.turn_order[-1] in ("automa", "player", "player2")


def test_demo_plays_six_rounds_to_a_final_score(capsys):
    assert main(["demo", "--game", "age-of-innovation", "--seed", "4", "--turns", "2000"]) == 0
    out = capsys.readouterr().out
    assert "Final scoring: the Automa scores" in out
    assert out.strip().splitlines()[-1].startswith("Scores: automa ")


def test_a_map_file_round_trips_through_the_state():
    board = Board.base()
    again = Board.from_dict(board.to_dict())
    assert again.terrain == board.terrain and again.rows() == board.rows()
    with pytest.raises(StateError, match="rows"):
        Board.from_dict({"layout": "odd-r", "rows": []})


def test_a_player_move_is_an_op_too():
    s = GAME.new_game({"seed": 2, "player_terrain": "forest"})
    s = apply_ops(s, [{"op": "terrain", "hex": [0, 0], "terrain": "forest"},
                      {"op": "build", "hex": [0, 0], "owner": "player", "kind": "workshop"},
                      {"op": "upgrade", "hex": [0, 0], "kind": "guild"},
                      {"op": "science", "who": "player", "discipline": "law", "levels": 3, "space": None}])
    assert s.board.buildings[(0, 0)].kind == "guild" and s.players[0].science["law"] == 3
