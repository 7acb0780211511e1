"""The five steps, the reshuffle with 2 set aside, the progress track, the end trigger and the
final round, scoring and the tie to the Automa (seed 003)."""
import pytest

from automa.common.errors import StateError
from automa.expeditions.data import levels
from automa.expeditions.ops import apply_ops
from automa.expeditions.scoring import automa_score, glory_value, player_score, winner
from automa.expeditions.state import LAIR_TOKEN, PlayerFigures, Token
from automa.expeditions.turn import decide

from .scenario import at_progress, game, reveal_all, top_card, valid


def automa_turn(state):
    d = decide(state)
    after = reveal_all(apply_ops(state, d.ops))
    after.turn = "automa"          # the player's turns do not matter here
    return d, after


def test_steps_run_in_order():
    s = game()
    top_card(s, 2)
    d = decide(s)
    kinds = [op["op"] for op in d.ops]
    assert kinds[0] == "draw" and kinds[1] == "advance" and kinds[-1] == "end_turn"
    headers = [line for line in d.trace if not line.startswith(" ")]
    assert [h.split(".")[0] for h in headers] == ["1", "2", "3", "4", "5"]
    assert headers[3].startswith("4. North mech") and headers[4].startswith("5. Central mech")
    mech_ops = [op["mech"] for op in d.ops if "mech" in op]
    assert mech_ops == sorted(mech_ops, key=["north", "central"].index), "North acts before Central"


def test_reshuffle_when_empty_brings_back_the_two_set_aside_and_sets_two_aside_again():
    s = game(seed=21)
    aside = list(s.deck.set_aside)
    drawn = []
    for _ in range(12):
        d, s = automa_turn(s)
        drawn.append(d.details["card"])
        assert not any(op["op"] == "reshuffle" for op in d.ops)
    assert sorted(drawn + aside) == list(range(1, 15)), "12 drawn, the 2 set aside never"
    assert s.deck.draw_pile == []
    d, s = automa_turn(s)
    assert d.ops[0] == {"op": "reshuffle"}
    assert len(s.deck.set_aside) == 2 and len(s.deck.draw_pile) == 11 and s.deck.discard == [d.details["card"]]
    assert s.deck.cards() == list(range(1, 15)) and s.deck.shuffles == 1
    seen = set()
    for seed in range(30):               # over many games the earlier set-aside cards come back
        t = game(seed=seed)
        first_aside = set(t.deck.set_aside)
        for _ in range(13):
            d, t = automa_turn(t)
        seen |= first_aside & (set(t.deck.draw_pile) | {d.details["card"]})
    assert seen, "a card set aside in the first pass is in the second deck"


def test_progress_icon_advances_one_and_glory_space_gives_next_token():
    s = game()
    at_progress(s, 5)                     # level 2: glory spaces 2, 6, ... -> glory 1
    top_card(s, 2)
    d, after = automa_turn(s)
    assert after.progress == 6 and after.glory == 2
    assert {"op": "glory", "token": 2} in d.ops


def test_no_progress_icon_no_advance():
    s = game()
    top_card(s, 1)
    _, after = automa_turn(s)
    assert after.progress == 0


def test_token_stops_on_the_last_space():
    s = game()
    last = levels()[2].last_space
    at_progress(s, last)
    s.end_trigger, s.final_turns = "automa", ["automa"]
    top_card(s, 2)
    d = decide(s)
    assert not any(op["op"] == "advance" for op in d.ops) and any("last space" in l for l in d.trace)


def test_eighth_glory_triggers_one_final_turn_each_the_automa_last():
    s = game()
    at_progress(s, 26)                    # level 2: glory 7, the 8th on space 27
    assert s.glory == 7
    top_card(s, 2)
    d = decide(s)
    s = apply_ops(s, d.ops)
    assert s.glory == 8 and s.end_trigger == "automa"
    assert s.turn == "player" and s.final_turns == ["player", "automa"]
    assert "final turn" in d.instruction
    s = reveal_all(apply_ops(s, [{"op": "end_turn", "who": "player"}]))
    assert s.turn == "automa"
    d = decide(s)
    s = apply_ops(s, d.ops)
    assert s.turn == "over" and "game is over" in d.instruction
    with pytest.raises(StateError, match="over"):
        decide(s)
    with pytest.raises(StateError, match="over"):
        apply_ops(s, [{"op": "end_turn", "who": "player"}])


