"""The game registry: every game found by its folder, options parsed and refused by name."""
import json

import pytest

from automa.common.errors import StateError
from automa.games import Option, get, package_name, parse_json, registry


def test_barrage_is_registered_first_and_round_trips_its_state():
    games = registry()
    assert next(iter(games)) == "barrage"
    game = get("barrage")
    state = game.new_game({"automa": "2", "humans": "1", "seed": "4"})
    assert len(game.automas(state)) == 2
    assert game.dump(game.loads(game.dumps(state))) == game.dump(state)
    decision = game.decide(state).to_dict()
    for key in ("automa", "action", "target", "instruction", "trace", "ops"):
        assert key in decision
    after = game.apply(state, decision)
    assert game.dump(after) != game.dump(state)
    assert game.dump(state) == game.dump(game.loads(game.dumps(state))), "apply leaves the state it read alone"


def test_unknown_game_and_bad_options_are_named():
    with pytest.raises(StateError, match="unknown game 'chess'.*barrage"):
        get("chess")
    with pytest.raises(StateError, match="automa must be a whole number.*difficulty must be one of"):
        get("barrage").new_game({"automa": "²", "difficulty": "nightmare"})



@pytest.mark.parametrize("game_id, options", [("expeditions", {"seed": 1, "first": "automa"}), ("age-of-innovation", {"seed": 1}),
                                              ("brasil-imperial", {"players": "you:green", "seed": 1})])
def test_a_game_of_one_automa_decides_for_it_alone(game_id, options):
    game = get(game_id)
    state = game.new_game(options)
    assert game.automas(state) == ["automa"]
    assert game.decide(state, "automa").to_dict() == game.decide(state).to_dict()
    with pytest.raises(StateError, match=f"{game.name} has one Automa \\('automa'\\), not 'usa'"):
        game.decide(state, "usa")

@pytest.mark.parametrize("opt, raw, value", [
    (Option("n", "", 1, int), " 3 ", 3),
    (Option("n", "", 1, int), "", 1),
    (Option("flag", "", False, bool), "on", True),
    (Option("levels", "", (), str, ("easy", "hard"), multiple=True), "easy, hard", ["easy", "hard"]),
])
def test_option_parsing(opt, raw, value):
    assert opt.parse(raw) == value


@pytest.mark.parametrize("opt, raw", [
    (Option("n", "", 1, int), True),
    (Option("n", "", 1, int), "1.5"),
    (Option("flag", "", False, bool), "maybe"),
    (Option("levels", "", (), str, ("easy", "hard"), multiple=True), "easy,brutal"),
])
def test_option_refusals(opt, raw):
    with pytest.raises(ValueError, match=opt.name):
        opt.parse(raw)


def test_hostile_json_is_refused_not_recursed():
    with pytest.raises(StateError, match="nests deeper"):
        parse_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(StateError, match="nests deeper"):
        parse_json(json.dumps(json.loads("[" * 40 + "]" * 40)))
    with pytest.raises(StateError, match="not valid JSON"):
        parse_json("{broken")
    assert parse_json('{"a": [1, {"b": 2}]}') == {"a": [1, {"b": 2}]}


def test_package_names():
    assert package_name("age-of-innovation") == "age_of_innovation"


def test_a_list_option_repeated_on_the_command_line_keeps_every_value(capsys):
    from automa_vision.cli import main
    assert main(["barrage", "new", "--automa", "2", "--levels", "easy", "--levels", "hard"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert [c["level"] for c in state["companies"] if c["automa"]] == ["easy", "hard"]
