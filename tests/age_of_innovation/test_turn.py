"""The Automa's turn and its pass (seed 002, Tura Automy, Pasowanie)."""
from automa.age_of_innovation.data import cards, round_tiles, final_tiles
from automa.age_of_innovation.ops import apply_ops
from automa.age_of_innovation.turn import decide, pick_bonus_position
from automa.common.deck import Deck

from .scenario import later_turn, table

ROWS = ["PPPPP", "PPLPP", "PPPPP"]
BUILT = [((1, 0), "automa", "workshop", True), ((3, 2), "automa", "workshop"), ((0, 2), "player", "workshop")]


def play(state):
    d = decide(state)
    return d, apply_ops(state, d.ops)


def test_first_turn_draws_two_and_the_second_is_the_action_card():
    s = table(ROWS, BUILT)
    s.deck = Deck(draw_pile=[3, 6, 1, 2, 4, 5], seed=1, sideways=[4, 5])
    s.reserve = list(range(7, 15))
    d, after = play(s)
    # "Umieść drugą z nich na lewo od pierwszej": the second card drawn (6) is the action card
    assert d.to_dict()["cards"] == {"action": "*6", "support": "*3"}
    assert after.deck.discard == [3, 6]          # the support card under the action card
    assert after.automa.turns == 1


def test_later_turn_the_previous_action_card_becomes_the_support_card():
    s = later_turn(table(ROWS, BUILT), action=1, support=2, pile=(4, 5))
    d, after = play(s)
    assert d.to_dict()["cards"] == {"action": "*1", "support": "*2"}
    assert after.deck.discard == [2, 1] and after.deck.draw_pile == [4, 5]
    assert "card *2 (the previous action card) becomes the support card" in "\n".join(d.trace)


def test_one_action_card_per_turn():
    s = later_turn(table(ROWS, BUILT), action=1, support=2, pile=(4, 5, 6))
    for n in range(3):
        d, s = play(s)
        assert len(s.deck.discard) == 2 + n and d.action != "pass"


def test_exhausted_deck_means_pass_with_the_last_action_card_as_support():
    s = later_turn(table(ROWS, BUILT), action=1, support=2)
    _, s = play(s)                          # *1 played; the pile is now empty
    d, after = play(s)
    assert d.action == "pass" and after.automa.passed
    assert "the Automa deck is exhausted" in "\n".join(d.trace)
    # the support card is *1 (the last action card): its arrow points left
    assert cards()[1].support.bonus_tile == "left" and "arrow to the left tile" in "\n".join(d.trace)


def test_sideways_card_with_pass_icon_is_ignored_and_the_automa_passes():
    s = later_turn(table(ROWS, BUILT), action=2, support=6, pile=(1,), sideways=(2, 1))
    assert cards()[2].pass_icon
    d, after = play(s)
    assert d.action == "pass" and not any(op["op"] in ("build", "cover", "upgrade") for op in d.ops)
    assert "support card *6" in "\n".join(d.trace)     # the ignored *2 does not choose the tile


def test_sideways_card_without_pass_icon_is_played():
    s = later_turn(table(ROWS, BUILT), action=1, support=2, pile=(3,), sideways=(1, 3))
    assert not cards()[1].pass_icon
    d, _ = play(s)
    assert d.action != "pass" and "sideways but has no pass icon" in "\n".join(d.trace)


def test_pass_scores_the_round_tile_once_takes_the_arrows_tile_and_rebuilds_the_deck():
    s = later_turn(table(ROWS, BUILT, round=2), action=4, support=2, pile=(1, 3), sideways=(4, 1))
    s.bonus_line, s.automa.bonus_tile = [11, None, 12, 13, None], 14
    s.bonus_coins = {11: 1, 12: 2, 13: 1}
    tile = round_tiles()[s.round_tiles[1]]
    before = s.automa.vp
    d, after = play(s)
    assert d.action == "pass"
    vp_ops = [op for op in d.ops if op["op"] == "vp"]
    assert len(vp_ops) == 1 and after.automa.vp == before + tile.points[0]     # exactly once, rounds 1-3 side
    # *2's arrow: the middle of the 3 tiles left -> tile 12, its 2 coins back to the supply, 14 in its place
    assert after.automa.bonus_tile == 12 and after.bonus_line == [11, None, 14, 13, None]
    assert 12 not in after.bonus_coins and "returning its 2 coins" in d.instruction
    # every card of the round plus the top reserve card, shuffled, the bottom 2 sideways
    assert sorted(after.deck.draw_pile) == sorted([4, 2, 1, 3, s.reserve[0]]) and after.deck.discard == []
    assert after.deck.sideways == after.deck.draw_pile[-2:] and after.reserve == s.reserve[1:]
    assert after.pass_order == ["automa"]


