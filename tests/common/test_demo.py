"""``automa-vision demo``: a whole round played in the terminal, for every registered game."""
import pytest

from automa.games import registry
from automa_vision.cli import main


def test_barrage_demo_plays_a_round_with_its_phases(capsys):
    assert main(["demo", "--rounds", "1", "--automa", "2", "--seed", "3", "--why"]) == 0
    out = capsys.readouterr().out
    assert "== Round 1: Water flow and round-end scoring" in out
    assert "[round 1] tiles" in out and "| flipped tile" in out
    assert out.strip().splitlines()[-1].startswith("Scores: ")


def test_demo_refuses_bad_counts(capsys):
    assert main(["demo", "--automa", "4"]) == 2
    assert "--automa must be 1-3" in capsys.readouterr().out


@pytest.mark.parametrize("game", [g for g in registry() if g != "barrage"])
def test_every_other_game_demo_takes_turns(game, capsys):
    assert main(["demo", "--game", game, "--turns", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.strip(), f"{game}: the demo printed nothing"
    assert out.strip().splitlines()[-1].startswith("Scores: ") and "automa" in out.split("Scores:")[-1]
