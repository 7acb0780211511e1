"""The new-game options of Barrage in the registry (one level and officer per Automa, the expansion),
the state JSON's ``level``, ``officer`` and ``leeghwater``, and states written before levels existed."""
import pytest

from automa.barrage.game import GAME
from automa.barrage.state import GameState
from automa.common.errors import StateError


def test_levels_officers_and_leeghwater_from_the_options():
    s = GAME.new_game({"automa": "3", "humans": "0", "levels": "easy,very-hard,very-hard", "officers": "grasso",
                       "leeghwater": "yes", "seed": "8"})
    companies = [s.companies[c] for c in s.turn_order]
    assert [c.level for c in companies] == ["easy", "very-hard", "very-hard"]
    assert companies[0].officer is None and companies[1].officer == "grasso" and companies[2].officer
    data = GAME.dump(s)
    assert data["leeghwater"] is True
    assert [(c["level"], c["officer"]) for c in data["companies"]] == [(c.level, c.officer) for c in companies]
    assert GAME.load(data).to_dict() == data


@pytest.mark.parametrize("options, problem", [
    ({"automa": "2", "levels": "hard"}, "levels must give"),
    ({"automa": "1", "levels": "impossible"}, "levels"),
    ({"automa": "1", "levels": "hard", "officers": "adler"}, "more officers"),
    ({"automa": "1", "levels": "very-hard", "officers": "fouche"}, "Leeghwater"),
])
def test_bad_options_are_refused_with_a_reason(options, problem):
    with pytest.raises(ValueError, match=problem):
        GAME.new_game(options)


def test_a_state_written_with_difficulty_still_loads():
    data = GAME.dump(GAME.new_game({"automa": "1"}))
    for c in data["companies"]:
        c.pop("level"), c.pop("officer")
        c["difficulty"] = "easy" if c["automa"] else "medium"
    s = GameState.from_dict(data)
    assert s.companies[s.automas[0]].level == "easy"
    data["companies"][0]["difficulty"] = "nightmare"
    with pytest.raises(StateError, match="level must be one of"):
        GameState.from_dict(data)


@pytest.mark.parametrize("where, key, value", [
    ("company", "officer", ["adler"]), ("company", "level", {"a": 1}), ("company", "officer", "nobody"),
    ("company", "architect", True), ("company", "external_works", [999]), ("top", "human_first_actions", ["usa"]),
    ("top", "private_buildings", [{"building": "wind_farm", "built_by": ["usa", "usa"]}]),
    ("top", "external_works", {"slots": "abc"}), ("top", "leeghwater", False),
])
def test_malformed_level_officer_and_expansion_fields_are_refused(where, key, value):
    """Every problem is a StateError naming it (never a crash), for the fields the levels and the
    expansion add."""
    data = GAME.dump(GAME.new_game({"automa": "2", "humans": "1", "levels": "hard,very-hard", "officers": "jordan",
                                    "leeghwater": "yes", "seed": "3"}))
    human = next(c["company"] for c in data["companies"] if not c["automa"])
    if where == "company":
        data["companies"][0][key] = value
    else:
        data[key] = [human] * 2 if key == "human_first_actions" else value
    with pytest.raises(StateError):
        GameState.from_dict(data)