def test_the_players_fourth_glory_also_triggers_the_end():
    s = game(turn="player")
    s.player_glory = 3
    s = apply_ops(s, [{"op": "player_glory"}, {"op": "end_turn", "who": "player"}])
    assert s.end_trigger == "player" and s.turn == "automa" and s.final_turns == ["automa", "player"]
    d = decide(s)
    s = apply_ops(s, d.ops)
    assert s.turn == "player" and "you take the last turn" in d.instruction
    s = apply_ops(s, [{"op": "end_turn", "who": "player"}])
    assert s.turn == "over"


def test_the_automas_8th_glory_after_the_players_trigger_changes_nothing():
    """The end is triggered once: the Automa's 8th glory in its final turn (the player having
    placed their 4th) still leaves the player the last turn."""
    s = game(turn="player")
    at_progress(s, 26)                    # level 2: glory 7, the 8th on space 27
    s.player_glory = 3
    s = apply_ops(s, [{"op": "player_glory"}, {"op": "end_turn", "who": "player"}])
    top_card(s, 2)                        # progress icon
    d = decide(s)
    s = apply_ops(s, d.ops)
    assert s.glory == 8 and s.end_trigger == "player" and s.turn == "player" and s.final_turns == ["player"]
    assert "8th glory" not in d.instruction and "you take the last turn" in d.instruction


def test_glory_card_example_two_quests_each_glory_worth_8():
    """Seed: 'se resolveu 2 missões, cada glória vale $8'."""
    assert [glory_value(q) for q in (0, 1, 2, 3, 4)] == [5, 6, 8, 10, 10]
    score = player_score(PlayerFigures(coins=11, quests=2, glory=3, upgraded=6, corruption=10))
    assert score.lines == {"coins": 11, "glory": 24, "upgraded": 6, "corruption": 20}
    assert score.total == 61


def test_the_base_rulebooks_scoring_example():
    """The base rulebook's end-of-game example (the same scoring the seed lists): 3 glory tokens
    and 3 quests solved, $11 in coins, $6 of upgraded items, 10 corruption tokens: $30 + $11 + $6
    + $20 = $67; with no quest solved the glory would score $15 instead of $30."""
    score = player_score(PlayerFigures(coins=11, quests=3, glory=3, upgraded=6, corruption=10))
    assert score.lines == {"coins": 11, "glory": 30, "upgraded": 6, "corruption": 20} and score.total == 67
    assert player_score(PlayerFigures(coins=11, quests=0, glory=3, upgraded=6, corruption=10)).lines["glory"] == 15


def test_automa_scores_its_tokens_at_the_progress_cards_values():
    s = game(level=3)
    at_progress(s, 23)
    s.automa_maps = 3
    s.automa_corruption = [Token(4, "orange"), Token(3, "turquoise"), LAIR_TOKEN]
    for pid in ("N1", "N2", "N3"):
        s.locations[pid].map_token = False
        s.locations[pid].face_up = True
        s.locations[pid].tile = {"N1": 18, "N2": 19, "N3": 20}[pid]
    coins = levels()[3].coins
    score = automa_score(valid(s))
    assert score.lines == {"glory": 8 * coins["glory"], "corruption": 3 * coins["corruption"], "map": 3 * coins["map"]}


def test_the_automa_wins_ties():
    p = player_score(PlayerFigures(coins=20, quests=0, glory=0, upgraded=0, corruption=0))
    a = player_score(PlayerFigures(coins=19, quests=0, glory=0, upgraded=0, corruption=0))
    b = player_score(PlayerFigures(coins=20, quests=0, glory=0, upgraded=0, corruption=0))
    assert winner(p, b) == "automa" and winner(p, a) == "player" and winner(a, p) == "automa"