def test_bonus_tile_arrow_example_middle():
    """Seed 002 example: the icon shows the Automa takes the middle round bonus tile."""
    assert cards()[2].support.bonus_tile == "middle"
    assert pick_bonus_position([0, 2, 3], "middle") == 2
    assert pick_bonus_position([0, 2, 3], "left") == 0 and pick_bonus_position([0, 2, 3], "right") == 3


def test_rounds_4_to_6_read_the_other_side_and_round_6_the_final_tile():
    s = later_turn(table(ROWS, BUILT, round=5), action=1, support=2)
    _, s = play(s)
    d, after = play(s)
    assert after.automa.vp - s.automa.vp == round_tiles()[s.round_tiles[4]].points[1]
    s6 = later_turn(table(ROWS, BUILT, round=6), action=1, support=2)
    _, s6 = play(s6)
    d6, after6 = play(s6)
    assert after6.automa.vp - s6.automa.vp == final_tiles()[s6.final_tile].points
    assert not any(op["op"] in ("bonus_tile", "rebuild_deck") for op in d6.ops)   # no tile, no new deck


def test_racelings_passing_first_score_the_tile_again():
    s = later_turn(table(ROWS, BUILT, faction="racelings", round=2), action=1, support=2)
    _, s = play(s)
    pts = round_tiles()[s.round_tiles[1]].points[0]
    d, after = play(s)
    assert after.automa.vp - s.automa.vp == 2 * pts
    s.pass_order = ["player"]
    s.players[0].passed = True
    d, after = play(s)
    assert after.automa.vp - s.automa.vp == pts


def test_round_end_and_turn_order():
    s = later_turn(table(ROWS, BUILT, round=2), action=1, support=2)
    s = apply_ops(s, [{"op": "cover", "what": "spells", "index": 1, "who": "player"}])
    _, s = play(s)
    _, s = play(s)                                              # the Automa passes first
    wait = decide(s)
    assert wait.action == "wait" and wait.ops == []
    s = apply_ops(s, [{"op": "pass", "who": "player"}])
    d, after = play(s)
    assert d.action == "round_end" and after.round == 3
    assert after.turn_order == ["automa", "player"]            # the first to pass plays first
    assert after.spells == [None] * 6 and not after.automa.passed and after.automa.turns == 0
    assert all(after.bonus_coins[t] == s.bonus_coins.get(t, 0) + 1 for t in after.bonus_line if t is not None)


def test_final_round_ends_with_the_final_scoring():
    s = later_turn(table(ROWS, BUILT, round=6), action=1, support=2)
    _, s = play(s)
    _, s = play(s)
    s = apply_ops(s, [{"op": "pass", "who": "player"}, {"op": "area", "who": "player", "size": 1}])
    d, after = play(s)
    assert d.action == "final_scoring" and after.phase == "over"
    assert decide(after).action == "none"


def test_without_the_automas_buildings_on_the_map_the_parameters_are_given():
    """Where the map is unknown the instruction still resolves every parameter that needs no map."""
    s = later_turn(table(["PPP"], [], terrain="lake", level=2, round=3), action=4, support=3, pile=(1,))
    d = decide(s)
    assert "within Reach (navigation 1) of the Automa's unmarked buildings, bringing marked and unmarked" \
           in d.instruction
    assert "terrain priority row B (lake, forest, swamp" in d.instruction and "left to right 3" in d.instruction
    assert d.to_dict()["support"]["bonus_tile"] == "right" and not any(op["op"] == "build" for op in d.ops)


def test_the_decision_names_the_actions_carried_out():
    """The decision's action is what the Automa did: an action whose condition fails is left
    out (card *6 in round 1: no innovation before round 3, so only the advance); Transform and
    Build without a workshop left is an Upgrade ("W innym przypadku wykona akcję Rozbudowy");
    with no eligible action the Automa does nothing ("Automa nie wykonuje żadnej akcji")."""
    d, _ = play(later_turn(table(ROWS, BUILT, round=1), action=6, support=2, pile=(4,)))
    assert d.action == "advance discipline"
    d, _ = play(later_turn(table(ROWS, BUILT, round=3), action=6, support=2, pile=(4,)))
    assert d.action == "gain innovation + advance discipline"
    full = [((c, r), "automa", "workshop") for r in range(3) for c in range(3)]
    d, after = play(later_turn(table(ROWS, full), action=4, support=2, pile=(1,)))
    assert d.action == "upgrade" and any(op["op"] == "upgrade" for op in d.ops)
    d, _ = play(later_turn(table(ROWS, BUILT), action=5, support=2, pile=(1,)))
    assert d.action == "faction action (transform and build + score points)"
    s = later_turn(table(ROWS, BUILT, level=1, round=1), action=2, support=6, pile=(4,))
    s.spells, s.books = ["player"] * 6, ["player"] * 3            # nothing to block, and X = 0 at level 1
    d, _ = play(s)
    assert d.action == "nothing" and "gives no eligible action" in d.instruction
