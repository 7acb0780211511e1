"""Whole games: a seeded game replays to the same result, and random games keep every invariant."""
import pytest

from automa.expeditions.data import MECH_REGION, layout
from automa.expeditions.ops import apply_ops
from automa.expeditions.scoring import automa_score, player_score
from automa.expeditions.selfplay import play
from automa.expeditions.setup import new_game
from automa.expeditions.state import BAG_TOKENS, MAP_TOKENS_ON_MAP, dump, load
from automa.games import get
from tests import cli


def test_seeded_game_replays_to_the_same_result():
    steps = list(play(seed=11))
    again = list(play(seed=11))
    assert dump(steps[-1].state) == dump(again[-1].state)
    south = [steps[0].state.locations[p].tile for p in layout().regions["south"]]
    state = new_game({"level": 2, "seed": 11, "south": south})
    for step in steps:
        state = apply_ops(state, list(step.ops))
    assert dump(state) == dump(steps[-1].state), "the recorded ops rebuild the final state"
    assert state.turn == "over" and state.figures is not None
    assert automa_score(state).total == automa_score(again[-1].state).total
    assert player_score(state.figures).total == player_score(again[-1].state.figures).total


@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_the_invariants(seed):
    level = 1 + seed % 3
    steps = list(play(seed=seed, level=level))
    final = steps[-1].state
    assert final.turn == "over", "every game ends"
    trigger_at = None
    for n, step in enumerate(steps):
        s = step.state
        assert load(dump(s)) == s
        assert s.bag() + s.tokens_out_of_bag() == BAG_TOKENS
        on_map = sum(loc.map_token for loc in s.locations.values())
        assert on_map + s.automa_maps + s.player_maps == MAP_TOKENS_ON_MAP
        for mech, region in MECH_REGION.items():
            assert layout().region_of[s.mechs[mech]] == region
        assert 0 <= s.glory <= 8
        if trigger_at is None and s.end_trigger is not None:
            trigger_at = n
    assert trigger_at is not None
    after = [st.kind for st in steps[trigger_at + 1:] if st.ops[0]["op"] != "figures"]
    assert after == ["player", "automa"] if final.end_trigger == "automa" else ["automa", "player"], \
        "one final turn each, the one who triggered last"


def test_game_registry_and_cli(tmp_path):
    game = get("expeditions")
    state = game.new_game({"seed": "4", "first": "automa", "level": "3"})
    d = game.decide(state).to_dict()
    for key in ("automa", "action", "target", "instruction", "trace", "ops", "mechs", "card"):
        assert key in d
    assert game.dump(game.apply(state, d)) == dump(apply_ops(state, d["ops"]))
    assert cli.new_decide_apply(tmp_path, "expeditions", "--seed", "4", "--first", "automa")["turn"] == "player"
    assert cli.run("expeditions", "decide", str(tmp_path / "missing.json")).returncode == 2
